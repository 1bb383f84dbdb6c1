"""The name tagger: a linear-chain CRF over per-token features, with marginals per token.

A scikit-learn estimator: ``__init__`` stores parameters as given, ``get_params``/
``set_params`` are ``BaseEstimator``'s (:mod:`mmbdeid.model.params`: scikit-learn itself
is imported only to train), ``sklearn.base.clone`` works on it, ``fit`` only learns and
returns self, learned state ends in ``_``. Training goes through
``sklearn_crfsuite.CRF`` (:mod:`.training`); tagging opens the learned model in memory with
python-crfsuite, so a tagger pickles (joblib too) and saves as one self-contained file
(:mod:`.model_file`).
"""
from typing import Dict, List, Optional, Sequence

import pycrfsuite

from .. import checks
from ..errors import InputError, MmbdeidRuntimeError, MmbdeidTypeError, MmbdeidValueError
from .context import ContextTable, context_items
from .crfsuite_format import check_model_bytes
from .features import Featurizer
from .folds import group_folds, thread_groups
from .hyperparameters import HYPERPARAMETERS, LABELS, PARAM_CHECKS, first_problem
from .model_file import ModelFile, read_model_file, write_model_file
from .params import Parameters
from .training import TrainingProgress, as_training_data, train_crf, with_lowercase_copies

DEFAULT_THRESHOLD = 0.05
# Metadata keys that fit learns: key in the saved metadata -> attribute of the tagger.
LEARNED_METADATA = (("hyperparameters", "hyperparameters_"),
                    ("training_tokens", "training_tokens_"),
                    ("training_documents", "training_documents_"))
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
    thread as ``mmbdeid crossval`` groups them: :mod:`mmbdeid.model.folds`), so it learns
    how far to trust them on text the first stage has not seen.

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
            PARAM_CHECKS[name](value, name)
        if self.metadata is not None and not isinstance(self.metadata, dict):
            raise MmbdeidTypeError("metadata must be a dict or None, not %s"
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

        ``documents`` may be posts as a user holds them (see
        :func:`~mmbdeid.model.training.as_training_data`): texts with ``labels`` their
        gold spans, or annotated post dicts with ``text`` and ``spans`` (``labels``
        None); their statistics are built from them when ``stats`` is None, as ``mmbdeid
        train`` does. Tokenised documents take one label per token.
        """
        self.check_params()
        documents, labels, built_stats = as_training_data(documents, labels)
        if stats is None:
            stats = built_stats
        for document, seq in zip(documents, labels):
            if len(seq) != len(document):
                raise MmbdeidValueError("labels and tokens differ in length")
            unknown = set(seq) - set(LABELS)
            if unknown:
                raise MmbdeidValueError("unknown labels %s; expected %s"
                                        % (sorted(unknown), LABELS))
        featurizer = Featurizer(stats, window=self.window)
        copies, copy_labels = with_lowercase_copies(documents, labels, self.lowercase_share,
                                                    self.random_state)
        y = [list(seq) for seq in copy_labels]
        self.model_bytes_, self.classes_ = train_crf(
            (featurizer.document_items(d) for d in copies), y, self.c1, self.c2,
            self.max_iterations, self.all_possible_transitions, progress)
        self.context_bytes_ = None
        self._reset()
        if self.second_stage:
            scores = self._cross_validated_scores(documents, labels, stats, groups)
            table = ContextTable.of(documents, scores)
            self.context_bytes_, _ = train_crf(
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
            groups = thread_groups(documents)
        # as many folds as groups where there are fewer (at least 2: else an error)
        folds = group_folds(groups, min(self.context_folds, max(2, len(set(groups)))))
        from sklearn.base import clone  # training only: the import is heavy
        scores: List[list] = [[] for _ in documents]
        for outside in folds:
            held = set(outside)
            inside = [i for i in range(len(documents)) if i not in held]
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
    def _fitted_model_bytes(self) -> bytes:
        if not hasattr(self, "model_bytes_"):
            raise MmbdeidRuntimeError("NameTagger is not fitted")
        return self.model_bytes_

    def _crf_tagger(self) -> pycrfsuite.Tagger:
        if getattr(self, "_tagger", None) is None:
            tagger = pycrfsuite.Tagger()
            tagger.open_inmemory(self._fitted_model_bytes())
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
            attributes = check_model_bytes(self._fitted_model_bytes()).attributes
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
        """One zip file: the crfsuite model and a JSON file of parameters and metadata
        (:mod:`mmbdeid.model.model_file`). Parameters that ``load`` would refuse are
        refused here (nothing is written).

        The file is private (mode 0600): the model's token features hold words of the
        training posts verbatim, names and usernames among them."""
        params = self._hyperparameters()
        problem = first_problem(params)
        if problem:
            raise InputError("not saved: model parameter %s" % problem, path)
        write_model_file(path, ModelFile(
            params, self.classes_, self.metadata_, self.model_bytes_,
            self.context_bytes_ if self.has_second_stage else None))

    @classmethod
    def default(cls) -> "NameTagger":
        """The bundled default model."""
        return cls.load(default_model_path())

    @classmethod
    def load(cls, path: Optional[str] = None) -> "NameTagger":
        """A saved model (None: the bundled default model), checked before use: every way
        a model file can be wrong is an ``InputError`` naming the file, never a crash
        (:func:`~mmbdeid.model.model_file.read_model_file`)."""
        if path is None:
            path = default_model_path()
        saved = read_model_file(path)
        learned = {}
        metadata = _split_metadata(learned, saved.metadata)
        tagger = cls(**saved.params, metadata=metadata)
        tagger.model_bytes_ = saved.model_bytes
        tagger.context_bytes_ = saved.context_bytes
        tagger.classes_ = saved.classes
        tagger.__dict__.update(learned)
        try:
            tagger._crf_tagger()
            if saved.context_bytes is not None:
                tagger.context_marginals([["bias"]])
        except Exception as error:  # crfsuite refuses a corrupt model with a bare error
            raise InputError("corrupt crfsuite model (%s)" % error, path)
        return tagger


def _split_metadata(learned: dict, metadata: Optional[dict]) -> Optional[dict]:
    """Saved metadata into the job's part (returned; None when empty, as a tagger built
    without metadata saves it) and what fit learned (into ``learned``, by attribute)."""
    metadata = dict(metadata or {})
    for key, attribute in LEARNED_METADATA:
        if key in metadata:
            learned[attribute] = metadata.pop(key)
    return metadata or None


def name_probability(marginals: Dict[str, float]) -> float:
    return marginals.get("NAME", 0.0) + marginals.get("USER", 0.0)


def name_label(marginals: Dict[str, float], threshold: float) -> str:
    if name_probability(marginals) > threshold:
        return "USER" if marginals.get("USER", 0.0) > marginals.get("NAME", 0.0) else "NAME"
    return "O"


def default_model_path() -> str:
    from importlib import resources
    return str(resources.files("mmbdeid.bundled").joinpath("default.mmbdeid"))
