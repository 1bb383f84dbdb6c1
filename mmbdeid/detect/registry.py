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
(``--chain scrub``). Adding a detector is one module and one :class:`Step` line here; code
outside the package adds one with :func:`register_detector`, from its own module or an
installed distribution's entry point of the group ``mmbdeid.detectors``
(docs/architecture.md).
"""
import re
import sys
from dataclasses import dataclass, replace
from typing import (Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Tuple, Type, overload)

from ..errors import MmbdeidTypeError, MmbdeidValueError
from ..kinds import DEFAULT_KINDS, PATTERN_LABELS
from .base import KEEP, Detector
from .thread_names import ConsistencyDetector
from .crf import EVERY_TOKEN, CrfDetector
from .keep.acronyms import AcronymKeeper
from .keep.calendar import CalendarKeeper
from .keep.code_text import CodeTextKeeper, board_users
from .keep.demonyms import DemonymKeeper
from .keep.devices import DeviceKeeper
from .keep.drugs import DrugKeeper
from .keep.file_extensions import FileExtensionKeeper
from .keep.gazetteer_phrases import GazetteerPhraseKeeper
from .keep.institutions import InstitutionKeeper, PrefixedPlaceKeeper
from .keep.medical_terms import MedicalTermKeeper
from .keep.not_names import NotNameKeeper
from .keep.organisations import OrganisationKeeper
from .keep.placeholders import PlaceholderKeeper
from .keep.places import PlaceKeeper
from .kinds.identifiers import (AddressDetector, DateDetector, IdNumberDetector, IpAddressDetector,
                          PostcodeDetector)
from .kinds.org_names import OrgNameDetector
from .kinds.place_names import PlaceNameDetector
from .lists import AllowedTermKeeper, DeniedTermDetector
from .names.capital_names import CapitalNameDetector
from .names.completion import NameCompletion
from .names.cued_names import CuedNameDetector
from .names.hashtags import HashtagNameDetector
from .names.masked_names import MaskedNameDetector
from .names.message_lines import MessageLineDetector
from .names.offices import OfficeKeeper, OfficeNameDetector
from .names.sign_offs import SignOffDetector
from .names.spaced_names import SeparatedNameDetector, SpacedNameDetector
from .names.titles import TitledNameDetector, TitleKeeper
from .names.usernames import UsernameDetector
from .options import ChainOptions
from .patterns import PatternDetector

MODEL, FILTER, RULE = "model", "filter", "rule"
STAGES = (MODEL, FILTER, RULE)


@dataclass(frozen=True)
class Setup:
    """What the steps are built from: the model (``tagger``), the corpus statistics of the
    dump being scrubbed (``stats``) and the chain's ``options``
    (:class:`~mmbdeid.detect.options.ChainOptions`, whose steps, once the chain is
    resolved, are its step names); ``kept``: the chain's KEEP detectors once built (a rule
    step asks the chain's KEEP steps itself)."""
    tagger: Any = None
    stats: Any = None
    options: ChainOptions = ChainOptions()
    kept: Optional[Tuple[Detector, ...]] = None     # the chain's KEEP detectors, once built

    @property
    def threshold(self) -> Optional[float]:
        """The model's threshold the options choose (None: the model's own)."""
        return EVERY_TOKEN if self.options.every_token else self.options.threshold

    @property
    def removed_above(self) -> float:
        """The threshold a rule step seeds from the model's spans at."""
        return self.tagger.threshold if self.threshold is None else self.threshold

    def keep_steps(self) -> List[Detector]:
        return list(self.kept) if self.kept is not None else keep_steps(
            self.options.steps or ())


class Step(NamedTuple):
    """A named chain step: ``make`` builds its ``detector`` (None: nothing to do, as a deny
    list without terms or the usernames without statistics), whose class says the step's
    source name (in the spans it finds) and effect. ``produces``: the kinds of identifier
    it finds, where it runs only when one of them is chosen (empty: a KEEP step, or a step
    of the person kinds, which always run). ``per_input``: its detector reads the input's
    corpus statistics or holds what one input's posts tell about each other, so a chain
    reused over inputs (:mod:`mmbdeid.detect.reusable`) makes it again for each.
    ``asked_by_rules``: a KEEP step the rule steps ask before they add a name (every one
    but the user's allow list, which acts after them). ``default``: in the chain when the
    steps are not named (a step registered from outside runs only when named, unless
    registered with ``default=True``)."""
    name: str
    stage: str
    detector: Type[Detector]
    make: Callable[[Setup], Optional[Detector]]
    help: str
    produces: Tuple[str, ...] = ()
    per_input: bool = False
    asked_by_rules: bool = True
    default: bool = True

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


_SHIPPED: Tuple[Step, ...] = (
    *(_pattern(label) for label in PATTERN_LABELS),
    Step("crf", MODEL, CrfDetector,
         lambda s: CrfDetector(s.tagger, s.stats, s.threshold,
                             tagging=s.options.tagging),
         "the model: P(NAME) + P(USER) above the threshold", per_input=True),
    Step("consistency", RULE, ConsistencyDetector,
         lambda s: ConsistencyDetector(s.options.consistency, s.options.authors),
         "a word removed with high probability in a thread or by an author, wherever it "
         "stands there", per_input=True),
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
         "otherwise", per_input=True),
    _keeper("demonyms", DemonymKeeper, "nationalities, peoples and religions"),
    _keeper("titles", TitleKeeper, "titles before a name (Dr.)"),
    _keeper("offices", OfficeKeeper, "offices before a name (Minister of Defense)"),
    Step("titled-names", RULE, TitledNameDetector, lambda s: TitledNameDetector(),
         "names after a title (Dr. Oyelaran)"),
    Step("cued-names", RULE, CuedNameDetector, lambda s: CuedNameDetector(),
         "names that are words where a cue says a person (my sister Hope, Will said)"),
    Step("office-names", RULE, OfficeNameDetector,
         lambda s: OfficeNameDetector(s.keep_steps(), s.removed_above),
         "names after a rank or office (cleric Muqtada al-Sadr)"),
    Step("usernames", RULE, UsernameDetector,
         lambda s: None if s.stats is None else UsernameDetector.of_dump(s.stats),
         "the board's usernames (needs the corpus statistics)", per_input=True),
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
         lambda s: AllowedTermKeeper(s.options.allow) if s.options.allow else None,
         "the user's allow list (--allow)", asked_by_rules=False),
    Step("deny", RULE, DeniedTermDetector,
         lambda s: DeniedTermDetector(s.options.deny) if s.options.deny else None,
         "the user's deny list (--deny)"),
    # The opt-in kinds (issue 21), after the deny list: each wins over what it overlaps,
    # so a name inside an address is one ADDRESS span (detect/kinds/identifiers.py).
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
# Lists, changed in place by register_detector: the modules that imported them see it.
STEPS: List[Step] = list(_SHIPPED)
BY_NAME: Dict[str, Step] = {step.name: step for step in STEPS}


class _DefaultStepNames(Sequence):
    """The names of the default steps (:attr:`Step.default`), in chain order, as they are
    now: a step registered later is among them (a view of :data:`STEPS`)."""

    def _names(self) -> Tuple[str, ...]:
        return tuple(step.name for step in STEPS if step.default)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Tuple[str, ...]: ...

    def __getitem__(self, index):
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __eq__(self, other) -> bool:
        return self._names() == (tuple(other) if isinstance(other, Sequence) else other)

    def __hash__(self) -> int:
        return hash(self._names())

    def __repr__(self) -> str:
        return repr(self._names())


STEP_NAMES: Sequence[str] = _DefaultStepNames()


def step_names(steps: Optional[Iterable[str]] = None, without: Iterable[str] = (),
               stages: Sequence[str] = STAGES, kinds: Iterable[str] = DEFAULT_KINDS
               ) -> Tuple[str, ...]:
    """The names of ``steps`` (None: every step) of ``stages``, less ``without``, in chain
    order, less the steps that find none of ``kinds`` (a step whose ``produces`` is
    disjoint from them). An unknown name raises ``ValueError`` naming the known ones."""
    chosen = set(STEP_NAMES if steps is None else steps)
    excluded = set(without)
    if (chosen | excluded) - set(BY_NAME):
        load_entry_points()
    for name in sorted((chosen | excluded) - set(BY_NAME)):
        raise MmbdeidValueError("unknown step %r (steps: %s)" % (name, ", ".join(BY_NAME)))
    unknown_stages = set(stages) - set(STAGES)
    if unknown_stages:
        raise MmbdeidValueError("unknown stage %r (stages: %s)"
                                % (sorted(unknown_stages)[0], ", ".join(STAGES)))
    kinds = frozenset(kinds)
    return tuple(step.name for step in STEPS
                 if step.name in chosen and step.name not in excluded and step.stage in stages
                 and (not step.produces or not kinds.isdisjoint(step.produces)))


def build_steps(names: Iterable[str], setup: Setup) -> List[Detector]:
    """The detectors of the steps ``names`` (in chain order) that find one of
    ``setup.options.kinds``, built from ``setup``."""
    return [detector for _, detector in named_steps(names, setup) if detector is not None]


def named_steps(names: Iterable[str], setup: Setup) -> List[Tuple[str, Optional[Detector]]]:
    """(name, detector) of the steps ``names`` that find one of ``setup.options.kinds``,
    in chain order, built from ``setup``; the detector None where the step has nothing to
    do."""
    names = step_names(names, kinds=setup.options.kinds)
    # The KEEP steps are built once and serve both the chain and the rule steps that ask
    # them (building one reads its word lists and gazetteer forms).
    kept = {name: BY_NAME[name].make(setup) for name in names
            if BY_NAME[name].effect == KEEP and BY_NAME[name].asked_by_rules}
    setup = replace(setup, options=setup.options.with_steps(names), kept=tuple(kept.values()))
    return [(name, kept[name] if name in kept else BY_NAME[name].make(setup))
            for name in names]


def keep_steps(names: Iterable[str] = STEP_NAMES) -> List[Detector]:
    """The KEEP steps among ``names`` but the user's allow list: what a name found outside
    the model (a rule after them, the person modes' member-name search) may not remove
    either."""
    return [BY_NAME[name].make(Setup()) for name in step_names(names)
            if BY_NAME[name].effect == KEEP and BY_NAME[name].asked_by_rules]


ENTRY_POINT_GROUP = "mmbdeid.detectors"
_STEP_NAME = re.compile(r"[a-z][a-z0-9-]*")


def register_detector(name: str, stage: str = RULE, help: str = "",
                      make: Optional[Callable[[Setup], Optional[Detector]]] = None,
                      before: str = "allow", produces: Sequence[str] = (),
                      per_input: bool = False, default: bool = False
                      ) -> Callable[[Type[Detector]], Type[Detector]]:
    """A class decorator adding a :class:`~mmbdeid.detect.base.Detector` class to the
    chain as the step ``name`` (a lower-case word, hyphens allowed), placed just before the
    step ``before`` (by default the user's allow list: after the model, the keep steps and
    the rule steps; the user's lists and the placeholders of an earlier scrub still win).
    ``make`` builds its detector from the chain's :class:`Setup` (default: the class
    without arguments); ``stage``, ``produces``, ``per_input``: see :class:`Step`. The step
    runs where the steps are named (``steps=[...]``, ``--steps``), or in every chain with
    ``default=True``. Registered in this process only: a worker process must import the
    module too, which an entry point of the group ``mmbdeid.detectors`` does when the step
    is named (:func:`load_entry_points`)."""
    if not isinstance(name, str) or not _STEP_NAME.fullmatch(name):
        raise MmbdeidValueError("a step's name must be a lower-case word (hyphens allowed), "
                                "got %r" % (name,))
    if name in BY_NAME:
        raise MmbdeidValueError("a step %r is registered already" % name)
    if stage not in STAGES:
        raise MmbdeidValueError("unknown stage %r (stages: %s)" % (stage, ", ".join(STAGES)))
    if before not in BY_NAME:
        raise MmbdeidValueError("unknown step %r (steps: %s)" % (before, ", ".join(BY_NAME)))

    def register(detector: Type[Detector]) -> Type[Detector]:
        if not (isinstance(detector, type) and issubclass(detector, Detector)):
            raise MmbdeidTypeError("a step's detector must be a subclass of Detector, not %r"
                                   % (detector,))
        step = Step(name, stage, detector, make or (lambda setup: detector()), help,
                    tuple(produces), per_input=per_input, default=default)
        STEPS.insert(next(i for i, s in enumerate(STEPS) if s.name == before), step)
        BY_NAME[name] = step
        return detector
    return register


_entry_points_loaded = False


def load_entry_points() -> None:
    """Imports, once, the modules the installed distributions name under the group
    :data:`ENTRY_POINT_GROUP`: each registers its steps as it is imported. Done the first
    time a step is named that is not registered (reading every distribution's entry points
    takes a tenth of a second or more), so an installed step runs only where named."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points
    found = entry_points()
    group = found.select(group=ENTRY_POINT_GROUP) if hasattr(found, "select") \
        else found.get(ENTRY_POINT_GROUP, ())
    for entry_point in group:
        if entry_point.module not in sys.modules:
            entry_point.load()
