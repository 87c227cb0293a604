"""Safe writing of rendered reports: a temporary file in the target directory,
then an atomic rename (or an atomic no-clobber link)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomic"]


def _umask_mode() -> int:
    """The mode a plainly created file gets (0o666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _publish(tmp: str, target: Path, overwrite: bool) -> None:
    if overwrite:
        os.replace(tmp, target)
        return
    try:
        # atomic: fails if the target exists, even if it appeared a moment ago
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        # file systems without hard links: check, then rename (tiny window)
        if os.path.lexists(target):
            raise FileExistsError(17, "File exists", str(target)) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def write_text_atomic(
    path: str | os.PathLike, text: str, *, overwrite: bool = True
) -> None:
    """Write ``text`` (UTF-8) to ``path`` all at once.

    The text goes to a temporary file in the same directory, which then
    replaces ``path`` (``overwrite=True``) or is linked to it only if
    ``path`` does not exist (``overwrite=False``, else
    :class:`FileExistsError`).  A failed write leaves ``path`` as it was
    and no temporary file behind.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path-like (the output file), got {path!r}.")
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    # the user's path in the message, not that of the temporary file
    if not directory.is_dir():
        raise FileNotFoundError(f"{target}: the directory {directory} does not exist.")
    if target.is_dir():
        raise IsADirectoryError(f"{target}: is a directory, not a file to write.")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _umask_mode())
        _publish(tmp, target, overwrite)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
