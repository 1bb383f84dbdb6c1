"""Pattern identifiers: exact spans for positives, nothing at all for medical text."""
import pytest

from mmbdeid.text.patterns import find_identifiers


def found(text):
    return [(span.label, text[span.start:span.end]) for span in find_identifiers(text)]


POSITIVES = [
    # e-mail
    ("mail me at john.doe@gmail.com.", [("EMAIL", "john.doe@gmail.com")]),
    ("kay_girl+board@mail.example.co.uk", [("EMAIL", "kay_girl+board@mail.example.co.uk")]),
    ("JOHN@EXAMPLE.ORG!", [("EMAIL", "JOHN@EXAMPLE.ORG")]),
    ("(write to jane@x.org)", [("EMAIL", "jane@x.org")]),
    # URLs with scheme
    ("https://x.org/a?b=c&d=e", [("URL", "https://x.org/a?b=c&d=e")]),
    ("see http://example.com.", [("URL", "http://example.com")]),
    ("see (https://x.org/a)", [("URL", "https://x.org/a")]),
    ("https://en.wikipedia.org/wiki/Foo_(bar).", [("URL", "https://en.wikipedia.org/wiki/Foo_(bar)")]),
    ("(https://en.wikipedia.org/wiki/Foo_(bar))", [("URL", "https://en.wikipedia.org/wiki/Foo_(bar)")]),
    ("[http://a.com/x]", [("URL", "http://a.com/x")]),
    ("<https://a.com/x>", [("URL", "https://a.com/x")]),
    ("\"http://a.com/x\"", [("URL", "http://a.com/x")]),
    ("go to http://localhost:8080/page, then", [("URL", "http://localhost:8080/page")]),
    # URLs without scheme
    ("www.example.com/path", [("URL", "www.example.com/path")]),
    ("(see www.x.com)", [("URL", "www.x.com")]),
    ("example.org", [("URL", "example.org")]),
    ("Visit WebMD.com, or cancer.gov!", [("URL", "WebMD.com"), ("URL", "cancer.gov")]),
    ("bit.ly/abc", [("URL", "bit.ly/abc")]),
    ("youtu.be/dQw4w9WgXcQ", [("URL", "youtu.be/dQw4w9WgXcQ")]),
    ("nhs.uk/conditions/cancer/ is good", [("URL", "nhs.uk/conditions/cancer/")]),
    ("my blog kaygirl.blogspot.com?", [("URL", "kaygirl.blogspot.com")]),
    ("x.com/a(b) and [x.com/a]", [("URL", "x.com/a(b)"), ("URL", "x.com/a")]),
    # phones, US
    ("555-123-4567", [("PHONE", "555-123-4567")]),
    ("555.123.4567", [("PHONE", "555.123.4567")]),
    ("555 123 4567", [("PHONE", "555 123 4567")]),
    ("(555) 123-4567", [("PHONE", "(555) 123-4567")]),
    ("(555)123-4567", [("PHONE", "(555)123-4567")]),
    ("+1 555 123 4567", [("PHONE", "+1 555 123 4567")]),
    ("+1-555-123-4567", [("PHONE", "+1-555-123-4567")]),
    ("1-800-555-1234", [("PHONE", "1-800-555-1234")]),
    ("5551234567", [("PHONE", "5551234567")]),
    ("num(123)4567890", [("PHONE", "(123)4567890")]),
    ("call5551234567", [("PHONE", "5551234567")]),
    ("call 555-123-4567.", [("PHONE", "555-123-4567")]),
    ("555-123-4567 x123", [("PHONE", "555-123-4567 x123")]),
    ("555-123-4567 ext. 12", [("PHONE", "555-123-4567 ext. 12")]),
    ("(555) 123-4567, (555)123-4567",
     [("PHONE", "(555) 123-4567"), ("PHONE", "(555)123-4567")]),
    # phones, international
    ("+44 20 7946 0958", [("PHONE", "+44 20 7946 0958")]),
    ("+44 (0)20 7946 0958", [("PHONE", "+44 (0)20 7946 0958")]),
    ("+61 2 9876 5432", [("PHONE", "+61 2 9876 5432")]),
    ("ring 020 7946 0958 today", [("PHONE", "020 7946 0958")]),
    # handles
    ("thanks @kaygirl!", [("USER", "@kaygirl")]),
    ("@hippie_963's post", [("USER", "@hippie_963")]),
    ("ask u/name", [("USER", "u/name")]),
    ("ask /u/some-name.", [("USER", "/u/some-name")]),
    # mixed
    ("Kay (kay@x.com, 555-123-4567) posted www.x.com",
     [("EMAIL", "kay@x.com"), ("PHONE", "555-123-4567"), ("URL", "www.x.com")]),
]


@pytest.mark.parametrize("text, expected", POSITIVES)
def test_identifiers_found_with_exact_text(text, expected):
    assert found(text) == expected


NEGATIVES = [
    "take 500mg twice a day",
    "2.5 mg of lorazepam",
    "norco 10/325 every 6 hours",
    "bp was 120/80 this morning",
    "diagnosed 2010-03-12",
    "diagnosed 03/12/2010",
    "diagnosed 12.03.2010",
    "appointment at 10:30 or 14:45:00",
    "since 1999 and 2004",
    "A1C 6.5 last week",
    "she is 45 years old, he is 7",
    "1,000 mg or 100,000 units, 1,234,567 cells",
    "stage 3 grade 2 er+ pr+ her2-",
    "my zip is 21218 or 21218-1234",
    "id 12345 and ref 4411",
    "e.g. the scan i.e. the mri at 9 a.m. or p.m.",
    "Dr.Smith said so",
    "3.5mg",
    "1.5cm mass, 0.5ng/ml",
    "I was sad.Today is better.Life goes on",
    "psa 4.0 to 10.5 over 2-3 months",
    "wbc 3.2 plt 150-450 hgb 11.5",
    "meet @ 5pm or @5pm",
    "[NAME]/[NAME]@enronXgate and [U12]@acme",     # an earlier scrub's Maren@acme
    "rads x 33, chemo x6",
    "ki-67 was 25%",
    "breast ca. dx at 38",
    "v1.2.3 of the app",
    "",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_medical_text_untouched(text):
    assert found(text) == []


def test_email_is_not_also_a_handle_or_url():
    assert found("bob@example.com") == [("EMAIL", "bob@example.com")]


def test_spans_are_sorted_non_overlapping_score_one():
    text = "a@b.com www.b.com/@x 555-123-4567 @me u/you http://c.org/5551234567"
    spans = find_identifiers(text)
    assert spans == sorted(spans, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    assert all(s.score == 1.0 for s in spans)
    assert [s.label for s in spans] == ["EMAIL", "URL", "PHONE", "USER", "USER", "URL"]
