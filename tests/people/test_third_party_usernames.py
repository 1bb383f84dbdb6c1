"""A username can name someone else, and a member can name someone who shares their name
(issue 30): ``carer_for_<name>``, ``momto<name>``, ``<name>s_dad`` name the person cared
for, and ``my OT, also <name>`` in a member's own post is not the member. Fictional
boards and people."""
import pytest

from mmbdeid.people.username_names import others_in_username

from test_link_evidence import owners, post


@pytest.mark.parametrize("username, others", [
    ("carer_for_teddy", {"teddy"}),
    ("momtojake", {"jake"}),
    ("lovingliam", {"liam"}),
    ("for_grandma_rose", {"rose"}),
    ("wife_of_a_vet", {"vet"}),
    ("ellies_dad", {"ellie", "ellies"}),
    ("TeddysMom", {"teddy", "teddys"}),
    # the member's own names, or no relation word: nobody else
    ("rehab_priya", set()),
    ("summer_rain_ttc", set()),
    ("sonia_b", set()),
    ("Fortunato", set()),
    ("dadof3", set()),
])
def test_names_in_a_username_that_are_a_third_party(username, others):
    assert others_in_username(username) == others


CARED_FOR = [
    post("m1", "dem", "t1", "carer_for_teddy", "Teddy had a bad night again.\nxx Dawn",
         "Teddy", "Dawn"),
    post("m2", "dem", "t1", "gran_of_six", "Hi Dawn, is Teddy sleeping now?", "Dawn",
         "Teddy", parent="m1"),
    post("m3", "dem", "t1", "carer_for_teddy", "Yes, Teddy slept till six.\nxx Dawn",
         "Teddy", "Dawn", parent="m2"),
]
CHILD = [
    post("e1", "kids", "t2", "ellies_dad", "Ellie starts school tomorrow.\nMarcus", "Ellie",
         "Marcus"),
    post("e2", "kids", "t2", "gran_of_six", "Aww, Ellie will love it.", "Ellie", parent="e1"),
]
SON = [
    post("j1", "kids", "t3", "momtojake", "Jake had his scan, all clear.", "Jake"),
    post("j2", "kids", "t3", "gran_of_six", "So glad Jake is ok!", "Jake", parent="j1"),
]
SIGNS_OTHERWISE = [
    post("s1", "dem", "t5", "teddy_and_me", "Teddy was restless all day.\nxx Dawn", "Teddy",
         "Dawn"),
    post("s2", "dem", "t5", "gran_of_six", "Dawn, is Teddy calmer now?", "Dawn", "Teddy",
         parent="s1"),
    post("s3", "dem", "t5", "teddy_and_me", "Teddy is calmer, thanks.\nxx Dawn", "Teddy",
         "Dawn", parent="s2"),
]
SIGNS_A_SHORT_FORM = [
    post("l1", "dem", "t6", "linda_k", "Anyone tried melatonin?\nLin", "Lin"),
    post("l2", "dem", "t6", "gran_of_six", "Linda, it helped us.", "Linda", parent="l1"),
    post("l3", "dem", "t6", "linda_k", "Thanks, will try.\nLin", "Lin", parent="l2"),
]
SAME_NAME = [
    post("r1", "rehab", "t4", "rehab_priya", "My OT, also Priya, says to rest the knee.",
         "Priya"),
    post("r2", "rehab", "t4", "rehab_priya", "My OT Priya says two more weeks.", "Priya"),
]


@pytest.mark.parametrize("posts, mention, member", [
    # the cared-for husband of carer_for_teddy, who signs Dawn
    (CARED_FOR, ("m2", "Teddy"), "carer_for_teddy"),
    (CARED_FOR, ("m3", "Teddy"), "carer_for_teddy"),
    # her own sign-off and a greeting to her stay hers
    (CARED_FOR, ("m2", "Dawn"), None),
    # the child of ellies_dad, named by another member
    (CHILD, ("e2", "Ellie"), "ellies_dad"),
    # "So glad Jake": not the parent post's author momtojake
    (SON, ("j2", "Jake"), "momtojake"),
    # a member who signs Dawn in two posts is not the Teddy of her username, and a name
    # starting her reply's sentence is not the parent post's author either
    (SIGNS_OTHERWISE, ("s1", "Teddy"), "teddy_and_me"),
    (SIGNS_OTHERWISE, ("s2", "Teddy"), "teddy_and_me"),
    (SIGNS_OTHERWISE, ("s3", "Teddy"), "gran_of_six"),
    # the author's OT who shares her name is not the author
    (SAME_NAME, ("r1", "Priya"), "rehab_priya"),
    (SAME_NAME, ("r2", "Priya"), "rehab_priya"),
])
@pytest.mark.parametrize("scope", ["board", "thread"])
def test_a_third_party_named_like_a_username_is_not_the_member(posts, mention, member,
                                                               scope):
    found, _ = owners(posts, scope)
    if member is None:
        assert found[mention] == "carer_for_teddy"
    else:
        assert found[mention] != member and found[mention][:1] == "P"


def test_a_short_form_signed_agrees_with_the_username():
    found, _ = owners(SIGNS_A_SHORT_FORM)
    assert found[("l2", "Linda")] == "linda_k"


def test_every_mention_of_the_cared_for_person_is_one_person():
    found, _ = owners(CARED_FOR)
    assert found[("m1", "Teddy")] == found[("m2", "Teddy")] == found[("m3", "Teddy")]
