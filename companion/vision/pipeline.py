"""From an overhead BGR frame to an `Observation`: the camera pipeline's one public stage.

`TableReader(deck).read(frame)` follows the flag tiles (`layout`), rectifies each flag's two
zones and the off-line areas into small upright strips, finds and names the cards in each
(`reading`), then settles the whole table at once: each of the 70 cards exists once, so when
two places read the same card the less sure one takes its next candidate and is flagged
doubtful.  A read that is not clearly ahead of its runner-up is listed in `doubtful`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.cards import Card
from companion.rules.position import FLAG_COUNT, SIDES, Side

from . import geometry
from .capture import check_frame
from .config import load_config
from .deck import Deck
from .layout import Layout, LayoutTracker, hand_flags
from .observation import Doubt, FlagObservation, Observation
from .reading import (CardRead, ReadingSettings, is_card, read_strip, recolour, reflectance,
                      table_colour,
                      table_margins)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a list of cards is read: a flag's side, or an off-line area."""

    where: str               # "flag 4 south", "offline north"
    flag: int | None
    side: Side


@dataclass(slots=True)
class _Slot:
    place: _Place
    index: int
    read: CardRead
    card: Card | None = None
    doubt: Doubt | None = None


class TableReader:
    """Reads frames of one table with one enrolled deck; keeps following the tiles."""

    def __init__(self, deck: Deck, allow_missing_tiles: bool = False) -> None:
        """`allow_missing_tiles`: a first frame may lack some tiles (they read `missing`);
        by default the first frame must show all nine, as at the start of a game."""
        self.deck = deck
        self.templates = deck.templates
        self.tracker = LayoutTracker(allow_missing_tiles)
        self.settings = ReadingSettings.load()
        self._remaps: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        workers = int(load_config()["pipeline"]["threads"])
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="zones") \
            if workers > 1 else None

    def reset(self) -> None:
        """Forget the table's layout (the next frame is decoded from scratch)."""
        self.tracker.reset()

    def close(self) -> None:
        """Stop the zone-reading threads (safe twice; a reader also works without it)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def __enter__(self) -> TableReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False)

    # -- zones ------------------------------------------------------------------------------
    def _maps(self, key: str, hm: np.ndarray, size: tuple[int, int]
              ) -> tuple[np.ndarray, np.ndarray]:
        """Pixel maps for a strip, kept while the layout stays put (the usual case): a remap
        with ready maps costs a fraction of a perspective warp."""
        cached = self._remaps.get(key)
        w, h = size
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ hm.T
        corners = corners[:, :2] / corners[:, 2:]
        if cached is not None and cached[0].shape == corners.shape and \
                float(np.abs(cached[0] - corners).max()) < 0.25:
            return cached[1], cached[2]
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        pts = cv2.perspectiveTransform(np.dstack([xs, ys]).reshape(-1, 1, 2), hm)
        mx = pts[:, 0, 0].reshape(h, w).astype(np.float32)
        my = pts[:, 0, 1].reshape(h, w).astype(np.float32)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        self._remaps[key] = (corners, m1, m2)
        return m1, m2

    def _strip(self, frame: np.ndarray, layout: Layout, origin: tuple[float, float], side: Side,
               near: float, far: float, half: float, flag: int, key: str = "",
               reference: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """A zone rectified upright and turned into reflectance with `reference` (the white
        and black of `Layout.reference(flag)`, when the caller has them already)."""
        s = self.settings
        hm = layout.strip_homography(origin, side, -half, near, 2 * half, far - near,
                                     s.px_per_mm)
        size = (s.px(2 * half), s.px(far - near))
        strip = cv2.remap(frame, *self._maps(key, hm, size), cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
        white, black = layout.reference(flag) if reference is None else reference
        return reflectance(strip, white, black)

    def _zones(self, frame: np.ndarray, layout: Layout
               ) -> tuple[list[tuple[_Place, list[CardRead]]], list[int]]:
        cfg = load_config()["layout"]
        half = float(cfg["zone_half_width_mm"])
        obstructed: set[int] = set()
        jobs: list[tuple[_Place, tuple[float, float], Side, float, float, int, str,
                         float | None]] = []
        for t in layout.tiles:
            if not t.seen and t.state != "missing":
                obstructed.add(t.flag)
            for side in SIDES:
                near, far = float(cfg["zone_near_mm"]), float(cfg["zone_far_mm"])
                limit = None
                if t.state == side and t.centre is not None:
                    off = abs((t.centre[0] - t.anchor[0]) * layout.pose.south[0]
                              + (t.centre[1] - t.anchor[1]) * layout.pose.south[1]
                              ) / layout.pose.px_per_mm
                    # The claimed tile lies behind this side's cards: where it begins.
                    limit = off - geometry.TILE_H / 2 - near
                jobs.append((_Place(f"flag {t.flag} {side}", t.flag, side), t.anchor, side,
                             near, far, t.flag, f"{t.flag}{side}", limit))
        # Off-line areas: beyond flag 1 (west) and flag 9 (east), on each player's side.
        centre = float(cfg["offline_centre_mm"])
        near, far = float(cfg["offline_near_mm"]), float(cfg["offline_far_mm"])
        for side in SIDES:
            for flag, sign in ((1, -1.0), (FLAG_COUNT, 1.0)):
                anchor = layout.point(layout.tile(flag).anchor, sign * centre, 0.0)
                jobs.append((_Place(f"offline {side}", None, side), anchor, side, near, far,
                             flag, f"off{flag}{side}", None))

        tile_refs = layout.references()

        def strip(job: tuple[_Place, tuple[float, float], Side, float, float, int, str,
                             float | None]) -> np.ndarray:
            _, origin, side, near, far, flag, key, _ = job
            return self._strip(frame, layout, origin, side, near, far, half, flag, key,
                               tile_refs[flag - 1])

        def mapped(fn: Callable, items: list) -> list:
            return list(self._pool.map(fn, items)) if self._pool else [fn(x) for x in items]

        strips = mapped(strip, jobs)
        s = self.settings
        margins = [table_margins(r, s) for r in strips]
        # The table's shade at each distance from the line, per side: the median over that
        # side's zones' margins (wood grain runs along the line; most margins are bare).
        refs: dict[str, np.ndarray] = {}
        for side in SIDES:
            stack = [m for job, pair in zip(jobs, margins) if job[0].flag is not None
                     and job[2] == side for m in pair]
            if len(stack) >= 6:
                refs[side] = np.median(np.stack(stack), axis=0).astype(np.float32)

        def run(i: int) -> list[CardRead]:
            job, refl = jobs[i], strips[i]
            place, _, side, _, _, _, _, limit = job
            ref = refs.get(side) if place.flag is not None else None
            table = table_colour(refl, s, ref, margins[i])
            return read_strip(refl, self.templates, True, table, limit, final=False)

        # Zones are independent and OpenCV and numpy release the interpreter lock: on the
        # Pi's four cores (or any two) the zones are read side by side.
        results = mapped(run, list(range(len(jobs))))
        out: list[tuple[_Place, list[CardRead]]] = []
        merged: dict[str, int] = {}
        for job, reads in zip(jobs, results):
            place = job[0]
            if place.where in merged:                    # the second end of an off-line area
                out[merged[place.where]][1].extend(reads)
            else:
                merged[place.where] = len(out)
                out.append((place, list(reads)))
        obstructed.update(hand_flags(frame, layout))
        return out, sorted(obstructed)

    # -- the whole table ----------------------------------------------------------------------
    def _settle(self, slots: list[_Slot]) -> None:
        """Give each read a card, each card to one read at most; flag the unsure ones."""
        s = self.settings
        taken: dict[Card, _Slot] = {}

        def margin(r: CardRead) -> float:
            c = r.candidates
            return c[0][1] - c[1][1] if len(c) > 1 else 1.0

        for slot in sorted(slots, key=lambda sl: -margin(sl.read)):
            cands = [c for c in slot.read.candidates if c[0] not in taken]
            fell_back = bool(cands) and cands[0][0] != slot.read.best
            if not cands:
                cands = list(slot.read.candidates)
                fell_back = True
            best, score = cands[0]
            second = cands[1] if len(cands) > 1 else None
            m = score - second[1] if second else 1.0
            slot.card = best
            taken.setdefault(best, slot)
            # A fair score (light or wear) with a clear lead is no doubt: the wrong reads
            # among fair scores lead their runner-up narrowly.
            weak = score < s.doubt_floor or (score < s.doubt_min_score
                                              and m < s.doubt_low_margin)
            if fell_back or m < s.doubt_margin or weak:
                conf = float(np.clip(m / (2 * s.doubt_margin), 0.0, 1.0))
                if fell_back:
                    conf = min(conf, 0.25)
                slot.doubt = Doubt(slot.place.where, best, second[0] if second else None, conf,
                                   slot.index)

    def read(self, frame: np.ndarray) -> Observation:
        """The observation of one overhead BGR frame (uint8, H x W x 3)."""
        frame = check_frame(frame)
        layout = self.tracker.update(frame)
        zones, obstructed = self._zones(frame, layout)
        every = [r for _, reads in zones for r in reads]
        redone = iter(recolour(every, self.templates))
        zones = [(place, [next(redone) for _ in reads]) for place, reads in zones]
        slots: list[_Slot] = []
        for place, reads in zones:
            index = 0
            for r in reads:
                if not is_card(r, self.settings):
                    log.info("%s: something that is no Battle Line card (best %s, %.2f)",
                             place.where, r.best, r.score)
                    continue
                slots.append(_Slot(place, index, r))
                index += 1
        self._settle(slots)
        lists: dict[str, list[Card]] = {}
        for sl in slots:
            assert sl.card is not None
            lists.setdefault(sl.place.where, []).append(sl.card)
        flags = tuple(FlagObservation(
            t.flag, t.state, tuple(lists.get(f"flag {t.flag} north", ())),
            tuple(lists.get(f"flag {t.flag} south", ()))) for t in layout.tiles)
        doubts = tuple(sl.doubt for sl in slots if sl.doubt is not None)
        return Observation(flags, tuple(lists.get("offline north", ())),
                           tuple(lists.get("offline south", ())), doubts, tuple(obstructed))


def read_image(path: str, deck: Deck, allow_missing_tiles: bool = False) -> Observation:
    """The observation of one image file (`companion scan`)."""
    from .cvcompat import imread
    return TableReader(deck, allow_missing_tiles).read(imread(path))


__all__ = ["TableReader", "read_image"]
