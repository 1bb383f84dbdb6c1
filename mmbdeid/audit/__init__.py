"""The leak audit (``mmbdeid audit``): what a scrub left, and what the audit could not see.

:mod:`.leaks` searches the scrubbed posts for the board's usernames and the person map's
names; :mod:`.near_misses` lists the tokens the model still finds name-like there;
:mod:`.removed` checks that no span the scrub removed is still in its post; :mod:`.report`
runs them all and says what was searched and what was not."""
from .leaks import (KINDS, LOWER_CASE, MIN_VARIANT, SENTENCE_START, Leak, LeakAuditor,
                    audit_file, format_leak, names_from_person_map, unposted_names,
                    write_unsearched)

__all__ = ["KINDS", "LOWER_CASE", "MIN_VARIANT", "SENTENCE_START", "Leak", "LeakAuditor",
           "audit_file", "format_leak", "names_from_person_map", "unposted_names",
           "write_unsearched"]
