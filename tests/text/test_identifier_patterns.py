"""The opt-in kinds' patterns (mmbdeid/text/addresses.py, numbers.py, dates.py): what each
finds in several shapes, and the lookalikes that must stay. Fictional text."""
import pytest

from mmbdeid.text.addresses import find_addresses, find_postcodes
from mmbdeid.text.dates import find_dates
from mmbdeid.text.numbers import find_ids, find_ips

FINDERS = {"ADDRESS": find_addresses, "POSTCODE": find_postcodes, "ID": find_ids,
           "IP": find_ips, "DATE": find_dates}


def _found(label, text):
    return [text[start:end] for start, end in FINDERS[label](text)]


@pytest.mark.parametrize("label, text, expected", [
    ("ADDRESS", "I live at 42 Birchwood Lane, Spokane, WA 99201-1234 now.",
     ["42 Birchwood Lane, Spokane, WA 99201-1234"]),
    ("ADDRESS", "Send it to 1600 NW 5th Ave. Apt 4B, Portland, OR 97209.",
     ["1600 NW 5th Ave. Apt 4B, Portland, OR 97209"]),
    ("ADDRESS", "We moved to Flat 3, 27 Acacia Road, Leeds LS6 2AB last year",
     ["Flat 3, 27 Acacia Road, Leeds LS6 2AB"]),
    ("ADDRESS", "Unit 4/12 Wattle St, Parramatta NSW 2150", ["Unit 4/12 Wattle St, Parramatta NSW 2150"]),
    ("ADDRESS", "the clinic at 350 Queen St. W, Toronto, ON M5V 2T6 is good",
     ["350 Queen St. W, Toronto, ON M5V 2T6"]),
    ("ADDRESS", "I'm at 42 birchwood lane if you want to visit", ["42 birchwood lane"]),
    ("ADDRESS", "it's 42 birchwood lane", []),                    # lower case: after a cue
    ("ADDRESS", "12 Main St. Then we left.", ["12 Main St"]),           # no sentence end
    ("ADDRESS", "at 42 Elm St, Mary says hi", ["42 Elm St"]),          # a city needs a state
    ("ADDRESS", "at 42 Elm St\nSpokane, WA", ["42 Elm St"]),           # no line break
    ("ADDRESS", "at 111 Market Place Ste 500 Baltimore,MD 21202 Phone",   # no space
     ["111 Market Place Ste 500 Baltimore,MD 21202"]),
    ("ADDRESS", "write to PO Box 4471, Boise, ID 83701 or P.O. Box 12",
     ["PO Box 4471, Boise, ID 83701", "P.O. Box 12"]),
    ("POSTCODE", "My zip is 99201 and postcode: SW1A 1AA", ["99201", "SW1A 1AA"]),
    ("POSTCODE", "Texas 75001-2234, or my postal code K1A 0B1", ["75001-2234", "K1A 0B1"]),
    ("POSTCODE", "moved to LS6 2AB, postcode 2150", ["LS6 2AB", "2150"]),
    ("POSTCODE", "my zip code: it is 30309", ["30309"]),
    ("ID", "MRN 00423817 on my wristband", ["00423817"]),
    ("ID", "acct #88123-004 and member ID: XJH442189013.", ["88123-004", "XJH442189013"]),
    ("ID", "license no. D1234-5678-9012, NHS number 943 476 5919",
     ["D1234-5678-9012", "943 476 5919"]),
    ("ID", "his SSN 219-09-9999 and order #48213", ["219-09-9999", "48213"]),
    ("IP", "server 192.168.4.20. and 2001:0db8:85a3:0000:0000:8a2e:0370:7334",
     ["192.168.4.20", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"]),
    ("IP", "from fe80::1ff:fe23:4567:890a/64", ["fe80::1ff:fe23:4567:890a/64"]),
    ("DATE", "on March 3, 2021 I; Mar. 3rd; 3 March 2021", ["March 3, 2021", "Mar. 3rd",
                                                           "3 March 2021"]),
    ("DATE", "the 3rd of March, Friday, June 9 at 2pm", ["3rd of March", "Friday, June 9"]),
    ("DATE", "since March 2021, 03/14/2021, 14.03.21, 2021-03-14",
     ["March 2021", "03/14/2021", "14.03.21", "2021-03-14"]),
    ("DATE", "june 5th and Oct 12", ["june 5th", "Oct 12"]),
    ("DATE", "during 13 December, 1998-30 June 2001", ["13 December, 1998", "30 June 2001"]),
])
def test_each_kind_is_found_in_its_shapes(label, text, expected):
    assert _found(label, text) == expected


LOOKALIKES = [
    "500 mg of Tylenol, 0.5mg, 10/325 Norco, I take B12 1000 mcg",
    "TSH 4.5, A1C 6.1, BP 120/80, INR 2.5",
    "in 1998, since 2019, last May, on Friday, Friday at 2pm, at 14:30, 10:30:45",
    "3 weeks, day 14, March 3 weeks ago, 1/2 tablet, room 4, Room 312, #1 priority",
    "walked 3 miles down the road, took 2 at the same place, I had 2 bad days",
    "took 2 long road trips, 154 been boulevard, rest 342 nearly train road",
    "the claim 102mg, group 250ml, ID 500 mg, the policy 2020 changes, ref 1998",
    "version 4.0.3.1, v1.2.3.4, iOS 17.1.2, ID doctor, my ID is fine, ID 3 weeks",
    "may 5 people, we march 3 miles, dose 2 of 3, 5 x 10",
]


@pytest.mark.parametrize("label", sorted(FINDERS))
@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_stay(label, text):
    assert _found(label, text) == []
