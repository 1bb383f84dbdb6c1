"""Code-aware keeping on technical text (issue 31, item 5): code, identifiers, emoji
shortcodes and software products are never a person's name, unless a person cue or a
member's username says so. Every sentence here is fictional, written for this test."""
import pytest

from keep_samples import leaked, lost, read_sample, scrub_sample
from mmbdeid.detect.keep.code_text import CodeTextKeeper, code_regions, name_like_camel_case
from mmbdeid.detect.registry import Setup, build_steps
from mmbdeid.text.document import Document

TECHNICAL = read_sample("technical.annotated.jsonl")


def kept(text, usernames=()):
    document = Document.from_text(text)
    spans = CodeTextKeeper(usernames).detect(document)
    assert all(s.label == "KEEP" and s.source == "code_text" for s in spans)
    return [text[s.start:s.end] for s in spans]


@pytest.mark.parametrize("text, words", [
    # identifiers in running text
    ("I'm using AKVideoImageView to loop it", ["AKVideoImageView"]),
    ("USBPollerThread never exits", ["USBPollerThread"]),
    ("On MinGW my std::random_device repeats", ["MinGW", "std", ":", ":", "random_device"]),
    ("After upgrading Lex.DB from 3.0.4", ["Lex", ".", "DB"]),
    ("call os.path first", ["os", ".", "path"]),
    ("the KAFKA_DSN and account_profile_id columns", ["KAFKA_DSN", "account_profile_id"]),
    ("then main() returns", ["main", "(", ")"]),
    ("works on iOS 17", ["iOS"]),
    # emoji shortcodes
    ("Released :zap: and :palm_tree: today", [":", "zap", ":", ":", "palm_tree", ":"]),
    # products, as the product is written
    ("Using Symfony with a Kafka transport", ["Symfony", "Kafka"]),
    ("The Greenkeeper PR fails on Travis", ["Greenkeeper", "Travis"]),
    ("Note that Babel 7.24 drops `plugin`", ["Babel", "`", "plugin", "`"]),
    # an npm scoped package is no handle
    ("bumping @babel/core to 7.24", ["@babel"]),
])
def test_each_kind_is_kept(text, words):
    assert kept(text) == words


@pytest.mark.parametrize("text", [
    "RT: BoA seonbaenim is so fantastic!",      # a singer's name in mixed case (BTC dev)
    "DeA and I went to the clinic",
])
def test_a_three_letter_mixed_case_word_is_no_identifier(text):
    assert kept(text) == []


@pytest.mark.parametrize("text, name", [
    ("Thanks Travis, that fixed it", "Travis"),
    ("Thanks, Travis!", "Travis"),
    ("cc Travis and Kafka", "Kafka"),
    ("Thank you Mirela and Travis!", "Travis"),
    ("Signed-off-by: Travis Ruiz", "Travis"),
    ("Fixed it.\n-- Travis", "Travis"),
    ("Fixed it.\nTravis", "Travis"),                  # alone on the last line: a signature
    ("a note from Travis Hanson on the build", "Travis"),   # a surname after it
    ("my colleague Maria Kafka wrote", "Kafka"),         # a first name before it
    ("Hi Jenkins, any news?", "Jenkins"),
])
def test_a_person_cue_leaves_the_product_a_name(text, name):
    assert name not in kept(text)


@pytest.mark.parametrize("word", ["McDonald", "DeShawn", "LaToya", "MacKenzie", "DiCaprio",
                                  "CGoehring"])
def test_camel_case_names_stay_name_candidates(word):
    assert name_like_camel_case(word)
    assert kept("I asked %s about it yesterday" % word) == []


@pytest.mark.parametrize("text", [
    "I asked O'Brien about it",                      # an apostrophe is no identifier
    "ask W.H.S. Koerner and R.E. Glenn",             # initials are no dotted identifier
    "see you there Mary.Then we left",               # a missing space
    "thanks levo_lisa and Cindy_Lou",                # handles with a first name in them
    "So happy for you lowcarbLou and ChestPain",
])
def test_names_and_handles_are_not_identifiers(text):
    assert kept(text) == []


@pytest.mark.parametrize("text", ["Travis came to visit on Sunday", "Note that Babel is 7",
                                  "Saw Jenkins at the clinic"])
def test_a_product_that_is_a_name_needs_a_technical_post(text):
    assert kept(text) == []


def test_a_members_username_is_not_kept():
    assert kept("set kat_in_tx now", usernames=["kat_in_tx"]) == []
    assert kept("set kat_in_tx now") == ["kat_in_tx"]


@pytest.mark.parametrize("text, inside", [
    ("Call `Maria.save()` then", "Maria"),
    ("Run this:\n```\nuser = Maria Lopez\n```\nDone.", "Lopez"),
    ("See `fix`:\n\n    author = Maria Lopez\n", "Maria"),     # indented, in a post with code
])
def test_code_is_not_scanned_for_names(text, inside):
    assert inside in kept(text)


def test_indented_lines_are_code_only_in_a_post_with_code():
    assert kept("Dear all,\n    Maria Lopez wrote back") == []


def test_e_mail_and_web_addresses_in_code_are_still_removed():
    text = "Set `MAIL=ana.ruiz@example.org` and `https://example.org/ana`"
    words = kept(text)
    assert "MAIL" in words and not any("@" in w or "example" in w for w in words)


def test_code_regions():
    text = "a `b` c\n```\nd\n```\n    e"
    assert sorted(text[s:e] for s, e in code_regions(text)) == [
        "    e", "```\nd\n```", "`b`"]


def test_the_step_is_in_the_chain_and_gets_the_board_usernames():
    class Stats:
        @staticmethod
        def users_by_board():
            return {"gh": {"kat_in_tx", ""}}
    [step] = build_steps(["code-text"], Setup(stats=Stats()))
    assert step.usernames == frozenset({"kat_in_tx"})
    [step] = build_steps(["code-text"], Setup())
    assert step.usernames == frozenset()


@pytest.fixture(scope="module")
def scrubbed(default_tagger):
    return scrub_sample(TECHNICAL, default_tagger)


def test_no_gold_name_of_the_technical_sample_is_kept():
    for record in TECHNICAL:
        document = Document.from_post(record)
        covered = [record["text"][s.start:s.end]
                   for s in CodeTextKeeper().detect(document)
                   if any(s.start < g["end"] and g["start"] < s.end for g in record["spans"])]
        assert covered == [], record["id"]


def test_the_technical_sample_keeps_its_code_and_products(scrubbed):
    """The model chain with the keep steps: at most 2 of the sample's keep words lost (the
    model's Babel and libusb) and no more names leaking than before the step."""
    lost_words = [w for r in TECHNICAL for w in lost(r, scrubbed[r["id"]][1])]
    words = sum(len(r["keep"]) for r in TECHNICAL)
    assert len(lost_words) <= 0.02 * words, lost_words
    leaking = [r["id"] for r in TECHNICAL if leaked(r, *scrubbed[r["id"]])]
    assert len(leaking) <= 2, leaking
