"""docker/compose.yaml takes every password from docker/.env, none written in it, stops with
a clear message when one is missing, and its defaults pass `manage.py check --deploy`.

There is no Docker daemon here: the file is parsed and interpolated as compose does (the
`${VAR}`, `${VAR:-default}` and `${VAR:?message}` forms, nested), and the web service's
environment is handed to manage.py in a subprocess.
"""

import itertools
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"
EXAMPLE = ROOT / "docker" / "env.example"
# The innermost ${...}: no nested ${ inside it.
VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^${}]*))?\}")
SECRET_NAME = re.compile(r"PASSWORD|SECRET", re.IGNORECASE)
CREDENTIALS = re.compile(r"://[^/:@\s]*:([^@\s]+)@")


class MissingVariable(Exception):
    pass


def interpolate(value: str, env: dict[str, str]) -> str:
    """What compose makes of a value, given the variables of docker/.env."""

    def one(match: re.Match) -> str:
        name, operator, argument = match.groups()
        present = env.get(name)
        if operator in (":-", ":?") and not present:
            present = None
        if present is not None:
            return present
        if operator and operator.endswith("?"):
            raise MissingVariable(argument or f"{name} is required")
        return argument or "" if operator else ""

    previous = None
    while previous != value:
        previous, value = value, VARIABLE.sub(one, value)
    return value.replace("$$", "$")


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def strings(node, path=()):
    """(path, string) for every string in the file, keys of mappings included in the path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from strings(value, (*path, str(index)))
    elif isinstance(node, str):
        yield path, node


def dotenv() -> dict[str, str]:
    """A docker/.env as a deployment writes it: env.example's names, random values."""
    names = re.findall(r"^(\w+)=", EXAMPLE.read_text(), re.MULTILINE)
    values = {name: secrets.token_urlsafe(50) for name in names}
    values.update(ALLOWED_HOSTS="sea.example.org", CSRF_TRUSTED_ORIGINS="https://sea.example.org")
    return values


def web_environment(env: dict[str, str]) -> dict[str, str]:
    return {
        name: interpolate(str(value), env)
        for name, value in compose()["services"]["web"]["environment"].items()
    }


def test_no_password_is_written_in_the_compose_file():
    for path, value in strings(compose()):
        if SECRET_NAME.search(path[-1]):
            assert re.fullmatch(r"\$\{\w+:\?[^}]+\}", value), f"{'.'.join(path)} = {value!r}"
        for password in CREDENTIALS.findall(value):
            assert password.startswith("${") and ":?" in password, f"{'.'.join(path)}: {value!r}"
    for name, service in compose()["services"].items():
        command = service.get("command", [])
        for flag, value in itertools.pairwise(command):
            if flag == "--requirepass":
                assert re.fullmatch(r"\$\{\w+:\?[^}]+\}", value), f"{name}: {value!r}"


def test_every_password_the_stack_uses_is_taken_from_docker_env():
    env = dotenv()

    web = web_environment(env)

    assert web["SECRET_KEY"] == env["SECRET_KEY"]
    assert f":{env['POSTGRES_PASSWORD']}@db:5432/" in web["DATABASE_URL"]
    assert f":{env['REDIS_PASSWORD']}@redis:6379/" in web["CELERY_BROKER_URL"]
    database = compose()["services"]["db"]["environment"]
    assert interpolate(database["POSTGRES_PASSWORD"], env) == env["POSTGRES_PASSWORD"]
    redis_command = [interpolate(part, env) for part in compose()["services"]["redis"]["command"]]
    assert redis_command[-2:] == ["--requirepass", env["REDIS_PASSWORD"]]


@pytest.mark.parametrize("missing", ["SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"])
def test_a_password_missing_from_docker_env_stops_compose_with_a_message_naming_it(missing):
    env = dotenv()
    del env[missing]

    with pytest.raises(MissingVariable, match=missing):
        web_environment(env)


def test_the_web_services_default_environment_passes_check_deploy():
    keep = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}

    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**keep, **web_environment(dotenv())},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout
