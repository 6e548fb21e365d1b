"""Match history and the replay viewer on a recorded match; the enrolment screen's card
cut-out on a frame with one card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.commands.run import make_referee
from companion.record.store import MatchStore
from companion.ui.prefs import Prefs

from .scripted import OPENING, observations


def test_history_lists_the_match_and_replay_steps_through_it(start_app, tmp_path: Path,
                                                             artifacts_dir) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        prefs = Prefs(north_name="Ada", south_name="Brune")
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING)), "pace": False},
                       store=store, prefs=prefs)
        app = ui.app
        ui.until(lambda: len(app.view.actions) == 5, what="the opening")
        table = ui.screen("table")
        ui.press(table.ids.history_button)
        ui.until(lambda: len(app.history) == 1, what="the match list")
        history = ui.screen("history")
        ui.until(lambda: len(history.ids.rows.children) == 1, what="the row")
        row = history.ids.rows.children[0]
        assert "Ada" in row.text and "Brune" in row.text
        ui.shot(artifacts_dir, "history")
        ui.press([c for c in row.children if getattr(c, "text", "") == "Replay"][0])
        ui.until(lambda: app.root.current == "replay", what="the replay")
        replay = ui.screen("replay")
        assert app.replay_step == 0 and len(app.replay_views) == 6
        assert all(not f.north and not f.south for f in app.replay_view.flags)
        for _ in range(5):
            ui.press(replay.ids.next)
        assert app.replay_step == 5 and replay.ids.next.disabled
        assert [str(c) for c in app.replay_view.flag(1).south] == ["R8", "R9", "R10"]
        assert "Brune plays red 10 at flag 1" in app.replay_text
        assert "@" not in app.replay_text          # words, not the notation
        ui.shot(artifacts_dir, "replay")
        ui.press(replay.ids.prev)
        assert [str(c) for c in app.replay_view.flag(1).south] == ["R8", "R9"]


def test_the_list_reads_like_a_results_sheet_and_the_replay_plays_and_proves(
        start_app, tmp_path: Path, artifacts_dir) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        prefs = Prefs(north_name="Ada", south_name="Brune", event="Club night")
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING)), "pace": False},
                       store=store, prefs=prefs)
        app = ui.app
        ui.until(lambda: len(app.view.actions) == 5, what="the opening")
        app.selected_flag = 1
        app.claim("south")              # red 8-9-10 against a blue 2: nothing can beat it
        ui.until(lambda: app.view.flag(1).claimed == "south", what="the claim")
        app.new_game()                  # an empty match: recorded, not listed
        ui.until(lambda: len(store.match_ids()) == 2, what="the new match")
        app.load_history()
        app.go("history")
        ui.until(lambda: len(app.history) == 1, what="the match list")
        row = ui.screen("history").ids.rows.children[0]
        assert row.players.startswith("Ada – Brune") and "Not finished, flags 0–1" in row.players
        assert row.details.startswith("Club night · " + app.history[0].date)
        assert "6 moves" in row.details and " s · " in row.details
        ui.shot(artifacts_dir, "history-results")
        ui.press(row.ids.replay)
        ui.until(lambda: app.root.current == "replay", what="the replay")
        replay = ui.screen("replay")
        assert len(app.replay_views) == 7 and app.replay_text == "Start of the game"
        replay.ids.slider.value = 6     # the slider spans the whole match
        ui.pump(0.1)
        assert app.replay_step == 6 and app.replay_text == \
            "Move 6 of 6: Brune claims flag 1"
        flag1 = replay.ids.board.columns[0].children[1]
        assert "South" in flag1.text and "Brune" in flag1.text and not flag1.disabled
        ui.shot(artifacts_dir, "replay-claimed-flag")
        ui.press(flag1)
        popup = app.replay_popup
        assert popup is not None and "Brune" in popup.title_text
        assert "red 10" in popup.proof_text and "@" not in popup.proof_text
        ui.shot_window(artifacts_dir, "replay-proof")
        ui.press(popup.ids.close)
        ui.until(lambda: popup.parent is None, what="the popup to close")
        replay.ids.slider.value = 0
        ui.press(replay.ids.play)
        assert app.replay_playing and replay.ids.play.text == "Pause"
        ui.until(lambda: app.replay_step == 6, timeout=15, what="the autoplay to the end")
        ui.pump(0.2)
        assert not app.replay_playing and replay.ids.play.text == "Play"
        app.set_pref(lang="fr")
        ui.pump(0.1)
        assert app.replay_text == "Coup 6 sur 6 : Brune revendique le drapeau 1"


def test_enrolment_on_the_rig_asks_card_by_card(start_app, tmp_path: Path,
                                                _isolated_data_dir: Path, artifacts_dir) -> None:
    import cv2

    from companion.vision.deck import FACE_H, FACE_W
    from companion.vision.capture import FolderSource

    frame = np.full((1296, 2304, 3), (60, 40, 30), np.uint8)
    frame[500:703, 1000:1145] = 235                      # one card alone on the cloth
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f0.png"), frame)
    ui = start_app(lambda p: make_referee(p), {"source": FolderSource(frames, loop=True),
                                               "reader": None, "pace": True},
                   start_screen="enrol")
    app = ui.app
    assert app.root.current == "enrol"
    ui.until(lambda: app.session.last_frame is not None, what="a frame")
    enrol = ui.screen("enrol")
    assert "red 1" in app.enrol_text and "1 of 70" in app.enrol_text
    ui.shot(artifacts_dir, "enrol")
    ui.press(enrol.ids.capture)
    ui.until(lambda: app.enrol_index == 1, what="the capture")
    saved = cv2.imread(str(_isolated_data_dir / "enrol" / "R1.png"))
    assert saved is not None and saved.shape == (FACE_H, FACE_W, 3)
    assert "red 2" in app.enrol_text
    ui.press(enrol.ids.skip)
    assert app.enrol_index == 2 and "red 3" in app.enrol_text


def test_a_row_gives_the_winner_with_the_winners_points_first() -> None:
    import datetime as dt
    from types import SimpleNamespace

    from companion.record.summary import MatchSummary
    from companion.ui.history import row_texts

    start = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone.utc)
    s = MatchSummary(3, "North", "Jean", "Open de Lyon", "2026-11-21", "south", (2, 5), (2, 5),
                     41, 1, 1, start, start + dt.timedelta(minutes=23, seconds=5))
    players, details = row_texts(SimpleNamespace(lang="en"), s)
    assert players == "North – Jean  ·  Jean wins, 5–2"
    local = start.astimezone().strftime("%Y-%m-%d %H:%M")
    assert details == f"Open de Lyon · {local} · 23 min 05 s · 41 moves"
    players, details = row_texts(SimpleNamespace(lang="fr"), s)
    assert players == "Nord – Jean  ·  Jean gagne, 5–2" and details.endswith("41 coups")


def test_the_event_set_on_the_settings_screen_goes_in_the_next_match(
        start_app, tmp_path: Path, _isolated_data_dir: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        ui = start_app(lambda p: make_referee(p, store), store=store)
        app = ui.app
        app.go("settings")
        field = ui.screen("settings").ids.event
        field.text = "  Club night "
        field.dispatch("on_text_validate")
        assert app.event == "Club night" and app.prefs.event == "Club night"
        field.text = "x" * 41              # refused with its reason, the event kept
        field.dispatch("on_text_validate")
        assert app.event == "Club night" and "longer than 40" in app.message
        app.new_game()
        ui.until(lambda: len(store.match_ids()) == 2, what="the new match")
        assert store.header(store.match_ids()[-1]).extra["event"] == "Club night"
