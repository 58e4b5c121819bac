"""Fixtures for the operator tests: an app whose background loops stay out of the way (tests move the clock and call
what they need), on every backend, as in tests/online."""

from tests.support.quiet import quiet, quiet_settings  # noqa: F401 (fixtures)
