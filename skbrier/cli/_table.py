"""Reading the user's table fast: bytes (file or standard input, possibly
compressed), text encoding, separator, comment lines and Parquet, into the few
columns the command needs.

A column comes back as a float64 array (``NaN`` = missing) when it was read as
numbers, or as a :class:`Codes` pair (integer codes, ``-1`` = missing, and the
distinct text values) otherwise.  Three engines give the same columns:

* ``pyarrow`` (``pyarrow.csv``, multi-threaded; the engine under pandas'
  ``engine="pyarrow"``) when pyarrow is installed;
* ``pandas`` (pandas' C parser) when pandas is installed but pyarrow is not;
* ``python`` (the standard library's :mod:`csv`) otherwise.

The fast engines only handle files they read exactly as the ``python`` engine
does; anything they reject (a ragged row, a value that is not a number, ...)
is read again by the ``python`` engine, so every problem is reported with the
same one-line message whichever engine is installed.

Row numbers in messages count the header as row 1 and skip blank lines and
comment lines: row ``k`` is the ``k``-th record of the file.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import io
import lzma
import os
import re
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._common import CLIError, import_for_cli
from ._excel import excel_as_csv, spreadsheet_kind

#: the spellings of a missing value (after stripping blanks), in every column
NA_VALUES = (
    "",
    "NA",
    "N/A",
    "n/a",
    "#N/A",
    "NaN",
    "nan",
    "NAN",
    "null",
    "NULL",
    "Null",
    "None",
    ".",
)
_NA = frozenset(NA_VALUES)
#: the separators tried when --sep is not given, in order of preference on ties
SEPARATORS = (",", ";", "\t", "|")
_MAGIC = {
    b"\x1f\x8b": "gzip",
    b"BZh": "bz2",
    b"\xfd7zXZ\x00": "xz",
    b"PK\x03\x04": "zip",
    b"PK\x05\x06": "zip",
    b"PAR1": "parquet",
    b"\x28\xb5\x2f\xfd": "zstd",
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1": "ole2",  # legacy .xls (and .doc)
}
_SAMPLE = 1 << 16


@dataclass
class Codes:
    """A text column: ``levels[codes[i]]`` is row ``i``'s value (``-1``: missing)."""

    codes: np.ndarray
    levels: list[str]


Column = "np.ndarray | Codes"


@dataclass
class Table:
    """The needed columns of the input and how it was read."""

    name: str
    header: list[str]
    columns: dict[str, Any]
    n_rows: int
    sha256: str
    info: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------
# bytes
# --------------------------------------------------------------------------


def display_name(path: str) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def read_bytes(path: str) -> bytes:
    """The raw bytes of ``path`` (``-``: standard input)."""
    if str(path) == "-":
        if sys.stdin is None:
            raise CLIError("-: standard input is not available.")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes (e.g. io.StringIO in tests)
            return sys.stdin.read().encode("utf-8", "surrogateescape")
        return stream.read()
    p = Path(path)
    if not p.exists():
        raise CLIError(f"{path}: no such file.")
    if p.is_dir():
        raise CLIError(f"{path}: is a directory, not a CSV file.")
    try:
        return p.read_bytes()
    except OSError as exc:
        reason = exc.strerror or exc
        raise CLIError(f"{path}: cannot read the file ({reason}).") from None


def _kind(raw: bytes) -> str | None:
    for magic, kind in _MAGIC.items():
        if raw.startswith(magic):
            return kind
    return None


def unpack(raw: bytes, name: str) -> tuple[bytes, list[str], str]:
    """Decompress by magic bytes (gzip, bz2, xz, single-member zip; nested
    once or twice); returns (bytes, compressions, format) with format
    ``"parquet"``, ``"text"`` or ``"excel"`` (a workbook's first sheet, as
    CSV text: :func:`._excel.excel_as_csv`).  The magic bytes decide, not the
    file name, so a misnamed file is still read."""
    layers: list[str] = []
    for _ in range(4):
        kind = _kind(raw)
        if kind is None:
            return raw, layers, "text"
        if kind == "parquet":
            return raw, layers, "parquet"
        if kind in ("zip", "ole2"):
            sheet = spreadsheet_kind(raw, kind)  # always one for OLE2 (.xls)
            if sheet is not None:
                return excel_as_csv(raw, name, sheet), layers, "excel"
        if kind == "zstd":
            raise CLIError(
                f"{name}: zstd-compressed files are not supported; decompress it."
            )
        try:
            if kind == "gzip":
                raw = gzip.decompress(raw)
            elif kind == "bz2":
                raw = bz2.decompress(raw)
            elif kind == "xz":
                raw = lzma.decompress(raw)
            else:
                raw = _unzip(raw, name)
        except CLIError:
            raise
        except (OSError, EOFError, ValueError, lzma.LZMAError, zipfile.BadZipFile) as exc:
            raise CLIError(f"{name}: cannot decompress the {kind} data ({exc}).") from None
        layers.append(kind)
    raise CLIError(f"{name}: compressed too many times over.")


def _unzip(raw: bytes, name: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        members = [
            m
            for m in zf.infolist()
            if not m.is_dir() and not m.filename.startswith("__MACOSX/")
        ]
        if len(members) != 1:
            shown = ", ".join(m.filename for m in members[:5])
            raise CLIError(
                f"{name}: a zip archive must hold exactly one file; it holds "
                f"{len(members)}" + (f" ({shown})." if members else ".")
            )
        return zf.read(members[0])


# --------------------------------------------------------------------------
# text
# --------------------------------------------------------------------------


def to_utf8(raw: bytes, name: str, encoding: str | None) -> tuple[bytes, str, str | None]:
    """UTF-8 bytes without a byte-order mark, the encoding used and a note
    (when the encoding was guessed)."""
    if encoding is not None:
        enc = encoding.lower().replace("_", "-")
        try:
            text = raw.decode(encoding)
        except LookupError:
            raise CLIError(f"--encoding: unknown encoding {encoding!r}.") from None
        except UnicodeDecodeError as exc:
            raise CLIError(
                f"{name}: not {encoding} text (invalid byte at offset {exc.start})."
            ) from None
        text = text.removeprefix("\ufeff")
        if "\x00" in text:
            raise CLIError(f"{name}: not a text (CSV) file (it contains NUL bytes).")
        if enc in ("utf-8", "utf8", "utf-8-sig"):
            return raw.removeprefix(b"\xef\xbb\xbf"), encoding, None
        return text.encode("utf-8"), encoding, None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 (Excel's "Unicode text")
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise CLIError(
                f"{name}: not UTF-16 text (invalid byte at offset {exc.start})."
            ) from None
        return text.removeprefix("\ufeff").encode("utf-8"), "utf-16", None
    if b"\x00" in raw:
        raise CLIError(f"{name}: not a text (CSV) file (it contains NUL bytes).")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
        enc = "utf-8-sig"
    else:
        enc = "utf-8"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start
    else:
        return raw, enc, None
    for fallback in ("cp1252", "latin-1"):
        try:
            text = raw.decode(fallback)
        except UnicodeDecodeError:
            continue
        note = (
            f"{name} is not UTF-8 (invalid byte at offset {offset}); read as "
            f"{fallback} (choose another with --encoding)."
        )
        return text.encode("utf-8"), fallback, note
    raise AssertionError("latin-1 decodes any bytes")  # pragma: no cover


def drop_comments(data: bytes, comment: str | None) -> bytes:
    """Remove whole lines whose first non-blank character is ``comment``."""
    if not comment:
        return data
    c = re.escape(comment.encode("utf-8"))
    return re.sub(rb"(?m)^[ \t]*" + c + rb"[^\n]*(?:\n|\Z)", b"", data)


def _sample_rows(sample: str, sep: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=sep)
    rows = []
    try:
        for row in reader:
            if any(c.strip() for c in row):
                rows.append(row)
            if len(rows) >= 30:
                break
    except csv.Error:
        pass
    return rows


def sniff_separator(sample: str) -> str:
    """The separator whose header splits into the most fields and whose
    sample rows all have the header's number of fields (ties: the order of
    :data:`SEPARATORS`); ``,`` when no candidate fits."""
    if sample and not sample.endswith("\n") and "\n" in sample:
        sample = sample[: sample.rindex("\n") + 1]  # drop a cut-off last line
    best, best_fields = ",", 1
    fallback, fallback_fields = ",", 1
    for sep in SEPARATORS:
        rows = _sample_rows(sample, sep)
        if not rows:
            continue
        n = len(rows[0])
        if n > fallback_fields:
            fallback, fallback_fields = sep, n
        if n > best_fields and all(len(r) == n for r in rows[1:]):
            best, best_fields = sep, n
    return best if best_fields > 1 else fallback


def read_header(data: bytes, sep: str, name: str) -> list[str]:
    """The raw (unstripped) column names of the first record."""
    sample = data[:_SAMPLE].decode("utf-8", "ignore")
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=sep)
    try:
        for row in reader:
            if any(c.strip() for c in row):
                return row
    except csv.Error as exc:
        raise CLIError(
            f"{name}: malformed CSV near line {reader.line_num}: {exc}."
        ) from None
    raise CLIError(f"{name}: the file is empty.")


def check_header(header: Sequence[str], name: str) -> list[str]:
    names = [h.strip() for h in header]
    if len(set(names)) != len(names):
        dup = sorted({h for h in names if names.count(h) > 1})
        raise CLIError(f"{name}: duplicate column names {dup} in the header.")
    return names


def missing_column(
    header: Sequence[str],
    col: str,
    name: str,
    comment_hint: bool,
    sep: str | None = None,
    engine: str | None = None,
) -> None:
    """A CLIError when ``col`` is not in ``header``: the columns, and why it
    may be missing (a comment line, a header of one column that another
    separator splits, a name in another case or with blanks).

    ``engine``: the ``--engine`` that read the header itself (it takes no
    ``--sep``, so the remedy of another separator is ``--engine memory``)."""
    if col in header:
        return
    shown = ", ".join(header[:20]) + (", ..." if len(header) > 20 else "")
    hint = ""
    if comment_hint:
        hint = " (the first line starts with '#': use --comment '#')"
    elif sep is not None and len(header) == 1:
        other = sniff_separator(header[0])
        if other != sep and other in header[0]:
            shown_sep = "tab" if sep == "\t" else sep
            remedy = (
                f"not --sep {shown_sep!r}"
                if engine is None
                else f"not {shown_sep!r}: read it with --engine memory --sep {other!r}"
            )
            hint = (
                f" (the header is one column {header[0]!r}: its separator looks like "
                f"{other!r}, {remedy})"
            )
    if not hint:
        close = [h for h in header if h.strip().casefold() == col.strip().casefold()]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise CLIError(f"{name}: no column '{col}' (columns: {shown}){hint}.")


def check_columns(
    path: str, names: Sequence[Any], columns: Sequence[str], engine: str
) -> None:
    """:func:`missing_column` for each of ``columns`` in a file that ``engine``
    read itself (its CSV text separated by ',', a directory or a Parquet file
    by none)."""
    parquet = os.path.isdir(path) or path.lower().endswith((".parquet", ".parq", ".pq"))
    for c in columns:
        missing_column(
            [str(n) for n in names], c, path, False, None if parquet else ",", engine
        )


# --------------------------------------------------------------------------
# engines
# --------------------------------------------------------------------------


def _codes_from_strings(values: Sequence[str]) -> Codes:
    index: dict[str, int] = {}
    codes = np.fromiter(
        (index.setdefault(v, len(index)) for v in values), dtype=np.intp, count=len(values)
    )
    return _normalise_codes(Codes(codes, list(index)))


def _normalise_codes(col: Codes) -> Codes:
    """Strip blanks from the levels, merge equal ones and map the NA
    spellings to -1 (codes keep the order of first appearance)."""
    stripped = [lv.strip() for lv in col.levels]
    if stripped == col.levels and not any(lv in _NA for lv in stripped):
        return col
    new: dict[str, int] = {}
    lut = np.empty(len(stripped) + 1, dtype=np.intp)
    lut[-1] = -1
    for i, lv in enumerate(stripped):
        lut[i] = -1 if lv in _NA else new.setdefault(lv, len(new))
    return Codes(lut[col.codes], list(new))


def csv_rows(text: str, sep: str, name: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of CSV ``text`` (blank lines skipped): a CLIError when
    the text is malformed, empty, has no data rows or a ragged row."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        rows = [r for r in reader if any(c.strip() for c in r)]  # skip blank lines
    except csv.Error as exc:
        line = reader.line_num
        raise CLIError(f"{name}: malformed CSV near line {line}: {exc}.") from None
    if not rows:
        raise CLIError(f"{name}: the file is empty.")
    header = check_header(rows[0], name)
    body = rows[1:]
    if not body:
        raise CLIError(f"{name}: the file has a header but no data rows.")
    for i, r in enumerate(body, start=2):
        if len(r) != len(header):
            raise CLIError(
                f"{name}: row {i} has {len(r)} fields but the header has {len(header)}."
            )
    return header, body


def _python_engine(data: bytes, sep: str, name: str, needed: Sequence[str]):
    text = data.decode("utf-8")
    header, body = csv_rows(text, sep, name)
    columns = {}
    for col in needed:
        j = header.index(col)
        columns[col] = _codes_from_strings([r[j] for r in body])
    return header, columns, len(body)


def _arrow_column(arr: Any) -> Any:
    """A pyarrow array as a float64 array (NaN: missing) or :class:`Codes`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    t = arr.type
    if pa.types.is_null(t):
        return np.full(len(arr), np.nan)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        # numpy makes (and owns) any float64 copy: a copy in pyarrow's pool
        # would stay in the process's memory after it is freed
        return np.asarray(arr.to_numpy(zero_copy_only=False), dtype=float)
    if pa.types.is_decimal(t):
        return np.asarray(arr.cast(pa.float64()).to_numpy(zero_copy_only=False), float)
    if pa.types.is_boolean(t):
        arr = arr.cast(pa.string())
    if not pa.types.is_dictionary(t):
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            arr = arr.cast(pa.string())
        arr = pc.dictionary_encode(arr)
    # the dictionary's own integer type (int32): no 8-byte copy per row
    codes = arr.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    levels = [str(v) for v in arr.dictionary.to_pylist()]
    return _normalise_codes(Codes(codes, levels))


def _pyarrow_engine(data: bytes, sep: str, decimal: str, needed, numeric):
    import pyarrow as pa
    import pyarrow.csv as pcsv

    types = {
        c: pa.float64() if c in numeric else pa.dictionary(pa.int32(), pa.string())
        for c in needed
    }
    table = pcsv.read_csv(
        io.BytesIO(data),
        parse_options=pcsv.ParseOptions(
            delimiter=sep, newlines_in_values=b'"' in data[: 1 << 20]
        ),
        convert_options=pcsv.ConvertOptions(
            include_columns=list(needed),
            column_types=types,
            null_values=list(NA_VALUES),
            strings_can_be_null=True,
            quoted_strings_can_be_null=True,
            decimal_point=decimal,
        ),
    )
    return {c: _arrow_column(table.column(c)) for c in needed}, table.num_rows


def _pandas_engine(data: bytes, sep: str, decimal: str, needed, numeric, header):
    import pandas as pd

    # pandas fills short rows with missing values and tolerates some long
    # ones: count the fields of every line first (only for files without
    # quotes, where a separator always separates)
    if b'"' in data:
        raise ValueError("quoted fields: left to the python engine")
    sepb, n_sep = sep.encode(), len(header) - 1
    for ln in data.split(b"\n"):
        if ln.strip() and ln.count(sepb) != n_sep or ln.strip(b"\r") and not ln.strip():
            raise ValueError("ragged or blank rows: left to the python engine")
    frame = pd.read_csv(
        io.BytesIO(data),
        sep=sep,
        decimal=decimal,
        usecols=list(needed),
        dtype={c: float if c in numeric else str for c in needed},
        na_values=list(NA_VALUES),
        keep_default_na=False,
        skip_blank_lines=True,
        engine="c",
        float_precision="round_trip",
    )
    out: dict[str, Any] = {}
    for c in needed:
        s = frame[c]
        if c in numeric:
            out[c] = s.to_numpy(dtype=float, na_value=np.nan)
        else:
            codes, uniques = pd.factorize(s, use_na_sentinel=True)
            out[c] = _normalise_codes(
                Codes(codes.astype(np.intp), [str(u) for u in uniques])
            )
    return out, len(frame)


def _engines() -> list[str]:
    """The engines installed, fastest first (tests patch this)."""
    out = []
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        pass
    else:
        out.append("pyarrow")
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass
    else:
        out.append("pandas")
    return [*out, "python"]


def _read_parquet(raw: bytes, name: str, needed: Sequence[str], comment_hint: bool):
    pq = import_for_cli("pyarrow.parquet", needed_for=f"{name}: reading Parquet files")
    try:
        pf = pq.ParquetFile(io.BytesIO(raw))
        header = check_header(pf.schema_arrow.names, name)
        for col in needed:
            missing_column(header, col, name, comment_hint)
        raw_names = [pf.schema_arrow.names[header.index(c)] for c in needed]
        table = pf.read(columns=list(dict.fromkeys(raw_names)))
    except CLIError:
        raise
    except Exception as exc:  # pyarrow's errors have no common base we may rely on
        raise CLIError(f"{name}: cannot read the Parquet file ({exc}).") from None
    cols = {c: _arrow_column(table.column(r)) for c, r in zip(needed, raw_names)}
    if table.num_rows == 0:
        raise CLIError(f"{name}: the file has a header but no data rows.")
    return header, cols, table.num_rows


def _release_arrow_memory() -> None:
    """Hand back to the system the memory pyarrow's pool keeps after a read
    (its parse buffers: hundreds of MB for a large file, otherwise held for
    the whole run)."""
    arrow = sys.modules.get("pyarrow")
    if arrow is not None:
        arrow.default_memory_pool().release_unused()


def read_table(
    path: str,
    needed: Sequence[str],
    *,
    numeric: Sequence[str] = (),
    sep: str | None = None,
    decimal: str = ".",
    encoding: str | None = None,
    comment: str | None = None,
    engine: str | None = None,
) -> Table:
    """Read the columns ``needed`` of ``path`` (``-``: standard input).

    ``numeric`` columns are read as numbers by the fast engines (anything
    else sends the file to the python engine, which reports the first
    offending value).  Returns a :class:`Table`; every problem is a one-line
    :class:`CLIError`."""
    name = display_name(path)
    needed = list(dict.fromkeys(needed))
    raw = read_bytes(path)
    digest = hashlib.sha256(raw).hexdigest()
    data, layers, fmt = unpack(raw, name)
    info: dict[str, Any] = {"format": fmt, "compression": "+".join(layers) or None}
    if fmt == "parquet":
        given = [
            o
            for o, v in (("--sep", sep), ("--comment", comment), ("--encoding", encoding))
            if v
        ]
        if decimal != "." or given:
            opts = ", ".join([*given, *(["--decimal"] if decimal != "." else [])])
            raise CLIError(
                f"{name} is a Parquet file (typed columns): the text-file options "
                f"{opts} do not apply; leave them out."
            )
        header, cols, n = _read_parquet(data, name, needed, False)
        info["engine"] = "pyarrow"
        _release_arrow_memory()
        return Table(name, header, cols, n, digest, info)
    data, enc, note = to_utf8(data, name, encoding)
    info["encoding"] = enc
    if note:
        info["note"] = note
    first = data[:256].lstrip()
    comment_hint = comment is None and first.startswith(b"#")
    data = drop_comments(data, comment)
    if not data.strip():
        raise CLIError(f"{name}: the file is empty.")
    if sep is None:
        sep = sniff_separator(data[:_SAMPLE].decode("utf-8", "ignore"))
    info["sep"] = sep
    raw_header = read_header(data, sep, name)
    header = check_header(raw_header, name)
    for col in needed:
        missing_column(header, col, name, comment_hint, sep)
    raw_names = {c: raw_header[header.index(c)] for c in needed}
    numeric_set = {raw_names[c] for c in numeric}
    order = _engines() if engine is None else [engine, "python"]
    for eng in order:
        if eng == "python":
            break
        try:
            if eng == "pyarrow":
                cols, n = _pyarrow_engine(
                    data, sep, decimal, list(raw_names.values()), numeric_set
                )
            else:
                cols, n = _pandas_engine(
                    data, sep, decimal, list(raw_names.values()), numeric_set, header
                )
        except Exception:  # noqa: BLE001 - any refusal: the python engine decides
            continue
        if n == 0:
            break
        info["engine"] = eng
        _release_arrow_memory()
        return Table(name, header, {c: cols[raw_names[c]] for c in needed}, n, digest, info)
    _, cols, n = _python_engine(data, sep, name, needed)
    info["engine"] = "python"
    return Table(name, header, cols, n, digest, info)
