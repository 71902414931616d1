"""Settings come from the environment; bad values are refused; production passes check --deploy."""

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

import deepsea.settings

SETTINGS_FILE = deepsea.settings.__file__
PROJECT_DIR = Path(SETTINGS_FILE).resolve().parent.parent
# Every variable settings.py reads, found in its source so that a new one can't leak from the
# developer's or CI's environment into these tests (REDIS_CACHE_URL once did); DATABASE_URL
# is read by dj_database_url.
SETTINGS_VARIABLES = sorted(
    {
        "DATABASE_URL",
        *re.findall(
            r'(?:getenv|envbool|envint|envfloat|envlist)\(\s*"([A-Z_]+)"',
            Path(SETTINGS_FILE).read_text(),
        ),
    }
)
PRODUCTION_ENVIRONMENT = {
    "DEBUG": "False",
    "SECRET_KEY": "p7Vq-3nX!fz0Lr8Kc2Wm#Yt5Bh9Jd4Gs6Ne1Ua*Qo_Zi+Xk0Rv^Ml",
    "ALLOWED_HOSTS": "deepsea.example.org",
    "HTTPS_ONLY": "True",
    "DATABASE_URL": "postgres://deepsea:secret@db.example.org:5432/deepsea",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
    "EMAIL_HOST": "smtp.example.org",
}


def load_settings(monkeypatch: pytest.MonkeyPatch, **environment: str) -> dict:
    """Run settings.py afresh with only these variables set."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(SETTINGS_FILE)


def test_defaults_are_a_sqlite_file_in_the_project_and_eager_celery(monkeypatch):
    settings = load_settings(monkeypatch)

    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(database["NAME"]) == PROJECT_DIR / "db.sqlite3"
    assert settings["CELERY_BROKER_URL"] is None
    assert settings["CELERY_TASK_ALWAYS_EAGER"] is True
    assert settings["DEBUG"] is True


def test_postgres_database_url_selects_the_postgresql_backend(monkeypatch):
    settings = load_settings(monkeypatch, DATABASE_URL="postgres://ann:pw@db.example:6543/sea")

    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.example", 6543, "sea")
    assert (database["USER"], database["PASSWORD"]) == ("ann", "pw")


def test_postgresql_connections_run_without_parallel_helpers_unless_set(monkeypatch):
    url = "postgres://ann:pw@db.example:6543/sea"

    default = load_settings(monkeypatch, DATABASE_URL=url)["DATABASES"]["default"]
    four = load_settings(monkeypatch, DATABASE_URL=url, DATABASE_PARALLEL_WORKERS="4")
    sqlite = load_settings(monkeypatch)["DATABASES"]["default"]

    assert default["OPTIONS"]["options"] == "-c max_parallel_workers_per_gather=0"
    assert four["DATABASES"]["default"]["OPTIONS"]["options"].endswith("_per_gather=4")
    assert "options" not in sqlite.get("OPTIONS", {})


def test_a_broker_url_turns_off_eager_tasks(monkeypatch):
    settings = load_settings(monkeypatch, CELERY_BROKER_URL="redis://127.0.0.1:6379/3")

    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/3"
    assert settings["CELERY_TASK_ALWAYS_EAGER"] is False


def test_celery_is_configured_not_to_lose_work(monkeypatch):
    settings = load_settings(monkeypatch, CELERY_TASK_TIME_LIMIT="600")

    assert settings["CELERY_ACCEPT_CONTENT"] == ["json"]
    assert settings["CELERY_TASK_SERIALIZER"] == "json"
    assert settings["CELERY_TASK_ACKS_LATE"] is True
    assert settings["CELERY_TASK_REJECT_ON_WORKER_LOST"] is True
    assert settings["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1
    assert settings["CELERY_TASK_SOFT_TIME_LIMIT"] < settings["CELERY_TASK_TIME_LIMIT"] == 600
    assert settings["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] > 600


def test_visibility_timeout_not_above_the_time_limit_is_refused(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="CELERY_VISIBILITY_TIMEOUT"):
        load_settings(monkeypatch, CELERY_TASK_TIME_LIMIT="600", CELERY_VISIBILITY_TIMEOUT="600")


@pytest.mark.parametrize(("text", "expected"), [("False", False), ("no", False), ("1", True)])
def test_debug_reads_common_boolean_words(monkeypatch, text, expected):
    settings = load_settings(monkeypatch, DEBUG=text, SECRET_KEY="x" * 50)

    assert settings["DEBUG"] is expected


def test_a_boolean_that_is_not_a_boolean_names_the_variable(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG='maybe' is not a boolean"):
        load_settings(monkeypatch, DEBUG="maybe")


def test_an_integer_that_is_not_an_integer_names_the_variable(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"CONN_MAX_AGE='a minute' is not an integer"):
        load_settings(monkeypatch, CONN_MAX_AGE="a minute")


def test_elo_k_is_32_unless_set_and_may_have_decimals(monkeypatch):
    assert load_settings(monkeypatch)["RATINGS_ELO_K"] == 32.0
    assert load_settings(monkeypatch, RATINGS_ELO_K="24.5")["RATINGS_ELO_K"] == 24.5


def test_an_elo_k_that_is_not_a_number_names_the_variable(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"RATINGS_ELO_K='high' is not a number"):
        load_settings(monkeypatch, RATINGS_ELO_K="high")


def test_production_without_a_secret_key_is_refused(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        load_settings(monkeypatch, DEBUG="False")


def test_allowed_hosts_is_a_comma_separated_list(monkeypatch):
    settings = load_settings(monkeypatch, ALLOWED_HOSTS=" sea.example, www.sea.example ,")

    assert settings["ALLOWED_HOSTS"] == ["sea.example", "www.sea.example"]


def check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(environment)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_variables_pass_check_deploy_without_warnings():
    result = check_deploy(PRODUCTION_ENVIRONMENT)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stderr + result.stdout


def test_production_served_over_plain_http_is_flagged_by_check_deploy():
    result = check_deploy({**PRODUCTION_ENVIRONMENT, "HTTPS_ONLY": "False"})

    assert result.returncode != 0
    assert "security.W008" in result.stderr  # SECURE_SSL_REDIRECT


def test_mail_goes_to_the_console_without_email_host_and_to_smtp_with_it(monkeypatch):
    development = load_settings(monkeypatch)
    production = load_settings(
        monkeypatch,
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="2525",
        EMAIL_HOST_USER="sea",
        EMAIL_HOST_PASSWORD="pw",
        EMAIL_USE_TLS="no",
    )

    assert development["MAILERS"]["default"]["BACKEND"].endswith("console.EmailBackend")
    smtp = production["MAILERS"]["default"]
    assert smtp["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert smtp["OPTIONS"] | {"timeout": None} == {
        "host": "smtp.example.org",
        "port": 2525,
        "username": "sea",
        "password": "pw",
        "use_tls": False,
        "timeout": None,
    }


def test_the_readme_documents_every_variable_the_settings_read():
    source = Path(SETTINGS_FILE).read_text()
    read = set(re.findall(r"""(?:env\w*|os\.getenv)\(\s*["']([A-Z][A-Z0-9_]+)["']""", source))
    readme = (PROJECT_DIR / "README.md").read_text()

    assert "RATINGS_ELO_K" in read
    assert {name for name in read if f"`{name}`" not in readme} == set()
