"""The fictional word-name sample of issue 31 (``corpora_samples/word_names.annotated.jsonl``):
it is what ``tools/build_word_names_sample.py`` builds from its source, and the names a cue
marks there are removed while the same words in common use stay."""
from pathlib import Path

import pytest

import paths
from sample_builds import build_script, load, thread_problems

SAMPLE = Path(paths.SAMPLES) / "word_names.annotated.jsonl"


def test_the_shipped_file_is_what_the_script_builds():
    built = build_script("build_word_names_sample").build_all()
    assert built[SAMPLE] == SAMPLE.read_text(encoding="utf-8"), (
        "stale: run python3 tools/build_word_names_sample.py")
    assert thread_problems(load(SAMPLE)) == []


@pytest.mark.slow
def test_cued_names_go_and_words_stay():
    import mmbdeid
    records = load(SAMPLE)
    posts = [{k: v for k, v in r.items() if k not in ("spans", "keep")} for r in records]
    missed, removed_words = [], []
    for record, spans in zip(records, mmbdeid.Scrubber().analyze_many(posts)):
        found = [(s.start, s.end) for s in spans]
        covered = lambda a, b: any(s <= a and b <= e for s, e in found)  # noqa: E731
        missed += [(record["id"], record["text"][g["start"]:g["end"]]) for g in record["spans"]
                   if not covered(g["start"], g["end"])]
        removed_words += [(record["id"], k["text"]) for k in record["keep"]
                          if covered(k["start"], k["end"])]
    # measured when the cues came (issue 31): 1 name of 43 left (12 before), and the 9 of
    # the 26 words the model took before them; none of the words the cues look at
    assert len(missed) <= 1, missed
    assert len(removed_words) <= 9, removed_words
    assert not [word for _, word in removed_words
                if word.lower() in ("hope", "will", "art", "may")], removed_words
