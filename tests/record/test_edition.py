"""The match record keeps the edition: stored, exported, read back, replayed with its rules."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.record.model import EntryError, MatchHeader
from companion.record.notation import read_json, read_text, write_json, write_text
from companion.record.replay import final_state
from companion.record.store import MatchStore
from companion.rules.edition import SCHOTTEN_TOTTEN

from .helpers import random_game, record_game

ST = MatchHeader(north="Morag", south="Angus", date="2026-11-23", naming="schotten-fr",
                 edition="schotten-totten")


def test_a_schotten_totten_match_is_recorded_exported_and_replayed(tmp_path: Path) -> None:
    actions, end = random_game(3, edition="schotten-totten")
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as store:
        m = record_game(store, actions, ST)
    with MatchStore(path, readonly=True) as store:
        record = store.record(m)
    assert record.header.edition == "schotten-totten"
    text = write_text(record)
    assert '[Edition "schotten-totten"]' in text and '[Naming "schotten-fr"]' in text
    for back in (read_text(text), read_json(write_json(record))):
        assert not back.errors, back.errors
        assert back.header == record.header
    state = final_state(record.header, record.entries)
    assert state.settings.rules is SCHOTTEN_TOTTEN
    assert state.position() == replace(end.position())
    assert state.flags == end.flags


def test_the_edition_is_checked_against_the_naming_and_the_cards(tmp_path: Path) -> None:
    with pytest.raises(EntryError, match="not one of Schotten Totten"):
        MatchHeader(naming="gmt-en", edition="schotten-totten")
    with pytest.raises(EntryError, match="unknown edition"):
        MatchHeader(edition="schotten")
    # A Battle Line game's cards (its 10s, its Cavalry) do not replay in Schotten Totten.
    actions, _ = random_game(5)
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = record_game(store, actions, MatchHeader(date="2026-11-23"))
        record = store.record(m)
    text = write_text(record).replace('[Naming "gmt-en"]',
                                      '[Edition "schotten-totten"]\n[Naming "schotten-en"]')
    back = read_text(text)
    assert any("not a Schotten Totten card" in e or "Schotten Totten" in e
               for e in back.errors), back.errors


def test_matches_list_names_the_edition(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as store:
        record_game(store, random_game(3, edition="schotten-totten")[0], ST)
        record_game(store, random_game(4)[0], MatchHeader(date="2026-11-23"))
    assert main(["matches", "list", "--db", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Schotten Totten" in out[0] and "Battle Line" in out[1]
