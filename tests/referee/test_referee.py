"""The referee on hand-made observation sequences: debouncing, inference, violations (D1-D13)."""

from __future__ import annotations

import pytest

from companion.rules.errors import NotationError
from companion.rules.place import Place
from companion.referee import (
    ActionCommitted,
    ClaimDecided,
    DoubtRaised,
    Referee,
    RefereeError,
    RefereeSettings,
    ViolationCleared,
    ViolationRaised,
    WaitingForEffect,
)
from companion.rules.actions import (
    Claim,
    Deserter,
    Pass,
    Play,
    Redeploy,
    Scout,
    Traitor,
)
from companion.rules.state import Settings
from companion.vision.observation import Doubt

from .tables import C, Camera, Table, frames_flicker


def committed(events: list) -> list:
    return [e.action for e in events if isinstance(e, ActionCommitted)]


def violations(events: list) -> list[str]:
    return [e.violation.reason for e in events if isinstance(e, ViolationRaised)]


@pytest.fixture
def cam() -> Camera:
    return Camera(Referee(RefereeSettings()))


def test_plays_are_committed_once_stable(cam: Camera) -> None:
    t = Table()
    assert cam.settle(t) == []
    assert committed(cam.settle(t.lay("south", "R8", 3))) == [Play("south", C("R8"), 3)]
    assert committed(cam.settle(t.lay("north", "B2", 4))) == [Play("north", C("B2"), 4)]
    # The same table again (after a hand passed over it) commits nothing more.
    assert cam.settle(t) == []
    s = cam.referee.state
    assert s.actions == (Play("south", C("R8"), 3), Play("north", C("B2"), 4))
    assert s.to_move == "north"  # the opponent's next action ends north's turn (table-only)
    assert len(s.claimability) == 18


def test_hand_motion_and_half_placed_card_commit_nothing(cam: Camera) -> None:
    t = Table()
    cam.settle(t)
    half = Table().lay("south", "R8", 3)
    # A card being slid in under a hand: obstructed frames never count, however long.
    assert cam.show(half.observation(obstructed=(3,)), 20) == []
    assert cam.show(half.observation(motion=True), 20) == []
    # Two calm frames are not enough (three are needed, over 0.3 s).
    assert cam.show(half.observation(), 2) == []
    assert cam.referee.state.actions == ()
    assert committed(cam.show(half.observation(), 1)) == [Play("south", C("R8"), 3)]


def test_stable_needs_time_window_too() -> None:
    ref = Referee(RefereeSettings(stable_frames=3, stable_seconds=1.0))
    t = Table().lay("south", "R8", 3)
    obs = t.observation()
    assert ref.feed(obs, 0.0) == [] and ref.feed(obs, 0.1) == [] and ref.feed(obs, 0.2) == []
    assert committed(ref.feed(obs, 1.0)) == [Play("south", C("R8"), 3)]


def test_flickering_misread_is_never_stable(cam: Camera) -> None:
    t = Table().lay("south", "R8", 3)
    for obs in frames_flicker(t, "R8", "R3", 30):
        assert cam.referee.feed(obs, cam.t) == []
        cam.t += 0.2
    assert cam.referee.state.actions == ()
    assert committed(cam.settle(t)) == [Play("south", C("R8"), 3)]


def test_card_lifted_and_put_back(cam: Camera) -> None:
    t = Table().lay("south", "R8", 3)
    cam.settle(t)
    before = cam.referee.state.game
    # Briefly lifted (under a hand, then two frames): nothing.
    t.lift("R8")
    cam.show(t.observation(obstructed=(3,)), 3)
    cam.show(t.observation(), 2)
    t.lay("south", "R8", 3)
    assert cam.settle(t) == []
    # Lifted long enough to be stable: a violation, the state stays; put back: fixed.
    t.lift("R8")
    assert violations(cam.settle(t)) == ["card-taken-back"]
    assert cam.referee.state.game == before
    assert cam.referee.state.violations[0].reason == "card-taken-back"
    t.lay("south", "R8", 3)
    events = cam.settle(t)
    assert any(isinstance(e, ViolationCleared) for e in events)
    assert cam.referee.state.violations == () and cam.referee.state.game == before


def test_cards_lost_under_glare_name_the_glare(cam: Camera) -> None:
    """A card the camera loses under a glare spot is not called "taken back": the players
    are told of the glare over its flag; the state is kept, and the violation goes when
    the card is seen again.  A steady glare does not stop the table from settling."""
    t = Table()
    cam.settle(t, glare=(3,))
    assert committed(cam.settle(t.lay("south", "R8", 3), glare=(3,))) == [
        Play("south", C("R8"), 3)]
    assert committed(cam.settle(t.lay("north", "B2", 4))) == [Play("north", C("B2"), 4)]
    before = cam.referee.state.game
    t.lift("R8")
    events = cam.settle(t, glare=(3, 7))
    assert violations(events) == ["glare"]
    violation = cam.referee.state.violations[0]
    assert violation.params["flag"] == 3 and violation.params["flags"] == (3,)
    assert "glare over flag 3" in violation.message and "R8" in violation.message
    assert "reflet sur le drapeau 3" in violation.text("fr")
    assert cam.referee.state.game == before
    # The same loss where no glare is seen is the rules' violation.
    assert violations(cam.settle(t, glare=(7,))) == ["card-taken-back"]
    t.lay("south", "R8", 3)
    cam.settle(t, glare=(3,))
    assert cam.referee.state.violations == () and cam.referee.state.game == before
    # Two flags under glare, both changed: both named.
    t.lift("R8").lift("B2")
    cam.settle(t, glare=(3, 4))
    violation = cam.referee.state.violations[0]
    assert violation.reason == "glare" and violation.params["flags"] == (3, 4)
    assert "glare over flags 3, 4" in violation.message
    assert "reflet sur les drapeaux 3, 4" in violation.text("fr")


def test_fog_and_mud(cam: Camera) -> None:
    t = Table()
    cam.settle(t.lay("south", "R8", 3))
    assert committed(cam.settle(t.lay("north", "FOG", 3))) == [Play("north", C("FOG"), 3)]
    assert committed(cam.settle(t.lay("south", "MUD", 5))) == [Play("south", C("MUD"), 5)]
    f3 = cam.referee.state.position.flag(3)
    assert f3.fog and cam.referee.state.position.flag(5).mud


def _opening(cam: Camera) -> Table:
    """South R8@1, north B2@2, south R9@1, north B3@2, south Y5@4, north G7@5."""
    t = Table()
    for side, code, flag in (("south", "R8", 1), ("north", "B2", 2), ("south", "R9", 1),
                             ("north", "B3", 2), ("south", "Y5", 4), ("north", "G7", 5)):
        assert committed(cam.settle(t.lay(side, code, flag)))  # type: ignore[arg-type]
    return t


@pytest.mark.parametrize("two_steps", [False, True])
def test_every_guile_card(cam: Camera, two_steps: bool) -> None:
    t = _opening(cam)

    def guile(side: str, code: str, effect) -> list:  # noqa: ANN001
        t.guile(side, code)  # type: ignore[arg-type]
        if two_steps and code != "SCOUT":
            events = cam.settle(t)
            assert committed(events) == []
            assert any(isinstance(e, WaitingForEffect) for e in events)
            assert cam.referee.state.waiting is not None
        if effect:
            effect()
        return committed(cam.settle(t))

    assert guile("south", "SCOUT", None) == [Scout("south")]
    assert guile("north", "REDEPLOY", lambda: t.move("B3", 6, "north")) == \
        [Redeploy("north", C("B3"), 2, 6)]
    assert guile("south", "DESERTER", lambda: t.move("B2", None, "north")) == \
        [Deserter("south", C("B2"), 2)]
    # Traitor: north takes south's R9 from flag 1 to its own side of flag 5.
    assert guile("north", "TRAITOR", lambda: t.move("R9", 5, "north")) == \
        [Traitor("north", C("R9"), 1, 5)]
    assert cam.referee.state.waiting is None
    assert cam.referee.state.game.layout(5, "north") == (C("G7"), C("R9"))


def test_redeploy_discard(cam: Camera) -> None:
    t = _opening(cam)
    t.guile("south", "REDEPLOY").move("R8", None, "south")
    assert committed(cam.settle(t)) == [Redeploy("south", C("R8"), 1, None)]


def _illegal_then_fixed(cam: Camera, t: Table, break_it, fix_it, reason: str) -> None:  # noqa: ANN001
    before = cam.referee.state.game
    break_it()
    events = cam.settle(t)
    assert violations(events) == [reason], events
    assert cam.referee.state.game == before
    fix_it()
    events = cam.settle(t)
    assert cam.referee.state.violations == ()
    assert any(isinstance(e, ViolationCleared) for e in events)


def test_illegal_moves_become_violations_until_fixed(cam: Camera) -> None:
    t = _opening(cam)  # south to move
    # Wrong player: north lays a card on south's turn (north already played this turn).
    _illegal_then_fixed(cam, t, lambda: t.lay("north", "G8", 5), lambda: t.lift("G8"),
                        "wrong-phase")
    # Two cards at once.
    _illegal_then_fixed(cam, t, lambda: (t.lay("south", "Y6", 4), t.lay("south", "Y7", 4)),
                        lambda: (t.lift("Y6"), t.lift("Y7")), "two-cards")
    # A card taken back.
    _illegal_then_fixed(cam, t, lambda: t.lift("R8"), lambda: t.lay("south", "R8", 1),
                        "card-taken-back")
    # A card moved without a guile card.
    _illegal_then_fixed(cam, t, lambda: t.move("Y5", 6, "south"),
                        lambda: t.move("Y5", 4, "south"), "card-moved")
    # The legal play still goes through afterwards.
    assert committed(cam.settle(t.lay("south", "R10", 1))) == [Play("south", C("R10"), 1)]
    # Fourth card at flag 1 (north lays, then south tries a fourth).
    cam.settle(t.lay("north", "P1", 9))
    _illegal_then_fixed(cam, t, lambda: t.lay("south", "O2", 1), lambda: t.lift("O2"),
                        "side-full")


def test_leader_and_tactics_limits(cam: Camera) -> None:
    t = Table()
    cam.settle(t.lay("south", "ALEXANDER", 1))
    cam.settle(t.lay("north", "B2", 2))
    # Tactics limit: south 1, north 0; a second Tactics card would be 2 against 0.
    _illegal_then_fixed(cam, t, lambda: t.lay("south", "CAVALRY", 3),
                        lambda: t.lift("CAVALRY"), "tactics-limit")
    cam.settle(t.lay("south", "R2", 3))
    cam.settle(t.lay("north", "SHIELD", 2))
    # D2: a second Leader for the same player.
    _illegal_then_fixed(cam, t, lambda: t.lay("south", "DARIUS", 4), lambda: t.lift("DARIUS"),
                        "second-leader")


def _win_flag_1(cam: Camera) -> Table:
    t = Table()
    for side, code, flag in (("south", "R8", 1), ("north", "B2", 1), ("south", "R9", 1),
                             ("north", "B3", 1), ("south", "R10", 1)):
        cam.settle(t.lay(side, code, flag))  # type: ignore[arg-type]
    return t


def test_claim_by_tile_and_refused_claim(cam: Camera) -> None:
    t = _win_flag_1(cam)
    # North claims flag 1 out of turn and without a formation: refused, with the proof.
    before = cam.referee.state.game
    events = cam.settle(t.tile(1, "north"))
    assert violations(events) == ["claim-timing"]
    t.tile(1, "line")
    cam.settle(t)
    assert cam.referee.state.violations == () and cam.referee.state.game == before
    # South: R8 R9 R10 is a wedge; north's B2 B3 can at best make a wedge 1-2-3 or 2-3-4.
    assert cam.referee.state.claimability[(1, "south")].valid
    events = cam.settle(t.tile(1, "south"))
    assert committed(events) == [Claim("south", 1)]
    decided = [e for e in events if isinstance(e, ClaimDecided)]
    assert decided and decided[0].accepted and decided[0].verdict.proof()
    # A card at the claimed flag.
    cam.settle(t.lay("north", "P9", 7))
    _illegal_then_fixed(cam, t, lambda: t.lay("south", "O3", 1), lambda: t.lift("O3"),
                        "flag-claimed")


def test_claim_whose_proof_fails(cam: Camera) -> None:
    t = Table()
    for side, code, flag in (("south", "R2", 1), ("north", "B9", 2), ("south", "O5", 1),
                             ("north", "B8", 2), ("south", "Y9", 1)):
        cam.settle(t.lay(side, code, flag))  # type: ignore[arg-type]
    events = cam.settle(t.tile(1, "south"))
    assert violations(events) == ["claim-refused"]
    v = cam.referee.state.violations[0]
    assert v.verdict is not None and not v.verdict.valid and v.verdict.proof()
    cam.settle(t.tile(1, "line"))
    assert cam.referee.state.violations == ()


def test_request_claim_and_prove(cam: Camera) -> None:
    t = _win_flag_1(cam)
    assert not cam.referee.prove(1, "north").valid
    before = cam.referee.state.actions
    assert cam.referee.state.actions == before
    verdict = cam.referee.request_claim(1, "south")
    assert verdict.valid and cam.referee.state.actions[-1] == Claim("south", 1)
    # The tile may stay on the line or be moved aside: both match the committed table.
    assert cam.settle(t) == [] and cam.settle(t.tile(1, "south")) == []
    assert cam.referee.state.violations == ()
    refused = cam.referee.request_claim(2, "south")  # south holds nothing at flag 2
    assert not refused.valid and refused.reason == "incomplete"
    assert cam.referee.state.violations == () and len(cam.referee.state.actions) == 6
    with pytest.raises(RefereeError, match="only after playing"):
        cam.referee.request_claim(2, "north")  # D6: not north's claiming moment


def test_doubtful_read_asks_for_confirmation(cam: Camera) -> None:
    t = Table()
    t.lay("south", "O7", 3)
    doubt = Doubt(Place.parse("flag 3 south"), C("O7"), C("R7"), 0.2, 0)
    events = cam.settle(t, doubtful=(doubt,))
    assert [type(e) for e in events] == [DoubtRaised]
    assert cam.referee.state.doubts == (doubt,) and cam.referee.state.actions == ()
    events = cam.referee.confirm(doubt, C("R7"))
    assert committed(events) == [Play("south", C("R7"), 3)]
    assert cam.referee.state.doubts == ()
    # The camera keeps reading O7 (doubtfully or not): the players' word stands.
    assert cam.settle(t, doubtful=(doubt,)) == [] and cam.settle(t) == []
    assert cam.referee.state.violations == ()


def test_doubt_on_a_committed_card_is_not_asked(cam: Camera) -> None:
    t = Table().lay("south", "R7", 3)
    cam.settle(t)
    misread = Doubt(Place.parse("flag 3 south"), C("O7"), C("R7"), 0.3, 0)
    assert cam.settle(t, misread={"R7": "O7"}, doubtful=(misread,)) == []
    assert cam.referee.state.violations == () and cam.referee.state.doubts == ()


def test_correct_a_read_card(cam: Camera) -> None:
    t = Table().lay("south", "R7", 3)
    cam.settle(t, misread={"R7": "O7"})  # a confident misread
    assert cam.referee.state.actions == (Play("south", C("O7"), 3),)
    events = cam.referee.correct(0, C("R7"))
    assert cam.referee.state.actions == (Play("south", C("R7"), 3),)
    assert events
    # The camera still reads O7 there: no violation; the next play goes on.
    assert cam.settle(t, misread={"R7": "O7"}) == []
    assert committed(cam.settle(t.lay("north", "B1", 2), misread={"R7": "O7"})) == \
        [Play("north", C("B1"), 2)]
    with pytest.raises(RefereeError, match="no action 7"):
        cam.referee.correct(7, C("R1"))
    with pytest.raises(RefereeError, match="cannot be"):
        cam.referee.correct(1, C("R7"))  # R7 is already on the table


def test_undo_waits_for_the_table(cam: Camera) -> None:
    t = _opening(cam)
    events = cam.referee.undo_to(4)
    assert len(cam.referee.state.actions) == 4
    assert violations(events) == ["undo-restore"]
    # Nothing is inferred until the table is as it was after action 3.
    assert committed(cam.settle(t)) == []
    t.lift("Y5").lift("G7")
    cam.settle(t)
    assert cam.referee.state.violations == () and cam.referee.state.mode == "playing"
    assert committed(cam.settle(t.lay("south", "Y6", 4))) == [Play("south", C("Y6"), 4)]


def test_pass_is_recorded(cam: Camera) -> None:
    t = Table()
    cam.settle(t.lay("south", "R8", 3))
    cam.referee.pass_turn("north")
    assert cam.referee.state.actions[-1] == Pass("north")
    assert committed(cam.settle(t.lay("south", "R9", 3))) == [Play("south", C("R9"), 3)]
    cam.referee.pass_turn("north")
    with pytest.raises(RefereeError, match="already played"):
        cam.referee.pass_turn("north")  # one pass a turn


def test_advanced_timing_claims_open_the_turn() -> None:
    cam = Camera(Referee(RefereeSettings(game=Settings(claim_timing="advanced"))))
    t = _win_flag_1(cam)  # south played R10 last; north to move
    cam.settle(t.lay("north", "G1", 9))
    # D6 advanced: south claims at the start of its turn, then plays, in one change.
    events = cam.settle(t.tile(1, "south").lay("south", "Y2", 8))
    assert committed(events) == [Claim("south", 1), Play("south", C("Y2"), 8)]


def test_subscribers_get_each_state(cam: Camera) -> None:
    seen = []
    unsubscribe = cam.referee.subscribe(seen.append)
    cam.settle(Table().lay("south", "R8", 3))
    assert len(seen) == 2 and seen[-1].actions == (Play("south", C("R8"), 3),)
    unsubscribe()
    cam.settle(Table().lay("south", "R8", 3).lay("north", "B1", 1))
    assert len(seen) == 2


def test_bad_input() -> None:
    from companion.referee import RefereeSettingsError
    with pytest.raises(RefereeSettingsError, match="stable_frames"):
        RefereeSettings(stable_frames=0)
    ref = Referee()
    with pytest.raises(RefereeError, match="Observation"):
        ref.feed("flag 1", 0.0)  # type: ignore[arg-type]
    with pytest.raises(RefereeError, match="doubt place"):
        ref.confirm(Doubt("table", C("R1"), None, 0.1), C("R1"))  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="not a place"):
        Place.parse("table")


@pytest.mark.parametrize("side,code,effect,reason", [
    # Redeploy moves only one's own card (south takes north's B2 to north's flag 6).
    ("south", "REDEPLOY", lambda t: t.move("B2", 6, "north"), "not-your-card"),
    # Deserter discards an opponent's card, not one's own.
    ("south", "DESERTER", lambda t: t.move("R8", None, "south"), "own-card"),
    # Traitor takes only Troops: north's CAVALRY is refused.
    ("south", "TRAITOR", lambda t: t.move("CAVALRY", 6, "south"), "traitor-on-tactics"),
    # Two cards moved for one Redeploy.
    ("south", "REDEPLOY", lambda t: (t.move("R8", 6, "south"), t.move("R9", 7, "south")),
     "two-moves"),
    # A guile card laid at a flag instead of beside the line.
    ("south", None, lambda t: t.lay("south", "SCOUT", 6), "guile-at-flag"),
])
def test_illegal_guile_plays(cam: Camera, side: str, code: str | None, effect,  # noqa: ANN001
                             reason: str) -> None:
    t = _opening(cam)
    cam.settle(t.lay("south", "Y6", 4))
    cam.settle(t.lay("north", "CAVALRY", 5))
    before = cam.referee.state.game

    def break_it() -> None:
        if code is not None:
            t.guile(side, code)  # type: ignore[arg-type]
        effect(t)
    snapshot = (dict((k, list(v)) for k, v in t.sides.items()), {k: list(v) for k, v in
                                                                 t.off.items()})

    def fix_it() -> None:
        t.sides = {k: list(v) for k, v in snapshot[0].items()}
        t.off = {k: list(v) for k, v in snapshot[1].items()}

    _illegal_then_fixed(cam, t, break_it, fix_it, reason)
    assert cam.referee.state.game == before
    # The turn then goes on legally.
    assert committed(cam.settle(t.lay("south", "P3", 7))) == [Play("south", C("P3"), 7)]


def test_tactics_limit_applies_to_guile_cards(cam: Camera) -> None:
    t = Table()
    cam.settle(t.lay("south", "FOG", 1))
    cam.settle(t.lay("north", "B2", 2))
    _illegal_then_fixed(cam, t, lambda: t.guile("south", "SCOUT"), lambda: t.lift("SCOUT"),
                        "tactics-limit")


def test_redeploy_to_a_claimed_flag_is_refused(cam: Camera) -> None:
    t = _win_flag_1(cam)
    cam.settle(t.tile(1, "south"))
    cam.settle(t.lay("north", "G5", 6))
    cam.settle(t.lay("south", "O5", 6))
    cam.settle(t.lay("north", "G6", 6))
    # South redeploys its O5 to flag 1, which it has already won.
    _illegal_then_fixed(cam, t, lambda: (t.guile("south", "REDEPLOY"), t.move("O5", 1, "south")),
                        lambda: (t.lift("REDEPLOY"), t.move("O5", 6, "south")), "flag-claimed")


def test_doubt_whose_second_guess_is_a_card_already_there(cam: Camera) -> None:
    # B4 and B5 are down; B3 is laid and read doubtfully (second guess B5, which is seen too).
    t = Table()
    for side, code, flag in (("south", "B4", 9), ("north", "G1", 1), ("south", "B5", 9),
                             ("north", "G2", 1)):
        assert committed(cam.settle(t.lay(side, code, flag)))  # type: ignore[arg-type]
    doubt = Doubt(Place.parse("flag 9 south"), C("B3"), C("B5"), 0.2, 2)
    events = cam.settle(t.lay("south", "B3", 9), doubtful=(doubt,))
    assert violations(events) == [] and cam.referee.state.doubts == (doubt,)
    assert committed(cam.referee.confirm(doubt, C("B3"))) == [Play("south", C("B3"), 9)]


def test_players_say_there_is_no_card(cam: Camera) -> None:
    t = Table().lay("south", "R7", 3)
    cam.settle(t)
    # The camera takes the gap between two cards for a TRAITOR card.
    phantom = Table().lay("south", "R7", 3).lay("south", "TRAITOR", 3).lay("north", "B2", 3)
    events = cam.settle(phantom)
    assert violations(events) == ["guile-at-flag"]
    events = cam.referee.confirm(Doubt(Place.parse("flag 3 south"), C("TRAITOR"), None, 0.0, 1), None)
    assert committed(events) == [Play("north", C("B2"), 3)]
    assert cam.referee.state.violations == ()
    # The players' word was about the table as it was: after the commit, a phantom seen
    # again is reported again, and dismissed again.
    assert violations(cam.settle(phantom)) == ["guile-at-flag"]
    cam.referee.confirm(Doubt(Place.parse("flag 3 south"), C("TRAITOR"), None, 0.0, 1), None)
    assert cam.referee.state.violations == ()
    # "No card there" never hides a card the referee knows is there.
    cam.referee.confirm(Doubt(Place.parse("flag 3 south"), C("R7"), None, 0.0, 0), None)
    assert violations(cam.settle(t.lay("north", "B2", 3))) == []
    assert len(cam.referee.state.actions) == 2


def test_a_phantom_copy_and_a_misread_fixed_together(cam: Camera) -> None:
    # P8 is laid at flag 8; the camera reads it as P6 and sees a P8 beside the line.
    t = Table()
    cam.settle(t.lay("south", "R1", 1))
    seen = Table().lay("south", "R1", 1).lay("north", "P6", 8).guile("north", "P8")
    assert violations(cam.settle(seen)) == ["two-cards"]
    cam.referee.confirm(Doubt(Place.parse("flag 8 north"), C("P6"), C("P8"), 0.0, 0), C("P8"))
    events = cam.referee.confirm(Doubt(Place.parse("offline north"), C("P8"), None, 0.0, 0), None)
    assert committed(events) == [Play("north", C("P8"), 8)]
    assert cam.referee.state.violations == ()


def test_schotten_totten_refuses_battle_line_cards_and_speaks_of_stones() -> None:
    from companion.rules.messages import message

    cam = Camera(Referee(RefereeSettings(game=Settings(edition="schotten-totten",
                                                       naming="schotten-fr"))))
    t = Table()
    assert committed(cam.settle(t.lay("south", "SPY", 1))) == [Play("south", C("SPY"), 1)]
    events = cam.settle(t.lay("north", "R10", 2))
    raised = [e.violation for e in events if isinstance(e, ViolationRaised)]
    assert [v.reason for v in raised] == ["not-in-edition"]
    said = message(raised[0].reason, raised[0].params, "fr", "schotten-fr")
    assert "R10" not in said or "jeu de cette édition" in said
    events = cam.settle(t.lift("R10").lay("north", "R9", 2))
    assert committed(events) == [Play("north", C("R9"), 2)]
    assert cam.referee.state.violations == ()


def test_an_undo_can_be_redone_and_the_record_replays_to_the_same_state(
        tmp_path) -> None:
    from companion.record.recorder import open_match
    from companion.record.store import MatchStore

    with MatchStore(tmp_path / "m.sqlite") as store:
        referee, _recorder = open_match(store, RefereeSettings())
        cam = Camera(referee)
        t = _opening(cam)
        before = referee.state.actions
        events = referee.undo_to(4)
        assert violations(events) == ["undo-restore"]
        assert referee.state.redo == before[4:]
        # Redone: the table was never touched, so it matches at once.
        referee.redo()
        state = referee.state
        assert state.actions == before and state.violations == () and state.redo == ()
        assert state.mode == "playing"
        with pytest.raises(RefereeError, match="nothing to redo") as refused:
            referee.redo()
        assert refused.value.reason == "no-redo"
        # The record: the undo, then the same actions again; it replays to the same state.
        match_id, = store.match_ids()
        assert store.effective_actions(match_id) == list(before)
        assert store.replay(match_id)[-1].position() == state.game.position()
        # An undo followed by another move forgets what could be redone.
        referee.undo_to(5)
        t.lift("G7")
        cam.settle(t)
        assert referee.state.redo == (before[5],)
        cam.settle(t.lay("north", "G8", 5))
        assert referee.state.actions[-1] == Play("north", C("G8"), 5)
        assert referee.state.redo == ()
        assert store.effective_actions(match_id) == list(referee.state.actions)
