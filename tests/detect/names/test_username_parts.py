"""A dictionary word that is only a piece of a username is not that user (issue 30):
``long hauler`` stays when a member is called LongHaulerLuis; the username's head
(``wildflower`` of wildflower_jo) and words that are no words (``kaygirl``) are still
removed whatever their case."""
import pytest

from mmbdeid.detect.names.usernames import distinctive_usernames
from mmbdeid.lexicon.word_policy import distinctive_variant
from mmbdeid.model.stats import CorpusStats
from mmbdeid.text.document import Document


@pytest.mark.parametrize("variant, username, distinctive", [
    ("hauler", "LongHaulerLuis", False),        # the long-COVID community's own word
    ("bendy", "bendybecca", False),
    ("gambling", "GamblingFreeGrant", False),   # common: the model decides
    ("wildflower", "wildflower_jo", True),      # the head, less a short tag
    ("rosebud", "rosebud58", True),
    ("ladybug", "ladybug_44", True),
    ("kaygirl", "kaygirl96", True),             # no word
    ("longhaulerluis", "LongHaulerLuis", True),
])
def test_distinctive_variant(variant, username, distinctive):
    assert distinctive_variant(variant, username) is distinctive


def test_a_word_inside_a_username_is_not_always_removed():
    posts = [{"id": str(n), "board": "covid", "thread": "t", "author": author, "text": "hi"}
             for n, author in enumerate(("LongHaulerLuis", "GamblingFreeGrant",
                                         "wildflower_jo"))]
    stats = CorpusStats.build([Document.from_post(p) for p in posts])
    terms = distinctive_usernames(stats)
    assert "hauler" not in terms and "gambling" not in terms
    assert {"longhaulerluis", "wildflower", "gamblingfreegrant"} <= {t.lower() for t in terms}
