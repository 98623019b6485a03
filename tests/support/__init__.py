"""The suite's helpers: fixtures (a pytest plugin, see tests/conftest.py), servers it starts
(PostgreSQL, Xvfb, PulseAudio), racing and soaking processes, hostile servers, test media."""
