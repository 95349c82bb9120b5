"""The exit statuses of every ``animspec`` command, and of each file's result in a batch:
defined here once (the CLI returns them, animspec.batch and animspec.convert set them)."""

EXIT_OK = 0
EXIT_FINDINGS = 1
"""validate, convert: at least one error-severity finding."""
EXIT_UNREADABLE = 2
"""A file could not be read or written (or the task failed on it)."""
EXIT_BROKEN_PIPE = 128 + 13
"""Standard output's reader went away while a command printed what it makes (info, dump,
play, compare, hash): the SIGPIPE convention of git and the shells."""
EXIT_INTERRUPTED = 128 + 2
"""Ctrl-C (SIGINT): the shells' convention."""
