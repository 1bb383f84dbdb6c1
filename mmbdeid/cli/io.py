"""The files a command reads and writes: posts inputs with the options' field names and
format (standard input spooled), output formats, the outputs checked and locked before any
work, and the model."""
import contextlib
import dataclasses
import os
from typing import Optional

from ..errors import InputError

_STDIN_INPUTS = ("dump", "scrubbed", "original", "marked")   # the inputs that may be -
# posts inputs read more than once (train's --dev too; split's --dev is an output)
_POSTS_INPUTS = _STDIN_INPUTS + ("gold", "corpus")


@contextlib.contextmanager
def stdin_spooled(args):
    """An input given as ``-`` is standard input, copied first to a private temporary file
    (a dump is read more than once), removed afterwards, also on an error; so is a posts
    input path that can be read only once (a FIFO, ``<(zcat dump.gz)``)."""
    from ..files.stdio import STDIO, is_read_once
    given = [name for name in _STDIN_INPUTS if getattr(args, name, None) == STDIO]
    if len(given) > 1:
        raise InputError("only one input can be standard input (-)")
    names = _POSTS_INPUTS + (("dev",) if args.command == "train" else ())
    with contextlib.ExitStack() as spools:
        for name in names:
            value = getattr(args, name, None)
            paths = value if isinstance(value, list) else [value]
            spooled = [spools.enter_context(_spooled_input(path))
                       if path and (path == STDIO and name in given or is_read_once(path))
                       else path for path in paths]
            if spooled != paths:
                setattr(args, name, spooled if isinstance(value, list) else spooled[0])
        yield


@contextlib.contextmanager
def _spooled_input(path: str):
    """The spooled copy of the input ``path`` (``-``: standard input), as a ``PostFile``
    that messages name as the user did and that knows where it came from."""
    from ..files.postfile import PostFile
    from ..files.stdio import STDIN_NAME, STDIO, spooled_file, spooled_stdin
    with (spooled_stdin() if path == STDIO else spooled_file(path)) as spool:
        yield PostFile(spool.path, name=STDIN_NAME if path == STDIO else path,
                       origin=spool.origin)


def posts_source(args, path, sniff: bool = True):
    """The posts file ``path`` with the field names and format the options give
    (--id-field, --text-field, --input-format); with ``sniff`` its format is settled now
    (from the extension, else the content), so every reader and the output agree."""
    from ..files.postfile import FieldNames, PostFile
    from ..files.posts import post_format
    try:
        names = FieldNames(getattr(args, "id_field", "id"), getattr(args, "text_field", "text"))
    except ValueError as error:
        raise InputError("--id-field, --text-field: %s" % error) from None
    source = path if isinstance(path, PostFile) else PostFile(os.fspath(path))
    source = dataclasses.replace(source, fields=names,
                                 format=getattr(args, "input_format", None))
    if sniff and source.format is None:
        source = dataclasses.replace(source, format=post_format(source))
    return source


def output_formats(args) -> dict:
    """The format of each table or plot output of the command (a name for another format
    is refused)."""
    from ..files.outputs import command_output_formats
    return command_output_formats(command_name(args), args)


def command_name(args) -> str:
    """The command as typed: ``scrub``, or with its subcommand ``estimate draw``."""
    subcommand = getattr(args, "subcommand", None)
    return "%s %s" % (args.command, subcommand) if subcommand else args.command


def posts_output_format(output: str, dump, requested: Optional[str] = None) -> str:
    """The format of a posts output: ``requested`` (--output-format), else the one OUT's
    extension names, else (no extension, or ``-``) the dump's own, uncompressed. An
    unknown extension is an error, never a silent JSON Lines file; Parquet needs pyarrow.
    Both are checked here, before any work."""
    from ..files.formats import PARQUET, output_format
    from ..files.parquet import pyarrow_modules
    from ..files.posts import post_format
    fmt = output_format(output, post_format(dump), requested)
    if fmt == PARQUET:
        pyarrow_modules(output)
    return fmt


def check_plotting(path: Optional[str]) -> None:
    """Before any long work: --plot needs matplotlib, an optional extra."""
    from ..files.outputs import installed
    if path and not installed("matplotlib"):
        raise InputError("--plot needs matplotlib: pip install 'mmbdeid[plot]'", path)


@contextlib.contextmanager
def locked_outputs(outputs, inputs, stats: Optional[str] = None, rebuild: bool = False):
    """Before any work: the outputs may be written (files in writable directories,
    devices, FIFOs, standard output), none of them is an input or given twice; then they
    are locked for the run, so a second run on the same files stops at once. ``stats``
    (a --stats file) is an output when it will be built (missing, or ``rebuild``), else
    an input."""
    from ..files.locks import output_locks
    from ..files.targets import check_outputs
    if stats:
        (outputs if rebuild or not os.path.exists(stats) else inputs).append(stats)
    outputs = [path for path in outputs if path]
    check_outputs(outputs, inputs)
    with output_locks(outputs):
        yield


def load_model(path: Optional[str]):
    """The model at ``path`` (--model), else the bundled one, loaded once in this thread
    (:mod:`mmbdeid.model.loaded`)."""
    from ..model.loaded import loaded_model
    from ..model.tagger import default_model_path
    return loaded_model(path or default_model_path())
