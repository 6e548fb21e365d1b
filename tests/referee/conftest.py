"""Every violation a referee test opens is also written in French and English from its
reason and facts (`companion.rules.messages`): a template or a parameter missing fails."""

from __future__ import annotations

from typing import Any

import pytest

from companion.referee.events import Violation
from companion.referee.referee import Referee
from companion.rules.messages import has_template, message


@pytest.fixture(autouse=True)
def violations_speak_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    settle = Referee._settle

    def checked(self: Referee, violation: Violation | None) -> Any:
        if violation is not None:
            assert has_template(violation.reason, violation.params), violation
            for lang, naming in (("en", "gmt-en"), ("fr", "gmt-fr"), ("fr", "medieval-fr")):
                text = message(violation.reason, violation.params, lang, naming)
                assert text and "{" not in text, text
        return settle(self, violation)

    monkeypatch.setattr(Referee, "_settle", checked)
