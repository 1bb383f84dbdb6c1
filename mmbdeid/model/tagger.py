"""The name tagger: a linear-chain CRF over per-token features, with marginals per token.

A scikit-learn estimator: ``__init__`` stores parameters as given, ``get_params``/
``set_params`` are ``BaseEstimator``'s (:mod:`mmbdeid.model.params`: scikit-learn itself
is imported only to train), ``sklearn.base.clone`` works on it, ``fit`` only learns and
returns self, learned state ends in ``_``. Training goes through
``sklearn_crfsuite.CRF``; tagging opens the learned model in memory with python-crfsuite,
so a tagger pickles (joblib too) and saves as one self-contained file.
"""
import dataclasses
import functools
import io
import json
import os
import random
import re
import zipfile
import zlib
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pycrfsuite

from .. import checks
from ..errors import InputError
from ..kinds import PERSON_LABELS
from .crfsuite_check import CrfsuiteFormatError, check_model_bytes
from .context import ContextTable, context_items
from .features import Featurizer
from .params import Parameters
from ..files.atomic import atomic_binary_output
from ..files.stdio import STDIO

# Training progress: (what is counted: "features" or "iterations", done, total).
TrainingProgress = Callable[[str, int, int], None]

LABELS = ("NAME", "USER", "O")
DEFAULT_THRESHOLD = 0.05
MODEL_FORMAT = "mmbdeid-model/1"
# The hyperparameters a model file keeps under "params" (every parameter but metadata).
HYPERPARAMETERS = ("c1", "c2", "max_iterations", "all_possible_transitions", "threshold",
                   "window", "lowercase_share", "random_state", "second_stage", "context_folds")
# Parameters added after models were first saved: a model file without them has these
# values (a one-stage model, as every model was before the second stage existed).
LATER_HYPERPARAMETERS = {"second_stage": False, "context_folds": 5}
# Metadata keys that fit learns: key in the saved metadata -> attribute of the tagger.
LEARNED_METADATA = (("hyperparameters", "hyperparameters_"),
                    ("training_tokens", "training_tokens_"),
                    ("training_documents", "training_documents_"))
# A model file is not trusted: what load reads is capped and checked (see NameTagger.load).
META_KEYS = ("format", "params", "classes", "metadata")
MAX_META_BYTES = 10 * 2 ** 20
MAX_CRFSUITE_BYTES = 200 * 2 ** 20
MAX_ZIP_DIRECTORY_BYTES = 2 ** 20     # a model file has two members: some 200 bytes
MAX_WINDOW = 10                       # tokens each side; the feature count grows with it
MAX_CONTEXT_FOLDS = 20
CONTEXT_MEMBER = "context.crfsuite"     # the second stage, in a two-stage model file
# The second stage has few features: light regularisation.
CONTEXT_C1 = 0.1
CONTEXT_C2 = 0.1


class NameTagger(Parameters):
    """CRF name tagger.

    Parameters are those of ``sklearn_crfsuite.CRF`` (L-BFGS with elastic-net
    regularisation) plus ``threshold``: a token is a name when P(NAME) + P(USER) exceeds it,
    and ``lowercase_share``: that share of the training documents (drawn with
    ``random_state``) is added again in lower case, so the model does not learn that only
    capitalised words are names (board posts and comments often write ``kay``, ``kevin``).
    The defaults (strong regularisation, which softens the marginals towards recall at a
    low threshold) were chosen on the WNUT17 development sweep; see docs/accuracy.md.

    ``second_stage``: also learn a second CRF over the first one's marginals pooled by
    token type in the post, thread, author's posts and board (``model/context.py``),
    trained on first-stage scores cross-validated in ``context_folds`` folds (grouped by
    thread), so it learns how far to trust them on text the first stage has not seen.

    ``metadata`` is the training job's description of the model (data, version, how the
    threshold was chosen); it is saved with the model. ``fit`` neither reads nor changes
    it nor the threshold: the job sets both with ``set_params``. ``metadata_`` is the
    metadata a fitted model saves: ``metadata`` plus what ``fit`` learned
    (``hyperparameters_``, ``training_tokens_``, ``training_documents_``).
    """

    def __init__(self, c1: float = 0.5, c2: float = 2.0, max_iterations: int = 200,
                 all_possible_transitions: bool = True, threshold: float = DEFAULT_THRESHOLD,
                 window: int = 2, lowercase_share: float = 0.3, random_state: int = 0,
                 second_stage: bool = False, context_folds: int = 5,
                 metadata: Optional[dict] = None):
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.all_possible_transitions = all_possible_transitions
        self.threshold = threshold
        self.window = window
        self.lowercase_share = lowercase_share
        self.random_state = random_state
        self.second_stage = second_stage
        self.context_folds = context_folds
        self.metadata = metadata

    def _hyperparameters(self) -> Dict[str, object]:
        """The parameters a model file keeps under "params": all but ``metadata``."""
        return {name: getattr(self, name) for name in HYPERPARAMETERS}

    def check_params(self) -> "NameTagger":
        """``TypeError`` / ``ValueError`` naming the first parameter that is wrong (as
        scikit-learn estimators do, checked when used, not when set)."""
        for name, value in self._hyperparameters().items():
            _PARAM_CHECKS[name](value, name)
        if self.metadata is not None and not isinstance(self.metadata, dict):
            raise TypeError("metadata must be a dict or None, not %s"
                            % checks.kind_of(self.metadata))
        return self

    # -- learning -------------------------------------------------------------------
    def fit(self, documents: Sequence, labels: Optional[Sequence] = None,
            stats=None, groups: Optional[Sequence] = None,
            progress: Optional[TrainingProgress] = None) -> "NameTagger":
        """Learn the first stage from ``documents`` (with ``stats``, their corpus
        statistics) and ``labels``, and with ``second_stage`` the second. ``groups``: the
        cross-validation group of each document (default: its board and thread when it
        has a thread, else the document alone).

        ``progress(what, done, total)`` hears of the features of each training document
        and of each L-BFGS iteration (the command line shows it).

        ``documents`` may be posts as a user holds them (see :func:`as_training_data`):
        texts with ``labels`` their gold spans, or annotated post dicts with ``text`` and
        ``spans`` (``labels`` None); their statistics are built from them when ``stats``
        is None, as ``mmbdeid train`` does. Tokenised documents take one label per token.
        """
        self.check_params()
        documents, labels, built_stats = as_training_data(documents, labels)
        if stats is None:
            stats = built_stats
        for document, seq in zip(documents, labels):
            if len(seq) != len(document):
                raise ValueError("labels and tokens differ in length")
            unknown = set(seq) - set(LABELS)
            if unknown:
                raise ValueError("unknown labels %s; expected %s" % (sorted(unknown), LABELS))
        featurizer = Featurizer(stats, window=self.window)
        copies, copy_labels = _with_lowercase_copies(documents, labels, self.lowercase_share,
                                                     self.random_state)
        y = [list(seq) for seq in copy_labels]
        self.model_bytes_, self.classes_ = _train_crf(
            (featurizer.document_items(d) for d in copies), y, self.c1, self.c2,
            self.max_iterations, self.all_possible_transitions, progress)
        self.context_bytes_ = None
        self._reset()
        if self.second_stage:
            scores = self._cross_validated_scores(documents, labels, stats, groups)
            table = ContextTable.of(documents, scores)
            self.context_bytes_, _ = _train_crf(
                (context_items(d, s, table, i) for i, (d, s) in enumerate(zip(documents,
                                                                              scores))),
                [list(seq) for seq in labels], CONTEXT_C1, CONTEXT_C2, self.max_iterations,
                self.all_possible_transitions)
        # The hyperparameters the model was trained with (the threshold the job sets
        # afterwards is in the parameters and in the job's metadata).
        self.hyperparameters_ = self._hyperparameters()
        self.training_tokens_ = sum(len(seq) for seq in y)
        self.training_documents_ = len(y)
        return self

    def _reset(self) -> None:
        self._tagger = None
        self._context_tagger = None
        self._known_labels = None
        self._known_attributes = None

    def _cross_validated_scores(self, documents, labels, stats, groups) -> List[list]:
        """First-stage (P(NAME), P(USER)) of every document from a model that did not
        see it: the second stage must learn from scores like those of new text, not from
        the over-confident scores of the training data."""
        if groups is None:
            groups = [(d.board, d.thread) if d.thread else ("", "#%d" % i)
                      for i, d in enumerate(documents)]
        folds = _fold_of_groups(groups, self.context_folds, self.random_state)
        scores: List[list] = [[] for _ in documents]
        for fold in range(self.context_folds):
            inside = [i for i, f in enumerate(folds) if f != fold]
            outside = [i for i, f in enumerate(folds) if f == fold]
            if not outside:
                continue
            from sklearn.base import clone  # training only: the import is heavy
            first = clone(self).set_params(second_stage=False, metadata=None)
            first.fit([documents[i] for i in inside], [labels[i] for i in inside], stats)
            featurizer = first.featurizer(stats)
            for i in outside:
                scores[i] = first.name_marginals(featurizer.document_items(documents[i]))
        return scores

    @property
    def metadata_(self) -> dict:
        """The metadata saved with the model: ``metadata`` plus what fit learned (a new
        dict each time: change ``metadata`` with ``set_params``, not this)."""
        if not hasattr(self, "model_bytes_"):
            raise AttributeError("NameTagger is not fitted: it has no metadata_")
        metadata = dict(self.metadata or {})
        for key, attribute in LEARNED_METADATA:
            if hasattr(self, attribute):
                metadata[key] = getattr(self, attribute)
        return metadata

    # -- tagging --------------------------------------------------------------------
    def _crf_tagger(self) -> pycrfsuite.Tagger:
        if getattr(self, "_tagger", None) is None:
            if not hasattr(self, "model_bytes_"):
                raise RuntimeError("NameTagger is not fitted")
            tagger = pycrfsuite.Tagger()
            tagger.open_inmemory(self.model_bytes_)
            self._tagger = tagger
        return self._tagger

    def marginals_from_items(self, items: List[List[str]],
                             labels: Optional[Sequence[str]] = None) -> List[Dict[str, float]]:
        """P(label) per token for one document's crfsuite items, for ``labels`` (default:
        every label of the model; labels the model does not know are left out)."""
        if not items:
            return []
        tagger = self._crf_tagger()
        known = self._labels()
        wanted = known if labels is None else [label for label in labels if label in known]
        tagger.set(items)   # a list: an ItemSequence would be one more copy in C++
        marginal = tagger.marginal
        return [{label: marginal(label, i) for label in wanted} for i in range(len(items))]

    def name_marginals(self, items: List[List[str]]) -> List[tuple]:
        """(P(NAME), P(USER)) per token: the scrubbing hot path, no dict per token."""
        if not items:
            return []
        tagger = self._crf_tagger()
        known = self._labels()
        tagger.set(items)
        marginal = tagger.marginal
        name, user = "NAME" in known, "USER" in known
        return [(marginal("NAME", i) if name else 0.0, marginal("USER", i) if user else 0.0)
                for i in range(len(items))]

    @property
    def has_second_stage(self) -> bool:
        return getattr(self, "context_bytes_", None) is not None

    def context_marginals(self, items: List[List[str]]) -> List[tuple]:
        """(P(NAME), P(USER)) per token from the second stage, for its items
        (``model.context.context_items``)."""
        if not items:
            return []
        tagger = getattr(self, "_context_tagger", None)
        if tagger is None:
            tagger = pycrfsuite.Tagger()
            tagger.open_inmemory(self.context_bytes_)
            self._context_tagger = tagger
            self._context_labels = frozenset(tagger.labels())
        tagger.set(items)
        marginal = tagger.marginal
        name, user = "NAME" in self._context_labels, "USER" in self._context_labels
        return [(marginal("NAME", i) if name else 0.0, marginal("USER", i) if user else 0.0)
                for i in range(len(items))]

    def two_stage_marginals(self, documents: Sequence, stats=None) -> List[List[tuple]]:
        """(P(NAME), P(USER)) per token of each document: the first stage's, and with a
        second stage, the second's over the first's pooled across ``documents`` (taken
        as one corpus: its threads, authors and boards)."""
        featurizer = self.featurizer(stats)
        first = [self.name_marginals(featurizer.document_items(d)) for d in documents]
        if not self.has_second_stage:
            return first
        table = ContextTable.of(documents, first)
        return [self.context_marginals(context_items(d, s, table, i))
                for i, (d, s) in enumerate(zip(documents, first))]

    def known_attributes(self) -> frozenset:
        """The attributes the model has a weight for (with L1 regularisation, a small part
        of those the features produce; the rest cannot change a marginal). crfsuite saves
        only features with a non-zero weight, so every one of these matters: the weights
        that ``info()`` shows as 0.0 are merely printed with six decimals.

        Read from the model's attribute table (crfsuite's writer keeps only attributes
        with a feature), not from python-crfsuite's ``Tagger.info()``: that dumps the
        whole model as text into a temporary file, which a killed process leaves behind."""
        if getattr(self, "_known_attributes", None) is None:
            attributes = check_model_bytes(self.model_bytes_).attributes
            self._known_attributes = frozenset(attributes.split("\0")[:-1])
        return self._known_attributes

    def featurizer(self, stats=None) -> Featurizer:
        """A featurizer for tagging with this model: its window, only its attributes,
        encoded for crfsuite."""
        return Featurizer(stats, window=self.window, known_attributes=self.known_attributes(),
                          encoded=True)

    def _labels(self) -> List[str]:
        if getattr(self, "_known_labels", None) is None:
            self._known_labels = list(self._crf_tagger().labels())
        return self._known_labels

    def predict_marginals(self, documents: Sequence, stats=None) -> List[List[Dict[str, float]]]:
        return [[{"NAME": p_name, "USER": p_user, "O": max(0.0, 1.0 - p_name - p_user)}
                 for p_name, p_user in document]
                for document in self.two_stage_marginals(documents, stats)]

    def predict_name_proba(self, documents: Sequence, stats=None) -> List[List[float]]:
        """P(NAME) + P(USER) per token."""
        return [[name_probability(m) for m in doc]
                for doc in self.predict_marginals(documents, stats)]

    def predict(self, documents: Sequence, stats=None, threshold: Optional[float] = None):
        """NAME / USER / O per token: a name when P(NAME)+P(USER) exceeds the threshold."""
        threshold = checks.threshold(self.threshold if threshold is None else threshold)
        return [[name_label(m, threshold) for m in doc]
                for doc in self.predict_marginals(documents, stats)]

    # -- persistence ----------------------------------------------------------------
    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_tagger", None)
        state.pop("_known_labels", None)
        state.pop("_known_attributes", None)
        state.pop("_context_tagger", None)
        state.pop("_context_labels", None)
        return state

    def __setstate__(self, state):
        if "metadata_" in state:   # pickled before metadata became a parameter
            state = dict(state)
            state["metadata"] = _split_metadata(state, state.pop("metadata_"))
        self.__dict__.update(state)

    def save(self, path: str) -> None:
        """One zip file: the crfsuite model and a JSON file of parameters and metadata.
        Parameters that ``load`` would refuse are refused here (nothing is written).

        The file is private (mode 0600): the model's token features hold words of the
        training posts verbatim, names and usernames among them."""
        params = self._hyperparameters()
        for name in HYPERPARAMETERS:
            problem = _param_problem(name, params[name])
            if problem:
                raise InputError("not saved: model parameter %s" % problem, path)
        meta = {"format": MODEL_FORMAT, "params": params,
                "classes": self.classes_, "metadata": self.metadata_}
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("model.crfsuite", self.model_bytes_)
            if self.has_second_stage:
                archive.writestr(CONTEXT_MEMBER, self.context_bytes_)
            archive.writestr("meta.json", json.dumps(meta, indent=2, sort_keys=True))
        if os.fspath(path) == STDIO:
            raise InputError("a model cannot go to standard output: give a file", path)
        # private: a model's token features hold names; a device or FIFO is streamed to
        with atomic_binary_output(path, private=True) as handle:
            handle.write(buffer.getvalue())

    @classmethod
    def default(cls) -> "NameTagger":
        """The bundled default model."""
        return cls.load(default_model_path())

    @classmethod
    def load(cls, path: Optional[str] = None) -> "NameTagger":
        """A saved model (None: the bundled default model), checked before use: every way a model file can be wrong (not a
        zip, a member too large, meta.json not a JSON object of the known format, a
        parameter unknown, missing, of the wrong type or out of range, classes that are
        not the name labels, crfsuite bytes that crfsuite could not read safely) is an
        ``InputError`` naming the file, never a crash, a traceback or a huge allocation."""
        if path is None:
            path = default_model_path()
        meta_bytes, model_bytes, context_bytes = _read_model_file(path)
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
        learned = {}
        metadata = _split_metadata(learned, metadata)
        tagger = cls(**params, metadata=metadata)
        tagger.model_bytes_ = model_bytes
        tagger.context_bytes_ = context_bytes
        tagger.classes_ = classes
        tagger.__dict__.update(learned)
        try:
            tagger._crf_tagger()
            if context_bytes is not None:
                tagger.context_marginals([["bias"]])
        except Exception as error:  # crfsuite refuses a corrupt model with a bare error
            raise InputError("corrupt crfsuite model (%s)" % error, path)
        return tagger


def _short(value) -> str:
    """A value for an error message: its repr, on one line, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# name -> its check (:mod:`mmbdeid.checks`, as the command line's options have them)
_PARAM_CHECKS = {
    "c1": functools.partial(checks.number, low=0.0),
    "c2": functools.partial(checks.number, low=0.0),
    "max_iterations": functools.partial(checks.whole_number, low=1),
    "all_possible_transitions": checks.flag,
    "threshold": checks.threshold,
    "window": functools.partial(checks.whole_number, low=0, high=MAX_WINDOW),
    "lowercase_share": functools.partial(checks.number, low=0.0, high=1.0),
    "random_state": checks.whole_number,
    "second_stage": checks.flag,
    "context_folds": functools.partial(checks.whole_number, low=2, high=MAX_CONTEXT_FOLDS),
}
assert set(_PARAM_CHECKS) == set(HYPERPARAMETERS)


def _param_problem(name: str, value) -> Optional[str]:
    """What is wrong with a hyperparameter value, or None."""
    try:
        _PARAM_CHECKS[name](value, name)
    except (TypeError, ValueError) as error:
        return str(error)
    return None


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


def _read_model_file(path: str) -> Tuple[bytes, bytes, Optional[bytes]]:
    """The bytes of meta.json, model.crfsuite and the second stage's crfsuite model (None
    in a one-stage model), each read only up to its cap."""
    try:
        with open(path, "rb") as handle:
            capped = _CappedReads(handle, MAX_ZIP_DIRECTORY_BYTES)
            with zipfile.ZipFile(capped) as archive:
                capped.cap = None
                context = (_read_member(archive, CONTEXT_MEMBER, MAX_CRFSUITE_BYTES, path)
                           if CONTEXT_MEMBER in archive.namelist() else None)
                return (_read_member(archive, "meta.json", MAX_META_BYTES, path),
                        _read_member(archive, "model.crfsuite", MAX_CRFSUITE_BYTES, path),
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


def _one_line(error: Exception) -> str:
    """An exception's message on one line, cut short (it may quote the file's bytes)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."


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
    for name in HYPERPARAMETERS:
        problem = _param_problem(name, params[name])
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


def _split_metadata(learned: dict, metadata: Optional[dict]) -> Optional[dict]:
    """Saved metadata into the job's part (returned; None when empty, as a tagger built
    without metadata saves it) and what fit learned (into ``learned``, by attribute)."""
    metadata = dict(metadata or {})
    for key, attribute in LEARNED_METADATA:
        if key in metadata:
            learned[attribute] = metadata.pop(key)
    return metadata or None


def _with_lowercase_copies(documents, labels, share: float, seed: int):
    if share <= 0:
        return list(documents), list(labels)
    rng = random.Random(seed)
    chosen = [i for i in range(len(documents)) if rng.random() < share]
    copies = [dataclasses.replace(documents[i], tokens=[t.lower() for t in documents[i].tokens])
              for i in chosen]
    return list(documents) + copies, list(labels) + [labels[i] for i in chosen]


def name_probability(marginals: Dict[str, float]) -> float:
    return marginals.get("NAME", 0.0) + marginals.get("USER", 0.0)


def name_label(marginals: Dict[str, float], threshold: float) -> str:
    if name_probability(marginals) > threshold:
        return "USER" if marginals.get("USER", 0.0) > marginals.get("NAME", 0.0) else "NAME"
    return "O"


def as_training_data(posts: Sequence, labels: Optional[Sequence] = None):
    """``(documents, per-token labels, statistics or None)`` for :meth:`NameTagger.fit`.

    Accepted, per item: a tokenised ``Document`` with its token labels (NAME/USER/O), as
    the command line gives them; a text with its gold spans; a post dict (``text``, and
    ``board``/``thread``/``author`` when known) with its gold spans, or carrying them in
    a ``spans`` field (``labels`` None). Spans are ``{"start", "end", "label"}`` dicts
    (the annotated-file form), ``(start, end, label)`` tuples or
    :class:`~mmbdeid.spans.Span`. Texts and posts are tokenised, the spans become token
    labels (pattern tokens adjusted as in training), and their corpus statistics are
    built from them (third item); for documents it is None.
    """
    from ..files.corpora import labels_from_spans, training_labels
    from ..spans import GOLD, Span
    from ..text.document import Document
    posts = list(posts)
    if all(isinstance(p, Document) for p in posts):
        if labels is None:
            raise ValueError("tokenised documents need labels (one per token)")
        return posts, labels, None
    if labels is None:
        if not all(isinstance(p, dict) and "spans" in p for p in posts):
            raise ValueError("without labels, every post must be a dict with 'text' and "
                             "'spans'")
        labels = [p["spans"] for p in posts]
    labels = list(labels)
    if len(labels) != len(posts):
        raise ValueError("%d posts but %d label lists" % (len(posts), len(labels)))
    documents, token_labels = [], []
    for number, (post, spans) in enumerate(zip(posts, labels), 1):
        if isinstance(post, str):
            post = {"text": post}
        if not isinstance(post, dict) or not isinstance(post.get("text"), str):
            raise ValueError("post %d: expected a text, a Document or a dict with a 'text' "
                             "string" % number)
        document = Document.from_post(post)
        gold = []
        for span in spans:
            if isinstance(span, dict):
                span = (span.get("start"), span.get("end"), span.get("label"))
            elif isinstance(span, Span):
                span = (span.start, span.end, span.label)
            start, end, label = span
            if label not in PERSON_LABELS:
                raise ValueError("post %d: span label %r is not one of %s"
                                 % (number, label, ", ".join(PERSON_LABELS)))
            if not (isinstance(start, int) and isinstance(end, int)
                    and 0 <= start < end <= len(document.original_text)):
                raise ValueError("post %d: span %r-%r outside the text" % (number, start, end))
            gold.append(Span(label, start, end, 1.0, GOLD))
        documents.append(document)
        labels_of_tokens = labels_from_spans(document.original_offsets, gold)
        token_labels.append(training_labels(document, labels_of_tokens))
    from .reference import corpus_stats
    return documents, token_labels, corpus_stats(documents)


def default_model_path() -> str:
    from importlib import resources
    return str(resources.files("mmbdeid.bundled").joinpath("default.mmbdeid"))


def _train_crf(items, labels: List[List[str]], c1: float, c2: float, max_iterations: int,
               all_possible_transitions: bool, progress: Optional[TrainingProgress] = None
               ) -> Tuple[bytes, List[str]]:
    """crfsuite model bytes and classes learned from items and labels. ``progress`` hears
    of each document's features and each L-BFGS iteration (see :class:`TrainingProgress`)."""
    import sklearn_crfsuite  # imported here: only training needs it

    def featurised():
        for done, document_items in enumerate(items, 1):
            if progress is not None:
                progress("features", done, len(labels))
            yield document_items

    class Trainer(pycrfsuite.Trainer):
        # crfsuite reports iterations only to a verbose trainer, whose message() prints
        # its log to stdout: parse the log here instead, print nothing.
        def __init__(self, *args, **kwargs):
            kwargs["verbose"] = progress is not None
            super().__init__(*args, **kwargs)

        def message(self, message):
            if progress is not None and self.logparser.feed(message) == "iteration":
                progress("iterations", self.logparser.last_iteration.get("num", 0),
                         max_iterations)

    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=c1, c2=c2, max_iterations=max_iterations,
                               all_possible_transitions=all_possible_transitions,
                               trainer_cls=Trainer)
    crf.fit(list(featurised()), labels)
    with open(crf.modelfile.name, "rb") as handle:
        return handle.read(), list(crf.classes_)


def _fold_of_groups(groups: Sequence, folds: int, seed: int) -> List[int]:
    """A fold per document: groups shuffled with ``seed``, then dealt round-robin, so
    the posts of one thread never sit on both sides of a split."""
    distinct = sorted(set(groups), key=repr)
    random.Random(seed).shuffle(distinct)
    fold_of = {group: i % folds for i, group in enumerate(distinct)}
    return [fold_of[group] for group in groups]
