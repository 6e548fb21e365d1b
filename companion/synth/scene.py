"""What lies on the synthetic table: the `Scene` value and its ground-truth `Observation`.

Table coordinates are millimetres from the nominal centre of flag 5's tile: x grows east (to
the south player's right), y grows south, as in `geometry.py`.  North's off-line area lies
beyond flag 9 (east) on the north side, south's beyond flag 1 (west) on the south side; each
off-line column starts next to the line and grows towards its player, oldest card first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.rules.cards import BY_CODE, Card
from companion.rules.place import OFFLINE, Place
from companion.rules.position import FLAG_COUNT, SIDES, Side
from companion.vision.geometry import CARD_H, CARD_W, FLAG_PITCH, ZONE_DEPTH
from companion.vision.observation import TILE_STATES, FlagObservation, Observation
from companion.synth.errors import SynthError

MAX_COLUMN = 8          # cards in one column the table can hold (6 is the most the rules give)


def _card(item: Card | str) -> Card:
    if isinstance(item, Card):
        return item
    card = BY_CODE.get(str(item).strip().upper())
    if card is None:
        raise SynthError(f"{item!r} is not a card code")
    return card


def _cards(items: Iterable[Card | str]) -> tuple[Card, ...]:
    if isinstance(items, (str, Card)):
        raise SynthError(f"a list of cards was expected, not the single card {items!r}")
    return tuple(_card(c) for c in items)


# One flag of a scene is exactly what the camera should read there: its tile's state and each
# side's cards in placement order (nearest first).
FlagScene = FlagObservation


@dataclass(frozen=True, slots=True)
class Hand:
    """An arm reaching over the table from `side`'s edge, its fingertips at (x_mm, y_mm).

    `angle_deg` tilts the arm from straight across the table; `width_mm` is the hand's width.
    `card`, if any, is held under the fingers, about to be laid: it is above the table, not
    on it, so it is never part of the ground truth.
    """

    side: Side
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    width_mm: float = 85.0
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.card is not None and not isinstance(self.card, Card):
            object.__setattr__(self, "card", _card(self.card))
        if self.side not in SIDES:
            raise SynthError(f"hand side {self.side!r} is not 'north' or 'south'")
        if not 40.0 <= self.width_mm <= 160.0:
            raise SynthError(f"hand width {self.width_mm} mm is not 40-160 mm")
        if abs(self.angle_deg) > 60:
            raise SynthError(f"hand angle {self.angle_deg} deg is not within +-60 deg")

    def parts_mm(self, edge_y: float = 400.0) -> list[np.ndarray]:
        """The arm as convex pieces in table mm (float32, N x 2 each): forearm, palm, fingers.

        A right hand, palm down: the middle fingertip at (x_mm, y_mm), the forearm running to
        beyond the player's edge of the table (`edge_y` mm from the line).
        """
        sign = -1.0 if self.side == "north" else 1.0
        a = np.deg2rad(self.angle_deg)
        d = np.array([np.sin(a), sign * np.cos(a)])             # from the fingertips to the body
        n = np.array([d[1], -d[0]])
        tip = np.array([self.x_mm, self.y_mm])
        w = self.width_mm
        finger = 0.72 * w
        front = tip + d * finger                                # knuckles
        back = front + d * 0.85 * w                             # wrist
        length = max(0.0, (sign * edge_y - back[1]) / d[1])

        def capsule(base: np.ndarray, direction: np.ndarray, long: float, wide: float
                    ) -> np.ndarray:
            across = np.array([direction[1], -direction[0]])
            end = base + direction * (long - wide / 2)
            pts = [base + across * wide / 2]
            pts += [end + wide / 2 * (np.cos(t) * across + np.sin(t) * direction)
                    for t in np.linspace(0, np.pi, 7)]
            pts.append(base - across * wide / 2)
            return np.array(pts, np.float32)

        def turn(v: np.ndarray, deg: float) -> np.ndarray:
            c, s = np.cos(np.deg2rad(deg)), np.sin(np.deg2rad(deg))
            return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])

        palm = np.array([front + n * 0.46 * w, front + n * 0.5 * w - d * 0.05 * w,
                         front - n * 0.5 * w - d * 0.05 * w, front - n * 0.46 * w,
                         back - n * 0.42 * w, back + n * 0.42 * w], np.float32)
        arm = np.array([back + n * 0.42 * w, back - n * 0.42 * w,
                        back + d * length - n * 0.48 * w, back + d * length + n * 0.48 * w],
                       np.float32)
        parts = [arm, palm]
        for off, long, spread in ((0.34, 0.78, 7.0), (0.11, 1.0, 2.0), (-0.12, 0.95, -2.0),
                                  (-0.34, 0.72, -7.0)):
            parts.append(capsule(front + n * off * w + d * 0.1 * w, turn(-d, spread),
                                 long * finger + 0.1 * w, 0.21 * w))
        # The thumb, on the hand's left as its player sees it, pointing out and forward.
        thumb = -d * np.cos(0.7) - n * np.sin(0.7)             # 40 degrees out from the fingers
        parts.append(capsule(front - n * 0.42 * w + d * 0.55 * w, thumb, 0.62 * finger, 0.25 * w))
        return parts

    def held_card_mm(self) -> tuple[float, float, float]:
        """Where the held card lies: centre (x, y) in table mm and its turn in degrees.

        Upright for its owner, its top edge a little beyond the fingertips, under the fingers.
        """
        sign = -1.0 if self.side == "north" else 1.0
        a = np.deg2rad(self.angle_deg)
        d = np.array([np.sin(a), sign * np.cos(a)])
        centre = np.array([self.x_mm, self.y_mm]) + d * (CARD_H / 2 - 18.0)
        # Turned with the arm (positive: anticlockwise on screen, as OpenCV turns images).
        turn = 180.0 - self.angle_deg if self.side == "north" else self.angle_deg
        return float(centre[0]), float(centre[1]), turn

    def outline_mm(self, edge_y: float = 400.0) -> np.ndarray:
        """The convex hull of the arm in table mm (float32, N x 2): what it may hide."""
        import cv2   # only here: the rest of the scene is plain data
        pts = np.concatenate(self.parts_mm(edge_y))
        return cv2.convexHull(pts).reshape(-1, 2).astype(np.float32)


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything on the table: nine flags, the off-line cards per side, an optional hand.

    `table_seed` fixes the table's look and how each card lies (its small rotation and
    offset); `None` lets the render seed choose.  Set it to keep one table steady over the
    frames of a match, so that frames differ only where the game changed.
    """

    flags: tuple[FlagScene, ...] = field(
        default_factory=lambda: tuple(FlagScene(n) for n in range(1, FLAG_COUNT + 1)))
    offline_north: tuple[Card, ...] = ()
    offline_south: tuple[Card, ...] = ()
    hand: Hand | None = None
    table_seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.flags) != FLAG_COUNT:
            raise SynthError(f"a scene needs {FLAG_COUNT} flags, not {len(self.flags)}")
        seen: set[Card] = set()
        for n, f in enumerate(self.flags, start=1):
            if f.flag != n:
                raise SynthError(f"flag entry {n} is numbered {f.flag}")
            if f.tile not in TILE_STATES:
                raise SynthError(f"flag {n}: unknown tile state {f.tile!r}")
            for side in SIDES:
                if len(f.side(side)) > MAX_COLUMN:
                    raise SynthError(f"flag {n} {side}: {len(f.side(side))} cards, the table "
                                     f"holds at most {MAX_COLUMN} in a column")
        for where, cards in self._lists():
            for card in cards:
                if card in seen:
                    raise SynthError(f"{card} appears twice in the scene (again at {where})")
                seen.add(card)
        if self.hand is not None and self.hand.card in seen:
            raise SynthError(f"{self.hand.card} is held in the hand and also on the table")
        for side in SIDES:
            if len(self.offline(side)) > 12:
                raise SynthError(f"offline {side}: {len(self.offline(side))} cards, the table "
                                 "holds at most 12 there")

    def _lists(self) -> list[tuple[Place, tuple[Card, ...]]]:
        out = [(Place(f.flag, side), f.side(side)) for f in self.flags for side in SIDES]
        return out + [(Place(OFFLINE, side), self.offline(side)) for side in SIDES]

    def offline(self, side: Side) -> tuple[Card, ...]:
        return self.offline_north if side == "north" else self.offline_south

    def flag(self, number: int) -> FlagScene:
        return self.flags[number - 1]

    @classmethod
    def from_layout(cls, flags: Sequence[tuple[str, Iterable[Card | str], Iterable[Card | str]]],
                    offline_north: Iterable[Card | str] = (),
                    offline_south: Iterable[Card | str] = (), hand: Hand | None = None,
                    table_seed: int | None = None) -> Scene:
        """A scene from nine `(tile, north_cards, south_cards)` triples, flag 1 first.

        Cards are `Card` values or codes; lists are in placement order, nearest the flag first,
        with FOG/MUD where they were laid.
        """
        if len(flags) != FLAG_COUNT:
            raise SynthError(f"from_layout needs {FLAG_COUNT} flag triples, not {len(flags)}")
        built = []
        for n, item in enumerate(flags, start=1):
            try:
                tile, north, south = item
            except (TypeError, ValueError):
                raise SynthError(f"flag {n}: expected (tile, north_cards, south_cards), "
                                 f"got {item!r}") from None
            if tile not in TILE_STATES:
                raise SynthError(f"flag {n}: unknown tile state {tile!r}")
            built.append(FlagScene(n, tile, _cards(north), _cards(south)))  # type: ignore[arg-type]
        return cls(tuple(built), _cards(offline_north), _cards(offline_south), hand, table_seed)

    def observation(self) -> Observation:
        """The ground truth this scene should read as (contract 2).

        `obstructed` lists the flags whose zones the hand covers in part.
        """
        return Observation(
            flags=self.flags,
            offline_north=self.offline_north, offline_south=self.offline_south,
            obstructed=self.obstructed_flags())

    def obstructed_flags(self) -> tuple[int, ...]:
        if self.hand is None:
            return ()
        import cv2   # only here: the rest of the scene is plain data
        hull = self.hand.outline_mm()
        out = []
        for n in range(1, FLAG_COUNT + 1):
            cx = (n - 5) * FLAG_PITCH
            zone = np.array([[cx - CARD_W / 2 - 5, -ZONE_DEPTH], [cx + CARD_W / 2 + 5, -ZONE_DEPTH],
                             [cx + CARD_W / 2 + 5, ZONE_DEPTH], [cx - CARD_W / 2 - 5, ZONE_DEPTH]],
                            np.float32)
            area, _ = cv2.intersectConvexConvex(hull, zone)
            if area > 1.0:
                out.append(n)
        return tuple(out)


__all__ = ["FlagScene", "Hand", "MAX_COLUMN", "Scene"]
