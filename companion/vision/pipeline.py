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
from dataclasses import dataclass, replace

import numpy as np

from companion.rules.cards import Card
from companion.rules.place import OFFLINE, Place
from companion.rules.position import FLAG_COUNT, SIDES, Side

from . import geometry
from . import workers as zone_workers
from . import zones as zone_steps
from .capture import check_frame
from .config import load_config
from .deck import Deck
from .glare import blind as glare_blind
from .glare import glare_flags, strong_cast, tiles_white
from .layout import Layout, LayoutTracker, hand_flags
from .observation import Doubt, FlagObservation, Observation
from .reading import (CardRead, colour_unsure, face_class, faint_band, is_card, lone_faint,
                      lone_last, looks_agree_without, looks_disagree, recolour)
from .scale import ScaleNormaliser
from .softness import measure_tiles, template_softness
from .workers import WorkerError, ZoneWorkers
from .zones import StripMaps, Zone

log = logging.getLogger(__name__)

# Why a read is a doubt (`Doubt.why`), in the order `TableReader._settle` asks:
DOUBT_REASONS = (
    "taken",       # its best card is held elsewhere, and its next is no near second
    "margin",      # its best leads the runner-up by less than `doubt_margin`
    "weak",        # its score is weak (`doubt_floor`, `doubt_min_score`)
    "pair",        # the printing's enrolment found this pair alike in the band (its face
                   # names neither)
    "looks",       # the cells and the band network do not both name it
    "colour",      # its colour lies too near another colour of its value
    "faint",       # the band network puts it only faintly near its class (a column's last
                   # read far below the card before it: less near than cards are, `lone_last`)
    "contested",   # (asked once every read has its card) another read names this card first,
                   # about as surely, and has no near second to take instead: one of the two
                   # is wrong, and the frame cannot say which
)


@dataclass(slots=True)
class _Slot:
    place: Place
    index: int
    read: CardRead
    card: Card | None = None
    doubt: Doubt | None = None


@dataclass(frozen=True, slots=True)
class TilesInFrame:
    """A frame's layout in the pixels of the frame as it was given (a frame of another size
    is read at the rig's scale: `fx`, `fy` map the read frame's pixels back)."""

    layout: Layout
    fx: float = 1.0
    fy: float = 1.0

    def sightings(self) -> tuple[tuple[int, tuple[float, float], tuple[float, float], float],
                                 ...]:
        """(flag, centre, up, px per mm) of each tile seen: what the calibration picture draws."""
        out = []
        for flag, (x, y), (ux, uy), ppm in self.layout.sightings():
            vx, vy = ux * self.fx, uy * self.fy
            norm = max(1e-9, (vx * vx + vy * vy) ** 0.5)
            out.append((flag, (x * self.fx, y * self.fy), (vx / norm, vy / norm),
                        ppm * (self.fx * self.fy) ** 0.5))
        return tuple(out)


class TableReader:
    """Reads frames of one table with one enrolled deck; keeps following the tiles."""

    def __init__(self, deck: Deck, allow_missing_tiles: bool = False,
                 workers: int | None = None, reader_share: float | None = None) -> None:
        """`allow_missing_tiles`: a first frame may lack some tiles (they read `missing`);
        by default the first frame must show all nine, as at the start of a game.
        `workers`: worker processes that read zones beside this one (default: the
        configuration's `pipeline.workers`; 0: none).  `reader_share`: this process's share
        of the zones against each worker's (default `pipeline.reader_share`; 0: the workers
        read every zone while this process follows the tiles)."""
        self.deck = deck
        self.templates = deck.templates
        self.softness = 0.0      # the sigma the templates are softened by (`read`)
        self.tracker = LayoutTracker(allow_missing_tiles)
        self.layout: TilesInFrame | None = None   # the tiles as the last frame placed them
        # The last frame's reads kept as cards: (place, index in its column, the read).
        self.last_reads: list[tuple[Place, int, CardRead]] = []
        self._scale = ScaleNormaliser()  # frames of another size: read at the rig's scale
        self.settings = self.templates.settings()
        self._strip_maps = StripMaps()
        # A zone that looks as it did when last read is not read again (`ZoneMemory`);
        # `remember` False reads every zone (a benchmark of the whole read).
        self._memory = zone_steps.ZoneMemory()
        self.remember = True
        self._spot_seen = True   # the last frame's margins showed a glare spot's light
        cfg = load_config()["pipeline"]
        threads = int(cfg["threads"])
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="zones") \
            if threads > 1 else None
        count = int(cfg.get("workers", 0)) if workers is None else int(workers)
        self._reader_share = float(cfg.get("reader_share", 1.0)) if reader_share is None \
            else max(0.0, float(reader_share))
        self._workers: ZoneWorkers | None = None
        if count > 0:
            try:
                self._workers = zone_workers.shared(count, float(cfg.get("worker_timeout_s",
                                                                         5.0)))
            except (OSError, ValueError) as exc:
                log.warning("zone workers could not start (%s): zones are read in this "
                            "process", exc)

    def reset(self) -> None:
        """Forget the table's layout (the next frame is decoded from scratch)."""
        self.tracker.reset()
        self.layout = None
        self._scale.reset()
        self._memory.forget()

    def close(self) -> None:
        """Stop the zone-reading threads and leave the worker processes (the last reader to
        leave them stops them); safe twice, and a reader also works without it."""
        if getattr(self, "_pool", None) is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
        workers, self._workers = getattr(self, "_workers", None), None
        if workers is not None:
            workers.release()

    def __enter__(self) -> TableReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit anything may be gone
            pass

    # -- zones ------------------------------------------------------------------------------
    def _zone_list(self, layout: Layout) -> tuple[list[Place], list[Zone], set[int]]:
        """The 22 zones of a frame (each flag's two sides, then both ends of each off-line
        area) and the flags whose tiles are covered."""
        cfg = load_config()["layout"]
        s = self.settings
        half = float(cfg["zone_half_width_mm"])
        refs = layout.references()
        inks = layout.ink_references()
        obstructed: set[int] = set()
        places: list[Place] = []
        zones: list[Zone] = []

        def add(place: Place, origin: tuple[float, float], side: Side, near: float,
                far: float, flag: int, key: str, limit: float | None,
                tile_edge: float | None = None, tile_shown: bool = False) -> None:
            hm = layout.strip_homography(origin, side, -half, near, 2 * half, far - near,
                                         s.px_per_mm)
            white, black = refs[flag - 1]
            places.append(place)
            zones.append(Zone(key, side, not place.offline, hm,
                              (s.px(2 * half), s.px(far - near)), white, black, limit,
                              tile_edge, tile_shown, None if inks is None else inks[flag - 1]))

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
                # The zone starts inside the tile's place on the line (its part is hidden).
                add(Place(t.flag, side), t.anchor, side, near, far,
                    t.flag, f"{t.flag}{side}", limit, geometry.TILE_H / 2 - near,
                    t.state == "line" and t.seen)
        # Off-line areas: beyond flag 1 (west) and flag 9 (east), on each player's side.
        centre = float(cfg["offline_centre_mm"])
        near, far = float(cfg["offline_near_mm"]), float(cfg["offline_far_mm"])
        for side in SIDES:
            for flag, sign in ((1, -1.0), (FLAG_COUNT, 1.0)):
                anchor = layout.point(layout.tile(flag).anchor, sign * centre, 0.0)
                add(Place(OFFLINE, side), anchor, side, near, far, flag,
                    f"off{flag}{side}", None)
        return places, zones, obstructed

    def _read_zones(self, frame: np.ndarray, zones: list[Zone], layout: Layout
                    ) -> tuple[list[list[CardRead]], _OverTable]:
        """Every zone's reads, and what lies over the flags (`_over_table`): shared with the
        worker processes when there are any, else in this process."""
        pool = self._workers
        if pool is not None and pool.closed:
            self._workers = pool = None
        # Another reader (thread) using the workers, or an odd frame size: read it here.
        if pool is not None and pool.fits(frame) and pool.lock.acquire(blocking=False):
            try:
                return self._read_shared(pool, frame, zones, layout)
            except WorkerError as exc:
                log.warning("zone workers stopped (%s): zones are read in this process from "
                            "now on", exc)
                pool.close()
                self._workers = None
            except BaseException:
                pool.close()            # its workers may be half-way through this frame
                self._workers = None
                raise
            finally:
                pool.lock.release()
        return self._read_here(frame, zones), _over_table(frame, layout)

    def _read_shared(self, pool: ZoneWorkers, frame: np.ndarray, zones: list[Zone],
                     layout: Layout) -> tuple[list[list[CardRead]], _OverTable]:
        """The zones shared out from west to east, this process first (the same zones every
        frame, so each process keeps its zones' pixel maps, and each worker is handed only
        its stretch of the frame); this process looks over the flags (hands, glare) while the
        workers read.

        The workers cut their zones while this process cuts its own, and answer with their
        zones' margins (a few numbers per row); the table's shade from every zone's margins
        goes back to them, and they answer again with their reads.  Taking the workers'
        margins here from the frame instead costs this process more than the wait.
        """
        s = self.settings
        maps = self._strip_maps
        jobs = self._shares(zones, pool.count + 1, self._reader_share)
        h, w = frame.shape[:2]
        boxes = []
        for part in jobs[1:]:
            b = [maps.box(z.key, z.homography, z.size, (w, h)) for _, z in part]
            if b:
                boxes.append((min(x[0] for x in b), min(x[1] for x in b),
                              max(x[2] for x in b), max(x[3] for x in b)))
        pool.cut(frame, jobs[1:], self.templates, boxes)
        own = {i: zone_steps.cut(frame, z, maps, s) for i, z in jobs[0]}
        margins = {i: m for i, (_, m) in own.items()}
        margins.update(pool.margins())
        ordered = [margins[i] for i in range(len(zones))]
        refs = zone_steps.table_refs(zones, ordered)
        pool.read(refs, self.remember)
        self._spot_seen = zone_steps.spot_seen(zones, ordered, refs, s)
        reads = {i: self._memory.read(refl, m, zones[i], refs, self.templates, s,
                                      self.remember)
                 for i, (refl, m) in own.items()}
        over = _over_table(frame, layout)
        reads.update(pool.reads())
        return [reads[i] for i in range(len(zones))], over

    @staticmethod
    def _shares(zones: list[Zone], parts: int, first: float = 1.0
                ) -> list[list[tuple[int, Zone]]]:
        """The zones in `parts` runs of neighbours from west to east (by where each strip's
        middle lies in the frame), the first run `first` times as long as each other one."""
        def across(z: Zone) -> float:
            w, h = z.size
            p = z.homography @ np.array([w / 2, h / 2, 1.0])
            return float(p[0] / p[2])

        order = sorted(range(len(zones)), key=lambda i: across(zones[i]))
        total = first + parts - 1
        cuts = [0] + [round(len(order) * (first + p - 1) / total) for p in range(1, parts + 1)]
        return [[(i, zones[i]) for i in sorted(order[cuts[p]:cuts[p + 1]])]
                for p in range(parts)]

    def _read_here(self, frame: np.ndarray, zones: list[Zone]) -> list[list[CardRead]]:
        """Every zone's reads, in this process (on the zone threads, if any)."""
        s = self.settings

        def mapped(fn: Callable, items: list) -> list:
            return list(self._pool.map(fn, items)) if self._pool else [fn(x) for x in items]

        cuts = mapped(lambda z: zone_steps.cut(frame, z, self._strip_maps, s), zones)
        refs = zone_steps.table_refs(zones, [m for _, m in cuts])
        self._spot_seen = zone_steps.spot_seen(zones, [m for _, m in cuts], refs, s)
        # Zones are independent and OpenCV and numpy release the interpreter lock: on the
        # Pi's four cores (or any two) the zones are read side by side.
        return mapped(lambda i: self._memory.read(cuts[i][0], cuts[i][1], zones[i], refs,
                                                  self.templates, s, self.remember),
                      list(range(len(zones))))

    def _zones(self, frame: np.ndarray, layout: Layout
               ) -> tuple[list[tuple[Place, list[CardRead]]], list[int], tuple[int, ...]]:
        """Each place's reads, the flags obstructed (tiles or zones under a hand), the flags
        under glare."""
        places, zones, obstructed = self._zone_list(layout)
        results, (hands, glare) = self._read_zones(frame, zones, layout)
        out: list[tuple[Place, list[CardRead]]] = []
        merged: dict[Place, int] = {}
        for place, reads in zip(places, results):
            if place in merged:                          # the second end of an off-line area
                out[merged[place]][1].extend(reads)
            else:
                merged[place] = len(out)
                out.append((place, list(reads)))
        obstructed.update(hands)
        return out, sorted(obstructed), glare

    # -- the whole table ----------------------------------------------------------------------
    def _settle(self, slots: list[_Slot], glare: tuple[int, ...] = (), blind: bool = False,
                cast: bool = False) -> None:
        """Give each read a card, each card to one read at most; flag the unsure ones
        (`glare`: the flags under glare, whose colours are judged more strictly; `blind`: a
        frame that cannot tell glare from paper, `glare.blind`, every flag's so; `cast`: a
        light too far from the camera's white balance to show colours, `glare.strong_cast`,
        where every Troop's colour is a doubt)."""
        s, tpl = self.settings, self.templates
        taken: dict[Card, _Slot] = {}
        contested: list[_Slot] = []    # reads that kept a card another read names as surely

        def margin(r: CardRead) -> float:
            c = r.candidates
            return c[0][1] - c[1][1] if len(c) > 1 else 1.0

        # Each column's last read, and the read before it in its column (`lone_last`).
        before_last: dict[int, CardRead | None] = {}
        for i, sl in enumerate(slots):
            if not sl.place.offline and (i + 1 == len(slots) or slots[i + 1].place != sl.place):
                prev = slots[i - 1] if i > 0 and slots[i - 1].place == sl.place else None
                before_last[id(sl)] = prev.read if prev is not None else None
        for slot in sorted(slots, key=lambda sl: -margin(sl.read)):
            cands = [c for c in slot.read.candidates if c[0] not in taken]
            fell_back = bool(cands) and cands[0][0] != slot.read.best
            if not cands:
                cands = list(slot.read.candidates)
                fell_back = True
            best, score = cands[0]
            ahead = [(c, sc) for c, sc in slot.read.candidates if sc > score]
            held: list[Card] = []
            if fell_back and all(taken[c].doubt is None for c, _ in ahead) and (
                    score >= slot.read.score - s.fallback_drop or all(
                        _score_of(taken[c].read, c) - sc > s.contest_gap for c, sc in ahead)):
                # The read's first choices are held for sure elsewhere: each card exists
                # once, so the next one is this card (a 6 told from an 8 by the 6 lying at
                # another flag), not a doubt, if the two looks name it among the cards
                # left. Either the first is barely ahead of it, or each read holding one
                # fits that card clearly better than this read does (else which of the two
                # is that card is not known: `contested`, below).
                fell_back = False
                held = [c for c, _ in ahead]
            second = cands[1] if len(cands) > 1 else None
            m = score - second[1] if second else 1.0
            slot.card = best
            taken.setdefault(best, slot)
            # A fair score (light or wear) with a clear lead is no doubt: the wrong reads
            # among fair scores lead their runner-up narrowly.
            weak = score < s.doubt_floor or (score < s.doubt_min_score
                                              and m < s.doubt_low_margin)
            # A pair the enrolment found alike in the band (`Templates.alike`, from
            # `Deck.pairs`) is a doubt, unless what shows of the card's face names its class
            # (`face_class`): the band cannot tell a 6 from an 8 whose tops are alike, their
            # faces further down can.
            j = tpl.cards.index(best)
            pair = second is not None and (j, tpl.cards.index(second[0])) in tpl.alike and \
                face_class(slot.read, tpl, s) != tpl.class_of[j]
            # The cells and the band network, made apart, do not both name this card's
            # value (or mark): a doubt. A card taken because the read's first is held for
            # sure elsewhere is judged among the cards left (`held`); one taken because its
            # first is held in doubt is a doubt already (`fell_back`).
            unsure = not fell_back and looks_disagree(slot.read, best, tpl, s, held,
                                                        settle_behind=True)
            why = tuple(name for name, hit in zip(DOUBT_REASONS[:-1], (
                fell_back, m < s.doubt_margin, weak, pair, unsure,
                cast and best.is_troop
                or colour_unsure(slot.read, s, blind or slot.place.flag in glare),
                faint_band(slot.read, s)
                or (id(slot) in before_last
                    and lone_last(slot.read, before_last[id(slot)], s))), strict=True) if hit)
            if fell_back and slot.read.best in taken:
                keeper = taken[slot.read.best]
                if keeper is not slot and \
                        slot.read.score >= _score_of(keeper.read, slot.read.best) - s.contest_gap:
                    contested.append(keeper)
            if why:
                conf = float(np.clip(m / (2 * s.doubt_margin), 0.0, 1.0))
                if fell_back:
                    conf = min(conf, 0.25)
                slot.doubt = Doubt(slot.place, best, second[0] if second else None, conf,
                                   slot.index, why)
        # The read that kept a card another read names as surely (a narrow 6 read as the 9
        # whose own read, under a spot, names it too) is no surer than that one: both doubts.
        for keeper in contested:
            _add_doubt(keeper, "contested")
        # A colour the frame could not tell from another's is no doubt where every card the
        # read could be instead (its value in those colours, `CardRead.colour_rivals`) is
        # read for sure elsewhere: each card exists once (a yellow 5 told from an orange one
        # by the orange 5 at another flag). Not where the frame's colours were not measured
        # (greyscale: a Troop may then be read as a Tactics card too), nor under glare, seen
        # or not (`blind`): a spot moves a colour further than between two (a red 7 read
        # orange, its colour nearer purple than red). Judged on the reads sure before any is
        # cleared this way.
        # Likewise a read whose two looks disagree only because one of them holds it to be
        # another value, whose card in the read's colour is read for sure elsewhere (a red 6
        # the network finds nearer an 8, the red 8 at another flag): `looks_agree_without`.
        # Its colour must be sure, as for the colour above.
        sure = {sl.card for sl in slots if sl.doubt is None}
        for slot in slots:
            d, rivals = slot.doubt, slot.read.colour_rivals
            if d is None or blind or cast or slot.place.flag in glare or \
                    slot.card != slot.read.best:
                continue
            if d.why == ("colour",) and rivals and all(c in sure for c in rivals) or \
                    d.why == ("looks",) and looks_agree_without(slot.read, slot.card, tpl, s,
                                                                 sure):
                slot.doubt = None

    def read(self, frame: np.ndarray) -> Observation:
        """The observation of one overhead BGR frame (uint8, H x W x 3)."""
        given = check_frame(frame)
        frame = self._scale(given)
        layout = self.tracker.update(frame)
        self.layout = TilesInFrame(layout, given.shape[1] / frame.shape[1],
                                   given.shape[0] / frame.shape[0])
        # Templates as soft as this frame, measured on its tiles (`softness`), and the tiles'
        # black where their drawing is black (the ink of shapes is measured on it).
        measured = measure_tiles(frame, layout, self.settings.px_per_mm)
        self.softness = template_softness(measured.softness, self.softness)
        self.templates = self.deck.templates_at(self.softness)
        zones, obstructed, glare = self._zones(frame, layout.with_ink_blacks(measured.blacks))
        every = [r for _, reads in zones for r in reads]
        redone = iter(recolour(every, self.templates))
        zones = [(place, [next(redone) for _ in reads]) for place, reads in zones]
        slots: list[_Slot] = []
        for place, reads in zones:
            cards = []
            for r in reads:
                if is_card(r, self.settings, self.templates):
                    cards.append(r)
                else:
                    log.info("%s: something that is no Battle Line card (best %s, %.2f)",
                             place, r.best, r.score)
            # A column's last read far inside the body of the card before it that the band
            # network puts only faintly near its class is that card's picture (`lone_faint`).
            if not place.offline and len(cards) > 1 and \
                    lone_faint(cards[-1], cards[-2], self.settings):
                log.info("%s: a picture's edge inside the last card (best %s, %.2f)",
                         place, cards[-1].best, cards[-1].score)
                cards = cards[:-1]
            for index, r in enumerate(cards):
                slots.append(_Slot(place, index, r))
        # A frame that cannot tell glare from paper judges every colour as under glare,
        # unless no spot shows anywhere: on the table between the columns (`glare`) or on
        # any strip's margins (`zones.spot_seen`).
        cast = strong_cast(tiles_white(layout), self.settings.cast_ratio_min)
        self._settle(slots, glare, glare_blind(layout) and (bool(glare) or self._spot_seen),
                     cast)
        self.last_reads = [(sl.place, sl.index, sl.read) for sl in slots]
        lists: dict[Place, list[Card]] = {}
        for sl in slots:
            assert sl.card is not None
            lists.setdefault(sl.place, []).append(sl.card)
        flags = tuple(FlagObservation(
            t.flag, t.state, tuple(lists.get(Place(t.flag, "north"), ())),
            tuple(lists.get(Place(t.flag, "south"), ()))) for t in layout.tiles)
        doubts = tuple(sl.doubt for sl in slots if sl.doubt is not None)
        return Observation(flags, tuple(lists.get(Place(OFFLINE, "north"), ())),
                           tuple(lists.get(Place(OFFLINE, "south"), ())), doubts,
                           tuple(obstructed), glare=glare, cast=cast)


_OverTable = tuple[tuple[int, ...], tuple[int, ...]]
"""The flags under hands (`layout.hand_flags`) and under glare (`glare.glare_flags`)."""


def _score_of(r: CardRead, card: Card) -> float:
    """The read's score for `card` (-1 where it is none of its candidates)."""
    return next((sc for c, sc in r.candidates if c == card), -1.0)


def _add_doubt(slot: _Slot, reason: str) -> None:
    """Make the slot's card a doubt for `reason` too (its other reasons kept, in order)."""
    d = slot.doubt
    if d is None:
        second = next((c for c, _ in slot.read.candidates if c != slot.card), None)
        assert slot.card is not None
        slot.doubt = Doubt(slot.place, slot.card, second, 0.25, slot.index, (reason,))
    elif reason not in d.why:
        why = tuple(r for r in DOUBT_REASONS if r in d.why or r == reason)
        slot.doubt = replace(d, score=min(d.score, 0.25), why=why)


def _over_table(frame: np.ndarray, layout: Layout) -> _OverTable:
    return hand_flags(frame, layout), glare_flags(frame, layout)


def read_image(path: str, deck: Deck, allow_missing_tiles: bool = False) -> Observation:
    """The observation of one image file (`companion scan`)."""
    from .cvcompat import imread
    return TableReader(deck, allow_missing_tiles).read(imread(path))


__all__ = ["DOUBT_REASONS", "TableReader", "TilesInFrame", "read_image"]
