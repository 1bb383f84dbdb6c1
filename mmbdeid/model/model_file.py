"""The model file: one zip of the crfsuite model(s) and a JSON file of parameters and
metadata, written whole and read back checked.

A model file is not trusted: everything read is capped and checked before use, so that
every way a file can be wrong (not a zip, a member too large, meta.json not a JSON object
of the known format, a parameter unknown, missing, of the wrong type or out of range,
classes that are not the name labels, crfsuite bytes that crfsuite could not read safely)
is an ``InputError`` naming the file, never a crash, a traceback or a huge allocation.
"""
import io
import json
import os
import re
import zipfile
import zlib
from typing import NamedTuple, Optional, Tuple

from ..errors import InputError
from ..files.atomic import atomic_binary_output
from ..files.stdio import STDIO
from .crfsuite_format import CrfsuiteFormatError, check_model_bytes
from .hyperparameters import (HYPERPARAMETERS, LABELS, LATER_HYPERPARAMETERS, MAX_WINDOW,
                              first_problem)

MODEL_FORMAT = "mmbdeid-model/1"
META_KEYS = ("format", "params", "classes", "metadata")
MAX_META_BYTES = 10 * 2 ** 20
MAX_CRFSUITE_BYTES = 200 * 2 ** 20
MAX_ZIP_DIRECTORY_BYTES = 2 ** 20     # a model file has two members: some 200 bytes
MODEL_MEMBER = "model.crfsuite"
CONTEXT_MEMBER = "context.crfsuite"     # the second stage, in a two-stage model file
META_MEMBER = "meta.json"


class ModelFile(NamedTuple):
    """What a model file holds, checked."""
    params: dict                    # every hyperparameter
    classes: list                   # the labels of the first stage
    metadata: Optional[dict]        # as saved: the job's and what fit learned
    model_bytes: bytes              # the first stage's crfsuite model
    context_bytes: Optional[bytes]  # the second stage's (None: a one-stage model)


def write_model_file(path: str, saved: ModelFile) -> None:
    """Write ``saved`` to ``path`` (not standard output), private (mode 0600): a model's
    token features hold words of the training posts verbatim, names and usernames among
    them. A device or FIFO is streamed to."""
    meta = {"format": MODEL_FORMAT, "params": saved.params,
            "classes": saved.classes, "metadata": saved.metadata}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MODEL_MEMBER, saved.model_bytes)
        if saved.context_bytes is not None:
            archive.writestr(CONTEXT_MEMBER, saved.context_bytes)
        archive.writestr(META_MEMBER, json.dumps(meta, indent=2, sort_keys=True))
    if os.fspath(path) == STDIO:
        raise InputError("a model cannot go to standard output: give a file", path)
    with atomic_binary_output(path, private=True) as handle:
        handle.write(buffer.getvalue())


def read_model_file(path: str) -> ModelFile:
    """The model file at ``path``, every part checked (``InputError`` naming the file)."""
    meta_bytes, model_bytes, context_bytes = _read_members(path)
    params, classes, metadata = _check_meta(meta_bytes, path)
    try:
        summary = check_model_bytes(model_bytes)
    except CrfsuiteFormatError as error:
        raise InputError("corrupt crfsuite model (%s)" % error, path)
    if sorted(summary.labels) != sorted(classes):
        raise InputError("the crfsuite model's labels %s are not the classes %s"
                         % (_short(summary.labels), _short(classes)), path)
    if context_bytes is not None:
        try:
            context_summary = check_model_bytes(context_bytes)
        except CrfsuiteFormatError as error:
            raise InputError("corrupt second-stage crfsuite model (%s)" % error, path)
        if not set(context_summary.labels) <= set(LABELS):
            raise InputError("the second stage's labels %s are not name labels"
                             % _short(context_summary.labels), path)
    # A window smaller than the one the model was trained with would silently drop
    # the features beyond it (the featurizer prefixes them "%+d:" by offset).
    beyond = "|".join(str(d) for d in range(params["window"] + 1, MAX_WINDOW + 2))
    found = re.search("\0([+-](?:%s)):" % beyond, "\0" + summary.attributes)
    if found:
        raise InputError("the model has features at token offset %s but its window is %d"
                         % (found.group(1), params["window"]), path)
    return ModelFile(params, classes, metadata, model_bytes, context_bytes)


class _CappedReads:
    """A model file for ``zipfile`` whose reads are capped while the zip directory is
    read: a directory of millions of members would take gigabytes as ``ZipInfo``s."""

    def __init__(self, handle, cap: Optional[int]):
        self.handle = handle
        self.cap = cap

    def read(self, size: int = -1) -> bytes:
        if self.cap is None or (size is not None and 0 <= size <= self.cap):
            return self.handle.read(size)
        if size is None or size < 0:            # the rest: at most the cap (/dev/zero...)
            data = self.handle.read(self.cap + 1)
            if len(data) <= self.cap:
                return data
        raise zipfile.BadZipFile("a zip directory of more than %d bytes: not a model file"
                                 % self.cap)

    def __getattr__(self, name):            # seek, tell, seekable, ...
        return getattr(self.handle, name)


def _read_members(path: str) -> Tuple[bytes, bytes, Optional[bytes]]:
    """The bytes of meta.json, model.crfsuite and the second stage's crfsuite model (None
    in a one-stage model), each read only up to its cap."""
    try:
        with open(path, "rb") as handle:
            capped = _CappedReads(handle, MAX_ZIP_DIRECTORY_BYTES)
            with zipfile.ZipFile(capped) as archive:
                capped.cap = None
                context = (_read_member(archive, CONTEXT_MEMBER, MAX_CRFSUITE_BYTES, path)
                           if CONTEXT_MEMBER in archive.namelist() else None)
                return (_read_member(archive, META_MEMBER, MAX_META_BYTES, path),
                        _read_member(archive, MODEL_MEMBER, MAX_CRFSUITE_BYTES, path),
                        context)
    except FileNotFoundError:
        raise InputError("model file not found", path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, ValueError, OSError, EOFError,
            RuntimeError, NotImplementedError, zlib.error) as error:
        # RuntimeError: an encrypted member; NotImplementedError: an unknown compression
        raise InputError("not an mmbdeid model file (%s)" % _one_line(error), path)


def _read_member(archive: zipfile.ZipFile, name: str, cap: int, path: str) -> bytes:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise InputError("not an mmbdeid model file (no %s in it)" % name, path)
    if info.file_size > cap:
        raise InputError("%s is %d bytes: more than a model file has (at most %d)"
                         % (name, info.file_size, cap), path)
    with archive.open(info) as member:      # reads no more than file_size
        data = member.read(cap + 1)
    if len(data) != info.file_size:
        raise InputError("%s is %d bytes, its zip entry says %d"
                         % (name, len(data), info.file_size), path)
    return data


def _check_meta(meta_bytes: bytes, path: str) -> Tuple[dict, list, Optional[dict]]:
    """The hyperparameters, classes and metadata of meta.json, each checked."""
    try:
        meta = json.loads(meta_bytes.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError("meta.json is not UTF-8", path)
    except (ValueError, RecursionError) as error:
        raise InputError("meta.json is not JSON (%s)" % _one_line(error), path)
    if not isinstance(meta, dict):
        raise InputError("meta.json is not a JSON object", path)
    unknown = sorted(set(meta) - set(META_KEYS))
    if unknown:
        raise InputError("meta.json has unknown keys %s" % _short(unknown), path)
    if meta.get("format") != MODEL_FORMAT:
        raise InputError("unknown model format %s (expected %r)"
                         % (_short(meta.get("format")), MODEL_FORMAT), path)
    params = meta.get("params")
    if not isinstance(params, dict):
        raise InputError("meta.json has no params object", path)
    unknown = sorted(set(params) - set(HYPERPARAMETERS))
    if unknown:
        raise InputError("unknown model parameters %s" % _short(unknown), path)
    params = {**LATER_HYPERPARAMETERS, **params}
    missing = [name for name in HYPERPARAMETERS if name not in params]
    if missing:
        raise InputError("missing model parameters %s" % ", ".join(missing), path)
    problem = first_problem(params)
    if problem:
        raise InputError("model parameter " + problem, path)
    classes = meta.get("classes")
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes) \
            or not set(classes) <= set(LABELS) or "O" not in classes \
            or len(set(classes)) != len(classes):
        raise InputError("model classes must be distinct labels of %s including 'O', got %s"
                         % (", ".join(LABELS), _short(classes)), path)
    metadata = meta.get("metadata")
    if "metadata" in meta and not isinstance(metadata, dict):
        raise InputError("model metadata must be a JSON object, got %s" % _short(metadata),
                         path)
    return params, classes, metadata


def _one_line(error: Exception) -> str:
    """An exception's message on one line, cut short (it may quote the file's bytes)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _short(value) -> str:
    """A value for an error message: its repr, on one line, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
