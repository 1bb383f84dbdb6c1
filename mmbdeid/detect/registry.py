"""The detector steps by name: what each is, what it does to the spans found before it, and
at which stage of the chain it acts.

The chain runs the chosen steps in the order of :data:`STEPS` (a later step wins: see
:mod:`mmbdeid.detect.base`), whatever order they are named in. Stages:

* ``model``: the pattern detectors and the CRF, the spans everything else works on;
* ``filter``: KEEP steps, what is not a person's name (drugs, medical terms, places,
  titles, ...) and the placeholders of an earlier scrub;
* ``rule``: steps that find names the model misses or rates low (names after a title, the
  board's usernames, sign-offs, the rest of a name found, ...), and the user's deny list.

``evaluate`` measures the ``model`` and ``filter`` stages (``--chain model``) or all three
(``--chain scrub``). Adding a detector is one module and one :class:`Step` line here.
"""
from dataclasses import dataclass, replace
from typing import (Any, Callable, FrozenSet, Iterable, List, NamedTuple, Optional, Sequence,
                    Tuple, Type)

from ..kinds import DEFAULT_KINDS, PATTERN_LABELS
from .acronyms import AcronymKeeper
from .base import KEEP, Detector
from .calendar import CalendarKeeper
from .capitals import CapitalNameDetector
from .code_text import CodeTextKeeper, board_users
from .completion import NameCompletion
from .consistency import DEFAULT_LEVEL, ConsistencyDetector
from .crf import CrfDetector
from .demonyms import DemonymKeeper
from .devices import DeviceKeeper
from .drugs import DrugKeeper
from .filenames import FileExtensionKeeper
from .gazetteers import GazetteerPhraseKeeper
from .identifiers import (AddressDetector, DateDetector, IdNumberDetector, IpAddressDetector,
                          PostcodeDetector)
from .hashtags import HashtagNameDetector
from .institutions import InstitutionKeeper, PrefixedPlaceKeeper
from .lists import AllowedTermKeeper, DeniedTermDetector
from .masked import MaskedNameDetector
from .medical import MedicalTermKeeper
from .message_lines import MessageLineDetector
from .not_names import NotNameKeeper
from .offices import OfficeKeeper, OfficeNameDetector
from .org_names import OrgNameDetector
from .organisations import OrganisationKeeper
from .patterns import PatternDetector
from .place_names import PlaceNameDetector
from .placeholders import PlaceholderKeeper
from .places import PlaceKeeper
from .signoff import SignOffDetector
from .spaced import SeparatedNameDetector, SpacedNameDetector
from .titles import TitledNameDetector, TitleKeeper
from .usernames import UsernameDetector

MODEL, FILTER, RULE = "model", "filter", "rule"
STAGES = (MODEL, FILTER, RULE)


@dataclass(frozen=True)
class Setup:
    """What the steps are built from. ``stats``: the corpus statistics of the dump being
    scrubbed; ``threshold`` None: the model's; ``tagging``: the CRF backend
    (:mod:`mmbdeid.detect.crf`); ``consistency``/``authors``: the level at which a word
    removed in a thread (and, with ``authors``, by an author on the board) is removed
    wherever it stands there; ``steps``: the names of the chain's steps (a rule step asks
    the chain's KEEP steps itself); ``kinds``: the kinds of identifier removed (a step
    that finds only other kinds is left out, see :func:`step_names`)."""
    tagger: Any = None
    stats: Any = None
    threshold: Optional[float] = None
    tagging: str = "compiled"
    consistency: float = DEFAULT_LEVEL
    authors: bool = True
    allow: Tuple[str, ...] = ()
    deny: Tuple[str, ...] = ()
    steps: FrozenSet[str] = frozenset()
    kept: Optional[Tuple[Detector, ...]] = None     # the chain's KEEP detectors, once built
    kinds: Tuple[str, ...] = DEFAULT_KINDS

    @property
    def removed_above(self) -> float:
        """The threshold a rule step seeds from the model's spans at."""
        return self.tagger.threshold if self.threshold is None else self.threshold

    def keep_steps(self) -> List[Detector]:
        return list(self.kept) if self.kept is not None else keep_steps(self.steps)


class Step(NamedTuple):
    """A named chain step: ``make`` builds its ``detector`` (None: nothing to do, as a deny
    list without terms or the usernames without statistics), whose class says the step's
    source name (in the spans it finds) and effect. ``produces``: the kinds of identifier
    it finds, where it runs only when one of them is chosen (empty: a KEEP step, or a step
    of the person kinds, which always run)."""
    name: str
    stage: str
    detector: Type[Detector]
    make: Callable[[Setup], Optional[Detector]]
    help: str
    produces: Tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return self.detector.source

    @property
    def effect(self) -> str:
        return self.detector.effect


_PATTERN_STEPS = {"USER": ("handles", "@handles and u/names"),
                  "EMAIL": ("emails", "e-mail addresses"),
                  "URL": ("urls", "web addresses"),
                  "PHONE": ("phones", "phone numbers")}


def _pattern(label: str) -> Step:
    name, what = _PATTERN_STEPS[label]
    return Step(name, MODEL, PatternDetector, lambda setup: PatternDetector(label),
                what + " (regular expressions)", (label,))


def _keeper(name: str, detector: type, help: str) -> Step:
    return Step(name, FILTER, detector, lambda setup: detector(), help)


STEPS: Tuple[Step, ...] = (
    *(_pattern(label) for label in PATTERN_LABELS),
    Step("crf", MODEL, CrfDetector,
         lambda s: CrfDetector(s.tagger, s.stats, s.threshold, tagging=s.tagging),
         "the model: P(NAME) + P(USER) above the threshold"),
    Step("consistency", RULE, ConsistencyDetector,
         lambda s: ConsistencyDetector(s.consistency, s.authors),
         "a word removed with high probability in a thread or by an author, wherever it "
         "stands there"),
    _keeper("not-names", NotNameKeeper, "punctuation, 's, greetings, stop words"),
    _keeper("drugs", DrugKeeper, "drug names"),
    _keeper("medical-terms", MedicalTermKeeper,
            "eponyms before a medical head noun, medical abbreviations, kinship words"),
    _keeper("gazetteer-phrases", GazetteerPhraseKeeper,
            "places and organisations written out whole (San Francisco)"),
    _keeper("places", PlaceKeeper, "one-word places the text says are places"),
    _keeper("organisations", OrganisationKeeper, "capitalised one-word organisations"),
    _keeper("institutions", InstitutionKeeper,
            "institutions named after people (St. Agnes Hospital)"),
    _keeper("prefixed-places", PrefixedPlaceKeeper,
            "a place, saint or storm prefix and the word after it (Fort Worth)"),
    _keeper("calendar", CalendarKeeper, "months, weekdays and holidays"),
    _keeper("devices", DeviceKeeper, "medical devices (Dexcom)"),
    _keeper("acronyms", AcronymKeeper, "acronyms, in brackets or inside a sentence"),
    _keeper("file-extensions", FileExtensionKeeper, "file-name extensions"),
    Step("code-text", FILTER, CodeTextKeeper,
         lambda s: CodeTextKeeper(() if s.stats is None else board_users(s.stats)),
         "code, identifiers (AKVideoImageView, std::chrono), emoji shortcodes (:zap:) and "
         "software products (Kafka), unless a person cue or a member's username says "
         "otherwise"),
    _keeper("demonyms", DemonymKeeper, "nationalities, peoples and religions"),
    _keeper("titles", TitleKeeper, "titles before a name (Dr.)"),
    _keeper("offices", OfficeKeeper, "offices before a name (Minister of Defense)"),
    Step("titled-names", RULE, TitledNameDetector, lambda s: TitledNameDetector(),
         "names after a title (Dr. Oyelaran)"),
    Step("office-names", RULE, OfficeNameDetector,
         lambda s: OfficeNameDetector(s.keep_steps(), s.removed_above),
         "names after a rank or office (cleric Muqtada al-Sadr)"),
    Step("usernames", RULE, UsernameDetector,
         lambda s: None if s.stats is None else UsernameDetector.of_dump(s.stats),
         "the board's usernames (needs the corpus statistics)"),
    Step("spaced-names", RULE, SpacedNameDetector, lambda s: SpacedNameDetector(),
         "names spelled out with spaces (R o b e r t)"),
    Step("separated-names", RULE, SeparatedNameDetector, lambda s: SeparatedNameDetector(),
         "names spelled with separators (M.a.r.e.n)"),
    Step("hashtags", RULE, HashtagNameDetector, lambda s: HashtagNameDetector(s.removed_above),
         "names in hashtags (#PrayForMaren)"),
    Step("sign-offs", RULE, SignOffDetector, lambda s: SignOffDetector(s.removed_above),
         "initials and first names where a post is signed"),
    Step("message-lines", RULE, MessageLineDetector,
         lambda s: MessageLineDetector(s.keep_steps(), s.removed_above),
         "names in mail headers, display names, lists of people and repeated name lines"),
    Step("capital-names", RULE, CapitalNameDetector,
         lambda s: CapitalNameDetector(s.keep_steps(), s.removed_above),
         "census names in capitals inside running text (VANCE filed a dissent)"),
    Step("masked-names", RULE, MaskedNameDetector, lambda s: MaskedNameDetector(),
         "masked names (M*ren)"),
    Step("completion", RULE, NameCompletion,
         lambda s: NameCompletion(s.keep_steps(), s.removed_above),
         "the rest of each name found (initials, particles, surnames, suffixes)"),
    # After the rule steps (name completion never starts a name at a place), before the
    # user's lists and the placeholders (which still win over them).
    Step("place-names", RULE, PlaceNameDetector, lambda s: PlaceNameDetector(),
         "towns and cities (in Tulsa, Fort Worth)", produces=("PLACE",)),
    Step("org-names", RULE, OrgNameDetector, lambda s: OrgNameDetector(),
         "employers, schools and hospitals (St. Agnes Hospital, I work at Acme)",
         produces=("ORG",)),
    Step("allow", FILTER, AllowedTermKeeper,
         lambda s: AllowedTermKeeper(s.allow) if s.allow else None,
         "the user's allow list (--allow)"),
    Step("deny", RULE, DeniedTermDetector,
         lambda s: DeniedTermDetector(s.deny) if s.deny else None,
         "the user's deny list (--deny)"),
    # The opt-in kinds (issue 21), after the deny list: each wins over what it overlaps,
    # so a name inside an address is one ADDRESS span (detect/identifiers.py).
    *(Step(name, MODEL, detector, lambda s, detector=detector: detector(), help,
           (detector.label,))
      for name, detector, help in (
          ("addresses", AddressDetector, "street addresses (42 Birchwood Lane, Apt 4B)"),
          ("postcodes", PostcodeDetector,
           "postcodes after a cue or a state (zip 99201, WA 99201), UK and Canadian ones"),
          ("ids", IdNumberDetector,
           "record, account, member and licence numbers after a cue (MRN 00423817), SSNs"),
          ("ips", IpAddressDetector, "IPv4 and IPv6 addresses"),
          ("dates", DateDetector, "dates more specific than a year (March 3, 03/14/2021)"))),
    _keeper("placeholders", PlaceholderKeeper, "placeholders of an earlier scrub"),
)
BY_NAME = {step.name: step for step in STEPS}
STEP_NAMES = tuple(BY_NAME)


def step_names(steps: Optional[Iterable[str]] = None, without: Iterable[str] = (),
               stages: Sequence[str] = STAGES, kinds: Iterable[str] = DEFAULT_KINDS
               ) -> Tuple[str, ...]:
    """The names of ``steps`` (None: every step) of ``stages``, less ``without``, in chain
    order, less the steps that find none of ``kinds`` (a step whose ``produces`` is
    disjoint from them). An unknown name raises ``ValueError`` naming the known ones."""
    chosen = set(STEP_NAMES if steps is None else steps)
    excluded = set(without)
    for name in sorted((chosen | excluded) - set(STEP_NAMES)):
        raise ValueError("unknown step %r (steps: %s)" % (name, ", ".join(STEP_NAMES)))
    unknown_stages = set(stages) - set(STAGES)
    if unknown_stages:
        raise ValueError("unknown stage %r (stages: %s)"
                         % (sorted(unknown_stages)[0], ", ".join(STAGES)))
    kinds = frozenset(kinds)
    return tuple(step.name for step in STEPS
                 if step.name in chosen and step.name not in excluded and step.stage in stages
                 and (not step.produces or not kinds.isdisjoint(step.produces)))


def build_steps(names: Iterable[str], setup: Setup) -> List[Detector]:
    """The detectors of the steps ``names`` (in chain order) that find one of
    ``setup.kinds``, built from ``setup``."""
    return [detector for _, detector in named_steps(names, setup) if detector is not None]


def named_steps(names: Iterable[str], setup: Setup) -> List[Tuple[str, Optional[Detector]]]:
    """(name, detector) of the steps ``names`` that find one of ``setup.kinds``, in chain
    order, built from ``setup``; the detector None where the step has nothing to do."""
    names = step_names(names, kinds=setup.kinds)
    # The KEEP steps are built once and serve both the chain and the rule steps that ask
    # them (building one reads its word lists and gazetteer forms).
    kept = {name: BY_NAME[name].make(setup) for name in names
            if BY_NAME[name].effect == KEEP and name != "allow"}
    setup = replace(setup, steps=frozenset(names), kept=tuple(kept.values()))
    return [(name, kept[name] if name in kept else BY_NAME[name].make(setup))
            for name in names]


def keep_steps(names: Iterable[str] = STEP_NAMES) -> List[Detector]:
    """The KEEP steps among ``names`` but the user's allow list: what a name found outside
    the model (a rule after them, the person modes' member-name search) may not remove
    either."""
    return [BY_NAME[name].make(Setup()) for name in step_names(names)
            if BY_NAME[name].effect == KEEP and name != "allow"]
