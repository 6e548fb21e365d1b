"""The players' preferences kept on the device: names, edition, naming set, language, claim
timing, rounds, the event the next matches belong to.  A small JSON file in the data
directory, read leniently (a damaged file gives the
defaults, with a warning) and written atomically off the Kivy thread."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.paths import data_dir
from companion.record.summary import check_event
from companion.rules.cards import NAMINGS
from companion.rules.edition import EDITION_KEYS, EDITIONS

from .strings import LANGS

log = logging.getLogger(__name__)
FILE_NAME = "ui-settings.json"
TIMINGS = ("standard", "advanced")


class PrefsError(CompanionError, ValueError):
    """A preference out of its allowed values."""


@dataclass(frozen=True, slots=True)
class Prefs:
    north_name: str = "North"
    south_name: str = "South"
    naming: str = "gmt-en"
    lang: str = "en"
    timing: str = "standard"
    rounds: int = 1
    event: str = ""     # the club night or tournament of the next matches ('' for none)
    edition: str = "battle-line"

    def __post_init__(self) -> None:
        if self.naming not in NAMINGS:
            raise PrefsError(f"naming {self.naming!r}: use one of {', '.join(NAMINGS)}")
        if self.edition not in EDITIONS:
            raise PrefsError(f"edition {self.edition!r}: use one of {', '.join(EDITION_KEYS)}")
        if not EDITIONS[self.edition].owns_naming(self.naming):
            rules = EDITIONS[self.edition]
            raise PrefsError(f"naming {self.naming!r} is not one of {rules.title}: use "
                             f"{rules.naming('en')} or {rules.naming('fr')}")
        if self.lang not in LANGS:
            raise PrefsError(f"language {self.lang!r}: use one of {', '.join(LANGS)}")
        if self.timing not in TIMINGS:
            raise PrefsError(f"claim timing {self.timing!r}: use standard or advanced")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= 9:
            raise PrefsError(f"rounds {self.rounds!r}: use 1 to 9")
        for name in (self.north_name, self.south_name):
            if not name.strip() or len(name) > 24:
                raise PrefsError(f"player name {name!r}: 1 to 24 characters")
        try:
            event = check_event(self.event)
        except CompanionError as exc:
            raise PrefsError(str(exc)) from None
        if event != self.event:
            object.__setattr__(self, "event", event)   # kept without surrounding blanks

    def with_(self, **changes: Any) -> Prefs:
        """These preferences changed; a new edition brings its own card names in the
        language of the screens unless a naming is given too."""
        if "edition" in changes and "naming" not in changes:
            edition = EDITIONS.get(changes["edition"])
            if edition is not None and not edition.owns_naming(self.naming):
                changes["naming"] = edition.naming(changes.get("lang", self.lang))
            elif edition is not None and edition.key == "battle-line-medieval" \
                    and self.edition != edition.key:
                changes["naming"] = edition.naming(changes.get("lang", self.lang))
        return replace(self, **changes)

    @classmethod
    def load(cls, path: Path | None = None) -> Prefs:
        path = path or data_dir() / FILE_NAME
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
            known = {k: v for k, v in obj.items() if k in cls.__dataclass_fields__}
            return cls(**known)
        except FileNotFoundError:
            return cls()
        except (ValueError, TypeError, AttributeError, CompanionError) as exc:
            log.warning("ignoring the preferences in %s: %s", path, exc)
            return cls()

    def save(self, path: Path | None = None) -> None:
        path = path or data_dir() / FILE_NAME
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, path)
