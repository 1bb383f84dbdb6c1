"""Names the shape of a line gives away (issue 31): mail header fields, display names
before an address, Notes headers, lists of people and repeated name lines; the same words
in lines of other shapes stay.

Every text here is fictional, written for these tests. The chain runs with a stand-in
model that tags nothing, so each row checks what the rule steps find on their own."""
import pytest

from mmbdeid.detect.names.message_lines import MESSAGE_LINES, MessageLineDetector
from mmbdeid.text.document import Document
from stand_in_model import scrub


@pytest.mark.parametrize("text, expected", [
    # header fields: each name, the address or Notes domain after it left
    ("From: Renata Wollaston [mailto:r.w@example.org]\nSent: Monday",
     "From: [NAME] [mailto:[EMAIL]]\nSent: Monday"),
    ("To: Tobias Marr; Ines Carvalho-Boyd\nSubject: rota",
     "To: [NAME]; [NAME]\nSubject: rota"),
    ("cc: Halvard Penrose/Clinic@ClinicMail", "cc: [NAME]/Clinic@ClinicMail"),
    ("> From: Dr. Oduya\n> hi", "> From: Dr. [NAME]\n> hi"),
    # a display name before an address, quoted or not, in any case
    ('"halvard j. penrose" <h.penrose@example.net> wrote:',
     '"[NAME]" <[EMAIL]> wrote:'),
    ("Reply to: Marit Jovanovic <mj@example.org>", "Reply to: [NAME] <[EMAIL]>"),
    ('"ines k. boyd" <\u2026> wrote:', '"[NAME]" <\u2026> wrote:'),
    # a Notes header: a name before a date and a time
    ("Sheyla Tworek   03/26/2001 08:58 PM\nTo: all", "[NAME]   03/26/2001 08:58 PM\nTo: all"),
    ("Sheyla Tworek@ACME 03/26/2001 08:58 PM", "[NAME] 03/26/2001 08:58 PM"),  # and @ACME
    # a list of people: name, age, place
    ("Accused:\nCallum Ashdown, 24, Leeds\nFarid Noorani, 31, Bradford",
     "Accused:\n[NAME], 24, Leeds\n[NAME], 31, Bradford"),
    # a name line repeated (a signature under each reply), not a repeated role line
    ("Confirmed.\nMarit Jovanovic\nRadiology Scheduling\nOld mail\nMarit Jovanovic\n"
     "Radiology Scheduling",
     "Confirmed.\n[NAME]\nRadiology Scheduling\nOld mail\n[NAME]\nRadiology Scheduling"),
    # what stays: header fields without a name, a date line without a name, numbered lines
    ("To: All Staff\nFrom: the clinic", "To: All Staff\nFrom: the clinic"),
    ("Sent by: Clinic Office", "Sent by: Clinic Office"),
    ("Results 03/26/2001 08:58 PM", "Results 03/26/2001 08:58 PM"),
    ("Room Twelve, 4, upstairs", "Room Twelve, 4, upstairs"),
    ("Methotrexate, 15, weekly", "Methotrexate, 15, weekly"),
    ("Good Morning\nGood Morning", "Good Morning\nGood Morning"),
    ("Radiology Scheduling\nRadiology Scheduling", "Radiology Scheduling\nRadiology Scheduling"),
    ("the time is 10:30 to: noon", "the time is 10:30 to: noon"),
])
def test_message_lines(text, expected):
    assert scrub(text) == expected


def test_message_line_spans_cover_the_name_only():
    text = 'To: Dr. Tobias Marr; "ines k. boyd" <ib@example.org>'
    spans = MessageLineDetector().detect(Document.from_text(text))
    assert [(text[s.start:s.end], s.label, s.score, s.source) for s in spans] == [
        ("Tobias Marr", "NAME", 1.0, MESSAGE_LINES), ("ines k. boyd", "NAME", 1.0, MESSAGE_LINES)]


def test_scrubbing_twice_changes_nothing():
    text = "To: Tobias Marr; Ines Carvalho-Boyd\nCallum Ashdown, 24, Leeds"
    once = scrub(text)
    assert scrub(once) == once
