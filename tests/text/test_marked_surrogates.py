"""A surrogate an earlier ``--mark-surrogates`` run wrote (``⟦Michael⟧``) is kept like a
placeholder by every later scrub, the Python API's too (issue 30, item 5)."""
import pytest

import mmbdeid
from mmbdeid.text.placeholders import find_placeholders, mark_surrogate, stand_in


@pytest.mark.parametrize("text, found", [
    ("Thanks \u27e6Michael Orr\u27e7!", ["\u27e6Michael Orr\u27e7"]),
    ("Dr. \u27e6Smith\u27e7 and [NAME]", ["\u27e6Smith\u27e7", "[NAME]"]),
    ("ask \u27e6lmoss42\u27e7 or \u27e6(155) 812-6862\u27e7",
     ["\u27e6lmoss42\u27e7", "\u27e6(155) 812-6862\u27e7"]),
    ("an open \u27e6 and no close", []),
    ("\u27e6across\na line\u27e7", []),
])
def test_marked_surrogates_are_found_like_placeholders(text, found):
    assert [text[s:e] for s, e in find_placeholders(text)] == found


def test_a_marked_surrogate_reads_as_a_name():
    assert stand_in(mark_surrogate("Smith")).pattern is None


@pytest.mark.parametrize("mode", ["placeholder", "mask"])
def test_the_python_api_keeps_marked_surrogates(mode):
    text = ("Thanks \u27e6Michael Orr\u27e7 and Linda, ask \u27e6lmoss42\u27e7. "
            "Dr. \u27e6Smith\u27e7 agreed.")
    scrubbed = mmbdeid.scrub(text, mode=mode)
    for marked in ("\u27e6Michael Orr\u27e7", "\u27e6lmoss42\u27e7", "Dr. \u27e6Smith\u27e7"):
        assert marked in scrubbed
    assert "Linda" not in scrubbed
