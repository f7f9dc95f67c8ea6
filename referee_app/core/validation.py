"""The one gate every input passes before any work is done: files, arguments and window fields.

It refuses, with a `BadInput` naming the field, what no later check should ever have to meet:
a document too deep or too large once its YAML aliases are expanded, text that is not text (a NUL
byte, undecodable bytes), a number of a thousand digits, a list where a name is expected, a date
in the year 9999. The refusal is one line and never repeats a huge value (`shown`).

Later checks (the situation's fields, a form's completeness) stay where they are: they know the
meaning of a field; this module only knows its size and shape.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone

from referee_app.core.errors import BadInput

# A situation, a stroke or a form is a few dozen values; a score sheet of a long match a few
# thousand. These bounds are far above any real document and far below what costs time.
MAX_DEPTH = 32              # nested mappings and lists
MAX_NODES = 200_000         # values once every YAML alias is expanded
MAX_TEXT = 20_000           # characters of one text value (a form's facts are a few hundred)
MAX_INPUT_BYTES = 8_000_000
MAX_ID = 2 ** 63 - 1        # SQLite's largest row id
MAX_NUMBER_DIGITS = 9       # a round, a table, a board number, a count
FIRST_YEAR, LAST_YEAR = 1900, 2199
MAX_NAME = 200              # a player's, a referee's name: the same limit in a file and as an argument
MAX_QUESTIONS = 500         # a quiz or an exam paper: far above any sitting, far below minutes of work
MAX_MINUTES = 24 * 60       # time allowed for an exam   # a time outside these is a typing slip, never a tournament

# Fields that hold a name (a ruleset, a foul, a queen state, a kind): a list or a mapping there is
# refused by name before any lookup (a list cannot be looked up in a table of names).
NAME_FIELDS = frozenset({"ruleset", "foul", "queen", "kind", "colours", "breaker", "protester", "lang",
                         "status", "outcome", "item", "unit", "ground", "clause"})


def shown(value, limit: int = 40) -> str:
    """A value as a message may quote it: short, on one line."""
    text = value if isinstance(value, str) else repr(value) if not isinstance(value, (list, dict)) \
        else ("a list" if isinstance(value, list) else "a mapping")
    text = one_line(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(message: str, limit: int = 400) -> str:
    """A message as the command line prints it: line breaks and control characters folded."""
    text = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", str(message)).strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def text(value: str, what: str) -> str:
    """Text read from a file or an argument: no NUL, no undecodable bytes, not absurdly long."""
    if len(value) > MAX_INPUT_BYTES:
        raise BadInput(what, f"too large ({len(value)} characters; at most {MAX_INPUT_BYTES})")
    if "\x00" in value:
        raise BadInput(what, f"contains a NUL character (at character {value.index(chr(0)) + 1})")
    bad = _SURROGATE.search(value)
    if bad:
        raise BadInput(what, f"is not valid UTF-8 text (at character {bad.start() + 1})")
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def arguments(argv: list[str]) -> list[str]:
    """Command-line arguments: the system hands undecodable bytes over as surrogates."""
    for i, arg in enumerate(argv, 1):
        if _SURROGATE.search(arg) or "\x00" in arg:
            raise BadInput("arguments", f"argument {i} is not valid UTF-8 text")
    return argv


def record_id(value, field: str = "id", noun: str = "record") -> int:
    """A record number: a positive whole number SQLite can hold."""
    if isinstance(value, bool):
        raise BadInput(field, f"'{shown(value)}' is not {_a(noun)} number")
    if isinstance(value, int):
        number = value
    else:
        raw = str(value).strip()
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
            raise BadInput(field, f"'{shown(raw)}' is not {_a(noun)} number")
        number = int(raw)
    if not 1 <= number <= MAX_ID:
        raise BadInput(field, f"no {noun} {shown(number)}")
    return number


def store_int(value: str) -> int:
    """An argparse `type` for a whole-number argument (a table, a round, points): within the store's
    integer range, so that a 20-digit number is refused by name rather than overflowing SQLite."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(value) from None
    if abs(number) > MAX_ID:
        raise ValueError(value)
    return number


def bounded(value: int | None, field: str, lo: int, hi: int) -> int | None:
    """A count or a duration given as a number: refused outside [lo, hi], naming the bounds."""
    if value is None:
        return None
    if not lo <= value <= hi:
        raise BadInput(field, f"{shown(value)} is outside {lo}..{hi}")
    return value


def name(value, field: str) -> str:
    """A person's name, from a file or an argument: not blank, on one line, at most MAX_NAME characters."""
    if not isinstance(value, str) or not value.strip():
        raise BadInput(field, "expected a name", "required")
    if any(c in value for c in "\t\r\n\x0b\x0c\x85\u2028\u2029"):
        raise BadInput(field, "a name cannot hold a tab or a line break", "name_breaks")
    return text(name_length(value, field), field)


def name_length(value: str, field: str) -> str:
    """A name that may be left empty (a header field, a form's player) held to the one limit of names."""
    if len(value) > MAX_NAME:
        raise BadInput(field, f"a name of {len(value)} characters is too long (at most {MAX_NAME})", "too_long",
                       {"length": len(value), "most": MAX_NAME})
    return value


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in tuple('aeiou') else 'a'} {noun}"


def whole_number(value, field: str, lo: int = 0, hi: int | None = None) -> int:
    """A count typed or read: ASCII digits only (a '²' is not a 2), a handful of them."""
    if isinstance(value, bool) or isinstance(value, (list, dict, float)):
        raise BadInput(field, "must be a whole number", "not_a_number")
    raw = str(value).strip()
    sign = raw[:1] == "-"
    digits = raw[1:] if sign else raw
    if not (digits.isascii() and digits.isdigit()):
        raise BadInput(field, f"'{shown(raw)}' is not a whole number", "not_a_number", {"value": shown(raw)})
    if len(digits.lstrip("0")) > MAX_NUMBER_DIGITS:
        raise BadInput(field, f"a number of {len(digits)} digits is not plausible here", "number_too_long",
                       {"digits": len(digits)})
    number = -int(digits) if sign else int(digits)
    if number < lo:
        raise BadInput(field, "cannot be negative" if lo == 0 else f"must be at least {lo}", "too_small", {"least": lo})
    if hi is not None and number > hi:
        raise BadInput(field, f"must be at most {hi}", "too_large", {"most": hi})
    return number


def moment(value: datetime, field: str) -> datetime:
    """A date and time a person could have written on a form: a year 0001 or 9999 is a slip."""
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise BadInput(field, f"the year {value.year} is not plausible (give a date between {FIRST_YEAR} "
                              f"and {LAST_YEAR})", "implausible_year",
                       {"year": value.year, "first": FIRST_YEAR, "last": LAST_YEAR})
    try:
        local(value)  # an offset that takes it out of range fails here, not in a later sum
    except (OverflowError, ValueError, OSError):
        raise BadInput(field, "is not a plausible date and time", "implausible_time") from None
    return value


def local(value: datetime | None = None) -> datetime:
    """`value` (now when None) on the machine's clock, with its offset. A valid POSIX zone such as
    TZ=UTC+24 is a day off UTC, which Python's offsets cannot hold: the same moment is then given
    in UTC, never a crash and never a date called implausible."""
    value = datetime.now() if value is None else value
    try:
        return value.astimezone()
    except ValueError:
        if value.tzinfo is None:   # a naive local time in such a zone: its instant, from the system
            import time

            return datetime.fromtimestamp(time.mktime(value.timetuple()), timezone.utc).replace(
                microsecond=value.microsecond)
        return value.astimezone(timezone.utc)


def document(data, what: str = "document"):
    """A parsed document: bounded depth and size, every name a name, every text a bounded text.

    Walks without recursion, so a 10,000-deep nesting is refused rather than crashing the walk.
    """
    for value, path in walked(data, what, MAX_NODES, MAX_DEPTH, _field):
        if not isinstance(value, (dict, list)):
            _plain_value(value, path)
    return data


def walked(data, what: str, max_nodes: int, max_depth: int, field=None):
    """Every value of a parsed document with its path (`players[2].name`), containers included,
    walked without recursion; too many values or too deep a nesting is refused. `field(key,
    value, path, top)`, where given, checks a mapping's key and returns its child's path (`top`:
    the mapping is the document itself)."""
    stack = [(data, what, 0)]
    seen = 0
    while stack:
        value, path, depth = stack.pop()
        seen += 1
        if seen > max_nodes:
            raise BadInput(what, f"too large (more than {max_nodes} values)")
        if depth > max_depth:
            raise BadInput(path, f"nested too deeply (more than {max_depth} levels)")
        yield value, path
        if isinstance(value, dict):
            stack.extend((item, field(key, item, path, depth == 0) if field else f"{path}.{key}", depth + 1)
                         for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))


def _field(key, item, path: str, top: bool) -> str:
    """A mapping's key, once found to be a name, as its value's path."""
    if not isinstance(key, (str, int, bool)) and key is not None:
        raise BadInput(path, f"a field name must be a word, not {shown(key)}")
    name = str(key)
    if len(name) > 200:
        raise BadInput(path, "a field name is too long")
    child = name if top else f"{path}.{name}"
    if name in NAME_FIELDS and isinstance(item, (list, dict)):
        raise BadInput(child, f"expected a name, not {shown(item)}")
    return child


def _plain_value(value, path: str) -> None:
    """A text, a number or a moment, refused when no person could have meant it."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadInput(path, f"a text of {len(value)} characters is too long (at most {MAX_TEXT})")
        if "\x00" in value:
            raise BadInput(path, "contains a NUL character")
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 18:
        raise BadInput(path, "a number this large is not plausible")
    elif isinstance(value, float) and value != value:
        raise BadInput(path, "is not a number")
    elif isinstance(value, datetime):
        moment(value, path)


def regular_file_bytes(path: str, what: str, limit: int) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path` (the caller says when it is too large);
    BadInput naming `what` when it is absent, unreadable, or a directory, a device or a pipe,
    which would never end or never read."""
    import stat
    from pathlib import Path

    if not path:
        raise BadInput(what, "no file named")
    try:
        if not stat.S_ISREG(Path(path).stat().st_mode):
            raise BadInput(what, f"{shown(path, 80)} is not a regular file")
        with open(path, "rb") as f:
            return f.read(limit + 1)
    except FileNotFoundError:
        raise BadInput(what, f"no such file: {shown(path, 80)}") from None
    except OSError as exc:
        raise BadInput(what, f"cannot read {shown(path, 80)}: {exc.strerror or exc}") from None
