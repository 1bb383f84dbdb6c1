"""The person-name rules (stage ``rule``): the names the model misses or rates low (after a
title or an office, a cue, a sign-off, a mail header, a hashtag, the board's usernames, the
rest of a name found, ...), and the word tests they share (:mod:`.name_words`,
:mod:`.gap_filler`)."""
