"""Which visible action turns the committed table into the table now seen.

`explain(committed, seen)` diffs two table views and names the action that explains the
change: a play at a flag (Troop, morale, Fog or Mud), a guile card with its effect, flag tiles
moved aside (claims).  It knows nothing of turns or legality: the referee checks what it
returns with the rules core, so a fourth card or a play out of turn is still *explained* here
and refused there.  A change that no single action explains is `Unexplained`, with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.rules.actions import Action, Claim, Deserter, Play, Redeploy, Scout, Traitor
from companion.rules.cards import BY_CODE, Card
from companion.rules.messages import Part
from companion.rules.place import Place
from companion.rules.position import FLAG_COUNT, SIDES, Side, other

from .table import Table

SCOUT, REDEPLOY = BY_CODE["SCOUT"], BY_CODE["REDEPLOY"]
DESERTER, TRAITOR = BY_CODE["DESERTER"], BY_CODE["TRAITOR"]


@dataclass(frozen=True, slots=True)
class Explained:
    """The change is these card actions (at most one: a turn plays one card) and claims."""

    actions: tuple[Action, ...]
    claims: tuple[Claim, ...]
    changed: frozenset[Card]          # cards added or moved: the reads the change rests on

    @property
    def empty(self) -> bool:
        return not self.actions and not self.claims


@dataclass(frozen=True, slots=True)
class Waiting:
    """A guile card is down but its effect is not yet on the table (D5: one turn, two steps)."""

    card: Card
    player: Side
    message: str


REASONS: tuple[str, ...] = (
    "card-twice", "tile-missing", "claim-moved", "card-taken-back", "two-cards",
    "guile-at-flag", "card-moved", "two-moves", "card-discarded",
)
"""Every `Unexplained.reason` that `explain` gives."""


@dataclass(frozen=True, slots=True)
class Unexplained:
    reason: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict, compare=False)


Explanation = Explained | Waiting | Unexplained


def _moved(card: Card, before: Place, after: Place) -> bool:
    # A discard may be put on either off-line pile: that is not a move (see same_table).
    if before.offline and after.offline and card.family != "guile":
        return False
    return before != after


def explain(committed: Table, seen: Table) -> Explanation:
    """The action(s) that turn `committed` into `seen`, or why none does."""
    where_c, _ = committed.locations()
    where_o, twice = seen.locations()
    if twice:
        card, a, b = twice[0]
        return Unexplained("card-twice", f"{card} is seen twice, at {a} and at {b}; "
                                         "one of the two is misread or misplaced",
                           {"card": card, "a": a, "b": b})
    claims: list[Claim] = []
    for n in range(1, FLAG_COUNT + 1):
        want, got = committed.tiles[n - 1], seen.tiles[n - 1]
        if got == "missing":
            return Unexplained("tile-missing", f"the tile of flag {n} cannot be seen; "
                                               "put it back where the camera can read it",
                               {"flag": n})
        if want == "line" and got in SIDES:
            claims.append(Claim(got, n))
        elif want in SIDES and got not in (want, "line"):
            return Unexplained("claim-moved", f"flag {n} was won by {want} but its tile lies "
                                              f"on the {got} side",
                               {"flag": n, "winner": want, "side": got})
    added = [c for c in where_o if c not in where_c]
    removed = [c for c in where_c if c not in where_o]
    moved = [c for c in where_o if c in where_c and _moved(c, where_c[c], where_o[c])]
    if removed:
        c = removed[0]
        return Unexplained("card-taken-back",
                           f"{c} was taken away from {where_c[c]}; cards never leave the "
                           "table: put it back", {"card": c, "place": where_c[c]})
    guile = [c for c in added if c.family == "guile"]
    if len(guile) > 1:
        return Unexplained("two-cards", f"two guile cards appeared ({guile[0]}, {guile[1]}); "
                                        "a turn plays one card",
                           {"card": guile[0], "other_card": guile[1], "case": "guile"})
    changed = frozenset(added) | frozenset(moved)
    actions: list[Action] = []
    if guile:
        g = guile[0]
        loc = where_o[g]
        if loc.flag != 0:
            return Unexplained("guile-at-flag", f"{g} is a guile card: lay it beside the line, "
                                                f"not at flag {loc.flag}",
                               {"card": g, "flag": loc.flag})
        p = loc.side
        extra = [c for c in added if c != g]
        if extra:
            return Unexplained("two-cards", f"{g} and {extra[0]} appeared together; a turn "
                                            "plays one card",
                               {"card": g, "other_card": extra[0], "case": "with"})
        if g == SCOUT:
            if moved:
                c = moved[0]
                return Unexplained("card-moved", f"{c} moved from {where_c[c]} to {where_o[c]}; "
                                                 "Scout changes nothing on the line",
                                   {"card": c, "src": where_c[c], "dst": where_o[c],
                                    "case": "scout"})
            actions.append(Scout(p))
        else:
            if not moved:
                effect = {REDEPLOY: "move one of your cards to another flag or discard it",
                          DESERTER: "discard one of your opponent's cards",
                          TRAITOR: "move one of your opponent's Troops to your side"}[g]
                return Waiting(g, p, f"{p} played {g}: now {effect}")
            if len(moved) > 1:
                return Unexplained("two-moves", f"{g} moves one card, but {moved[0]} and "
                                                f"{moved[1]} both moved",
                                   {"card": g, "first": moved[0], "second": moved[1]})
            c = moved[0]
            a, b = where_c[c], where_o[c]
            if a.offline:
                return Unexplained("card-moved", f"{c} came back from off the line to {b}",
                                   {"card": c, "dst": b, "case": "back"})
            if g == REDEPLOY:
                if b.flag != 0 and b.side != a.side:
                    return Unexplained("card-moved", f"Redeploy keeps a card on its owner's "
                                                     f"side, but {c} went from {a} to {b}",
                                       {"card": c, "src": a, "dst": b,
                                        "case": "redeploy"})
                actions.append(Redeploy(p, c, a.flag, b.flag or None))
            elif g == DESERTER:
                if b.flag != 0:
                    return Unexplained("card-moved", f"Deserter discards a card beside the "
                                                     f"line, but {c} went from {a} to {b}",
                                       {"card": c, "src": a, "dst": b,
                                        "case": "deserter"})
                actions.append(Deserter(p, c, a.flag))
            else:
                if b.offline:
                    return Unexplained("card-moved", f"Traitor puts the card on your side of "
                                                     f"a flag, but {c} went beside the line",
                                       {"card": c, "case": "traitor-offline"})
                if b.side != p or a.side != other(p):
                    return Unexplained("card-moved", f"Traitor takes an opponent's card to "
                                                     f"one's own side, but {c} went from {a} "
                                                     f"to {b}",
                                       {"card": c, "src": a, "dst": b,
                                        "case": "traitor-side"})
                actions.append(Traitor(p, c, a.flag, b.flag))
    else:
        if moved:
            c = moved[0]
            return Unexplained("card-moved", f"{c} moved from {where_c[c]} to {where_o[c]} "
                                             "without a guile card",
                               {"card": c, "src": where_c[c], "dst": where_o[c]})
        if len(added) > 1:
            listed = ", ".join(f"{c} at {where_o[c]}" for c in added[:3])
            return Unexplained("two-cards", f"{len(added)} new cards ({listed}); a turn plays "
                                            "one card",
                               {"count": len(added),
                                "cards": tuple(Part("part.card-at",
                                                    {"card": c, "place": where_o[c]})
                                               for c in added[:3])})
        if added:
            c = added[0]
            loc = where_o[c]
            if loc.offline:
                return Unexplained("card-discarded",
                                   f"{c} appeared beside the line ({loc.side}) without a guile "
                                   "card that discards it", {"card": c, "side": loc.side})
            actions.append(Play(loc.side, c, loc.flag))
    return Explained(tuple(actions), tuple(claims), changed)
