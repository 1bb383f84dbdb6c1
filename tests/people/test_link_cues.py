"""What else links a name to a person (issue 30): a member's sign-off the model missed,
a short form as it sounds, a surname-first form, a title that says another person.
Fictional boards."""
import pytest

from mmbdeid.people.linker import Linker
from mmbdeid.people.mentions import signoff_line

from test_link_evidence import owners, post, spans_of

# Magda signs her posts; the model found no span on her sign-off.
MAGDA_1 = post("m1", "care", "tc1", "pierogi_lady", "Mum slept through the night.\n\nMagda")
MAGDA_2 = post("m2", "care", "tc2", "pierogi_lady", "Another good night, finally.\n\nMagda")
MAGDA_GREETED = post("m3", "care", "tc2", "night_owl_ned", "So glad, and Magda, rest too.",
                     "Magda", parent="m2")
# Pen signs after a closing word; a reply greets her by the longer form.
PEN_1 = post("p1", "ivf", "ti1", "twoLinesPls", "Beta on Monday.\nxx Pen")
PEN_2 = post("p2", "ivf", "ti2", "twoLinesPls", "Beta was 212!\nxx Pen")
SAM_REPLIES = post("p2b", "ivf", "ti2", "sam_s", "Fingers crossed for the next one.",
                   parent="p2")
PENNY_GREETED = post("p3", "ivf", "ti2", "kay_k", "Penny, that is a great number.", "Penny",
                     parent="p2b")
PETER_GREETED = post("p4", "ivf", "ti2", "kay_k", "Peter, that is a great number.", "Peter",
                     parent="p2")
# Dez signs; a reply calls her by her full name, another misspells it.
DEZ = post("z1", "ivf", "tz1", "GraceAndGrit", "Retrieval went fine.\n\nDez", "Dez")
DESIREE = post("z2", "ivf", "tz1", "mari_h", "Desiree, so glad it went fine.", "Desiree",
               parent="z1")
DESIRAE = post("z3", "ivf", "tz1", "bron_b", "Hi Desirae, congrats!", "Desirae", parent="z1")


@pytest.mark.parametrize("posts, mention, expected", [
    # a sign-off line the model missed, in two posts: her name, then greeted by it
    ([MAGDA_1, MAGDA_2, MAGDA_GREETED], ("m3", "Magda"), "pierogi_lady"),
    # a sign-off after a closing word (xx Pen), then a longer form addressed to her (not
    # to the author of the post replied to, of whom nothing is known)
    ([PEN_1, PEN_2, SAM_REPLIES, PENNY_GREETED], ("p3", "Penny"), "twoLinesPls"),
    # another name that merely begins alike is not her (Pen is not Peter)
    ([PEN_1, PEN_2, PETER_GREETED], ("p4", "Peter"), "P"),
    # a short form as it sounds: Dez of Desiree, and a misspelling of that
    ([DEZ, DESIREE], ("z2", "Desiree"), "GraceAndGrit"),
    ([DEZ, DESIREE, DESIRAE], ("z3", "Desirae"), "GraceAndGrit"),
])
def test_a_cue_links_a_name_to_a_member(posts, mention, expected):
    found, _ = owners(posts)
    assert found[mention][:1] == "P" if expected == "P" else found[mention] == expected


@pytest.mark.parametrize("text, signed", [
    ("Mum slept.\n\nMagda", "Magda"),
    ("Beta on Monday.\nxx Pen", "Pen"),
    ("Taper going well.\n~Rose\n", "Rose"),
    ("Taper going well.\n- Colm", "Colm"),
    ("Great tips.\nThanks Linda", None),         # thanks, or a sign-off: left to the names
    ("Great tips.\nCheers", None),               # a closing word signs nobody
    ("One line only, Magda", None),              # a post of one line signs nothing
    ("Mum slept.\n\nMagda and Tom", None),       # not one word
])
def test_signoff_line(text, signed):
    found = signoff_line(text)
    assert (text[found.start:found.end] if found else None) == signed


def test_a_single_unconfirmed_signoff_is_not_a_name():
    """Signed once, and no span anywhere: not enough to call the member so."""
    linker = Linker()
    fields, names = MAGDA_1
    linker.observe(fields, spans_of(fields["text"], names))
    member = linker.person_map().by_username("pierogi_lady")
    assert "magda" not in member.names


# One father under four forms, and his wife under his surname (one thread).
LETTER = post("k1", "care", "tk1", "daughter_dee",
              "The letter says Re: Nowicki, Tomasz R. and his band says NOWICKI, TOM.",
              "Nowicki", "Tomasz R", "NOWICKI", "TOM")
LABEL = post("k2", "care", "tk1", "daughter_dee",
             "The label says Tom Nowicki now. He calls me Mrs. Nowicki some days.",
             "Tom Nowicki", "Nowicki", parent="k1")
FATHER_AGAIN = post("k3", "care", "tk1", "night_owl_ned", "Tomasz sounds a fighter.",
                    "Tomasz", parent="k2")
# A facilitator under a short form and his full name; a son and his wife in one post.
FACILITATOR = post("f1", "recovery", "tf1", "keisha_k",
                   'Art is leaving. The card says "To Arturo", his real name.', "Art",
                   "Arturo")
SON_AND_WIFE = post("f2", "recovery", "tf2", "keisha_k",
                    "My son Dan came, and his wife Danielle too.", "Dan", "Danielle")


@pytest.mark.parametrize("posts, first, second, same", [
    # a surname-first form is the name in its usual order: one person
    ([LETTER, LABEL], ("k1", "Nowicki, Tomasz R"), ("k2", "Tom Nowicki"), True),
    ([LETTER, LABEL], ("k1", "NOWICKI, TOM"), ("k2", "Tom Nowicki"), True),
    # a given name of the full name, later in the thread
    ([LETTER, LABEL, FATHER_AGAIN], ("k3", "Tomasz"), ("k2", "Tom Nowicki"), True),
    # Mrs. before his surname says another person
    ([LETTER, LABEL], ("k2", "Nowicki"), ("k2", "Tom Nowicki"), False),
    # a short form and the name it begins, in one thread
    ([FACILITATOR], ("f1", "Art"), ("f1", "Arturo"), True),
    # not when the two names read as the two genders
    ([SON_AND_WIFE], ("f2", "Dan"), ("f2", "Danielle"), False),
])
def test_forms_of_one_person_link_and_others_do_not(posts, first, second, same):
    found, _ = owners(posts)
    assert (found[first] == found[second]) is same


MR_OKAFOR = post("o1", "care", "to1", "colm_c", "Mr. Okafor runs the home.", "Okafor")
MR_OKAFOR_AGAIN = post("o2", "care", "to2", "rose_r", "Mr. Okafor gave a talk.", "Okafor")
MRS_OKAFOR = post("o3", "care", "to3", "rose_r", "Mrs. Okafor does the music.", "Okafor")
OKAFOR_BARE = post("o4", "care", "to4", "sue_s", "Okafor is a common name here.", "Okafor")


@pytest.mark.parametrize("posts, first, second, same", [
    # a surname after a title, in two threads of one board: one person
    ([MR_OKAFOR, MR_OKAFOR_AGAIN], ("o1", "Okafor"), ("o2", "Okafor"), True),
    # not after a title of the other gender, nor without a title by another author
    ([MR_OKAFOR, MRS_OKAFOR], ("o1", "Okafor"), ("o3", "Okafor"), False),
    ([MR_OKAFOR, OKAFOR_BARE], ("o1", "Okafor"), ("o4", "Okafor"), False),
])
def test_a_titled_surname_crosses_threads(posts, first, second, same):
    found, _ = owners(posts)
    assert (found[first] == found[second]) is same
