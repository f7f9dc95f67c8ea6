"""The ways a records database refuses or fails, each a BadInput so that the command line exits 2
with one clear line and the window shows it, never a traceback."""
from __future__ import annotations

from pathlib import Path

from referee_app.core.errors import BadInput


class StoreError(BadInput):
    """A records database that cannot be used as it is: names it, says why and what to do.

    `reason` is one of not_a_file, unwritable, damaged, foreign, newer, older, refused, failed,
    credentials, unavailable, busy (another program holds it: never damaged), full (no space left on
    its disk), replaced (the file at its path is no longer the one opened); `can_move_aside` says whether starting a new store beside it
    (`move_aside`) is the way out (only for a file).
    """

    ADVICE = {
        "not_a_file": "give the path of a file (CARROM_REFEREE_DATABASE)",
        "unwritable": "check that the file and its folder can be written, or set CARROM_REFEREE_DATABASE to another file",
        "damaged": "start a new records file with `carrom-referee records new-store` (the damaged one is kept "
                   "aside, untouched), or restore a backup",
        "foreign": "it belongs to another program and is left untouched: set CARROM_REFEREE_DATABASE to another file, "
                   "or move it aside with `carrom-referee records new-store`",
        "newer": "a newer version of carrom-referee wrote it: use that version, or start a new records file with "
                 "`carrom-referee records new-store` (the file is kept aside, untouched)",
        "older": "its schema is older than this version's: upgrade it with `carrom-referee db migrate`",
        "refused": "the records database refused the change, which would have rewritten or removed a kept record; "
                   "nothing was changed",
        "failed": "nothing of this change was saved; try again (`carrom-referee db check` says more)",
        "busy": "nothing was saved; the file is sound and stays where it is: try again in a moment, or close "
                "the program that holds it",
        "full": "nothing was saved; free some space, then try again (the records can still be read)",
        "replaced": "nothing more was saved; the file was replaced or moved while the records were open: "
                    "check which file is the right one, then start again",
        "credentials": "the server wants a password libpq did not find: put it in ~/.pgpass (or the file "
                       "PGPASSFILE names) or a service in ~/.pg_service.conf, never in the address or the preferences",
        "unavailable": "the database server cannot be reached: nothing of this change was saved; check the network "
                       "and the server, then try again",
    }
    FILE_REASONS = ("damaged", "foreign", "newer")

    def __init__(self, path, reason: str, problem: str):
        self.path = Path(path) if not isinstance(path, str) or "://" not in path else path
        self.reason = reason
        self.can_move_aside = reason in self.FILE_REASONS and isinstance(self.path, Path)
        super().__init__("records", f"{path}: {problem}; {self.ADVICE[reason]}")


class StoreUnavailable(StoreError):
    """The database server cannot be reached, or the connection was lost during a call.

    `url` names the database without its password; `retryable` says whether the same call may
    simply be made again (nothing of it was committed, or what was is safe to write again)."""

    def __init__(self, url: str, problem: str, retryable: bool = True):
        self.url, self.retryable = url, retryable
        super().__init__(url, "unavailable", problem)


class VersionConflict(BadInput):
    """A record was changed by someone else since the writer read it: nothing was overwritten.

    `record` names it ("form 12"); `mine` is what the writer started from with what it meant to
    write, `theirs` the record as now stored, both as dicts holding their `version`."""

    def __init__(self, record: str, mine: dict, theirs: dict):
        self.record, self.mine, self.theirs = record, mine, theirs
        super().__init__("version", f"{record} was changed elsewhere meanwhile (version {mine.get('version')} "
                                    f"was read, version {theirs.get('version')} is stored): nothing was "
                                    "overwritten; keep your change or take the stored one")
