import pickle

import pytest

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
    assert NameTagger().get_params()["threshold"] == 0.05


def test_marginals_are_distributions(fitted):
    tagger, documents, stats = fitted
    marginals = tagger.predict_marginals(documents[:2], stats)
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
    from mmbdeid.model.tagger import _with_lowercase_copies
    labelled = load_labelled(tiny_corpus_path)
    docs, labels = _with_lowercase_copies([d.document for d in labelled],
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
    for document in documents[:3]:
        items = encoded.document_items(document)
        assert all(isinstance(a, bytes) for item in items for a in item)
        assert tagger.name_marginals(items) == tagger.name_marginals(plain.document_items(document))
