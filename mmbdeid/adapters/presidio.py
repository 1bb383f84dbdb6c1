"""mmbdeid as a Presidio recognizer, and a Presidio analyzer that needs no spaCy model.

    >>> from mmbdeid.adapters.presidio import blank_analyzer_engine
    >>> engine = blank_analyzer_engine()
    >>> [(r.entity_type, r.start, r.end) for r in engine.analyze(
    ...     "Thanks Linda, my TSH is fine", language="en")]
    [('PERSON', 7, 12)]

:class:`MmbdeidRecognizer` returns mmbdeid's mentions as ``RecognizerResult``\\ s, scored
with mmbdeid's probability. Entity names are those of :mod:`mmbdeid.adapters.entities`
(a username is ``USERNAME``, which Presidio does not have). By default it reports names
and usernames, and the other kinds the scrubber was given beyond the default ones
(``kinds="safe-harbor"``: LOCATION, ID, US_SSN, IP_ADDRESS, DATE_TIME, ORGANIZATION):
Presidio's own pattern recognizers find e-mails, URLs and phones.

Presidio's default NLP engine downloads ``en_core_web_lg`` when it is missing.
mmbdeid does its own tokenising, so :class:`BlankSpacyNlpEngine` gives Presidio a blank
spaCy pipeline instead (tokens, no download); Presidio's pattern recognizers work
with it, its spaCy NER recognizer finds nothing and is left out.

Presidio's e-mail recognizer checks an address's domain with ``tldextract``, whose shared
extractor fetches the public suffix list from the web on first use: offline, each failed
URL is logged with a traceback on stderr (and the list falls back to tldextract's
snapshot anyway). The engine of :func:`blank_analyzer_engine` has
:class:`OfflineEmailRecognizer` in its place, which reads that snapshot from the start:
no request, no traceback, nothing cached on disk, and tldextract's shared extractor left
as it is for the rest of the program. (A registry of your own can do the same by
replacing ``EmailRecognizer`` with it.)
"""
import functools

from typing import List, Optional, Sequence

import spacy
from presidio_analyzer import (AnalysisExplanation, AnalyzerEngine, EntityRecognizer,
                               RecognizerRegistry, RecognizerResult)
from presidio_analyzer.nlp_engine import NlpArtifacts, SpacyNlpEngine
from presidio_analyzer.predefined_recognizers import EmailRecognizer
from spacy.language import Language
from spacy.tokens import Doc

from mmbdeid import __version__
from mmbdeid.api import Scrubber
from mmbdeid.checks import instance, names_in
from mmbdeid.errors import MmbdeidTypeError
from mmbdeid.spans import Span

from .entities import ENTITIES, ENTITY_OF_LABEL, SSN_ENTITY, entity_of, reported_labels


class MmbdeidRecognizer(EntityRecognizer):
    """Names and usernames (and, if asked, e-mails, URLs and phones) found by mmbdeid.

    ``scrubber``: a :class:`~mmbdeid.Scrubber`; or, instead, its ``options`` (``model``,
    ``threshold``, ``allow``, ``kinds``, ...; none: the bundled model).
    ``supported_entities``: of :data:`~mmbdeid.adapters.entities.ENTITIES` (PERSON,
    USERNAME, EMAIL_ADDRESS, URL, PHONE_NUMBER, LOCATION, ...; default PERSON and USERNAME,
    and the entities of the scrubber's kinds beyond the default ones).
    """

    def __init__(self, scrubber: Optional[Scrubber] = None,
                 supported_entities: Optional[Sequence[str]] = None,
                 supported_language: str = "en", name: Optional[str] = None,
                 **options):
        if scrubber is not None and options:
            raise MmbdeidTypeError("give a Scrubber or its options, not both")
        self.scrubber = (instance(scrubber, Scrubber, "scrubber") if scrubber is not None
                         else Scrubber(**options))
        if supported_entities is None:
            labels = reported_labels(self.scrubber.kinds)
            supported_entities = list(dict.fromkeys(
                [ENTITY_OF_LABEL[label] for label in labels]
                + ([SSN_ENTITY] if "ID" in labels else [])))
        entities = names_in(supported_entities, ENTITIES, "supported_entities", "entity")
        super().__init__(supported_entities=entities, name=name,
                         supported_language=supported_language, version=__version__)

    def load(self) -> None:
        # Load the model now, so a bad model path fails when the recognizer is built.
        self.scrubber.tagger

    def analyze(self, text: str, entities: Optional[List[str]] = None,
                nlp_artifacts: Optional[NlpArtifacts] = None) -> List[RecognizerResult]:
        """mmbdeid's mentions in ``text`` of the ``entities`` asked for (all supported
        ones when none) that this recognizer supports. ``nlp_artifacts`` is not used."""
        wanted = set(self.supported_entities)
        if entities:
            wanted &= set(entities)
        results = []
        for span in self.scrubber.analyze(text):
            # an SSN is US_SSN where asked for, else the ID it is
            named = entity_of(span.label, text[span.start:span.end])
            for entity in (named, ENTITY_OF_LABEL[span.label]):
                if entity in wanted:
                    results.append(self._result(entity, span))
                    break
        return results

    def _result(self, entity: str, span: Span) -> RecognizerResult:
        explanation = AnalysisExplanation(
            recognizer=self.name, original_score=span.score,
            textual_explanation="mmbdeid %s (found by %s)" % (span.label, span.source))
        return RecognizerResult(
            entity_type=entity, start=span.start, end=span.end, score=span.score,
            analysis_explanation=explanation,
            recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                                  RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id})


@Language.component("mmbdeid_lowercase_lemmas")
def lowercase_lemmas(doc: Doc) -> Doc:
    """Each token's lower case as its lemma: Presidio finds context words ("phone" near a
    phone number raises its score) among the lemmas, which a blank pipeline leaves empty."""
    for token in doc:
        token.lemma_ = token.lower_
    return doc


class BlankSpacyNlpEngine(SpacyNlpEngine):
    """Presidio's spaCy NLP engine over blank pipelines (``spacy.blank(lang)``): tokens,
    lower-cased words as lemmas, no entities, and nothing to download. ``languages``:
    language codes."""

    def __init__(self, languages: Sequence[str] = ("en",)):
        super().__init__(models=[{"lang_code": lang, "model_name": "blank:" + lang}
                                 for lang in languages])

    def load(self) -> None:
        # SpacyNlpEngine.load would try to download a package named "blank:en".
        self.nlp = {}
        for model in self.models:
            nlp = spacy.blank(model["lang_code"])
            nlp.add_pipe("mmbdeid_lowercase_lemmas")
            self.nlp[model["lang_code"]] = nlp


@functools.lru_cache(maxsize=1)
def _offline_suffixes():
    import tldextract
    # no URL to fetch, no disk cache: the public suffix snapshot tldextract ships
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(),
                                 fallback_to_snapshot=True)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer, its domain check on tldextract's bundled public
    suffix snapshot instead of a list fetched from the web (see the module doc). Named
    ``EmailRecognizer`` like the one it replaces."""

    def __init__(self, supported_language: str = "en", name: str = "EmailRecognizer",
                 **options):
        super().__init__(supported_language=supported_language, name=name, **options)

    def validate_result(self, pattern_text: str) -> bool:
        return _offline_suffixes()(pattern_text).fqdn != ""


def blank_analyzer_engine(recognizer: Optional[MmbdeidRecognizer] = None,
                          predefined: bool = True, language: str = "en") -> AnalyzerEngine:
    """A Presidio ``AnalyzerEngine`` on :class:`BlankSpacyNlpEngine` with ``recognizer``
    (default: ``MmbdeidRecognizer()``) and, if ``predefined``, Presidio's own pattern
    recognizers (e-mail, URL, phone, credit card, ...)."""
    nlp_engine = BlankSpacyNlpEngine([language])
    nlp_engine.load()
    registry = RecognizerRegistry(supported_languages=[language])
    if predefined:
        registry.load_predefined_recognizers(languages=[language], nlp_engine=nlp_engine)
        # its NER would need a trained pipeline; on a blank one it never finds anything
        registry.remove_recognizer("SpacyRecognizer")
        registry.remove_recognizer("EmailRecognizer")   # it would fetch a list: offline
        registry.add_recognizer(OfflineEmailRecognizer(supported_language=language))
    registry.add_recognizer(recognizer if recognizer is not None
                            else MmbdeidRecognizer(supported_language=language))
    return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine,
                          supported_languages=[language])
