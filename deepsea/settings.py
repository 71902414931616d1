"""Settings for the deep-sea tournaments site, read from the environment.

The defaults are for a developer's machine: DEBUG on, a SQLite file in the project and no
message broker (Celery tasks then run eagerly in-process). Production sets the variables
listed in README.md ("Production settings"); with those, `manage.py check --deploy` is clean.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

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


def envfloat(name: str, default: float) -> float:
    """A number variable (decimals allowed)."""
    value = os.getenv(name, "").strip()
    if not value:
        return default
    try:
        return float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None


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
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "allauth",
    "allauth.account",
    "axes",
    "players",
    "tournaments",
    "games",
    # stats before ratings: their game_counted receivers run in this order (neither locks a
    # shared row: stats append cube deltas, ratings a pending row).
    "stats",
    "ratings",
    "accounts",
    "confirmations",
    "analysis",
    "notices",
    # The top layer: pages that span apps (home, a player's page, load_demo).
    "pages",
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
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "common.middleware.DatabaseOutageMiddleware",
    "common.errors.RefuseHostileRequests",
    # Last, as django-axes asks: it turns a locked-out sign-in into its lockout response.
    "axes.middleware.AxesMiddleware",
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
                "django.template.context_processors.csp",
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
# PostgreSQL's parallel helpers per query. None by default: a page's queries are short and a
# web server runs several at once, so the helpers only compete with the other requests for
# the same cores (at 1M games on two cores, the per-hex page with a date range took 38 ms
# with them and 25 ms without).
DATABASE_PARALLEL_WORKERS = envint("DATABASE_PARALLEL_WORKERS", 0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _parallel = f"-c max_parallel_workers_per_gather={DATABASE_PARALLEL_WORKERS}"
    _options["options"] = f"{_options.get('options', '')} {_parallel}".strip()
# A SQLite file is written by more than one process at once: `make run`'s worker beside the
# web server, and `manage.py load_demo` (run with no broker) beside both. Every process takes
# the write lock as its transaction begins (IMMEDIATE) and waits up to 30 s for it: a deferred
# transaction that read first and then writes is refused "database is locked" at once, without
# waiting, when another process wrote in between. WAL lets readers go on beside the writer.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=30, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL;"
    )

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

# Static files: whitenoise serves them from the web process, never a CDN. The front-end
# libraries come from the npm registry (package-lock.json, `make install`): Pico CSS and
# plotly.js's cartesian partial bundle (1.5 MB instead of the full 4.8 MB: the pages draw only
# scatter, bar, pie, heatmap and box traces), at the version of the plotly Python package's
# own plotly.js, which builds the figures.
STATIC_URL = "static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [
    BASE_DIR / "static",  # site-wide files: the favicon
    ("pico", BASE_DIR / "node_modules/@picocss/pico/css"),  # Pico CSS, from npm (make install)
    ("plotly", BASE_DIR / "node_modules/plotly.js-cartesian-dist-min"),  # from npm too
]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
# SERVE_COLLECTED_STATIC: serve what collectstatic gathered (hashed names, gzip and brotli
# copies, cached for a year) even with DEBUG on, as `make run` does; production (DEBUG off)
# always does. Otherwise (tests, plain runserver) files are read from the apps as they are.
SERVE_COLLECTED_STATIC = envbool("SERVE_COLLECTED_STATIC", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if SERVE_COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Fixed here rather than left to whitenoise, which would read DEBUG after test runners
# switch it off and then expect a collected STATIC_ROOT.
WHITENOISE_USE_FINDERS = not SERVE_COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = not SERVE_COLLECTED_STATIC

# Accounts (issue 11): django-allauth's pages in the site's layout (templates/account/).
# Sign in with the username or the e-mail address; an e-mail address is optional (players
# who give one are told by mail what waits for them).
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "confirmations:pending"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# A newcomer claims the name they play under first: nothing waits to confirm before that.
ACCOUNT_SIGNUP_REDIRECT_URL = "accounts:player"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# The login field is marked autocomplete="username" so password managers fill it.
ACCOUNT_FORMS = {"login": "accounts.forms.SignInForm"}
ACCOUNT_RATE_LIMITS = {"login_failed": None}  # failed sign-ins are django-axes' job (below)
# django-axes first: it refuses a locked-out account or address before any password check,
# for every sign-in (allauth's pages, the admin's, confirming at the table).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# Locked after AXES_FAILURE_LIMIT failures per account, and separately per address, for
# AXES_COOLOFF_HOURS; a successful sign-in clears the account's count.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = envint("AXES_COOLOFF_HOURS", 1)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "account/locked_out.html"  # answered with status 429
# The address is the peer's, or behind the TLS proxy the one it puts last in
# X-Forwarded-For: a header the client writes itself is never believed.
if envbool("BEHIND_TLS_PROXY", False):
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    AXES_IPWARE_PROXY_COUNT = 1
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

# E-mail (Django 6.1's MAILERS): printed on the console in development; SMTP when
# EMAIL_HOST is set, with the EMAIL_* variables of README's table.
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
if EMAIL_HOST:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_HOST,
                "port": envint("EMAIL_PORT", 587),
                "username": os.getenv("EMAIL_HOST_USER", ""),
                "password": os.getenv("EMAIL_HOST_PASSWORD", ""),
                "use_tls": envbool("EMAIL_USE_TLS", True),
                "timeout": 30,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
del EMAIL_HOST  # deprecated by MAILERS; kept out of the settings
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "deep-sea tournaments <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address as players reach it, for links in e-mails sent by workers (no request).
SITE_URL = os.getenv("SITE_URL", "http://localhost:8000")

# Confirmation (issue 11, confirmations/): a verified game naming claimed players other than
# its submitter counts once each has confirmed, or once GAMES_CONFIRMATION_WINDOW_HOURS have
# passed without a dispute (beat's job below counts those).
GAMES_REQUIRE_CONFIRMATION = envbool("GAMES_REQUIRE_CONFIRMATION", True)
GAMES_CONFIRMATION_WINDOW_HOURS = envint("GAMES_CONFIRMATION_WINDOW_HOURS", 48)

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
    # drf-spectacular, plus the error answers every operation can give (deepsea/openapi.py).
    "DEFAULT_SCHEMA_CLASS": "deepsea.openapi.SiteAutoSchema",
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
# Queues, in the order every worker serves them: a free worker takes the next message of the
# first queue that has one (kombu's "priority" order on Redis; the embedded broker takes them
# in turn, so there a message waits for at most one task of each other queue per worker).
# - interactive: the verification of a single log someone is waiting for (an upload, an API
#   upload, a recording: games.tasks.verify_log_task, deepsea.celery.route_task), so its
#   verdict comes within one batch part (intake.VERIFY_CHUNK logs) however long the batches'
#   queue; tests point it at a queue of their own.
# - periodic: Celery beat's, every GAMES_SWEEP_SECONDS: re-queue stranded game logs
#   (games/services/sweep.py), rate stranded pending games (ratings/tasks.py).
# - celery (the default): batches' reading and parts, the lab (analysis, simulations), the rest.
CELERY_INTERACTIVE_QUEUE = "interactive"
CELERY_TASK_QUEUES = {CELERY_INTERACTIVE_QUEUE: {}, "periodic": {}, "celery": {}}
CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] = "priority"
CELERY_TASK_ROUTES = (
    "deepsea.celery.route_task",
    {
        "games.tasks.sweep_stuck_logs_task": {"queue": "periodic"},
        "ratings.tasks.rate_stranded_games_task": {"queue": "periodic"},
        "confirmations.tasks.count_lapsed_games_task": {"queue": "periodic"},
        "stats.tasks.fold_deltas_task": {"queue": "periodic"},
    },
)
CELERY_BEAT_SCHEDULE = {
    name: {"task": task, "schedule": float(envint("GAMES_SWEEP_SECONDS", 15))}
    for name, task in [
        ("sweep-stuck-game-logs", "games.tasks.sweep_stuck_logs_task"),
        ("rate-stranded-games", "ratings.tasks.rate_stranded_games_task"),
    ]
} | {
    # Pending games whose confirmation window passed count (confirmations/services).
    "count-silently-confirmed-games": {
        "task": "confirmations.tasks.count_lapsed_games_task",
        "schedule": 300.0,
    },
    # Statistics deltas folded into the cubes (stats/services/aggregate.py): commits queue
    # this themselves; the beat only catches a fold lost to a broker outage.
    "fold-statistics-deltas": {"task": "stats.tasks.fold_deltas_task", "schedule": 30.0},
    # The day's notices, one e-mail per player who chose the daily digest (notices/services).
    "send-notice-digests": {
        "task": "notices.services.send_digests_task",
        "schedule": crontab(hour=7, minute=0),  # 07:00 UTC (Celery's clock)
    },
}

# The cache: rendered statistics and leaderboard fragments (common/cache.py), keyed by a
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
# ended without a verdict when verified alone. A worker verifying a log holds a lease on it for
# GAMES_LEASE_SECONDS, renewed as it goes; the sweep re-queues a log whose lease expired, or
# whose message the broker lost (GAMES_STUCK_AFTER_SECONDS after queueing when the broker
# cannot be asked which logs its messages carry).
GAMES_MAX_LOG_BYTES = envint("GAMES_MAX_LOG_BYTES", 1_000_000)
GAMES_MAX_UPLOAD_BYTES = envint("GAMES_MAX_UPLOAD_BYTES", 500_000_000)
GAMES_VERIFY_MAX_ATTEMPTS = envint("GAMES_VERIFY_MAX_ATTEMPTS", 3)
GAMES_STUCK_AFTER_SECONDS = envint("GAMES_STUCK_AFTER_SECONDS", 600)
GAMES_LEASE_SECONDS = envint("GAMES_LEASE_SECONDS", 20)
# A batch's body is stored in the database (games.models.BatchPiece) until a worker has read
# it, so workers on any machine need only the database and the broker: no shared disk.
MEDIA_ROOT = Path(os.getenv("MEDIA_ROOT") or BASE_DIR / "media")

# Content-Security-Policy: scripts and styles from this site only, inline ones only with the
# request's nonce (templates put {{ csp_nonce }} on them); no unsafe-inline anywhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    # Style attributes: only the two plotly.js sets itself, allowed by their hashes: "" (colour
    # bars) and its image-rendering test for heatmaps (templates/includes/plotly.html).
    "style-src-attr": [
        CSP.UNSAFE_HASHES,
        "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
        "'sha256-AR/cKIZjWPcPmBUPDA6oti9XBiTbJvz0Cro2J1VzzS8='",
    ],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Ratings (issue 6): Elo's K, before dividing by (table size - 1) (ratings/elo.py). Changing it
# changes every rating: run `manage.py recompute_ratings` afterwards.
RATINGS_ELO_K = envfloat("RATINGS_ELO_K", 32.0)

# Game analysis (issue 15): playouts per action until the win probability's standard error is
# at most ANALYSIS_TARGET_SE (0.03: +-0.06 at 95%), between the minimum and the maximum; each
# Celery task evaluates ANALYSIS_CHUNK_DECISIONS decision points (4: a game's decisions cost
# unevenly, and the smaller the chunks the more evenly two workers share the last of them).
ANALYSIS_BUDGET = {
    "target_se": envfloat("ANALYSIS_TARGET_SE", 0.03),
    "min_playouts": envint("ANALYSIS_MIN_PLAYOUTS", 32),
    "max_playouts": envint("ANALYSIS_MAX_PLAYOUTS", 400),
}
ANALYSIS_CHUNK_DECISIONS = envint("ANALYSIS_CHUNK_DECISIONS", 4)

# Everything goes to stderr (gunicorn and Celery collect it), Django's messages included:
# they reach the root handler instead of Django's own, which would print them twice.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
