"""Where the records live, as a user chooses it: the URL typed in the window's preferences, checked
before it is kept, and whether the environment overrides it.

The setting is a plain text file a referee may copy or show to someone: a password never goes
into it. The secrets of a PostgreSQL server come from libpq's own places (the service file, the
password file, the PG* environment variables), which every PostgreSQL tool already reads.
"""
from __future__ import annotations

import os
import sys
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from referee_app.core.errors import BadInput

ENV_VAR = "CARROM_REFEREE_DATABASE"   # a URL, or the path of an SQLite file
# The name the SQLite file once had: still read, when ENV_VAR is not set, with a note saying so.
OLD_ENV_VAR = "CARROM_REFEREE_DB"
FIELD = "database_url"
SCHEMES = ("sqlite", "postgresql", "postgresql+psycopg")
SECRETS_ADVICE = ("a password never goes into the settings: put it in libpq's password file (PGPASSFILE, "
                  "~/.pgpass), in a service of the service file (PGSERVICEFILE, ~/.pg_service.conf, then "
                  "postgresql:///?service=NAME), or in the PG* environment variables (PGPASSWORD)")


class UrlRefused(BadInput):
    """A URL that cannot be kept; `reason` (malformed, scheme, password, no_file, no_database) lets
    the window say it in the user's language."""

    def __init__(self, reason: str, problem: str):
        self.reason = reason
        super().__init__(FIELD, problem)


def check_setting(text: str) -> str:
    """The URL to keep in the settings, or "" for this machine's own records file.

    Refused (UrlRefused, a BadInput naming the field): another kind of database, a URL without its database,
    and a password anywhere in it."""
    url = (text or "").strip()
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        password = parts.password
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError as exc:
        raise UrlRefused("malformed", f"not a database URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise UrlRefused("scheme", f"{'no' if not scheme else repr(scheme)} kind of database: write sqlite:///PATH "
                              "or postgresql://HOST/DATABASE")
    if password is not None or any(key.lower() == "password" for key, _value in query):
        raise UrlRefused("password", SECRETS_ADVICE)
    if scheme == "sqlite" and parts.path in ("", "/"):
        raise UrlRefused("no_file", "an SQLite URL names its file: sqlite:///PATH")
    if scheme != "sqlite" and parts.path in ("", "/") and not any(k == "service" for k, _v in query):
        raise UrlRefused("no_database", "name the database: postgresql://HOST/DATABASE (or postgresql:///?service=NAME)")
    return url


def shown(url: str) -> str:
    """The URL as it may be shown on screen or in a message: without any password."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.hostname or ""
        netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    except ValueError:
        return "?"


_noted = False


def from_environment() -> str:
    """The database the environment imposes (CARROM_REFEREE_DATABASE: a URL, or an SQLite file's
    path), or "". CARROM_REFEREE_DB, its old name, is read when it is not set, with a note on
    standard error (once a process)."""
    global _noted
    value = os.environ.get(ENV_VAR, "").strip()
    if value:
        return value
    value = os.environ.get(OLD_ENV_VAR, "").strip()
    if value and not _noted:
        _noted = True
        print(f"carrom-referee: {OLD_ENV_VAR} is deprecated: set {ENV_VAR} instead (a URL or a file's path)",
              file=sys.stderr)
    return value


def chosen(setting: str | None) -> tuple[str, str]:
    """The URL in force and where it comes from: ("...", "environment"), ("...", "settings"), or
    ("", "default") for this machine's own records file. The environment wins over the setting."""
    env = from_environment()
    if env:
        return env, "environment"
    if setting and setting.strip():
        return setting.strip(), "settings"
    return "", "default"
