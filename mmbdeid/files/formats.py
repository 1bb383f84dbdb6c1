"""Which format a posts file is in, and which format an output gets.

A format is named like its extension: ``jsonl``, ``csv``, ``tsv``, ``parquet``, and the
gzip-compressed text formats ``jsonl.gz``, ``csv.gz``, ``tsv.gz``. An input's format comes
from its extension, else from its first bytes: Parquet's ``PAR1``; gzip's magic number
(then the decompressed text is sniffed); a first non-blank character ``{`` for JSON Lines;
a header line with a tab and no comma for TSV; CSV otherwise. An output's format comes
from its extension: an unknown one is an error, never a silent JSON Lines file.
"""
import csv
import os
from typing import List, Optional, Tuple

from ..errors import InputError
from .lines import GZIP_MAGIC, first_bytes, first_meaningful_line
from .postfile import field_names_of, format_of

TEXT_KINDS = ("jsonl", "csv", "tsv")
PARQUET = "parquet"
GZ = ".gz"
# Every format name, as --input-format and --output-format take them.
POST_FORMATS = TEXT_KINDS + (PARQUET,) + tuple(kind + GZ for kind in TEXT_KINDS)

JSONL_EXTENSIONS = (".jsonl", ".ndjson", ".json")
CSV_EXTENSIONS = (".csv",)
TSV_EXTENSIONS = (".tsv",)
PARQUET_EXTENSIONS = (".parquet",)
CONLL_EXTENSIONS = (".conll", ".txt", ".bio")    # and .tsv when it is not a TSV of posts
_KIND_OF_EXTENSION = dict([(e, "jsonl") for e in JSONL_EXTENSIONS]
                          + [(e, "csv") for e in CSV_EXTENSIONS]
                          + [(e, "tsv") for e in TSV_EXTENSIONS]
                          + [(e, PARQUET) for e in PARQUET_EXTENSIONS])
PARQUET_MAGIC = b"PAR1"


def split_format(fmt: str) -> Tuple[str, bool]:
    """(kind, gzip-compressed): ``"csv.gz"`` -> ``("csv", True)``."""
    if fmt.endswith(GZ):
        return fmt[:-len(GZ)], True
    return fmt, False


def _extensions(path) -> Tuple[str, bool]:
    """(the extension less any ``.gz``, lower case; whether it ended in ``.gz``)."""
    name = os.path.basename(os.fspath(path)).lower()
    compressed = name.endswith(GZ)
    if compressed:
        name = name[:-len(GZ)]
    return os.path.splitext(name)[1], compressed


def extension_format(path) -> Optional[str]:
    """The format the file name gives (``x.csv.gz`` -> ``csv.gz``), or None."""
    extension, compressed = _extensions(path)
    kind = _KIND_OF_EXTENSION.get(extension)
    if kind is None or (compressed and kind == PARQUET):
        return None
    return kind + GZ if compressed else kind


def known_output_extensions() -> List[str]:
    """Every extension an output of posts may have, for messages."""
    plain = list(_KIND_OF_EXTENSION)
    return plain + [e + GZ for e in plain if _KIND_OF_EXTENSION[e] != PARQUET]


# --- inputs -----------------------------------------------------------------------------

def _sniffed_text_kind(source) -> str:
    line = first_meaningful_line(source)
    if line.lstrip().startswith("{"):
        return "jsonl"
    return "tsv" if "\t" in line and "," not in line else "csv"


def _gzipped(source) -> bool:
    return first_bytes(source, len(GZIP_MAGIC)) == GZIP_MAGIC


def post_format(source) -> str:
    """The format of a posts file: given (a ``PostFile``'s), by extension, else sniffed."""
    fmt = format_of(source) or extension_format(source)
    if fmt:
        return fmt
    if first_bytes(source) == PARQUET_MAGIC:
        return PARQUET
    kind = _sniffed_text_kind(source)
    return kind + GZ if _gzipped(source) else kind


def corpus_format(source) -> str:
    """``"conll"`` or a posts format, for a labelled corpus: by extension, else sniffed.

    A ``.tsv`` file, or one without a telling extension, is TSV posts when its first line
    is a header naming the id and text fields, CSV when it is such a header with commas,
    JSON Lines when it starts with ``{``, and CoNLL otherwise. A ``.tsv`` file whose first
    line has three or more tab-separated fields is TSV posts too (CoNLL has two), so
    that a header without those names is reported as such.
    """
    given = format_of(source)
    if given:
        return given
    extension, compressed = _extensions(source)
    if extension in CONLL_EXTENSIONS:
        return "conll"
    fmt = extension_format(source)
    if fmt and split_format(fmt)[0] != "tsv":
        return fmt
    if fmt is None and first_bytes(source) == PARQUET_MAGIC:
        return PARQUET
    first = first_meaningful_line(source)
    kind = "conll"
    if first.lstrip().startswith("{"):
        kind = "jsonl"
    else:
        names = field_names_of(source)
        for candidate, delimiter in (("tsv", "\t"), ("csv", ",")):
            header = [cell.strip() for cell in next(csv.reader([first], delimiter=delimiter), [])]
            if names.id in header and names.text in header:
                kind = candidate
                break
    if kind == "conll" and fmt and first.count("\t") >= 2:
        kind = "tsv"
    if kind == "conll":
        return kind
    return kind + GZ if compressed or _gzipped(source) else kind


# --- outputs ----------------------------------------------------------------------------

def output_format(path: str, input_format: str, requested: Optional[str] = None) -> str:
    """The format of a posts output: ``requested`` (``--output-format``), else the one its
    extension names; with no extension (or ``-``, standard output) the input's, not
    compressed. An unknown extension, or one that contradicts ``requested``, is an
    ``InputError`` naming the path."""
    if path == "-":
        return requested or split_format(input_format)[0]
    by_extension = extension_format(path)
    if requested:
        if by_extension and by_extension != requested:
            raise InputError("the extension says %s, --output-format says %s"
                             % (by_extension, requested), path)
        return requested
    if by_extension:
        return by_extension
    extension, compressed = _extensions(path)
    if not extension and not compressed:
        return split_format(input_format)[0]
    raise InputError("unknown output extension %r: use one of %s (or --output-format)"
                     % (extension + (GZ if compressed else ""),
                        ", ".join(known_output_extensions())), path)
