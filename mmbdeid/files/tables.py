"""Tables (the review list, the error list, a threshold curve) in the format their file's
name says: CSV, TSV or JSON Lines, each also gzip-compressed (:data:`~mmbdeid.files.
outputs.TABLE`); all or nothing, like every output.

A row gives one cell per column, as the CSV shows it (each table keeps its own number
forms: ``0.5000``, ``0.05``), and a list cell as a list (joined by ``;`` in CSV and TSV).
In JSON Lines a row is an object of the columns: numbers as numbers read back from those
cells (so rounded alike), an empty number cell null, a list an array. In CSV and TSV, files
opened in spreadsheets, a text cell that a spreadsheet would run as a formula is written
as text (:mod:`mmbdeid.files.spreadsheet`).
"""
import contextlib
import csv
import json
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from .atomic import atomic_output
from .formats import split_format
from .spreadsheet import spreadsheet_text

TEXT, WHOLE, REAL, LIST = "text", "whole", "real", "list"
LIST_SEPARATOR = ";"


class Column(NamedTuple):
    name: str
    kind: str = TEXT          # TEXT, WHOLE (an integer), REAL (a number) or LIST


def _json_value(kind: str, cell: Any) -> Any:
    if kind == WHOLE:
        return int(cell)
    if kind == REAL:
        return None if cell == "" else float(cell)
    if kind == LIST:
        return list(cell)
    return cell


def _sheet_cell(kind: str, cell: Any) -> Any:
    if kind == LIST:
        return spreadsheet_text(LIST_SEPARATOR.join(cell))
    return spreadsheet_text(cell) if kind == TEXT else cell


@contextlib.contextmanager
def table_output(path: str, fmt: str, columns: Sequence[Column], private: bool = False,
                 csv_line_end: str = "\n") -> Iterator[Callable[[Sequence[Any]], None]]:
    """A function writing one row to ``path`` in format ``fmt`` (``csv``, ``tsv.gz``,
    ...), a header first in CSV and TSV. ``csv_line_end``: the CSV's (TSV: ``\\n``)."""
    kind, compressed = split_format(fmt)
    with atomic_output(path, private, compressed=compressed) as handle:
        if kind == "jsonl":
            def write(cells: Sequence[Any]) -> None:
                handle.write(json.dumps({column.name: _json_value(column.kind, cell)
                                         for column, cell in zip(columns, cells)},
                                        ensure_ascii=False) + "\n")
        else:
            writer = csv.writer(handle, delimiter="\t" if kind == "tsv" else ",",
                                lineterminator=csv_line_end if kind == "csv" else "\n")
            writer.writerow([column.name for column in columns])

            def write(cells: Sequence[Any]) -> None:
                writer.writerow([_sheet_cell(column.kind, cell)
                                 for column, cell in zip(columns, cells)])
        yield write
