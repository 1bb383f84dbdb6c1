"""Names that are words, decided by their context (issue 31): a kinship or role word before,
a verb of people after, an address; sentence-initial common use stays; in a thread, the
name a cue found is removed elsewhere but where it opens a sentence in common use.

Every text here is fictional, written for these tests. The chain runs with a stand-in model
that tags nothing, so each row checks what the rule steps remove on their own."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.names.cued_names import CUED, CuedNameDetector
from mmbdeid.detect.thread_names import Seen, removed_types
from mmbdeid.spans import CONSISTENCY, Span
from mmbdeid.text.document import Document
from stand_in_model import scrub


@pytest.mark.parametrize("text, expected", [
    # a kinship or role word before it
    ("My sister Hope is visiting.", "My sister [NAME] is visiting."),
    ("her husband, Will, drove.", "her husband, [NAME], drove."),
    ("Our facilitator Art moved the group.", "Our facilitator [NAME] moved the group."),
    ("a girl named Joy", "a girl named [NAME]"),
    # a verb of people after it, or be and a verb in -ing
    ("Hope is flying in from Dublin.", "[NAME] is flying in from Dublin."),
    ("Hope said no.", "[NAME] said no."),
    ("Will texted at midnight.", "[NAME] texted at midnight."),
    ("Art called me back.", "[NAME] called me back."),
    ("Will has called twice.", "[NAME] has called twice."),
    # an auxiliary before it, inside a sentence
    ("does Hope come to the family meetings?", "does [NAME] come to the family meetings?"),
    ("So did Rose sit in?", "So did [NAME] sit in?"),
    # an address
    ("Thanks, Will!", "Thanks, [NAME]!"),
    ("Hi Mark, welcome.", "Hi [NAME], welcome."),
    ("Thank you Grace.", "Thank you [NAME]."),
    ("Hope, I am so sorry.", "[NAME], I am so sorry."),
    # lower case: after a possessive and a kinship word, before what no verb takes
    ("my daughter hope is twelve", "my daughter [NAME] is twelve"),
    ("my husband will said no", "my husband [NAME] said no"),
    ("my son bill and I", "my son [NAME] and I"),
    # common use stays
    ("I hope so.", "I hope so."),
    ("Will you come? Hope this helps.", "Will you come? Hope this helps."),
    ("Art therapy helped.", "Art therapy helped."),
    ("Hope is what keeps me going.", "Hope is what keeps me going."),
    ("Thanks, Hope this helps", "Thanks, Hope this helps"),
    ("my husband will be there", "my husband will be there"),
    ("I asked if my husband will.", "I asked if my husband will."),
    ("my mom may come too", "my mom may come too"),
    ("Is Grace the answer?", "Is Grace the answer?"),
    ("Why is Summer Camp closed?", "Why is Summer Camp closed?"),
])
def test_a_cue_makes_a_word_name_a_name(text, expected):
    assert scrub(text) == expected


def test_the_cued_names_step_alone():
    document = Document.from_text("My sister Hope said hi. I hope so.")
    spans = CuedNameDetector().detect(document)
    assert [(document.text[s.start:s.end], s.source, s.score) for s in spans] == [
        ("Hope", CUED, 1.0)]


def test_a_cued_name_is_evidence_for_the_thread():
    text = "My sister Hope said hi."
    spans = [Span("NAME", 10, 14, 1.0, CUED)]
    assert removed_types(text, spans, 0.5) == {"hope": Seen(1.0, "NAME", ("Hope",))}


HOPE = {"hope": Seen(1.0, "NAME", ("Hope",))}


@pytest.mark.parametrize("text, removed", [
    ("We all miss Hope.", ["Hope"]),                     # inside a sentence
    ("Hope is ten now.", ["Hope"]),                      # opening one, a verb after
    ("Hope finally came.", ["Hope"]),
    ("Hope this helps.", []),                            # common use opening a sentence
    ("Hope you are well. Hope therapy exists.", []),
    ("I hope so.", []),                                  # lower case
])
def test_in_a_thread_that_named_her_a_word_name_goes_but_in_common_use(text, removed):
    spans = Analyzer.for_extension().extend(Document.from_text(text), [], HOPE)
    assert [text[s.start:s.end] for s in spans] == removed
    assert all(s.source == CONSISTENCY for s in spans)
