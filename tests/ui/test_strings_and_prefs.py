"""Every text exists in both languages with the same placeholders; preferences round-trip
and a damaged file falls back to the defaults."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.ui.prefs import Prefs, PrefsError
from companion.ui.strings import EN, FR, UnknownTextError, tr

UI = Path(__file__).resolve().parents[2] / "companion" / "ui"


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_both_languages_have_every_text_with_the_same_placeholders() -> None:
    assert set(EN) == set(FR)
    for key in EN:
        assert fields(EN[key]) == fields(FR[key]), key


def test_an_editions_own_sentences_replace_whole_sentences_with_the_same_placeholders() -> None:
    from companion.ui.strings import EDITION_TEXTS
    assert set(EDITION_TEXTS) == {"schotten-totten"}
    for rules, tables in EDITION_TEXTS.items():
        assert set(tables["en"]) <= set(EN) and set(tables["fr"]) <= set(FR), rules
        for lang, base in (("en", EN), ("fr", FR)):
            for key, text in tables[lang].items():
                assert fields(text) == fields(base[key]), (rules, lang, key)
                # no flag left in a Schotten Totten sentence, in either language
                words = re.sub(r"\{[^}]*\}", "", text)
                assert not re.search(r"\b(flag|drapeau)", words, re.I), (lang, key, text)
    # every sentence that names a flag has Schotten Totten's own, in both languages
    for lang, base in (("en", EN), ("fr", FR)):
        naming = {k for k, v in base.items()
                  if re.search(r"\b(flags?|drapeaux?)\b", re.sub(r"\{[^}]*\}", "", v), re.I)
                  and not k.startswith(
                      ("calib.fix", "naming.", "app."))}
        assert naming <= set(EDITION_TEXTS["schotten-totten"][lang]), (lang, naming - set(
            EDITION_TEXTS["schotten-totten"][lang]))


def test_tr_speaks_the_editions_words() -> None:
    from companion.rules.edition import BATTLE_LINE, MEDIEVAL, SCHOTTEN_TOTTEN
    assert tr("proof.won", "fr", SCHOTTEN_TOTTEN, name="Ada", n=3) == \
        "Ada a pris la borne 3 : la preuve"
    assert tr("move.claim", "en", SCHOTTEN_TOTTEN, name="Ada", flag=2) == "Ada claims stone 2"
    assert tr("can_claim", "fr", SCHOTTEN_TOTTEN, name="Sud") == "Sud peut\nla prendre"
    assert tr("replay.proof_title", "fr", SCHOTTEN_TOTTEN, n=1, name="Sud") == \
        "Borne 1 : revendiquée par le Sud"
    assert tr("replay.proof_title", "fr", n=1, name="Ada") == "Drapeau 1 : revendiqué par Ada"
    for edition in (None, BATTLE_LINE, MEDIEVAL):
        assert tr("move.claim", "fr", edition, name="Ada", flag=2) == \
            "Ada revendique le drapeau 2"


def test_every_key_the_screens_use_exists() -> None:
    used = set()
    for path in list(UI.glob("*.kv")) + list(UI.glob("*.py")):
        used |= set(re.findall(r'tr\(\s*"([a-z_.\-]+)"', path.read_text(encoding="utf-8")))
    assert used and used <= set(EN), used - set(EN)


def test_tr_fills_and_refuses_clearly() -> None:
    assert tr("turn", "fr", name="Ada") == "Au tour d'Ada"       # French elision
    assert tr("turn", "fr", name="Brune") == "Au tour de Brune"
    assert tr("turn", "fr", name="Sud") == "Au tour du Sud"      # the default names: du, au
    assert tr("flag.claimed_by", "fr", name="Nord") == "au Nord"
    with pytest.raises(UnknownTextError, match="no text 'nope'"):
        tr("nope")
    with pytest.raises(UnknownTextError, match="unknown language 'de'"):
        tr("turn", "de", name="x")


def test_prefs_round_trip_and_lenient_load(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    prefs = Prefs(north_name="Ada", south_name="Brune", naming="medieval-fr", lang="fr",
                  timing="advanced", rounds=3)
    prefs.save(path)
    assert Prefs.load(path) == prefs
    path.write_text("{not json", encoding="utf-8")
    assert Prefs.load(path) == Prefs()
    path.write_text('{"lang": "de"}', encoding="utf-8")
    assert Prefs.load(path) == Prefs()
    with pytest.raises(PrefsError, match="rounds 0"):
        Prefs(rounds=0)
    with pytest.raises(PrefsError, match="naming 'gmt-de'"):
        Prefs().with_(naming="gmt-de")
