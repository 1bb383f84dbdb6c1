"""Which file names each kind of output takes, and the format each name gets.

An output is written in the format its extension names, or refused before any work with
one line naming the option and the extensions it takes: a review list named ``.jsonl`` is
JSON Lines, a plot named ``.pdf`` is a PDF, a plot named ``.txt`` is refused. A name
without an extension (and ``-``, standard output) gets the kind's default format.

Files in a format of mmbdeid's own (a model, corpus statistics, a person map) take their
usual extension or any other that names no format, but never one that names another
format (``-o model.csv``, ``-o people.json``). Posts outputs (``scrub -o``, ``split``)
are :func:`mmbdeid.files.formats.output_format`'s.
"""
import importlib.util
import os
from typing import Dict, NamedTuple, Optional, Tuple

from ..errors import InputError
from .formats import GZ, JSONL_EXTENSIONS, known_output_extensions
from .stdio import STDIO


class OutputKind(NamedTuple):
    what: str                     # for messages: "a table (CSV, TSV or JSON Lines)"
    formats: Dict[str, str]       # extension -> the format written
    default: Optional[str]        # the format of a name without an extension
    own: bool = False             # mmbdeid's own format: other unknown extensions pass
    needs_pillow: Tuple[str, ...] = ()    # extensions matplotlib writes through Pillow


def _with_gzip(formats: Dict[str, str]) -> Dict[str, str]:
    return dict(formats, **{extension + GZ: fmt + GZ for extension, fmt in formats.items()})


_JSONL = {extension: "jsonl" for extension in JSONL_EXTENSIONS}

TABLE = OutputKind("a table (CSV, TSV or JSON Lines)",
                   _with_gzip({".csv": "csv", ".tsv": "tsv", **_JSONL}), "csv")
# evaluate --errors wants its format named: no default for a name without an extension
ERROR_TABLE = TABLE._replace(default=None)
JSON_LINES = OutputKind("JSON Lines", _with_gzip(_JSONL), "jsonl")
PAGE = OutputKind("an HTML page", {".html": "html", ".htm": "html"}, "html")
PLOT = OutputKind("a plot", {".png": "png", ".pdf": "pdf", ".svg": "svg", ".eps": "eps",
                             ".ps": "ps", ".jpg": "jpeg", ".jpeg": "jpeg", ".tif": "tiff",
                             ".tiff": "tiff"}, "png",
                  needs_pillow=(".jpg", ".jpeg", ".tif", ".tiff"))
MODEL = OutputKind("a model file (a zip archive)", {".mmbdeid": "model", ".zip": "model"},
                   "model", own=True)
STATS = OutputKind("corpus statistics (an SQLite file)",
                   {".stats": "stats", ".sqlite": "stats", ".sqlite3": "stats", ".db": "stats"},
                   "stats", own=True)
PERSON_MAP = OutputKind("a person map (a text file)", {".map": "map", ".txt": "map"}, "map",
                        own=True)

KINDS = (TABLE, JSON_LINES, PAGE, PLOT, MODEL, STATS, PERSON_MAP)
# Every extension that names a format: an own-format file may not take one of another.
# (compressions and archives too: a model named .bz2 would not be bzip2)
NAMED_FORMATS = frozenset(e for kind in KINDS for e in kind.formats) | frozenset(
    known_output_extensions()) | {GZ, ".bz2", ".xz", ".zst", ".tar", ".tgz", ".7z"}


def extension(path: str) -> str:
    """The extension, lower case, with a final ``.gz`` kept: ``a.CSV.gz`` -> ``.csv.gz``."""
    name = os.path.basename(os.fspath(path)).lower()
    if name.endswith(GZ) and name != GZ:
        return os.path.splitext(name[:-len(GZ)])[1] + GZ
    return os.path.splitext(name)[1]


def output_format(path: str, kind: OutputKind, option: str) -> str:
    """The format ``path`` is written in as an output of ``kind`` given as ``option``
    (``review -o``), or an ``InputError`` naming the option and the extensions it takes."""
    ext = "" if path == STDIO else extension(path)
    if ext in kind.formats:
        if ext in kind.needs_pillow and not installed("PIL"):
            raise InputError("%s: %s needs Pillow (pip install pillow); without it use %s"
                             % (option, ext, _listed(e for e in kind.formats
                                                     if e not in kind.needs_pillow)), path)
        return kind.formats[ext]
    # a name of the kind's own format may have any extension that names no format
    if kind.default and (not ext or (kind.own and not ext.endswith(GZ)
                                     and ext not in NAMED_FORMATS)):
        return kind.default
    other = ""
    if kind.own:
        other = ", or an extension that names no other format"
    elif kind.default:
        other = ", or no extension"
    raise InputError("%s writes %s: use %s%s; not %s" % (
        option, kind.what, _listed(kind.formats), other,
        ext or ("standard output" if path == STDIO else "a name without an extension")), path)


# Each command's outputs but posts (scrub -o and split's: formats.output_format): (the
# option's dest, the option as typed, its kind).
COMMAND_OUTPUTS = {
    "train": [("output", "-o", MODEL), ("stats", "--stats", STATS)],
    "scrub": [("spans", "--spans", JSON_LINES), ("rejects", "--rejects", JSON_LINES),
              ("stats", "--stats", STATS)],
    "link": [("output", "-o", PERSON_MAP), ("stats", "--stats", STATS)],
    "review": [("output", "-o", TABLE), ("html", "--html", PAGE), ("stats", "--stats", STATS)],
    "evaluate": [("errors", "--errors", ERROR_TABLE), ("stats", "--stats", STATS)],
    "sweep": [("output", "-o", TABLE), ("plot", "--plot", PLOT), ("stats", "--stats", STATS)],
    "crossval": [("output", "-o", TABLE), ("plot", "--plot", PLOT)],
    "stats": [("output", "-o", STATS)],
    "sample": [("stats", "--stats", STATS)],
}


def command_output_formats(command: str, options) -> Dict[str, str]:
    """Before any work: the format of each output a command's ``options`` (parsed
    arguments) name, by the option's dest; a name for another format is an
    ``InputError``. An existing ``--stats`` file is read, not written: not checked."""
    formats = {}
    for dest, option, kind in COMMAND_OUTPUTS.get(command, ()):
        path = getattr(options, dest, None)
        if not path or (dest == "stats" and os.path.exists(path)
                        and not getattr(options, "stats_rebuild", False)):
            continue
        formats[dest] = output_format(path, kind, "%s %s" % (command, option))
    return formats


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:                   # a module set to None in sys.modules
        return False


def _listed(extensions) -> str:
    """``.csv, .tsv, .jsonl`` with the ``.gz`` forms as one note."""
    extensions = list(extensions)
    plain = [e for e in extensions if not e.endswith(GZ)]
    gzip_too = len(plain) < len(extensions)
    return ", ".join(plain) + (" (each also .gz)" if gzip_too else "")
