"""Writing a file the user named (a PDF, an export): all of it or nothing, never over what is not a file.

The target must be a regular file or not exist yet, in a folder that exists: a directory, a
device (`/dev/full`), a pipe or a file of /proc or /sys is refused before anything is written,
so that replacing the target can never swap a device node for a document. The new content is
written to a temporary file beside the target, flushed to the disk, checked (a cut-short PDF is
not a PDF), and only then renamed over the target; on any failure the old file stays as it was
and the temporary file is removed.
"""
from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from referee_app.core import validation
from referee_app.core.errors import BadInput

_SYSTEM = ("/proc", "/sys", "/dev")


def _shown(path) -> str:
    return validation.shown(str(path), 120)


def check_target(path, field: str = "OUT") -> Path:
    """The path a document may be written to; refuses, naming `field`, what cannot take one."""
    if path is None or not str(path).strip():
        raise BadInput(field, "no file named", "no_file_named")
    validation.text(str(path), field)
    target = Path(path).expanduser()
    real = os.path.realpath(target)
    if any(real == root or real.startswith(root + os.sep) for root in _SYSTEM):
        raise BadInput(field, f"{_shown(target)} is a system file, not a place for a document", "system_file",
                       {"path": _shown(target)})
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise BadInput(field, f"cannot use {_shown(target)}: {exc.strerror or exc}", "cannot_use",
                       {"path": _shown(target), "detail": str(exc.strerror or exc)}) from None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise BadInput(field, f"{_shown(target)} is a folder: give a file name in it", "is_folder",
                           {"path": _shown(target)})
        if not stat.S_ISREG(mode):
            raise BadInput(field, f"{_shown(target)} is not a regular file (a device or a pipe)", "not_regular",
                           {"path": _shown(target)})
        if not os.access(target, os.W_OK):
            raise BadInput(field, f"{_shown(target)} is read-only", "read_only", {"path": _shown(target)})
    folder = target.parent
    if not folder.is_dir():
        raise BadInput(field, f"the folder {_shown(folder)} does not exist", "no_folder", {"path": _shown(folder)})
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInput(field, f"the folder {_shown(folder)} cannot be written", "folder_unwritable",
                       {"path": _shown(folder)})
    return target


@contextmanager
def replacing(path, field: str = "OUT", check: Callable[[Path], None] | None = None):
    """`with replacing(path) as tmp:` write to `tmp`; on leaving, it replaces `path` whole, or the
    old file stays and `tmp` is gone. `check(tmp)` may refuse what was written (BadInput)."""
    target = check_target(path, field)
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise BadInput(field, f"cannot write in {_shown(target.parent)}: {exc.strerror or exc}", "folder_unwritable",
                       {"path": _shown(target.parent), "detail": str(exc.strerror or exc)}) from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())  # a full disk surfaces here at the latest
        if check:
            check(tmp)
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        _sync_folder(target.parent)
    except OSError as exc:
        raise BadInput(field, f"cannot write {_shown(target)}: {exc.strerror or exc}; "
                              "the previous file, if any, is unchanged", "cannot_write",
                       {"path": _shown(target), "detail": str(exc.strerror or exc)}) from None
    finally:
        tmp.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text(path, text: str, field: str = "OUT") -> Path:
    """A text file written whole or not at all."""
    data = text.encode("utf-8")

    def complete(tmp: Path) -> None:
        if tmp.stat().st_size != len(data):
            raise BadInput(field, f"{_shown(path)} could not be written completely (is the disk full?)", "incomplete",
                           {"path": _shown(path)})

    with replacing(path, field, complete) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)
    return Path(path)


def check_pdf(field: str):
    """A check for `replacing`: the file is a whole PDF (header, and the end-of-file mark)."""
    def check(tmp: Path) -> None:
        size = tmp.stat().st_size
        with open(tmp, "rb") as f:
            head = f.read(8)
            f.seek(max(0, size - 1024))
            tail = f.read()
        if size < 64 or not head.startswith(b"%PDF-") or b"%%EOF" not in tail:
            raise BadInput(field, "the PDF could not be written completely (is the disk full?); "
                                  "the previous file, if any, is unchanged", "incomplete_pdf")
    return check
