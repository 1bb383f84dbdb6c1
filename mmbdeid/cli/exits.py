"""The exit statuses of the ``mmbdeid`` command, a contract with the scripts that call it
(a command stopped by a signal exits with 128 + the signal's number)."""
EXIT_OK = 0
EXIT_LEAK = 1               # audit: something was left in the scrubbed output
EXIT_BAD_INPUT = 2
