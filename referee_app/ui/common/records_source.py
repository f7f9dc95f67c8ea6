"""Which records database the window works on, opened once and handed to every store it makes.

CARROM_REFEREE_DATABASE wins; else the address kept in the preferences; else this machine's own
file (core/storage/database.py: `database_url`). One Database for the whole window means one pool
of connections to a shared server, however many areas are open.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.core.storage import location
from referee_app.ui import settings

if TYPE_CHECKING:
    from referee_app.core.storage.database import Database

# SQLAlchemy (core/storage/database.py) is imported by the first call that opens the records, not
# by importing this module: the window is shown before it (benchmarks/bench_startup.py).
_opened: tuple[str, Database] | None = None


def records_url() -> str:
    """The URL in force. A setting that should never have been kept (a password put in the file by
    hand) is refused here too (UrlRefused), rather than used."""
    kept = settings.get_str(settings.DATABASE_URL)
    url, source = location.chosen(kept)
    if source == "settings":
        location.check_setting(url)
    from referee_app.core.storage.database import database_url

    return database_url(kept)


def records_database() -> Database:
    global _opened
    url = records_url()
    if _opened is None or _opened[0] != url:
        forget()
        from referee_app.core.storage.database import Database

        _opened = (url, Database(url))
    return _opened[1]


def forget() -> None:
    """Closes the window's database (another one is chosen, or the tests move on)."""
    global _opened
    if _opened is not None:
        _opened[1].close()
    _opened = None


def probe() -> None:
    """The cheapest question to the records database; StoreUnavailable when it does not answer."""
    with records_database().read() as conn:
        conn.exec_driver_sql("SELECT 1")


def shared() -> bool:
    """Whether the records live on a server that may go out of reach while the window is open."""
    return records_database().dialect != "sqlite"
