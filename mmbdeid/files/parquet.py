"""Posts in Parquet, through pyarrow: an optional dependency (``pip install 'mmbdeid[parquet]'``).

Rows are read in batches (``ParquetFile.iter_batches``), so a big file is never loaded
whole. A row's number (1-based) is its "line" in error messages and reject files.

An output keeps the input's columns and types when the input is Parquet too (the text
column gets the scrubbed text). From another format, each column's type comes from the
values pass 1 saw (:class:`ColumnKinds`): strings, integers, floats, booleans; a column
mixing kinds or holding lists or objects is JSON text, as in a CSV output.
"""
import json
import os
from typing import IO, Any, Dict, Iterator, List, Optional, Set, Tuple

from ..errors import InputError

INSTALL_HINT = "reading or writing Parquet needs pyarrow: pip install 'mmbdeid[parquet]'"
BATCH_ROWS = 4096                  # rows per read batch
FLUSH_ROWS = 10_000                # rows per written row group, at most
FLUSH_CHARS = 64 * 1024 * 1024     # ... or this much text, whichever comes first


def pyarrow_modules(where=None):
    """``(pyarrow, pyarrow.parquet)``, or an ``InputError`` saying how to install them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise InputError(INSTALL_HINT, None if where is None else str(where)) from None
    return pyarrow, pyarrow.parquet


def _open(source):
    pa, pq = pyarrow_modules(source)
    try:
        return pq.ParquetFile(os.fspath(source))
    except (OSError, pa.ArrowException) as error:
        raise InputError("not a readable Parquet file: %s" % error, str(source)) from None


def arrow_schema(source):
    """The Arrow schema of a Parquet file (what an output copies)."""
    return _open(source).schema_arrow


def column_names(source) -> List[str]:
    """The columns of a Parquet file, in order."""
    return list(_open(source).schema_arrow.names)


def read_rows(source) -> Iterator[Tuple[int, Dict[str, Any]]]:
    """``(row_number, fields)`` for every row, 1-based, fields in column order, read batch
    by batch. A damaged file is an ``InputError`` at the first row not read."""
    pa, _ = pyarrow_modules(source)
    batches = _open(source).iter_batches(batch_size=BATCH_ROWS)
    row = 0
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (OSError, pa.ArrowException) as error:
            raise InputError("cannot read Parquet data: %s" % error, str(source),
                             row + 1) from None
        for fields in batch.to_pylist():
            row += 1
            yield row, fields


# --- writing ----------------------------------------------------------------------------

class ColumnKinds:
    """The Python types seen in each field of the records (pass 1), for the column types
    of a Parquet output written from JSON Lines or CSV."""

    def __init__(self):
        self.kinds: Dict[str, Set[type]] = {}

    def observe(self, fields: Dict[str, Any]) -> None:
        kinds = self.kinds
        for name, value in fields.items():
            seen = kinds.get(name)
            if seen is None:
                kinds[name] = {type(value)}
            else:
                seen.add(type(value))


def _column_type(pa, kinds: Set[type]):
    """(Arrow type, whether values are written as JSON text)."""
    kinds = kinds - {type(None)}
    if kinds <= {str}:
        return pa.string(), False
    if kinds == {bool}:
        return pa.bool_(), False
    if kinds == {int}:
        return pa.int64(), False
    if kinds <= {int, float}:
        return pa.float64(), False
    return pa.string(), True


def _json_text(value: Any) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class ParquetPostWriter:
    """Writes records (field dicts, the dump's own field names) to a binary handle as
    Parquet, in row groups of at most ``FLUSH_ROWS`` rows. The schema is ``schema`` (an
    input Parquet file's), else built from ``columns`` and their ``kinds``.
    Call ``close`` to write the footer."""

    def __init__(self, handle: IO[bytes], columns: List[str], where: str, schema=None,
                 kinds: Optional[Dict[str, Set[type]]] = None):
        self._pa, pq = pyarrow_modules(where)
        pa = self._pa
        self._where = where
        self._json_columns: List[str] = []
        if schema is None:
            fields = []
            for name in columns:
                arrow_type, as_json = _column_type(pa, (kinds or {}).get(name, {str}))
                fields.append(pa.field(name, arrow_type))
                if as_json:
                    self._json_columns.append(name)
            schema = pa.schema(fields)
        self._schema = schema
        self._writer = pq.ParquetWriter(handle, schema)
        self._rows: List[Dict[str, Any]] = []
        self._chars = 0
        self._first_row = 1

    def write(self, fields: Dict[str, Any]) -> None:
        if self._json_columns:
            fields = dict(fields)
            for name in self._json_columns:
                if name in fields:
                    fields[name] = _json_text(fields[name])
        self._rows.append(fields)
        self._chars += sum(len(value) for value in fields.values() if isinstance(value, str))
        if len(self._rows) >= FLUSH_ROWS or self._chars >= FLUSH_CHARS:
            self._flush()

    def _flush(self) -> None:
        if not self._rows:
            return
        try:
            table = self._pa.Table.from_pylist(self._rows, schema=self._schema)
        except (self._pa.ArrowException, OverflowError, TypeError) as error:
            # pyarrow's message may quote a value, and stderr holds no post text
            raise InputError("cannot write rows %d-%d as Parquet with the columns %s (%s; "
                             "an integer beyond 64 bits?): write JSON Lines instead"
                             % (self._first_row, self._first_row + len(self._rows) - 1,
                                _describe(self._schema), type(error).__name__),
                             self._where) from None
        self._writer.write_table(table)
        self._first_row += len(self._rows)
        self._rows, self._chars = [], 0

    def close(self) -> None:
        """Write what is buffered and the footer."""
        self._flush()
        self._writer.close()

    def abandon(self) -> None:
        """Stop without writing the rest (the output is being thrown away)."""
        self._rows = []
        try:
            self._writer.close()
        except Exception:     # noqa: BLE001 - the output is discarded anyway
            pass


def _describe(schema) -> str:
    return ", ".join("%s: %s" % (f.name, f.type) for f in schema)

