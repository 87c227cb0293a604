"""Spreadsheets given to the command line: an Excel workbook (.xlsx) is read
with pandas and openpyxl (the optional ``excel`` extra, imported only when
such a file arrives) as CSV text of its first sheet; without them, and for
legacy .xls and OpenDocument files, the message says to save it as CSV."""

from __future__ import annotations

import io
import warnings
import zipfile

from ._common import CLIError, import_for_cli

__all__ = ["excel_as_csv", "spreadsheet_kind"]

_SAVE_AS_CSV = "save it as CSV (in Excel: File > Save As > CSV UTF-8)"


def spreadsheet_kind(raw: bytes, kind: str) -> str | None:
    """``"xlsx"``, ``"xls"`` or ``"ods"`` when the zip or OLE2 bytes ``raw``
    are a spreadsheet, else None (a zip of a CSV file)."""
    if kind == "ole2":
        return "xls"
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            names = zf.namelist()
            if "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names):
                return "xlsx"
            if "mimetype" in names and b"spreadsheet" in zf.read("mimetype"):
                return "ods"
    except (zipfile.BadZipFile, OSError, ValueError):
        return None
    return None


def excel_as_csv(raw: bytes, name: str, sheet: str) -> bytes:
    """The first sheet of an Excel workbook as UTF-8 CSV text (header, then
    rows; empty cells are missing values), read with pandas and openpyxl
    (the ``excel`` extra, imported only here); without them a CLIError that
    says to save the sheet as CSV."""
    if sheet != "xlsx":
        what = "a legacy Excel (.xls)" if sheet == "xls" else "an OpenDocument (.ods)"
        raise CLIError(f"{name}: {what} spreadsheet; save it as CSV or as .xlsx.")
    # pandas reads it with openpyxl; the excel extra brings both
    workbook, hint = f"{name}: an Excel workbook (.xlsx)", f"Or {_SAVE_AS_CSV}."
    import_for_cli("openpyxl", needed_for=workbook, hint=hint)
    pd = import_for_cli("pandas", needed_for=workbook, extra="excel", hint=hint)
    try:
        book = pd.ExcelFile(io.BytesIO(raw), engine="openpyxl")
        sheets = book.sheet_names
        frame = book.parse(sheets[0])
    except Exception as exc:  # noqa: BLE001 - a damaged workbook: say so in one line
        raise CLIError(f"{name}: cannot read the Excel workbook ({exc}).") from None
    if frame.shape[1] == 0:
        raise CLIError(f"{name}: the first sheet ({sheets[0]!r}) is empty.")
    if len(sheets) > 1:
        warnings.warn(
            f"{name}: read the first of {len(sheets)} sheets ({sheets[0]!r}); to use "
            "another one, save it as CSV.",
            UserWarning,
            stacklevel=2,
        )
    frame.columns = [str(c) for c in frame.columns]
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")
