"""The recorder tests drive a referee: its violations must speak both languages there too."""

from tests.referee.conftest import violations_speak_both_languages  # noqa: F401
