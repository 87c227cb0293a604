"""What every reader of :mod:`skbrier.io` shares: files, JSON, fields, options.

One home for each check at the boundary:

* :func:`check_path` -- the ``path`` argument (a path-like naming a file);
* :func:`open_binary`, :func:`read_bytes` and :func:`read_text` -- opening a file: a missing file, a directory or an
  unreadable file raise ``FileNotFoundError`` / ``IsADirectoryError`` /
  ``OSError`` whose message is one line naming the path; a gzip, bzip2 or
  xz file is decompressed (told by its magic bytes) and UTF-16 text with a
  byte-order mark read as UTF-8;
* :func:`decode` and :func:`parse_json` -- text and JSON: invalid UTF-8,
  invalid JSON, JSON nested too deeply (``RecursionError`` in the parser) and
  integers too long to convert all become a :class:`Bad` field problem (or an
  :class:`~skbrier.io.EvalLogError` naming the file), never a raw exception;
* :func:`to_float` -- a number field: finite, not a bool, not a container;
* :func:`record_id` -- a record's identifier: a string or a number;
  :class:`FirstPlaces` -- a question read twice;
* :func:`check_confidence_scale` -- the ``confidence_scale`` option;
  :func:`stated_confidence` -- one stated confidence, in
  ``[0, confidence_scale]`` and divided by it; :func:`check_stated_scale` --
  all of them against ``confidence_scale``;
* :func:`show` -- a value in a message, cut short (and safe on values nested
  too deeply for ``repr``).

Option checks of the readers raise ``TypeError``/``ValueError`` naming the
option; they are never reported as a data problem.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import math
import os
import zlib
from typing import Any, BinaryIO

import numpy as np

from .._core.diagnose import percent_of_probabilities
from .._core.docstrings import with_pieces
from .._core.params import check_bool, check_real
from ._records import EvalLogError

__all__ = [
    "reader_doc",
    "Bad",
    "FirstPlaces",
    "Malformed",
    "at",
    "check_confidence_scale",
    "check_path",
    "check_stated_scale",
    "decode",
    "get",
    "load_json_file",
    "open_binary",
    "parse_json",
    "read_bytes",
    "record_id",
    "read_text",
    "show",
    "stated_confidence",
    "to_float",
]

#: the docstring lines every reader of evaluation logs shares
_READER_PIECES = {
    "skip_invalid": """\
skip_invalid : bool, default=False
    Skip (and count) malformed entries instead of raising.""",
    "unreadable": """\
FileNotFoundError, IsADirectoryError, OSError
    The file cannot be read (the message names it).""",
}

#: decorator filling a reader's ``{{skip_invalid}}`` and ``{{unreadable}}`` lines
reader_doc = with_pieces(_READER_PIECES)


class Bad(Exception):
    """A field problem inside one record (turned into EvalLogError with the place)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(field, problem)
        self.field = field
        self.problem = problem


def at(path: str, place: str, bad: Bad) -> EvalLogError:
    """The EvalLogError of ``bad`` in record ``place`` of file ``path``."""
    return EvalLogError(f"{path}: {place}: field {bad.field!r}: {bad.problem}")


class Malformed:
    """The malformed records of a log file: each raises the EvalLogError
    naming the file and its place in it, or with ``skip_invalid`` (checked
    here: a TypeError unless a bool) is skipped and counted (``count``, the
    records' ``n_skipped``)."""

    def __init__(self, path: str, skip_invalid: Any) -> None:
        self.path = path
        self.skip_invalid = check_bool(skip_invalid, "skip_invalid")
        self.count = 0

    def found(self, place: str, bad: Bad) -> None:
        """Record ``place`` (``"line 3"``, ``"entry 'q1'"``) is malformed:
        raise (naming the field), or count it when skipping."""
        if not self.skip_invalid:
            raise at(self.path, place, bad) from None
        self.count += 1

    def none_valid(self, what: str, records: str) -> EvalLogError:
        """The error of a file without a valid ``what`` (``"record"``), its
        malformed ``records`` (``"lines"``) counted."""
        return EvalLogError(
            f"{self.path}: no valid {what} ({self.count} malformed {records} skipped)."
        )


class FirstPlaces:
    """Where each question was read first: one read twice is a :class:`Bad`
    naming ``field`` and that place (it would count twice)."""

    def __init__(self, field: str, hint: str) -> None:
        self.field, self.hint = field, hint
        self.places: dict[str, str] = {}

    def add(self, key: str, place: str) -> None:
        """Record question ``key`` read at ``place`` (call once it is valid)."""
        first = self.places.setdefault(key, place)
        if first != place:
            raise Bad(
                self.field,
                f"{key!r} was read on {first} already: the question would count "
                f"twice ({self.hint})",
            )


def show(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (safe on deeply nested values)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deeply>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def to_float(value: Any, field: str) -> float:
    """A finite float from a number or a numeric string (lm-eval writes strings)."""
    if isinstance(value, bool):
        raise Bad(field, f"expected a number, got {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise Bad(field, f"expected a number, got {show(value)}") from None
    except OverflowError:
        raise Bad(field, f"{show(value)} is too large for a float") from None
    if math.isnan(v):
        raise Bad(field, "is NaN")
    if math.isinf(v):
        raise Bad(field, f"is {v!r} (not a finite number)")
    return v


def record_id(value: Any, field: str) -> str:
    """A record's identifier as text: a string or a number (a :class:`Bad` for
    null, a boolean, an object or a list, which no log uses as an id)."""
    if value is None or isinstance(value, (bool, dict, list)):
        raise Bad(field, f"expected a string or a number, got {show(value)}")
    return str(value)


def check_confidence_scale(confidence_scale: Any) -> float:
    """The ``confidence_scale`` option of a reader: a finite number > 0.

    Parameters
    ----------
    confidence_scale : float
        The scale of the stated confidences (100 for percentages, 1 for
        probabilities).

    Returns
    -------
    float
        The scale.

    Raises
    ------
    TypeError, ValueError
        Not a real number, or not finite and positive (naming the option).

    Examples
    --------
    >>> from skbrier.io._parse import check_confidence_scale
    >>> check_confidence_scale(100)
    100.0
    """
    return check_real(
        confidence_scale, "confidence_scale", low=0.0, inclusive=(False, True)
    )


def stated_confidence(value: Any, field: str, scale: float) -> float:
    """A stated confidence as a probability: a number in ``[0, scale]`` over ``scale``.

    Text ending in ``%`` (``"85%"``) is a percentage whatever ``scale`` is:
    it must lie in [0, 100] and is divided by 100.

    Parameters
    ----------
    value : object
        The value read (a number or a numeric string, as :func:`to_float`).
    field : str
        The field that held it (named by the :class:`Bad` of a bad value).
    scale : float
        The reader's ``confidence_scale`` (checked by
        :func:`check_confidence_scale`).

    Returns
    -------
    float
        ``value / scale``, in [0, 1].

    Raises
    ------
    Bad
        Not a finite number, or outside ``[0, scale]`` (the message says
        what to do: ``confidence_scale=100`` for percentages, numbers for
        verbal levels).

    Examples
    --------
    >>> from skbrier.io._parse import stated_confidence
    >>> stated_confidence(80, "confidence", 100.0)
    0.8
    >>> stated_confidence("85%", "confidence", 1.0)
    0.85
    """
    text = value.strip() if isinstance(value, str) else None
    if text is not None and text.endswith("%"):
        v = to_float(text[:-1], field)
        if not 0.0 <= v <= 100.0:
            raise Bad(field, f"{value!r} outside [0%, 100%]")
        return v / 100.0
    try:
        v = to_float(value, field)
    except Bad as bad:
        if text is None or bad.problem.startswith("is "):  # NaN, infinite
            raise
        raise Bad(
            field,
            f"{bad.problem}: a stated confidence is a number in [0, {scale:g}] "
            f"(confidence_scale={scale:g}) or a percentage such as '85%'; map "
            "verbal levels such as 'high' to numbers first",
        ) from None
    if not 0.0 <= v <= scale:
        hint = (
            "; they look like percentages: pass confidence_scale=100"
            if scale < v <= 100.0
            else ""
        )
        raise Bad(field, f"{v!r} outside [0, {scale:g}] (confidence_scale={scale:g}){hint}")
    return v / scale


def check_stated_scale(confidence: Any, scale: float, path: str) -> None:
    """Refuse probabilities read on a percent scale.

    ``confidence`` holds the stated confidences already divided by
    ``scale``.  When ``scale`` is above 1 and every stated value lies in
    [0, 1] with some fraction among them (0.8, not the percentages 0 and
    1), they are probabilities: divided by ``scale`` every answer would look
    almost unconfident.  A ``ValueError`` names the option to change.
    """
    if scale <= 1.0:
        return
    raw = np.asarray(confidence, dtype=np.float64) * scale
    example = percent_of_probabilities(raw)
    if example is not None:
        raise ValueError(
            f"{path}: every stated confidence lies in [0, 1] (e.g. "
            f"{example:.4g}), which confidence_scale="
            f"{scale:g} reads as {float(np.nanmax(raw)) / scale:.4g} at most: they look "
            "like probabilities; pass confidence_scale=1."
        )


def get(rec: Any, key: str, field: str | None = None) -> Any:
    """``rec[key]`` of a JSON object, or a :class:`Bad` naming ``field``."""
    if not isinstance(rec, dict):
        raise Bad(field or key, f"expected an object, got {type(rec).__name__}")
    if key not in rec:
        raise Bad(field or key, "is missing")
    return rec[key]


def check_path(path: Any) -> str:
    """The ``path`` argument as a ``str`` (a TypeError names it otherwise)."""
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        raise TypeError(
            f"path must be a str or path-like naming the log, got {show(path)}."
        ) from None


#: compressions read transparently, by their magic bytes (not the file name)
_COMPRESSED = (
    (b"\x1f\x8b", "gzip", gzip.open),
    (b"BZh", "bzip2", bz2.open),
    (b"\xfd7zXZ\x00", "xz", lzma.open),
)


def open_binary(path: str, what: str = "log file") -> BinaryIO:
    """``open(path, "rb")``; OS errors become one-line messages naming the path.

    A file compressed by gzip, bzip2 or xz (told by its magic bytes) is
    decompressed, and UTF-16 text with a byte-order mark becomes UTF-8;
    damaged compressed data is an
    :class:`~skbrier.io.EvalLogError` naming the file.
    """
    fh = _open(path, what)
    try:
        magic = fh.read(6)
        fh.seek(0)
    except OSError as exc:
        fh.close()
        raise OSError(f"{path}: cannot read ({exc.strerror or exc}).") from None
    for sig, kind, opener in _COMPRESSED:
        if magic.startswith(sig):
            with fh:
                try:
                    with opener(fh) as packed:
                        return _as_utf8(io.BytesIO(packed.read()), path)
                except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
                    raise EvalLogError(
                        f"{path}: cannot decompress the {kind} data ({exc})."
                    ) from None
    return _as_utf8(fh, path)


def _as_utf8(fh: BinaryIO, path: str) -> BinaryIO:
    """``fh`` itself, or for UTF-16 text with a byte-order mark (what
    PowerShell's ``>`` writes) its text as UTF-8 (lines then split as in UTF-8)."""
    start = fh.read(2)
    fh.seek(0)
    if start not in (b"\xff\xfe", b"\xfe\xff"):
        return fh
    with fh:
        data = fh.read()
    try:
        return io.BytesIO(data.decode("utf-16").encode("utf-8"))
    except UnicodeDecodeError as exc:
        raise EvalLogError(
            f"{path}: not UTF-8 text, nor UTF-16 after its byte-order mark "
            f"({exc.reason} at byte {exc.start})."
        ) from None


def _open(path: str, what: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file or directory.") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"{path}: is a directory, not a {what}.") from None
    except PermissionError:
        raise PermissionError(f"{path}: permission denied.") from None
    except OSError as exc:
        raise OSError(f"{path}: cannot read ({exc.strerror or exc}).") from None


def read_bytes(path: str, what: str = "log file") -> bytes:
    """The bytes of ``path`` (errors as :func:`open_binary`)."""
    with open_binary(path, what) as fh:
        try:
            return fh.read()
        except OSError as exc:
            raise OSError(f"{path}: cannot read ({exc.strerror or exc}).") from None


def decode(data: bytes, field: str = "(line)") -> str:
    """UTF-8 text of ``data`` (a leading byte-order mark dropped), or a :class:`Bad`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Bad(field, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


class _DuplicateKey(ValueError):
    pass


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(f"the key {show(key)} appears twice in one object")
            seen.add(key)
    return out


def parse_json(
    text: str | bytes, field: str = "(line)", *, unique_keys: bool = False
) -> Any:
    """``json.loads(text)``; every failure of the parser is a :class:`Bad`.

    The position is given as a column for a one-line document (a JSONL
    line) and as line and column otherwise.  ``unique_keys``: an object
    with a key twice is malformed (``json.loads`` would keep the last value
    and lose the other record).
    """
    try:
        if unique_keys:
            return json.loads(text, object_pairs_hook=_unique_pairs)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        pos = f"column {exc.colno}"
        if field != "(line)":
            pos = f"line {exc.lineno}, {pos}"
        raise Bad(field, f"invalid JSON ({exc.msg}; {pos})") from None
    except RecursionError:
        raise Bad(field, "JSON nested too deeply to read") from None
    except _DuplicateKey as exc:
        raise Bad(field, str(exc)) from None
    except ValueError as exc:  # e.g. an integer literal over Python's digit limit
        raise Bad(field, f"invalid JSON ({exc})") from None


def read_text(path: str, what: str = "log file") -> str:
    """The text of file ``path``: an empty file and bad text raise
    :class:`~skbrier.io.EvalLogError` naming the file."""
    data = read_bytes(path, what)
    try:
        text = decode(data, "(file)")
        if not text.strip():
            raise Bad("(file)", "the file is empty")
    except Bad as bad:
        raise EvalLogError(f"{path}: {bad.problem}.") from None
    return text


def load_json_file(
    path: str,
    what: str = "log file",
    text: str | None = None,
    *,
    unique_keys: bool = False,
) -> Any:
    """The JSON document in file ``path`` (``text``: the file's text, read
    by :func:`read_text`): empty files, bad text and bad JSON (with
    ``unique_keys``, an object holding a key twice) raise
    :class:`~skbrier.io.EvalLogError` naming the file."""
    if text is None:
        text = read_text(path, what)
    try:
        return parse_json(text, "(file)", unique_keys=unique_keys)
    except Bad as bad:
        hint = ""
        if bad.problem.startswith("invalid JSON (Extra data") and _json_lines(text):
            hint = (
                ": one JSON document per line is a JSON Lines file, which this reader "
                "does not read (is it another format?)"
            )
        raise EvalLogError(f"{path}: {bad.problem}{hint}.") from None


def _json_lines(text: str) -> bool:
    """Whether the first two lines that are not blank are JSON documents."""
    lines = [line for line in text.split("\n", 50)[:50] if line.strip()][:2]
    try:
        return len(lines) == 2 and all(json.loads(line) is not None for line in lines)
    except (ValueError, RecursionError):
        return False
