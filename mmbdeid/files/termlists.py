"""User term lists (allow / deny) read from files: plain text, one term per line, or the
``review`` command's CSV.

A reviewer keeps two lists: *allow* terms the model should leave alone (``Arthur C.
Clarke``, a drug the model keeps tagging) and *deny* terms that must always go (a
username the model misses).  How they are applied: :mod:`mmbdeid.detect.lists`.
"""
from __future__ import annotations

import csv
import os
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import InputError
from ..output.spreadsheet import from_spreadsheet_text
from ..text.terms import normalize_term

CSV_TERM_COLUMN = "string"   # the column of the ``review`` command's CSV we read


def load_terms(path: str) -> List[str]:
    """The terms of a user's list file, in file order, duplicates dropped.

    A ``.csv`` file is read as ``review`` output: a header with a ``string`` column,
    whose cells are the terms (other columns ignored; the apostrophe that keeps a
    spreadsheet from reading ``@name`` as a formula is dropped).  Any other file is plain text, one
    term per line; blank lines and ``#`` comment lines are skipped.  Terms are
    whitespace-normalised (``normalize_term``); empty cells are skipped; spellings that
    differ in case are all kept (a case-sensitive matcher needs each).  An unreadable,
    missing or non-UTF-8 file, or a CSV without a ``string`` column, raises
    ``InputError`` naming the file (and line).
    """
    lines = list(_decoded_lines(path))
    if os.path.splitext(str(path))[1].lower() == ".csv":
        terms = _csv_terms(path, lines)
    else:
        terms = (line for _, line in lines
                 if line.strip() and not line.lstrip().startswith("#"))
    unique: Dict[str, None] = {}   # a dict keeps first-seen order
    for term in terms:
        term = normalize_term(term)
        if term:
            unique.setdefault(term)
    return list(unique)


def _decoded_lines(path: str) -> Iterator[Tuple[int, str]]:
    """``(line_number, line)`` decoded as UTF-8, ending kept, leading BOM dropped."""
    # Decoding line by line pins an undecodable byte to its line for the error message.
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error), path) from None
    with handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError("not UTF-8: undecodable byte 0x%02x at column %d"
                                 % (raw[error.start], error.start + 1), path, number) from None
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            yield number, line


def _csv_terms(path: str, lines: Sequence[Tuple[int, str]]) -> Iterator[str]:
    reader = csv.reader((line for _, line in lines), strict=True)
    column: Optional[int] = None
    header_line = 0
    while True:
        start = reader.line_num + 1          # physical line the next record starts on
        try:
            row = next(reader)
        except StopIteration:
            return                            # an empty file is an empty list
        except csv.Error as error:
            raise InputError("malformed CSV: %s" % error, path, start) from None
        if not row:
            continue                          # blank line
        if column is None:
            header = [cell.strip() for cell in row]
            if CSV_TERM_COLUMN not in header:
                raise InputError("CSV header has no %r column (expected the output of "
                                 "'mmbdeid review')" % CSV_TERM_COLUMN, path, start)
            column, header_line = header.index(CSV_TERM_COLUMN), start
            continue
        if column >= len(row):
            raise InputError("row has %d fields, no %r (column %d of the header on line %d)"
                             % (len(row), CSV_TERM_COLUMN, column + 1, header_line),
                             path, start)
        yield from_spreadsheet_text(row[column])
