"""Settings for the deep-sea tournaments site, read from the environment.

The defaults are for a developer's machine: DEBUG on, a SQLite file in the project and no
message broker (Celery tasks then run eagerly in-process). Production sets the variables
listed in README.md ("Production settings"); with those, `manage.py check --deploy` is clean.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def envbool(name: str, default: bool) -> bool:
    """A boolean variable: true/false, yes/no, on/off or 1/0, any case."""
    value = os.getenv(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={os.environ[name]!r} is not a boolean; use one of "
        f"{', '.join(sorted(TRUE_WORDS | FALSE_WORDS))}"
    )


def envint(name: str, default: int) -> int:
    """An integer variable."""
    value = os.getenv(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around items are dropped."""
    value = os.getenv(name, "").strip()
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)

SECRET_KEY = os.getenv("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key-never-used-in-production"

# With DEBUG on and this empty, Django accepts localhost, 127.0.0.1 and [::1].
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# HTTPS_ONLY: the site is reached only over HTTPS (directly or behind a TLS proxy that sets
# X-Forwarded-Proto). It turns on the redirect, secure cookies and HSTS that check --deploy wants.
HTTPS_ONLY = envbool("HTTPS_ONLY", False)
SECURE_SSL_REDIRECT = HTTPS_ONLY
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS_ONLY)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", HTTPS_ONLY)
if envbool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "django_htmx",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "games",
    # stats before ratings: their game_verified receivers run in this order, and ratings
    # holds a per-game-type lock until the commit, so it goes last.
    "stats",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "deepsea.urls"
WSGI_APPLICATION = "deepsea.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# PostgreSQL URLs (postgres://user:password@host:5432/name) use psycopg 3, the only driver
# installed. CONN_MAX_AGE (0: a connection per request or task) is worth setting for web and
# workers alike; health checks drop a connection that went stale while kept.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# Static files: whitenoise serves them from the web process. plotly.js comes from the plotly
# Python package (deepsea.staticfiles.PlotlyFinder), never from a CDN.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",  # site-wide files: the favicon
    ("pico", BASE_DIR / "node_modules/@picocss/pico/css"),  # Pico CSS, from npm (make install)
]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "deepsea.staticfiles.PlotlyFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Fixed here rather than left to whitenoise, which would read DEBUG after test runners
# switch it off and then expect a collected STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "admin:login"

# The API (games/api.py). Uploads are throttled per user (UPLOADS_PER_HOUR).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {"uploads": f"{envint('UPLOADS_PER_HOUR', 600)}/hour"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Deep-sea tournaments API",
    "DESCRIPTION": (
        "Submit game logs (one JSON log, or a JSON Lines batch), follow their verification "
        "and read verified games. Authenticate with a token (Authorization: Token KEY) or a "
        "session (then send the CSRF token with writes)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery. No broker configured means no worker either: tasks then run in-process when queued.
CELERY_BROKER_URL = os.getenv("CELERY_BROKER_URL") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks write their results to the database; nobody waits on Celery results.
CELERY_TASK_IGNORE_RESULT = True
# No lost work: a task is acknowledged only once it has finished, and a worker that dies
# mid-task hands the task back to the broker; each worker process reserves one task at a time.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 15 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 60
# Redis hands an unacknowledged task to another worker after this long, so it must exceed the
# longest task, or a slow task would run twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 2 * CELERY_TASK_TIME_LIMIT)
}
if CELERY_TASK_SOFT_TIME_LIMIT <= 0:
    raise ImproperlyConfigured("CELERY_TASK_TIME_LIMIT must be above 60 seconds")
if CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        "CELERY_VISIBILITY_TIMEOUT must exceed CELERY_TASK_TIME_LIMIT, "
        "or Redis would redeliver tasks that are still running"
    )
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# `make run` sets CELERY_BROKER_URL=filesystem://, an embedded broker that needs no server
# (kombu's filesystem transport: one file a message under .broker/), and starts a worker on it,
# so uploads answer at once and their progress is live, as in production. The web process and
# the worker then share a file cache (stats versions) and SQLite in WAL mode, where readers
# never wait for the worker's writes.
EMBEDDED_BROKER = (CELERY_BROKER_URL or "").startswith("filesystem://")
if EMBEDDED_BROKER:
    EMBEDDED_BROKER_DIR = Path(os.getenv("EMBEDDED_BROKER_DIR", BASE_DIR / ".broker"))
    for folder in ("queue", "control", "cache"):
        (EMBEDDED_BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS.update(
        data_folder_in=str(EMBEDDED_BROKER_DIR / "queue"),
        data_folder_out=str(EMBEDDED_BROKER_DIR / "queue"),
        control_folder=str(EMBEDDED_BROKER_DIR / "control"),
    )
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            timeout=30, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL;"
        )
# Celery beat: re-queue game logs stuck in queued/verifying (games/services/sweep.py).
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-game-logs": {"task": "games.tasks.sweep_stuck_logs_task", "schedule": 300.0}
}

# The cache: rendered statistics and leaderboard fragments (stats/cache.py), keyed by a
# version that verified games bump. Redis when REDIS_CACHE_URL (or else CELERY_BROKER_URL) is a
# redis:// URL, so every web and worker process sees one version; otherwise local memory, which
# is per process and fits a single-process development server only.
REDIS_CACHE_URL = os.getenv("REDIS_CACHE_URL") or CELERY_BROKER_URL or ""
if REDIS_CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "KEY_PREFIX": "deepsea",
        }
    }
elif EMBEDDED_BROKER:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(EMBEDDED_BROKER_DIR / "cache"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Game log intake (issue 5). A single log in a request body is at most GAMES_MAX_LOG_BYTES;
# batches go in as .jsonl files (streamed to disk, read line by line) of at most
# GAMES_MAX_UPLOAD_BYTES. A log is given up (status "error") after this many attempts that
# ended without a verdict, and the sweep re-queues logs untouched for GAMES_STUCK_AFTER_SECONDS.
GAMES_MAX_LOG_BYTES = envint("GAMES_MAX_LOG_BYTES", 1_000_000)
GAMES_MAX_UPLOAD_BYTES = envint("GAMES_MAX_UPLOAD_BYTES", 500_000_000)
GAMES_VERIFY_MAX_ATTEMPTS = envint("GAMES_VERIFY_MAX_ATTEMPTS", 3)
GAMES_STUCK_AFTER_SECONDS = envint("GAMES_STUCK_AFTER_SECONDS", 600)

# Everything goes to stderr (gunicorn and Celery collect it), Django's messages included:
# they reach the root handler instead of Django's own, which would print them twice.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
