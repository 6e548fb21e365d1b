"""Seeded computer players for full states, and whole bot-against-bot games for the demo.

`HeuristicBot` builds formations with its Troops, plays every kind of Tactics card now and
then (all four guile cards included) and claims every flag the prover allows.  `play_game`
plays one seeded game between two of them and returns the actions, which replay from
`GameState.new_full(seed, first, settings)`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .actions import Action, Claim, Deserter, Draw, Pass, Play, Redeploy, Scout, Traitor
from .cards import Card
from .formation import Formation, Pool, best_completion, best_formation
from .position import Side, other
from .state import GameState, Settings, StateError

MAX_ACTIONS = 2000
"""No game needs this many actions (70 cards, each moved a few times at most); reaching it
means a bug, reported as an error rather than a loop without end."""


class Bot(Protocol):
    """A player for full states: picks one of `state.legal_actions()`."""

    def choose(self, state: GameState) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions (seeded): a fuzzer for the rules."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise StateError("the game is over: there is no action to choose")
        return self.rng.choice(actions)


def _value(formation: Formation | None) -> float:
    """One number for a formation's strength: category first, then sum (-60: cannot complete)."""
    if formation is None:
        return -60.0
    return formation.rank * 30.0 + formation.sum


class HeuristicBot:
    """A seeded player that builds formations and uses every Tactics card sometimes.

    `tactics_rate` is the chance, each turn a Tactics card is playable, that the bot plays
    one (of a kind chosen at random) rather than a Troop.
    """

    def __init__(self, seed: int | None = None, tactics_rate: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.tactics_rate = tactics_rate

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise StateError("the game is over: there is no action to choose")
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims:
            return claims[0]
        if state.phase == "draw":
            return self._draw(state, actions)
        troops = [a for a in actions if isinstance(a, Play) and a.card.is_troop]
        tactics = [a for a in actions if not (isinstance(a, (Pass, Draw, Claim))
                                              or (isinstance(a, Play) and a.card.is_troop))]
        if tactics and (not troops or self.rng.random() < self.tactics_rate):
            return self._tactic(state, tactics)
        if troops:
            return max(troops, key=lambda a: self._troop_score(state, a))
        return next(a for a in actions if isinstance(a, Pass))

    # -- drawing ---------------------------------------------------------------------------
    def _draw(self, state: GameState, actions: Sequence[Action]) -> Action:
        draws = {a.deck: a for a in actions if isinstance(a, Draw)}
        troop_count = sum(1 for c in state.hand(state.to_move) if c.is_troop)
        if "troop" in draws and ("tactics" not in draws or troop_count < 4
                                 or self.rng.random() < 0.75):
            return draws["troop"]
        if "tactics" in draws:
            return draws["tactics"]
        return draws[None]

    # -- troops ----------------------------------------------------------------------------
    def _pools(self, state: GameState, me: Side, without: Card | None = None) -> tuple[Pool, Pool]:
        """What the bot can count on (its own Troops) and hope for (every Troop not face up)."""
        hand = [c for c in state.hand(me) if c.is_troop and c != without]
        seen = state.on_table()
        hope = Pool.of(c for c in state.settings.rules.troops if c not in seen and c != without)
        return Pool.of(hand), hope

    def _side_value(self, state: GameState, me: Side, flag: int, cards: Sequence[Card],
                    sure: Pool, hope: Pool) -> float:
        f = state.flag(flag)
        fog, mud = f.fog, f.mud
        values = state.settings.rules.value_mask  # Schotten Totten's Joker stops at 9
        if len(cards) == f.capacity:
            return _value(best_formation(cards, fog=fog, mud=mud, values=values)) + 15.0
        return (0.6 * _value(best_completion(cards, sure, fog=fog, mud=mud, values=values))
                + 0.4 * _value(best_completion(cards, hope, fog=fog, mud=mud, values=values)))

    def _troop_score(self, state: GameState, action: Play) -> float:
        me, f = action.player, state.flag(action.flag)
        sure, hope = self._pools(state, me, without=action.card)
        mine = f.slots(me)
        score = self._side_value(state, me, action.flag, mine + (action.card,), sure, hope)
        # Finishing a side already started beats opening a new one.
        score += 6.0 * len(mine)
        theirs = f.slots(other(me))
        if len(theirs) == f.capacity:
            best = best_formation(theirs, fog=f.fog, mud=f.mud, values=state.settings.rules.value_mask)
            if len(mine) + 1 == f.capacity:
                new = best_formation(mine + (action.card,), fog=f.fog, mud=f.mud,
                                     values=state.settings.rules.value_mask)
                score += 25.0 if new.key > best.key else -25.0
        return score + self.rng.random() * 3.0

    # -- tactics ---------------------------------------------------------------------------
    def _tactic(self, state: GameState, actions: Sequence[Action]) -> Action:
        kinds: dict[str, list[Action]] = {}
        for a in actions:
            kinds.setdefault(type(a).__name__ if not isinstance(a, Play) else a.card.code,
                             []).append(a)
        kind = self.rng.choice(sorted(kinds))
        options = kinds[kind]
        me = state.to_move
        if kind == "Deserter":
            return max(options, key=lambda a: self._threat(state, a))
        if kind == "Traitor":
            return max(options, key=lambda a: self._traitor_gain(state, a))
        if kind == "Scout":
            return self._scout(state, options)
        if kind == "Redeploy":
            return self._redeploy(state, options)
        plays = [a for a in options if isinstance(a, Play)]
        if plays and plays[0].card.occupies_slot:
            return max(plays, key=lambda a: self._morale_score(state, a))
        # Fog or Mud: lay it where the opponent looks stronger than the bot.
        return max(options, key=lambda a: self._environment_score(state, a, me))

    def _threat(self, state: GameState, action: Action) -> float:
        assert isinstance(action, Deserter)
        f = state.flag(action.flag)
        them = other(action.player)
        return len(f.slots(them)) * 10.0 + (action.card.value or 9) + self.rng.random()

    def _traitor_gain(self, state: GameState, action: Action) -> float:
        assert isinstance(action, Traitor)
        me = action.player
        sure, hope = self._pools(state, me)
        mine = state.flag(action.to_flag).slots(me) + (action.card,)
        return (self._side_value(state, me, action.to_flag, mine, sure, hope)
                + 3.0 * len(state.flag(action.from_flag).slots(other(me))) + self.rng.random())

    def _morale_score(self, state: GameState, action: Action) -> float:
        assert isinstance(action, Play)
        me = action.player
        sure, hope = self._pools(state, me)
        mine = state.flag(action.flag).slots(me)
        return (self._side_value(state, me, action.flag, mine + (action.card,), sure, hope)
                + 6.0 * len(mine) + self.rng.random())

    def _environment_score(self, state: GameState, action: Action, me: Side) -> float:
        assert isinstance(action, Play)
        f = state.flag(action.flag)
        return 5.0 * len(f.slots(other(me))) - 3.0 * len(f.slots(me)) + self.rng.random() * 4

    def _scout(self, state: GameState, options: Sequence[Action]) -> Action:
        # Keep the drawn cards that help most: put back the two lowest Troops, Tactics last.
        def cost(a: Action) -> float:
            assert isinstance(a, Scout)
            return sum((c.value or 11) for c in a.returns) + self.rng.random()
        return min(options, key=cost)

    def _redeploy(self, state: GameState, options: Sequence[Action]) -> Action:
        me = state.to_move
        sure, hope = self._pools(state, me)

        def gain(a: Action) -> float:
            assert isinstance(a, Redeploy)
            src = state.flag(a.from_flag).slots(me)
            left = tuple(c for c in src if c != a.card)
            before = self._side_value(state, me, a.from_flag, src, sure, hope)
            after = self._side_value(state, me, a.from_flag, left, sure, hope)
            if a.to_flag is None:
                moved = 0.0
            else:
                dst = state.flag(a.to_flag).slots(me)
                moved = (self._side_value(state, me, a.to_flag, dst + (a.card,), sure, hope)
                         - self._side_value(state, me, a.to_flag, dst, sure, hope))
            return after - before + moved + self.rng.random() * 5
        return max(options, key=gain)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished bot game: the start, the actions in order and the final state."""

    start: GameState
    actions: tuple[Action, ...]
    final: GameState
    seed: int = 0
    bots: tuple[str, str] = field(default=("heuristic", "heuristic"))

    def states(self) -> list[GameState]:
        """Every state from the start to the end, rebuilt by replay (habit 6)."""
        out = [self.start]
        for action in self.actions:
            out.append(out[-1].apply(action))
        return out


def simulate(seed: int, first: Side = "south", settings: Settings | None = None,
             north: Bot | None = None, south: Bot | None = None) -> PlayedGame:
    """Play one seeded game between two bots (heuristic bots unless given) to its end."""
    start = GameState.new_full(seed, first=first, settings=settings)
    players: dict[Side, Bot] = {
        "north": north or HeuristicBot(seed * 2 + 1),
        "south": south or HeuristicBot(seed * 2 + 2),
    }
    state = start
    actions: list[Action] = []
    while not state.over:
        if len(actions) >= MAX_ACTIONS:
            raise StateError(f"the game of seed {seed} did not end after {MAX_ACTIONS} actions")
        action = players[state.to_move].choose(state)
        state = state.apply(action)
        actions.append(action)
    names = (type(players["north"]).__name__, type(players["south"]).__name__)
    return PlayedGame(start, tuple(actions), state, seed, names)


def play_game(seed: int, first: Side = "south", settings: Settings | None = None) -> list[Action]:
    """The actions of one seeded game between two heuristic bots, to its end; they replay from
    `GameState.new_full(seed, first=first, settings=settings)`."""
    return list(simulate(seed, first, settings).actions)
