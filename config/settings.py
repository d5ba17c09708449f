"""Settings for the 3D Four in a Row server, driven by environment variables only.

With nothing set the server runs embedded: a SQLite file beside the project, the in-memory channel
layer (one process) and a development secret key. ``DATABASE_URL`` switches to PostgreSQL and
``REDIS_URL`` to the channels-redis layer, so that several processes can serve one room together.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_float, env_int, env_networks

# Django's generic classes take type arguments at run time too (``admin.ModelAdmin[Game]``), as django-stubs has.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_DEV_SECRET = "dev-insecure-secret-change-me-3d-four-in-a-row"


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET
USING_DEV_SECRET = SECRET_KEY == _DEV_SECRET
if USING_DEV_SECRET and not DEBUG:
    print("WARNING: SECRET_KEY is not set; using the development secret. Set SECRET_KEY in production.",
          file=sys.stderr)

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
                 if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "common",  # no models: its catalogs (common.translation)
    "live",  # no models: the live platform's delivery (live.apps) and its catalogs
    "players",
    "ratings",
    "notifications",
    "games",
    "lobby",
    "tournaments",
    "puzzles",
    "arcade",
    "bots",
    "study",
    "mail",
    "accounts",
    "moderation",
    "correspondence",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.inputs.input_check",  # a bad path, query or form body: 400 before anything reads it
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.language.language_middleware",  # the request's language (players.language), activated
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "moderation.middleware.WarningMiddleware",  # a warned player's next page is the warning
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.api.RefusalMiddleware",  # a refusal raised by a view outside DRF: the API's one body
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
# PostgreSQL connections: "persistent" (default) keeps each database thread's connection open
# (CONN_MAX_AGE=None, with a health check before each use, so a restarted database costs no failed
# call): the DB_THREADS threads of the websockets and the ticker hold one each, and so do the
# HTTP_THREADS threads that serve HTTP requests (config.http). "pool" uses Django's psycopg pool per process
# (DB_POOL_SIZE); "none" opens one per database call. docs/benchmarks.md compares them.
DB_CONNECTIONS = os.environ.get("DB_CONNECTIONS", "persistent").strip() or "persistent"
if DB_CONNECTIONS not in {"pool", "persistent", "none"}:
    raise ValueError(f"DB_CONNECTIONS must be pool, persistent or none, not {DB_CONNECTIONS!r}")
if DATABASE_URL:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=None if DB_CONNECTIONS == "persistent" else 0,
                                conn_health_checks=DB_CONNECTIONS == "persistent")
    if _db["ENGINE"] == "django.db.backends.postgresql":
        _db["ENGINE"] = "config.postgres"  # the same, checking a kept connection without a round trip
    if DB_CONNECTIONS == "pool" and _db["ENGINE"] == "config.postgres":
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": env_int("DB_POOL_SIZE", 12),
            "timeout": 10,  # seconds a thread waits for a free connection before the call fails
        }
    DATABASES = {"default": _db}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # One process writes this file from several threads at once (each HTTP request has its
            # own thread and connection, the websockets share another): writers must queue, not fail.
            # - IMMEDIATE: a transaction takes the write lock as it begins. A deferred one (SQLite's
            #   default) reads first and asks for the lock at its first write; if another writer got
            #   in between, SQLite answers "database is locked" at once, since waiting could deadlock.
            # - timeout: seconds a writer waits for the lock (the busy timeout) before failing.
            # - WAL: readers and the writer never wait for each other. synchronous=NORMAL is safe
            #   with WAL (a power cut may lose the last commits, never corrupt the file) and saves
            #   an fsync per commit.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
            # Kept open: the websockets' thread would otherwise reconnect for every call, and in WAL
            # mode the last connection to close checkpoints and deletes the log. HTTP requests, one
            # thread each, close theirs as they end (config.asgi).
            "CONN_MAX_AGE": None,
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The lanes that take database work off the event loop (live/offload.py). DB_THREADS: the
# websockets', the ticker's and the lobby feed's work: one on SQLite, whose writers queue for the file
# lock anyway; on PostgreSQL several transactions run at once. PAIRING_THREADS: the seek pool's short
# transactions on PostgreSQL, apart so that they never queue behind the rest (SQLite: the one thread).
DB_THREADS = env_int("DB_THREADS", 4 if DATABASE_URL else 1)
PAIRING_THREADS = env_int("PAIRING_THREADS", 4)
# HTTP requests: the threads their sync code runs on (config.http), each keeping its PostgreSQL connection.
HTTP_THREADS = env_int("HTTP_THREADS", 4)

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # Redis pub/sub: a group send is one PUBLISH that each process hands to its own sockets; when the
    # subscription to Redis breaks, every socket's receive fails, so that the room sockets close with
    # 4503 and the pages resync (config.channel_layer).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.PubSubLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": os.environ.get("CHANNEL_PREFIX", "asgi")},
        }
    }
    # Shared by every process: login attempt limits hold across them.
    # config.cache: Django's, its Redis connections kept by the process, not made again for each request.
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": os.environ.get("CHANNEL_PREFIX", "asgi") + "-cache"}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.local_layer.LocalLayer"}}

SESSION_ENGINE = "config.sessions"  # Django's database sessions, their statements written once
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365 * 2  # the device is the player: keep it for two years
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's own hashers (PBKDF2 first, 0.3 s of CPU a hash by design), unless PASSWORD_HASHERS names others
# (dotted paths, comma-separated, the first one hashing): the test suite's servers hash with MD5
# (tests/livekit.py), as its own process does (tests/conftest.py).
PASSWORD_HASHERS = [h.strip() for h in os.environ.get("PASSWORD_HASHERS", "").split(",") if h.strip()] or [
    *global_settings.PASSWORD_HASHERS
]

# The site's languages (docs/translating.md): English is the source (no catalog); each app keeps its
# catalogs in <app>/locale/<lang>/LC_MESSAGES/ (the pages' JavaScript: frontend's djangojs.po). Who reads
# which: players.language (the player's preference, else the language cookie, else Accept-Language).
# The names are in their own language, as the footer's switcher shows them.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")]
# The apps' catalogs, listed here so that they outrank Django's own (Django merges every catalog of a
# language into one, the app listed first in INSTALLED_APPS winning a text two have: the admin's German
# "Home" is "Start", the site's "Startseite"). They stay where they are, each app's own. config is no app
# but has texts of its own (the body, form and outage refusals of config.api, config.inputs, ...): its
# catalog, config/locale, is listed after the apps'.
LOCALE_PATHS = [BASE_DIR / app / "locale" for app in [*INSTALLED_APPS, "config"]
                if (BASE_DIR / app / "locale").is_dir()]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# Only needed for `collectstatic` in a deployment; WhiteNoise serves from the finders otherwise.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
# three.js comes from npm (frontend/node_modules, installed by `npm ci`), served as /static/three/...
_THREE_DIR = BASE_DIR / "frontend" / "node_modules" / "three"
STATICFILES_DIRS = [("three", _THREE_DIR)] if _THREE_DIR.exists() else []
# WhiteNoise serves static files from the finders, so no collectstatic step is needed to run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["players.auth.DeviceSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON only, bounded in size and nesting before it is parsed (see config.parsers).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.BoundedJSONParser"],
    # Every error body is {"code", "message"}; a body Django refuses is a 4xx, not a 500.
    "EXCEPTION_HANDLER": "config.api.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "config.openapi.ApiSchema",  # drf-spectacular's, with the one error body
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "3D Four in a Row API",
    "DESCRIPTION": "Rooms, games, sessions and ratings for the 3D Four in a Row server.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The colour a challenger asks for (random too), apart from a game's red or yellow.
    "ENUM_NAME_OVERRIDES": {"ChallengeColourEnum": "bots.models.ColourChoice", "GameColourEnum": ["red", "yellow"],
                            "RecordResultEnum": "study.recordfile.RESULTS", "GameResultEnum": "study.games.RESULTS",
                            "PuzzleResultEnum": ["continue", "solved", "failed"]},
}

# LOG_FORMAT=json: one JSON object per line (config/logformat.py); the default is readable text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or "text"
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "config.logformat.TextFormatter"},
        "json": {"()": "config.logformat.JsonFormatter"},
    },
    # A refused request (4xx) is one line: no traceback for what the server handled (config.logfilters).
    "filters": {"one_line_refusals": {"()": "config.logfilters.OneLineRefusals"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["one_line_refusals"]}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}


# GET /metrics: open to anyone who reaches the process unless one of these is set (config/metrics.py).
METRICS_ALLOWED_ADDRESSES = env_networks("METRICS_ALLOWED_ADDRESSES")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()

# --- game settings ---------------------------------------------------------------------------------
# Seconds a disconnected seat may stay away on its turn before the CPU stands in.
DISCONNECT_GRACE_SECONDS = env_float("DISCONNECT_GRACE_SECONDS", 20.0)
# The garbage collector's thresholds (``gc.set_threshold``), set once start-up is done (config/asgi.py).
GC_THRESHOLDS = tuple(int(x) for x in os.environ.get("GC_THRESHOLDS", "50000,20,100").split(","))
# A connection that has not pinged for this long counts as gone.
PING_TIMEOUT_SECONDS = env_float("PING_TIMEOUT_SECONDS", 30.0)
# Multiplies every turn timer: a turn of 30 s runs out after 30 * TURN_TIME_SCALE s (the live tests' are short).
TURN_TIME_SCALE = env_float("TURN_TIME_SCALE", 1.0)
# A correspondence day in seconds (a move is due days_per_move days after the opponent's; tests play seconds).
CORRESPONDENCE_DAY_SECONDS = env_float("CORRESPONDENCE_DAY_SECONDS", 86400.0)
# Worker processes that compute CPU moves (0: a thread); CPU_TIME_SCALE multiplies every CPU budget (tests: quick).
CPU_WORKERS = env_int("CPU_WORKERS", 1)
CPU_TIME_SCALE = env_float("CPU_TIME_SCALE", 1.0)
# Post-game analysis (docs/analysis.md; its own low-priority worker): proof nodes a position and wall seconds a
# game, both times CPU_TIME_SCALE; CPU seconds of the whole, not scaled (over it: none; 0: this process computes
# none); started only while this process uses less than ANALYSIS_BUSY_SHARE of a core (0: whatever it uses).
ANALYSIS_NODE_BUDGET = env_int("ANALYSIS_NODE_BUDGET", 150000)
ANALYSIS_TIME_BUDGET_S = env_float("ANALYSIS_TIME_BUDGET_S", 20.0)
ANALYSIS_CPU_BUDGET_S = env_float("ANALYSIS_CPU_BUDGET_S", 60.0)
ANALYSIS_BUSY_SHARE = env_float("ANALYSIS_BUSY_SHARE", 0.25)
# The analysis board (docs/records.md): CPU milliseconds one answer may spend (a request may ask up to
# ANALYSIS_BOARD_MAX_MS), and requests per client address a minute.
ANALYSIS_BOARD_BUDGET_MS = env_int("ANALYSIS_BOARD_BUDGET_MS", 300)
ANALYSIS_BOARD_MAX_MS = env_int("ANALYSIS_BOARD_MAX_MS", 3000)
ANALYSIS_BOARD_PER_MINUTE = env_int("ANALYSIS_BOARD_PER_MINUTE", 120)
# The analysis board's lane per process (games.cpu_pool): answers computed at once, answers waiting (README).
ANALYSIS_BOARD_WORKERS = env_int("ANALYSIS_BOARD_WORKERS", 1)
ANALYSIS_BOARD_QUEUE = env_int("ANALYSIS_BOARD_QUEUE", 2)
# Rooms idle this long are closed by `manage.py close_idle_rooms`.
ROOM_IDLE_HOURS = env_float("ROOM_IDLE_HOURS", 24.0)
# A closed room's chat is kept this many days, then deleted (each process's ticker, hourly; or
# `manage.py delete_old_chat`).
CHAT_RETENTION_DAYS = env_float("CHAT_RETENTION_DAYS", 30.0)

# --- request limits of the REST API ----------------------------------------------------------------
# Every JSON body: at most this many bytes and nested at most this deep (config.parsers); the largest
# real body (credentials, house rules) is about 100 bytes. Django's own DATA_UPLOAD_MAX_MEMORY_SIZE
# (2.5 MB, for every request, the admin's forms too) stays the outer bound of what is read at all.
API_MAX_BODY_BYTES = 16 * 1024
API_MAX_JSON_DEPTH = 16
# Quotas no person meets, against scripts: rooms created per player (device) and per client address
# in an hour; room look-ups (GET /api/rooms/{code}) per address in a minute. Counted in the cache, so
# with REDIS_URL they hold across processes. Tests and load benchmarks raise them.
ROOMS_PER_HOUR_PER_DEVICE = env_int("ROOMS_PER_HOUR_PER_DEVICE", 30)
ROOMS_PER_HOUR_PER_ADDRESS = env_int("ROOMS_PER_HOUR_PER_ADDRESS", 120)
ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS = env_int("ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS", 120)
# Challenges (bots.challenges) per challenger and per address in an hour, and waiting in one inbox at once;
# an accepted challenge counts against the room quotas above too.
CHALLENGES_PER_HOUR_PER_PLAYER = env_int("CHALLENGES_PER_HOUR_PER_PLAYER", 60)
CHALLENGES_PER_HOUR_PER_ADDRESS = env_int("CHALLENGES_PER_HOUR_PER_ADDRESS", 300)
# Correspondence seeks per player and per client address in an hour (correspondence.limits; README).
SEEKS_PER_HOUR_PER_PLAYER = env_int("SEEKS_PER_HOUR_PER_PLAYER", 30)
SEEKS_PER_HOUR_PER_ADDRESS = env_int("SEEKS_PER_HOUR_PER_ADDRESS", 120)
CHALLENGES_WAITING_PER_PLAYER = env_int("CHALLENGES_WAITING_PER_PLAYER", 50)
# Registrations per client address (refused ones too): a burst limit and a daily one (README's table).
REGISTRATIONS_PER_MINUTE_PER_ADDRESS = env_int("REGISTRATIONS_PER_MINUTE_PER_ADDRESS", 5)
REGISTRATIONS_PER_DAY_PER_ADDRESS = env_int("REGISTRATIONS_PER_DAY_PER_ADDRESS", 300)
# Guests made and arena joins, pauses and withdrawals per client address (README; test servers raise them).
GUESTS_PER_HOUR_PER_ADDRESS = env_int("GUESTS_PER_HOUR_PER_ADDRESS", 120)
ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS = env_int("ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS", 120)
# "Play online": how often a pairing wave runs (across all processes), and how long a seek may wait.
PAIRING_WAVE_SECONDS = env_float("PAIRING_WAVE_SECONDS", 2.0)
SEEK_MAX_WAIT_SECONDS = env_float("SEEK_MAX_WAIT_SECONDS", 120.0)
# Arenas (tournaments/): how often each arena pairs its free players, and arenas an account creates a day.
ARENA_WAVE_SECONDS = env_float("ARENA_WAVE_SECONDS", 2.0)
ARENAS_PER_DAY_PER_ACCOUNT = env_int("ARENAS_PER_DAY_PER_ACCOUNT", 3)
# The arcade (docs/arcade.md): a classic run's move cap, runs started an hour, steps a second per run.
ARCADE_CLASSIC_MOVE_CAP = env_int("ARCADE_CLASSIC_MOVE_CAP", 20000)
ARCADE_RUNS_PER_HOUR_PER_PLAYER = env_int("ARCADE_RUNS_PER_HOUR_PER_PLAYER", 120)
ARCADE_RUNS_PER_HOUR_PER_ADDRESS = env_int("ARCADE_RUNS_PER_HOUR_PER_ADDRESS", 600)
ARCADE_MOVES_PER_SECOND_PER_RUN = env_int("ARCADE_MOVES_PER_SECOND_PER_RUN", 30)
# A challenge not answered this long expires (its challenger is told; it no longer counts as open).
CHALLENGE_TTL_SECONDS = env_float("CHALLENGE_TTL_SECONDS", 1200.0)

# --- email (accounts/, mail/) ----------------------------------------------------------------------
# Django's own settings; with no EMAIL_HOST the console backend prints each email, so nothing needs a mail
# server to run. Emails go out from the outbox (mail/outbox.py), never from a request.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_float("EMAIL_TIMEOUT", 10.0)
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "3D Four in a Row <noreply@localhost>"
# The site's address as people reach it, for the links in emails.
SITE_URL = os.environ.get("SITE_URL", "").strip() or "http://127.0.0.1:8000"
# An email that could not be sent waits this long, doubled after each failure (at most an hour), and is
# given up EMAIL_GIVE_UP_HOURS after it was queued.
EMAIL_RETRY_SECONDS = env_float("EMAIL_RETRY_SECONDS", 30.0)
EMAIL_GIVE_UP_HOURS = env_float("EMAIL_GIVE_UP_HOURS", 24.0)
# A password reset link is valid a day (Django's setting, read by its token generator).
PASSWORD_RESET_TIMEOUT = 24 * 3600
# Against scripts mailing strangers: confirmation emails per account and client address in a day, reset
# requests per name asked for (existing or not) and per client address in an hour.
EMAIL_CONFIRMATIONS_PER_DAY_PER_ACCOUNT = env_int("EMAIL_CONFIRMATIONS_PER_DAY_PER_ACCOUNT", 5)
EMAIL_CONFIRMATIONS_PER_DAY_PER_ADDRESS = env_int("EMAIL_CONFIRMATIONS_PER_DAY_PER_ADDRESS", 20)
PASSWORD_RESETS_PER_HOUR_PER_ACCOUNT = env_int("PASSWORD_RESETS_PER_HOUR_PER_ACCOUNT", 3)
PASSWORD_RESETS_PER_HOUR_PER_ADDRESS = env_int("PASSWORD_RESETS_PER_HOUR_PER_ADDRESS", 10)
REPORTS_PER_DAY = env_int("REPORTS_PER_DAY", 10)  # per player (device), and per address: moderation/
REPORTS_PER_DAY_PER_ADDRESS = env_int("REPORTS_PER_DAY_PER_ADDRESS", 20)
# The bots' NDJSON streams open at once (bots.limits, docs/bots.md): per account (event and game streams,
# counted in the cache across processes) and per server process, all accounts together.
BOT_EVENT_STREAMS_PER_ACCOUNT = env_int("BOT_EVENT_STREAMS_PER_ACCOUNT", 3)
BOT_GAME_STREAMS_PER_ACCOUNT = env_int("BOT_GAME_STREAMS_PER_ACCOUNT", 16)
BOT_STREAMS_PER_PROCESS = env_int("BOT_STREAMS_PER_PROCESS", 300)
