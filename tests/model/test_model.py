import copy
import inspect
import json
import pickle
import zipfile

import pytest
from sklearn.base import clone

from mmbdeid.files.corpora import load_labelled, training_labels
from mmbdeid.errors import InputError
from mmbdeid.model.tagger import NameTagger, name_label
from mmbdeid.model.stats import CorpusStats


@pytest.fixture(scope="module")
def fitted(tiny_corpus_path):
    labelled = load_labelled(tiny_corpus_path)
    documents = [d.document for d in labelled]
    labels = [training_labels(d.document, d.labels) for d in labelled]
    stats = CorpusStats.build(documents)
    tagger = NameTagger(max_iterations=30)
    assert tagger.fit(documents, labels, stats=stats) is tagger
    return tagger, documents, stats


def test_learned_state_ends_in_underscore(fitted):
    tagger, _, _ = fitted
    assert tagger.model_bytes_ and set(tagger.classes_) <= {"NAME", "USER", "O"}
    assert tagger.metadata_["hyperparameters"]["max_iterations"] == 30
    assert tagger.training_documents_ > 0 and tagger.training_tokens_ > 0
    assert NameTagger().get_params()["threshold"] == 0.05


# -- a scikit-learn estimator ---------------------------------------------------------

def test_get_params_keys_are_the_init_signature():
    signature = inspect.signature(NameTagger.__init__)
    assert set(NameTagger().get_params()) == set(signature.parameters) - {"self"}


@pytest.mark.parametrize("params", [
    {},
    {"c1": 0.1},
    {"threshold": 0.3, "window": 1},
    {"metadata": {"training_data": [{"path": "x.jsonl"}]}},
])
def test_clone_keeps_params(params):
    tagger = NameTagger(**params)
    copy = clone(tagger)
    assert copy is not tagger and isinstance(copy, NameTagger)
    assert copy.get_params() == tagger.get_params()
    for name, value in params.items():
        assert getattr(copy, name) == value


def test_clone_drops_learned_state(fitted):
    tagger, _, _ = fitted
    copy = clone(tagger)
    assert copy.get_params() == tagger.get_params()
    assert not hasattr(copy, "model_bytes_") and not hasattr(copy, "metadata_")


@pytest.mark.parametrize("params", [{"bogus": 1}, {"c1": 0.1, "metadata_": {}},
                                    {"threshold_": 0.2}])
def test_set_params_rejects_unknown_names(params):
    with pytest.raises(ValueError):
        NameTagger().set_params(**params)


@pytest.mark.parametrize("params", [{"threshold": 0.4}, {"metadata": {"a": 1}},
                                    {"c1": 0.2, "threshold": 0.01, "metadata": None}])
def test_set_params_sets_and_returns_self(params):
    tagger = NameTagger()
    assert tagger.set_params(**params) is tagger
    for name, value in params.items():
        assert tagger.get_params()[name] == value


@pytest.mark.parametrize("params", [{}, {"threshold": 0.3, "metadata": {"job": "x"}}])
def test_fit_sets_neither_threshold_nor_metadata(tiny_corpus_path, params):
    labelled = load_labelled(tiny_corpus_path)
    documents = [d.document for d in labelled]
    labels = [training_labels(d.document, d.labels) for d in labelled]
    tagger = NameTagger(max_iterations=5, **params)
    before = copy.deepcopy(tagger.get_params())
    tagger.fit(documents, labels, stats=CorpusStats.build(documents))
    assert tagger.get_params() == before
    assert tagger.metadata_ == dict(params.get("metadata") or {},
                                    hyperparameters=tagger.hyperparameters_,
                                    training_tokens=tagger.training_tokens_,
                                    training_documents=tagger.training_documents_)
    with pytest.raises(TypeError):
        tagger.fit(documents, labels, stats=None, metadata={})


@pytest.mark.parametrize("threshold, metadata", [
    (None, None),
    (0.7, {"threshold": 0.7, "threshold_source": "default (paper's tuned value)",
           "training_data": [{"path": "tiny.jsonl", "documents": 10}]}),
])
def test_save_load_round_trip_keeps_params_and_metadata(fitted, tmp_path, threshold,
                                                        metadata):
    tagger = copy.deepcopy(fitted[0])
    if threshold is not None:
        tagger.set_params(threshold=threshold, metadata=metadata)
    path = str(tmp_path / "m.mmbdeid")
    tagger.save(path)
    loaded = NameTagger.load(path)
    assert loaded.get_params() == tagger.get_params()
    assert loaded.metadata_ == tagger.metadata_
    # the hyperparameters of the metadata are those of fit, the threshold set after it
    assert loaded.metadata_["hyperparameters"]["threshold"] == 0.05
    assert loaded.hyperparameters_ == tagger.hyperparameters_
    with zipfile.ZipFile(path) as archive:
        meta = json.loads(archive.read("meta.json"))
    assert set(meta) == {"format", "params", "classes", "metadata"}
    assert set(meta["params"]) == set(NameTagger().get_params()) - {"metadata"}
    again = str(tmp_path / "again.mmbdeid")
    loaded.save(again)
    with zipfile.ZipFile(path) as first, zipfile.ZipFile(again) as second:
        for name in ("meta.json", "model.crfsuite"):
            assert first.read(name) == second.read(name)


def test_shipped_model_loads_and_saves_the_same_meta(tmp_path):
    from mmbdeid.model.tagger import default_model_path
    loaded = NameTagger.load(default_model_path())
    assert loaded.metadata is not None and "hyperparameters" not in loaded.metadata
    path = str(tmp_path / "again.mmbdeid")
    loaded.save(path)
    with zipfile.ZipFile(default_model_path()) as first, zipfile.ZipFile(path) as second:
        for name in ("meta.json", "model.crfsuite"):
            assert first.read(name) == second.read(name)


def test_pickle_from_before_metadata_was_a_parameter(fitted):
    tagger, documents, stats = fitted
    old = copy.deepcopy(tagger)
    state = old.__getstate__()
    for attribute in ("hyperparameters_", "training_tokens_", "training_documents_"):
        del state[attribute]
    del state["metadata"]
    state["metadata_"] = dict(tagger.metadata_, job="x")
    restored = NameTagger.__new__(NameTagger)
    restored.__setstate__(state)
    assert restored.metadata == {"job": "x"}
    assert restored.metadata_ == dict(tagger.metadata_, job="x")
    assert restored.predict_name_proba(documents[:2], stats) == \
        tagger.predict_name_proba(documents[:2], stats)


def test_marginals_are_distributions(fitted):
    tagger, documents, stats = fitted
    marginals = tagger.predict_marginals(documents[:2], stats)
    assert len(marginals) == 2 and all(marginals)
    for doc, marg in zip(documents, marginals):
        assert len(doc) == len(marg)
        for token_marginals in marg:
            assert sum(token_marginals.values()) == pytest.approx(1.0, abs=1e-6)


def test_pickle_and_save_round_trip_give_the_same_marginals(fitted, tmp_path):
    tagger, documents, stats = fitted
    expected = tagger.predict_name_proba(documents, stats)
    assert pickle.loads(pickle.dumps(tagger)).predict_name_proba(documents, stats) == expected
    path = str(tmp_path / "m.mmbdeid")
    tagger.save(path)
    loaded = NameTagger.load(path)
    assert loaded.predict_name_proba(documents, stats) == expected
    assert loaded.get_params() == tagger.get_params()


def test_joblib_round_trip(fitted, tmp_path):
    joblib = pytest.importorskip("joblib")
    tagger, documents, stats = fitted
    path = tmp_path / "tagger.joblib"
    joblib.dump(tagger, path)
    assert joblib.load(path).predict_name_proba(documents, stats) == \
        tagger.predict_name_proba(documents, stats)


def test_predict_uses_threshold(fitted):
    tagger, documents, stats = fitted
    low = sum(l != "O" for doc in tagger.predict(documents, stats, threshold=0.001) for l in doc)
    high = sum(l != "O" for doc in tagger.predict(documents, stats, threshold=0.9) for l in doc)
    assert low > high


@pytest.mark.parametrize("marginals, threshold, expected", [
    ({"NAME": 0.03, "USER": 0.03, "O": 0.94}, 0.05, "NAME"),
    ({"NAME": 0.01, "USER": 0.03, "O": 0.96}, 0.05, "O"),
    ({"NAME": 0.02, "USER": 0.40, "O": 0.58}, 0.05, "USER"),
])
def test_name_label_sums_name_and_user(marginals, threshold, expected):
    assert name_label(marginals, threshold) == expected


def test_lowercase_share_adds_lower_cased_copies(tiny_corpus_path):
    from mmbdeid.model.training import with_lowercase_copies
    labelled = load_labelled(tiny_corpus_path)
    docs, labels = with_lowercase_copies([d.document for d in labelled],
                                         [d.labels for d in labelled], 1.0, 0)
    assert len(docs) == 2 * len(labelled)
    assert docs[-1].tokens == [t.lower() for t in labelled[-1].document.tokens]


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04garbage"])
def test_load_rejects_bad_model_files(tmp_path, content):
    path = tmp_path / "bad.mmbdeid"
    path.write_bytes(content)
    with pytest.raises(InputError):
        NameTagger.load(str(path))


def test_load_missing_model():
    with pytest.raises(InputError, match="not found"):
        NameTagger.load("/nonexistent/model.mmbdeid")


def test_tagging_items_are_encoded_and_give_the_same_marginals(fitted):
    from mmbdeid.model.features import Featurizer
    tagger, documents, stats = fitted
    plain = Featurizer(stats, window=tagger.window)
    encoded = tagger.featurizer(stats)
    assert len(documents) >= 3
    for document in documents[:3]:
        items = encoded.document_items(document)
        assert all(isinstance(a, bytes) for item in items for a in item)
        assert tagger.name_marginals(items) == tagger.name_marginals(plain.document_items(document))


def test_known_attributes_are_those_with_a_state_feature(fitted):
    """Read from the model's attribute table; the same set python-crfsuite's info() lists."""
    from mmbdeid.model.tagger import default_model_path
    tagger = fitted[0]
    for model in (tagger, NameTagger.load(default_model_path())):
        from_info = {a for a, _ in model._crf_tagger().info().state_features}
        assert model.known_attributes() == from_info and from_info
