"""The second stage: first-stage scores pooled by scope and type, and the two-stage model."""
import zipfile

import pytest

from mmbdeid.errors import InputError
from mmbdeid.files.corpora import load_labelled, training_labels
from mmbdeid.model.context import (ContextTable, author_name_parts, bucket, context_items,
                                   scope_features, type_key)
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.tagger import NameTagger, default_model_path
from mmbdeid.text.document import Document


def post(text, thread="t1", author="judy", board="b"):
    return Document.from_text(text, board=board, thread=thread, author=author)


def scores_for(document, high=()):
    """0.9 on the tokens in ``high``, 0.002 on the others."""
    return [(0.9, 0.0) if token in high else (0.002, 0.0) for token in document.tokens]


@pytest.mark.parametrize("token, key", [
    ("Kay", "kay"), ("KAY", "kay"), (".", None), ("I", None), ("A1c", "a1c"), ("42", None),
])
def test_type_key(token, key):
    assert type_key(token) == key


@pytest.mark.parametrize("value, bounds, expected", [
    (0.0, (0.1, 0.5), "0.1"), (0.1, (0.1, 0.5), "0.1"), (0.3, (0.1, 0.5), "0.5"),
    (0.9, (0.1, 0.5), "max"),
])
def test_bucket(value, bounds, expected):
    assert bucket(value, bounds) == expected


def test_table_pools_by_scope_and_leaves_the_token_itself_out():
    first = post("Kay said hi", thread="t1")
    second = post("thanks Kay", thread="t1")
    other_thread = post("Kay again", thread="t2", author="bob")
    documents = [first, second, other_thread]
    scores = [scores_for(first, {"Kay"}), scores_for(second), scores_for(other_thread,
                                                                         {"Kay"})]
    table = ContextTable.of(documents, scores)
    thread_entry = table.entries[(("thread", "b", "t1"), "kay")]
    assert thread_entry[:2] == [2, pytest.approx(0.902)]
    board_entry = table.entries[(("board", "b"), "kay")]
    assert board_entry[0] == 3
    # In the second post, "Kay" scored 0.002: the others in the thread peak at 0.9.
    features = scope_features("thread", thread_entry, 0.002, counted=True)
    assert "thread:n=1" in features and "thread:max=0.9" in features
    # In the first post, the only other occurrence in the thread scored 0.002.
    features = scope_features("thread", thread_entry, 0.9, counted=True)
    assert "thread:max=0.005" in features
    assert scope_features("author", None, 0.5, counted=True) == ["author:none"]


def _without_posts(table: ContextTable) -> ContextTable:
    """``table`` without its post scope (a post's own entries are rebuilt per post, so
    partial tables are compared on the other scopes)."""
    scoped = ContextTable()
    scoped.entries = {key: entry for key, entry in table.entries.items()
                      if key[0][0] != "post"}
    return scoped


def test_merged_partial_tables_equal_the_whole():
    documents = [post("Kay and Mary"), post("Mary wrote", thread="t2"), post("Kay")]
    scores = [scores_for(documents[0], {"Kay"}), scores_for(documents[1], {"Mary"}),
              scores_for(documents[2])]
    whole = _without_posts(ContextTable.of(documents, scores))
    merged = ContextTable()
    for index, (document, document_scores) in enumerate(zip(documents, scores)):
        part = ContextTable()
        part.add(document, document_scores, index)
        merged.merge(_without_posts(part))
    assert merged.entries == whole.entries


@pytest.mark.parametrize("text, high, token, feature", [
    ("Dr. Okonkwo checked me", (), "Okonkwo", "after_title"),
    ("Nurse Ottilie came", (), "Ottilie", "after_title"),
    ("Mary Jane wrote", {"Mary"}, "Jane", "after_name"),
    ("David A. Foti", {"David"}, "Foti", "after_initial"),
    ("Thanks Sheri today", {"Sheri"}, "Thanks", "before_name"),
])
def test_name_continuation(text, high, token, feature):
    document = post(text)
    table = ContextTable.of([document], [scores_for(document, high)])
    items = context_items(document, scores_for(document, high), table, 0)
    assert feature in items[document.tokens.index(token)]


def test_author_name_parts_are_features():
    document = post("Thanks all,\nDavid", author="David A. Foti")
    assert {"david", "foti"} <= author_name_parts("David A. Foti")
    table = ContextTable.of([document], [scores_for(document)])
    items = context_items(document, scores_for(document), table, 0)
    david = items[document.tokens.index("David")]
    assert "author_part" in david and "author_name_part" in david


# -- the two-stage model ------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_stage(tiny_corpus_path):
    labelled = load_labelled(tiny_corpus_path)
    documents = [d.document for d in labelled]
    labels = [training_labels(d.document, d.labels) for d in labelled]
    stats = CorpusStats.build(documents)
    tagger = NameTagger(max_iterations=20, second_stage=True, context_folds=2)
    return tagger.fit(documents, labels, stats=stats), documents, stats


def test_two_stage_model_saves_loads_and_scores_the_same(two_stage, tmp_path):
    tagger, documents, stats = two_stage
    assert tagger.has_second_stage
    path = str(tmp_path / "two.mmbdeid")
    tagger.save(path)
    with zipfile.ZipFile(path) as archive:
        assert "context.crfsuite" in archive.namelist()
    loaded = NameTagger.load(path)
    assert loaded.has_second_stage and loaded.second_stage
    assert loaded.two_stage_marginals(documents, stats) == tagger.two_stage_marginals(
        documents, stats)


def test_one_stage_model_file_still_loads_and_works():
    tagger = NameTagger.load(default_model_path())
    document = post("Kay wrote to me")
    marginals = tagger.two_stage_marginals([document])
    assert len(marginals[0]) == len(document)
    if not tagger.has_second_stage:
        assert marginals[0] == tagger.name_marginals(tagger.featurizer().document_items(document))


def test_corrupt_second_stage_is_an_input_error(two_stage, tmp_path):
    tagger, _, _ = two_stage
    good = str(tmp_path / "good.mmbdeid")
    tagger.save(good)
    bad = str(tmp_path / "bad.mmbdeid")
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(bad, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            target.writestr(name, data[:40] if name == "context.crfsuite" else data)
    with pytest.raises(InputError, match="second-stage"):
        NameTagger.load(bad)


def test_folds_keep_a_thread_together():
    from mmbdeid.model.folds import group_folds
    groups = [("b", "t1"), ("b", "t2"), ("b", "t1"), ("b", "t3"), ("b", "t2")]
    folds = group_folds(groups, 2)
    fold_of = {i: k for k, fold in enumerate(folds) for i in fold}
    assert fold_of[0] == fold_of[2] and fold_of[1] == fold_of[4]
    assert sorted(fold_of) == list(range(len(groups))) and all(folds)
