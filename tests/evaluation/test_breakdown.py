"""Figures per board, forum or thread (evaluate --by), and what evaluation measures
(evaluate --chain)."""
import json

import pytest

from mmbdeid.cli import main
from mmbdeid.evaluation.breakdown import figures_by_group, group_indices
from mmbdeid.files.corpora import LabelledDocument
from mmbdeid.text.document import Document


def labelled(board, thread, tokens, labels):
    return LabelledDocument(Document.from_text(" ".join(tokens), board=board, thread=thread),
                            labels)


DOCUMENTS = [
    labelled("news:cats", "t1", ["Kay", "wrote"], ["NAME", "O"]),
    labelled("news:dogs", "t2", ["Hi", "Rita"], ["O", "NAME"]),
    labelled("email", "t3", ["Thanks", "Bo"], ["O", "NAME"]),
    labelled("email", "t3", ["no", "names"], ["O", "O"]),
]
SCORES = [[0.9, 0.0], [0.0, 0.01], [0.6, 0.7], [0.0, 0.0]]


@pytest.mark.parametrize("by, groups", [
    ("board", {"news:cats": [0], "news:dogs": [1], "email": [2, 3]}),
    ("forum", {"news": [0, 1], "email": [2, 3]}),
    ("thread", {"t1": [0], "t2": [1], "t3": [2, 3]}),
])
def test_group_indices(by, groups):
    assert dict(group_indices(DOCUMENTS, by)) == groups


def test_figures_by_group():
    rows = {key: (posts, m, leak) for key, posts, m, leak
            in figures_by_group(DOCUMENTS, SCORES, 0.05, by="forum")}
    posts, m, leak = rows["news"]
    assert (posts, m.tp, m.fn, m.fp, leak.leaking, leak.with_names) == (2, 1, 1, 0, 1, 2)
    posts, m, leak = rows["email"]
    assert (posts, m.tp, m.fn, m.fp, leak.leaking, leak.with_names) == (2, 1, 0, 1, 0, 1)


def test_evaluate_by_forum_and_scrub_chain(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    posts = [{"id": "1", "board": "b:one", "thread": "t1", "author": "x",
              "text": "I saw Dr. Okonkwo today", "spans": [{"start": 10, "end": 17,
                                                          "label": "NAME"}]},
             {"id": "2", "board": "b:two", "thread": "t2", "author": "y",
              "text": "Thanks for the tips", "spans": []}]
    gold.write_text("".join(json.dumps(p) + "\n" for p in posts), encoding="utf-8")
    assert main(["evaluate", str(gold), "--by", "forum", "--chain", "scrub", "--quiet"]) == 0
    out = capsys.readouterr().out
    # the name after a title is a rule step: measured with --chain scrub
    assert "recall      1.0000" in out
    assert [line.split()[:3] for line in out.splitlines() if line.startswith("b ")] == \
        [["b", "2", "1"]]
