"""Every refusal reason of `GameState.apply`, every guile card, Fog and Mud (RULES.md, D2-D6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.actions import (
    Claim,
    Deserter,
    Draw,
    Pass,
    Play,
    Redeploy,
    Scout,
    Traitor,
    guile_card,
    parse_action,
)
from companion.rules.cards import BY_CODE, Card
from companion.rules.errors import IllegalActionError, NotationError
from companion.rules.messages import message
from companion.rules.state import ClaimRefusedError, FlagState, GameState, Settings

from .helpers import C, cards, run, table


def refused(state: GameState, text: str, reason: str, *names: str) -> IllegalActionError:
    """Apply `text`, expect refusal `reason`, and a message naming every one of `names`."""
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_action(text))
    assert info.value.reason == reason, str(info.value)
    for name in names:
        assert name in str(info.value), (name, str(info.value))
    # The same refusal in French with each French naming (companion.rules.messages): the
    # card names of that naming, no placeholder left.
    for naming in ("gmt-fr", "medieval-fr"):
        text = message(reason, info.value.params, "fr", naming)
        assert "{" not in text and text != str(info.value), text
        for name in names:
            if name in BY_CODE:
                assert BY_CODE[name].name(naming) in text, (name, text)
    assert "{" not in message(reason, info.value.params, "en")
    return info.value


def full(south: tuple[Card, ...], north: tuple[Card, ...] = (), troop_deck: tuple[Card, ...] = (),
         tactics_deck: tuple[Card, ...] = (), **changes: object) -> GameState:
    """A full state with chosen hands and decks (the rest of the cards are out of the game)."""
    return GameState(full=True, hand_south=south, hand_north=north, troop_deck=troop_deck,
                     tactics_deck=tactics_deck, **changes)  # type: ignore[arg-type]


# -- refusals -------------------------------------------------------------------------------
def test_wrong_player() -> None:
    refused(table(), "N R8@1", "wrong-player", "R8", "1", "south")


def test_wrong_phase_second_card_and_early_draw() -> None:
    state = table("S R8@1")
    refused(state, "S B3@2", "wrong-phase", "B3", "2")
    refused(table(), "S DRAW troop", "wrong-phase")


def test_game_over() -> None:
    flags = tuple(FlagState(claimed="south") if n < 2 else FlagState() for n in range(9))
    state = GameState(full=False, flags=flags)
    state = state.apply(Play("south", C["R8"], 3))
    with pytest.raises(IllegalActionError):
        state.apply(Claim("south", 3))  # incomplete: refused, and the game goes on
    flags = flags[:2] + (FlagState(south=cards("R8", "R9", "R10")),) + flags[3:]
    won = GameState(full=False, phase="draw", flags=flags).apply(Claim("south", 3))
    assert won.outcome is not None and won.winner == "south"
    refused(won, "S DRAW troop", "game-over", "south won")
    refused(won, "N R1@5", "game-over", "R1 at flag 5")


def test_flag_claimed_for_play_and_every_guile_card() -> None:
    flags = (FlagState(north=cards("G1"), south=cards("R1", "R2", "R3"), claimed="south"),) \
        + tuple(FlagState() for _ in range(8))
    state = GameState(full=False, flags=flags)
    refused(state, "S R8@1", "flag-claimed", "R8", "flag 1")
    refused(state, "S FOG@1", "flag-claimed", "FOG", "flag 1")
    refused(state, "S REDEPLOY R2@1>4", "flag-claimed", "R2", "flag 1")
    refused(state, "S DESERTER G1@1", "flag-claimed", "G1", "flag 1")
    refused(state, "S TRAITOR G1@1>4", "flag-claimed", "G1", "flag 1")
    state = run(state, "S R9@4", "N G2@4")
    refused(state, "S REDEPLOY R9@4>1", "flag-claimed", "R9", "flag 1")
    refused(state, "S TRAITOR G2@4>1", "flag-claimed", "G2", "flag 1")


def test_side_full_and_no_slot() -> None:
    state = table("S R1@1", "N B1@9", "S R2@1", "N B2@9", "S R3@1", "N B3@9")
    refused(state, "S R4@1", "side-full", "R4", "flag 1")
    refused(state, "S CAVALRY@1", "side-full", "CAVALRY", "flag 1")
    state = run(state, "S R5@2", "N B4@8")
    refused(state, "S REDEPLOY R5@2>1", "no-slot", "R5", "flag 1")
    refused(state, "S TRAITOR B1@9>1", "no-slot", "B1", "flag 1")


def test_tactics_limit_counts_every_family() -> None:
    state = table("S FOG@1", "N R1@2")
    refused(state, "S ALEXANDER@3", "tactics-limit", "ALEXANDER", "flag 3")
    refused(state, "S SCOUT", "tactics-limit", "SCOUT")
    refused(state, "S REDEPLOY R9@3>x", "tactics-limit", "R9", "flag 3")
    state = run(state, "S R3@3", "N SCOUT")
    assert state.tactics_played("south") == state.tactics_played("north") == 1
    run(state, "S MUD@4")  # level again: one more is fine


def test_second_leader_even_after_the_first_left_the_table() -> None:
    # D2: after Alexander is deserted, Darius still stays in hand.
    state = table("S ALEXANDER@1", "N DESERTER ALEXANDER@1")
    assert state.layout(1, "south") == ()
    assert state.leader_played("south")
    refused(state, "S DARIUS@2", "second-leader", "DARIUS", "flag 2", "D2")
    state = table("S ALEXANDER@1", "N R1@2", "S R2@3", "N FOG@4", "S REDEPLOY ALEXANDER@1>x")
    state = run(state, "N MUD@4", "S R5@5", "N R6@6")
    refused(state, "S DARIUS@2", "second-leader", "DARIUS")
    # The other player may still play the other Leader.
    run(state, "S R7@7", "N DARIUS@8")


def test_traitor_on_tactics() -> None:
    state = table("S CAVALRY@1", "N R1@2", "S R2@3")
    refused(state, "N TRAITOR CAVALRY@1>2", "traitor-on-tactics", "CAVALRY", "flag 1")


def test_environment_cards_never_move() -> None:
    # D4: Fog and Mud stay where they are until the end of the game.
    state = table("S FOG@1")
    refused(state, "N DESERTER FOG@1", "environment-immovable", "FOG", "D4")
    refused(state, "N TRAITOR FOG@1>2", "environment-immovable", "FOG")
    state = run(state, "N MUD@2")
    refused(state, "S REDEPLOY FOG@1>3", "environment-immovable", "FOG")
    refused(state, "S REDEPLOY FOG@1>x", "environment-immovable", "FOG")


def test_not_on_flag_not_your_card_own_card_same_flag() -> None:
    state = table("S R1@1", "N R2@1", "S R3@2")
    refused(state, "N DESERTER R5@3", "not-on-flag", "R5", "flag 3")
    refused(state, "N DESERTER R3@1", "not-on-flag", "R3", "flag 1", "flag 2")
    refused(state, "N DESERTER R2@1", "own-card", "R2", "flag 1")
    refused(state, "N TRAITOR R2@1>5", "own-card", "R2", "flag 1")
    refused(state, "N REDEPLOY R1@1>5", "not-your-card", "R1", "flag 1")
    refused(state, "N REDEPLOY R2@1>1", "same-flag", "R2", "flag 1")


def test_not_in_hand_and_card_on_table() -> None:
    state = full(cards("R1", "R2"), cards("B1"), troop_deck=cards("G1", "G2"))
    refused(state, "S R3@1", "not-in-hand", "R3", "south")
    refused(state, "S SCOUT", "not-in-hand", "SCOUT")
    state = table("S R8@1")
    refused(state, "N R8@2", "card-on-table", "R8", "flag 1")
    state = run(state, "N SCOUT", "S R9@1")
    refused(state, "N SCOUT", "card-on-table", "SCOUT", "off the line")


def test_not_in_edition() -> None:
    # Schotten Totten's Clan cards run 1-9 and it has a Spy, no Companion Cavalry; the
    # reverse in Battle Line.
    st = Settings(edition="schotten-totten")
    refused(table(settings=st), "S R10@1", "not-in-edition", "R10", "1 to 9")
    refused(table(settings=st), "S CAVALRY@1", "not-in-edition", "CAVALRY", "Schotten Totten")
    refused(table(), "S SPY@1", "not-in-edition", "SPY", "Battle Line")
    assert table("S SPY@1", settings=st).layout(1, "south") == cards("SPY")


def test_guile_card_played_at_a_flag() -> None:
    refused(table(), "S SCOUT@3", "not-at-flag", "SCOUT", "flag 3")


def test_draw_rules_in_full_states() -> None:
    state = full(cards("R1", "R2"), cards("B1"), troop_deck=(), tactics_deck=cards("FOG"))
    state = run(state, "S R1@1")
    refused(state, "S DRAW troop", "deck-empty", "troop")
    refused(state, "S DRAW", "must-draw", "south")
    after = run(state, "S DRAW tactics")
    assert after.hand("south") == cards("R2", "FOG") and after.tactics_deck == ()
    assert after.to_move == "north" and after.turn == 2
    # Both decks empty: the turn ends without a draw.
    assert run(after, "N B1@1", "N DRAW").to_move == "south"
    seven = cards("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8")
    state = run(full(seven, troop_deck=cards("G1")), "S R8@1")
    state = replace(state, hand_south=seven)
    refused(state, "S DRAW troop", "hand-full", "8 cards")


def test_pass_only_without_a_troop_to_play() -> None:
    # D13: in a full state a pass is checked; at the table it is only recorded.
    state = full(cards("R1", "FOG"))
    refused(state, "S PASS", "pass-not-allowed", "R1", "D13")
    run(full(cards("FOG", "SCOUT")), "S PASS", "S DRAW")
    assert table("S PASS").passed


def test_scout_checks_in_full_states() -> None:
    state = full(cards("SCOUT", "R1"), troop_deck=cards("G1", "G2", "G3", "G4"),
                 tactics_deck=cards("FOG"))
    refused(state, "S SCOUT troop,troop>R1,G1", "scout-draws", "SCOUT")
    refused(state, "S SCOUT troop,troop,troop>R1", "scout-returns", "R1")
    refused(state, "S SCOUT troop,troop,troop>R1,R1", "scout-returns", "R1")
    refused(state, "S SCOUT troop,troop,troop>R1,B9", "not-in-hand", "B9")
    refused(state, "S SCOUT tactics,tactics,troop>R1,G1", "deck-empty", "tactics")


# -- guile cards ------------------------------------------------------------------------------
def test_scout_draws_and_puts_back_on_top_of_each_deck() -> None:
    state = full(cards("SCOUT", "R1", "FOG"), troop_deck=cards("G1", "G2", "G3", "G4"),
                 tactics_deck=cards("MUD", "SHIELD"))
    after = run(state, "S SCOUT troop,tactics,troop>R1,MUD")
    assert after.hand("south") == cards("FOG", "G1", "G2")
    assert after.troop_deck == cards("R1", "G3", "G4")
    assert after.tactics_deck == cards("MUD", "SHIELD")
    assert after.offline("south") == cards("SCOUT")
    assert after.tactics_played("south") == 1
    # The hand is back to 3 cards out of 3: no draw after it here (D5: one action, one turn).
    assert len(after.hand("south")) == 3
    # With fewer than 3 cards left in the decks, Scout draws them all.
    short = full(cards("SCOUT", "R1"), troop_deck=cards("G1"))
    after = run(short, "S SCOUT troop>G1,R1")
    assert after.hand("south") == () and after.troop_deck == cards("R1", "G1")
    # Table-only: Scout only records the card.
    assert table("S SCOUT").offline("south") == cards("SCOUT")


def test_redeploy_moves_or_discards_to_the_players_side() -> None:
    state = table("S B3@2", "N R1@2", "S R5@4", "N R2@3")
    moved = run(state, "S REDEPLOY B3@2>7")
    assert moved.layout(2, "south") == () and moved.layout(7, "south") == cards("B3")
    assert moved.offline("south") == cards("REDEPLOY")
    gone = run(state, "S REDEPLOY B3@2>x")
    assert gone.offline("south") == cards("REDEPLOY", "B3")
    assert gone.position().discards == cards("B3")
    assert gone.discards() == cards("B3")


def test_deserter_discards_to_the_owners_side() -> None:
    state = table("S Y5@4", "N DESERTER Y5@4")
    assert state.layout(4, "south") == ()
    assert state.offline("north") == cards("DESERTER")
    assert state.offline("south") == cards("Y5")
    assert state.position().discards == cards("Y5")


def test_traitor_moves_a_troop_to_the_players_side() -> None:
    state = table("S G7@2", "N R1@6", "S R2@3", "N TRAITOR G7@2>6")
    assert state.layout(2, "south") == ()
    assert state.layout(6, "north") == cards("R1", "G7")
    assert state.offline("north") == cards("TRAITOR")
    # Traitor may lay the card on the player's side of the same flag.
    state = table("S G7@2", "N TRAITOR G7@2>2")
    assert state.layout(2, "north") == cards("G7")


def test_guile_card_of_each_action() -> None:
    assert guile_card(Scout("south")) == C["SCOUT"]
    assert guile_card(Redeploy("south", C["R1"], 1, None)) == C["REDEPLOY"]
    assert guile_card(Deserter("south", C["R1"], 1)) == C["DESERTER"]
    assert guile_card(Traitor("south", C["R1"], 1, 2)) == C["TRAITOR"]
    assert guile_card(Pass("south")) is None


# -- Fog and Mud ------------------------------------------------------------------------------
def test_fog_and_mud_in_layout_and_position() -> None:
    state = table("S R8@3", "N FOG@3", "S MUD@3")
    assert state.layout(3, "south") == cards("R8", "MUD")
    assert state.layout(3, "north") == cards("FOG")
    flag = state.position().flag(3)
    assert flag.env == cards("FOG", "MUD") and flag.south == cards("R8") and flag.north == ()


def test_mud_gives_a_fourth_slot_and_no_fifth() -> None:
    state = table("S R1@5", "N B1@5", "S R2@5", "N B2@5", "S R3@5", "N B3@5")
    refused(state, "S R4@5", "side-full", "R4", "flag 5")
    state = run(state, "S MUD@5", "N SHIELD@5")
    assert state.flag(5).capacity == 4
    state = run(state, "S R4@5", "N B5@1")
    refused(state, "S R5@5", "side-full", "R5", "flag 5", "Mud")
    refused(state, "S CAVALRY@5", "side-full", "CAVALRY")


def test_action_values_refuse_bad_fields() -> None:
    with pytest.raises(NotationError, match="flag 10"):
        Play("south", C["R1"], 10)
    with pytest.raises(NotationError, match="'east'"):
        Pass("east")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="'hand'"):
        Draw("south", "hand")  # type: ignore[arg-type]


def test_claim_refused_carries_the_verdict() -> None:
    flags = (FlagState(north=cards("B8", "B9", "B10"), south=cards("R1", "R2", "Y4"),
                       north_complete_at=1, south_complete_at=2),) \
        + tuple(FlagState() for _ in range(8))
    state = GameState(full=False, phase="draw", flags=flags, turn=3)
    with pytest.raises(ClaimRefusedError) as info:
        state.apply(Claim("south", 1))
    assert info.value.reason == "claim-refused"
    assert info.value.verdict.reason == "weaker" and not info.value.verdict.valid
    assert "flag 1" in str(info.value)
    refused(state, "S CLAIM 2", "claim-refused", "flag 2", "incomplete")


def test_claim_timing_standard_and_advanced() -> None:
    # D6: standard timing claims after the card; advanced before it.
    flags = (FlagState(south=cards("R8", "R9", "R10"), south_complete_at=1),) \
        + tuple(FlagState() for _ in range(8))
    standard = GameState(full=False, flags=flags)
    refused(standard, "S CLAIM 1", "claim-timing", "flag 1", "after playing")
    assert run(standard, "S B1@2", "S CLAIM 1").flag(1).claimed == "south"
    advanced = GameState(full=False, flags=flags, settings=Settings("advanced"))
    assert run(advanced, "S CLAIM 1").flag(1).claimed == "south"
    refused(run(advanced, "S B1@2"), "S CLAIM 1", "claim-timing", "flag 1", "advanced")
    # At the table, the opponent's claim ends the turn and starts theirs (advanced timing).
    flags = (FlagState(north=cards("R8", "R9", "R10"), north_complete_at=1),) \
        + tuple(FlagState() for _ in range(8))
    advanced = GameState(full=False, flags=flags, settings=Settings("advanced"))
    after = run(advanced, "S B1@2", "N CLAIM 1")
    assert after.flag(1).claimed == "north" and after.to_move == "north"
    refused(run(GameState(full=False, flags=flags), "S B1@2"), "N CLAIM 1", "claim-timing")


def test_flag_already_claimed_cannot_be_claimed_again() -> None:
    flags = (FlagState(south=cards("R8", "R9", "R10"), claimed="south"),) \
        + tuple(FlagState() for _ in range(8))
    refused(GameState(full=False, phase="draw", flags=flags), "S CLAIM 1", "flag-claimed",
            "flag 1")


def test_reason_codes_are_documented_and_raised() -> None:
    import re
    from pathlib import Path

    from companion.rules import state

    documented = re.findall(r"^- `([a-z-]+)`:", state.__doc__ or "", re.M)
    assert tuple(documented) == state.REASONS
    source = Path(state.__file__).read_text(encoding="utf-8")
    raised = set(re.findall(r'"([a-z]+(?:-[a-z]+)+)", f"', source)) | {"claim-refused"}
    # Codes passed on through a variable: the slot check and the side check.
    raised |= {"side-full", "no-slot", "not-your-card", "own-card"}
    assert raised == set(state.REASONS)
    tested = set(re.findall(r'"([a-z]+(?:-[a-z]+)+)"', Path(__file__).read_text("utf-8")))
    assert set(state.REASONS) <= tested
