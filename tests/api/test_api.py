"""The Python API (mmbdeid.scrub / analyze / Scrubber / scrub_records / scrub_dataframe) and
NameTagger.fit on posts as users hold them. The texts are fictional."""
import pytest

import mmbdeid
from mmbdeid import NameTagger, Scrubber, Span

LETTER = "Thanks Linda, my TSH is fine now. Write to kay.b@example.org"


@pytest.mark.parametrize("text, removed, kept", [
    (LETTER, ["Linda", "kay.b@example.org"], ["Thanks", "TSH"]),
    ("Dr. Okonkwo checked my Hashimoto's again", ["Okonkwo"], ["Dr.", "Hashimoto's"]),
    ("Mary Jane said the tamoxifen helps", ["Mary Jane"], ["tamoxifen"]),
])
def test_scrub_removes_names_and_keeps_medical_words(text, removed, kept):
    scrubbed = mmbdeid.scrub(text)
    for string in removed:
        assert string not in scrubbed
    for string in kept:
        assert string in scrubbed


def test_scrub_puts_one_placeholder_per_mention():
    assert mmbdeid.scrub("Mary Jane said hello") == "[NAME] said hello"


def test_analyze_gives_spans_with_offsets_labels_and_scores():
    spans = mmbdeid.analyze(LETTER)
    assert all(isinstance(s, Span) for s in spans)
    assert [(s.label, LETTER[s.start:s.end]) for s in spans] == [
        ("NAME", "Linda"), ("EMAIL", "kay.b@example.org")]
    assert all(0.0 < s.score <= 1.0 for s in spans)


@pytest.mark.parametrize("options, expected", [
    ({"allow": ["Linda"]}, "Thanks Linda, my TSH is fine now. Write to [EMAIL]"),
    ({"deny": ["TSH"]}, "Thanks [NAME], my [NAME] is fine now. Write to [EMAIL]"),
    ({"threshold": 0.999}, "Thanks Linda, my TSH is fine now. Write to [EMAIL]"),
])
def test_options_reach_the_chain(options, expected):
    assert mmbdeid.scrub(LETTER, **options) == expected


def test_default_scrubber_and_default_model_load_without_a_path():
    assert Scrubber.default().scrub("Hi Linda") == Scrubber().scrub("Hi Linda")
    assert NameTagger.load().threshold == NameTagger.default().threshold == 0.05


def test_scrub_records_keeps_every_field_and_the_order():
    records = [{"id": 2, "text": "Hugs to Linda", "mood": "ok"},
               {"id": 1, "text": "My A1C is 6.1", "author": "kayb"}]
    out = list(mmbdeid.scrub_records(records))
    assert [r["id"] for r in out] == [2, 1]
    assert out[0] == {"id": 2, "text": "Hugs to [NAME]", "mood": "ok"}
    assert out[1]["text"] == "My A1C is 6.1" and out[1]["author"] == "kayb"
    assert records[0]["text"] == "Hugs to Linda"          # inputs untouched


def test_scrub_records_with_another_text_field_and_bad_records():
    assert list(mmbdeid.scrub_records([{"body": "Hi Linda"}], text_field="body")) == [
        {"body": "Hi [NAME]"}]
    with pytest.raises(ValueError, match="record 2: missing field 'text'"):
        list(mmbdeid.scrub_records([{"text": "ok"}, {"txt": "Hi Linda"}]))


def test_scrub_dataframe_keeps_columns_index_and_order():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"post": [7, 8], "body": ["Hi Linda", "My TSH is 2.1"],
                          "thread": [1, None]}, index=["a", "b"])
    scrubbed = mmbdeid.scrub_dataframe(frame, text="body", id="post")
    assert list(scrubbed.columns) == ["post", "body", "thread"]
    assert list(scrubbed.index) == ["a", "b"]
    assert list(scrubbed["body"]) == ["Hi [NAME]", "My TSH is 2.1"]
    assert list(frame["body"]) == ["Hi Linda", "My TSH is 2.1"]     # a copy
    with pytest.raises(ValueError, match="duplicate"):
        mmbdeid.scrub_dataframe(frame.assign(post=[7, 7]), text="body", id="post")
    with pytest.raises(ValueError, match="no column 'text'"):
        mmbdeid.scrub_dataframe(frame)


TEXTS = ["Hi Kay, how is the new dose?", "Thanks Bob, see you Tuesday"]


@pytest.mark.parametrize("posts, labels", [
    (TEXTS, [[(3, 6, "NAME")], [(7, 10, "NAME")]]),
    (TEXTS, [[{"start": 3, "end": 6, "label": "NAME"}], [Span("NAME", 7, 10, 1.0, "gold")]]),
    ([{"text": TEXTS[0], "spans": [{"start": 3, "end": 6, "label": "NAME"}]},
      {"text": TEXTS[1], "author": "bobby", "spans": [{"start": 7, "end": 10,
                                                        "label": "NAME"}]}], None),
])
def test_fit_takes_posts_as_users_hold_them(posts, labels):
    tagger = NameTagger(max_iterations=30, lowercase_share=0.0).fit(posts, labels)
    assert set(tagger.classes_) == {"NAME", "O"}
    assert tagger.training_documents_ == 2
    assert tagger.training_tokens_ == 9 + 6


@pytest.mark.parametrize("posts, labels, message", [
    (TEXTS, [[(3, 6, "PERSON")], []], "label 'PERSON'"),
    (TEXTS, [[(3, 99, "NAME")], []], "outside the text"),
    (TEXTS, [[]], "2 posts but 1 label lists"),
    (TEXTS, None, "every post must be a dict"),
    ([3], [[]], "post 1: expected a text"),
])
def test_fit_rejects_bad_training_data_clearly(posts, labels, message):
    with pytest.raises(ValueError, match=message):
        NameTagger(max_iterations=5).fit(posts, labels)
