"""What the app remembers between runs, in one QSettings file.

An INI file on every platform (not the Windows registry): one plain file a referee can back up
or delete. Tests point it elsewhere with `QSettings.setPath(QSettings.IniFormat, ...)`.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings

ORGANIZATION = APPLICATION = "carrom-referee"

GEOMETRY = "window/geometry"
SPLITTER = "window/rulebook_splitter"
AREA = "window/area"
RULESET = "ruleset"
LANGUAGE = "language"
LARGE_TYPE = "view/large_type"
ZOOM = "view/zoom"
APPEARANCE = "view/appearance"
RECENT_SEARCHES = "search/recent"
BOOKMARKS = "rulebook/bookmarks"
LAST_CLAUSE = "rulebook/last_clause"
DATABASE_URL = "records/database_url"   # "" for this machine's own records file; never a password

MAX_RECENT = 10


def app_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def get_str(key: str, default: str = "") -> str:
    value = app_settings().value(key, default)
    return value if isinstance(value, str) else default


def get_bool(key: str, default: bool = False) -> bool:
    # An INI file stores "true"/"false": read it back as a bool, whatever the platform wrote.
    value = app_settings().value(key, default)
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes")
    return bool(value)


def get_int(key: str, default: int = 0) -> int:
    try:
        return int(app_settings().value(key, default))
    except (TypeError, ValueError):
        return default


def get_list(key: str) -> list[str]:
    # A one-element list comes back from an INI file as a plain string.
    value = app_settings().value(key, [])
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value]


def put(key: str, value) -> None:
    s = app_settings()
    s.setValue(key, value)
    s.sync()


def remember_search(query: str) -> list[str]:
    """Move `query` to the front of the recent searches; returns the new list."""
    query = " ".join(query.split())
    recent = [q for q in get_list(RECENT_SEARCHES) if q != query]
    if query:
        recent.insert(0, query)
    recent = recent[:MAX_RECENT]
    put(RECENT_SEARCHES, recent)
    return recent
