"""CSV cells that a spreadsheet shows as text (OWASP, "CSV Injection").

Excel, LibreOffice and Google Sheets read a cell that begins with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return as a formula, which can run commands or send the sheet's
data away. In a file meant to be opened in a spreadsheet (the review list), such a cell
gets a leading apostrophe: spreadsheets then take it as text and do not show the
apostrophe. A scrubbed dump is data, not a sheet: its cells are written as they are.
Reading such a file back (a review list used as an allow list) drops the apostrophe.
"""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(cell: str) -> str:
    """``cell``, with an apostrophe in front if a spreadsheet would read it as a formula."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def from_spreadsheet_text(cell: str) -> str:
    """``cell`` as it was before :func:`spreadsheet_text` (a file written by mmbdeid, or
    saved by a spreadsheet, which drops the apostrophe itself)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell
