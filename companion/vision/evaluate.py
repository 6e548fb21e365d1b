"""Accuracy of the camera pipeline over labelled frames (habit 10).

A labelled folder holds `NAME.png` (or `.jpg`) frames, each with `NAME.json`, the true
`battleline-observation/1` (`companion.synth.dataset.write_dataset` writes one from the
synthetic renderer; a recorded match exports one).  `evaluate_folder(...)` reads every frame with a fresh `TableReader` and counts cards right,
wrong (and whether flagged doubtful), doubtful and missed, and tiles and claimed flags right.
Cards at flags the truth marks obstructed (a hand over them) are counted apart.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.rules.cards import Card
from companion.rules.place import OFFLINE, Place
from companion.rules.position import SIDES

from . import cvcompat
from .deck import Deck
from .errors import VisionError
from .observation import Observation, ObservationError

log = logging.getLogger(__name__)



@dataclass(slots=True)
class Score:
    """Counts over a set of frames; `add` one frame's read against its truth."""

    frames: int = 0
    cards: int = 0            # true cards in unobstructed places
    right: int = 0            # read right and not flagged
    doubtful: int = 0         # flagged doubtful (right or wrong)
    doubtful_right: int = 0   # ... whose best guess was right anyway
    wrong: int = 0            # read wrong and not flagged: the failure that matters
    missed: int = 0           # true cards not read at all
    extra: int = 0            # reads where no card lies, not flagged
    tiles: int = 0
    tiles_right: int = 0
    claimed: int = 0          # true claimed flags
    claimed_right: int = 0
    obstructed_cards: int = 0
    obstructed_flags: int = 0
    obstructed_found: int = 0
    false_obstructed: int = 0
    hands: int = 0            # frames with a hand over some flag's zone
    hands_found: int = 0      # ... where at least one of its flags was reported obstructed
    alarm_frames: int = 0     # frames reporting a flag no hand covers
    errors: int = 0           # frames the pipeline refused (a VisionError)
    # Glare (`Observation.glare`): frames drawn with a glare spot and those of them where
    # the reader reported glare over some flag; frames drawn without one reporting it all
    # the same; cards lost (missed, or read wrong and not flagged) at flags, and those of
    # them at a flag the reader reported under glare (the referee names the glare there).
    spot_frames: int = 0
    spot_found: int = 0
    plain_frames: int = 0
    plain_glare: int = 0
    lost: int = 0
    lost_at_glare: int = 0
    times: list[float] = field(default_factory=list)
    mistakes: list[str] = field(default_factory=list)
    # Right reads made doubts, by the reason the reader gave (`Doubt.why`; one read may
    # count under several): where the doubts worth taking away lie.
    doubt_why: dict[str, int] = field(default_factory=dict)
    # Every doubtful read, one line each: where, what it read, the reader's reasons, and
    # whether it was right (the truth when not): which doubts to take away, and which not.
    doubts: list[str] = field(default_factory=list)

    def add(self, obs: Observation, truth: Observation, name: str = "",
            spot: bool | None = None) -> None:
        """`spot`: whether the frame was drawn with a glare spot (None: not known)."""
        self.frames += 1
        if spot is not None:
            self.spot_frames += spot
            self.spot_found += spot and bool(obs.glare)
            self.plain_frames += not spot
            self.plain_glare += not spot and bool(obs.glare)
        hidden = set(truth.obstructed)
        self.obstructed_flags += len(hidden)
        self.obstructed_found += len(hidden & set(obs.obstructed))
        self.false_obstructed += len(set(obs.obstructed) - hidden)
        if hidden:
            self.hands += 1
            self.hands_found += bool(hidden & set(obs.obstructed))
        self.alarm_frames += bool(set(obs.obstructed) - hidden)
        doubts = {(d.where, d.index): d.why for d in obs.doubtful}
        for f_obs, f_true in zip(obs.flags, truth.flags):
            self.tiles += 1
            self.tiles_right += f_obs.tile == f_true.tile
            if f_true.tile in ("north", "south"):
                self.claimed += 1
                self.claimed_right += f_obs.tile == f_true.tile
            if f_obs.tile != f_true.tile:
                self.mistakes.append(f"{name}: flag {f_true.flag} tile {f_obs.tile} "
                                     f"(truth {f_true.tile})")
            for side in SIDES:
                where = Place(f_true.flag, side)
                if f_true.flag in hidden:
                    self.obstructed_cards += len(f_true.side(side))
                    continue
                lost = self.missed + self.wrong
                self._lists(f_obs.side(side), f_true.side(side), where, doubts, name)
                lost = self.missed + self.wrong - lost
                self.lost += lost
                self.lost_at_glare += lost if f_true.flag in obs.glare else 0
        for side in SIDES:
            self._lists(obs.offline(side), truth.offline(side), Place(OFFLINE, side), doubts,
                        name)

    def _lists(self, got: tuple[Card, ...], want: tuple[Card, ...], where: Place,
               doubts: dict[tuple[Place, int], tuple[str, ...]], name: str) -> None:
        self.cards += len(want)
        for op, i, j in _align(got, want):
            flagged = i is not None and (where, i) in doubts
            gi = got[i] if i is not None else None
            wj = want[j] if j is not None else None
            why = (doubts[(where, i)] or ("?",)) if flagged else ()
            if flagged:
                truly = "right" if op == "same" else \
                    f"truth {wj}" if op == "sub" else "where none lies"
                self.doubts.append(f"{name}: {where} #{i}: {gi} doubtful "
                                   f"({', '.join(why)}), {truly}")
            if op == "same":
                if flagged:
                    self.doubtful += 1
                    self.doubtful_right += 1
                    for reason in why:
                        self.doubt_why[reason] = self.doubt_why.get(reason, 0) + 1
                else:
                    self.right += 1
            elif op == "sub":
                if flagged:
                    self.doubtful += 1
                else:
                    self.wrong += 1
                    self.mistakes.append(f"{name}: {where} #{i}: read {gi} for {wj}")
            elif op == "extra":
                if flagged:
                    self.doubtful += 1
                else:
                    self.extra += 1
                    self.mistakes.append(f"{name}: {where} #{i}: read {gi} where none lies")
            else:
                self.missed += 1
                self.mistakes.append(f"{name}: {where}: missed {wj}")

    def summary(self) -> dict[str, float | int]:
        n = max(self.cards, 1)
        return {
            "frames": self.frames, "errors": self.errors, "cards": self.cards,
            "right_pct": 100.0 * self.right / n,
            "wrong_unflagged_pct": 100.0 * (self.wrong + self.extra) / n,
            "doubtful_pct": 100.0 * self.doubtful / n,
            "missed_pct": 100.0 * self.missed / n,
            "tiles_right": self.tiles_right, "tiles": self.tiles,
            "claimed_right": self.claimed_right, "claimed": self.claimed,
            "obstructed_found": self.obstructed_found, "obstructed_flags": self.obstructed_flags,
            "false_obstructed": self.false_obstructed,
            "hands": self.hands, "hands_found": self.hands_found,
            "alarm_frames": self.alarm_frames,
            "obstructed_cards_skipped": self.obstructed_cards,
            "spot_frames": self.spot_frames, "spot_found": self.spot_found,
            "plain_frames": self.plain_frames, "plain_glare": self.plain_glare,
            "lost": self.lost, "lost_at_glare": self.lost_at_glare,
        }

    def lines(self) -> list[str]:
        s = self.summary()
        out = [f"frames {s['frames']} (refused {s['errors']}), cards {s['cards']}",
               f"cards right      {s['right_pct']:7.2f} %   (target >= 99.5 %)",
               f"wrong, unflagged {s['wrong_unflagged_pct']:7.2f} %   (target <= 0.1 %)",
               f"doubtful         {s['doubtful_pct']:7.2f} %   (target <= 1 %)",
               f"missed           {s['missed_pct']:7.2f} %",
               f"tiles right      {s['tiles_right']}/{s['tiles']}, claimed flags right "
               f"{s['claimed_right']}/{s['claimed']}",
               f"hands found {s['hands_found']}/{s['hands']}, obstructed flags found "
               f"{s['obstructed_found']}/{s['obstructed_flags']}, false alarms "
               f"{s['false_obstructed']} in {s['alarm_frames']} frames "
               f"({s['obstructed_cards_skipped']} cards under hands not scored)"]
        if self.times:
            out.append(f"read time: median {1000 * float(np.median(self.times)):.1f} ms")
        return out


def _align(got: tuple[Card, ...], want: tuple[Card, ...]
           ) -> list[tuple[str, int | None, int | None]]:
    """The cheapest alignment of a read list with the true one (substitution or gap: cost 1)."""
    n, m = len(got), len(want)
    cost = np.zeros((n + 1, m + 1), np.int32)
    cost[:, 0] = np.arange(n + 1)
    cost[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost[i, j] = min(cost[i - 1, j - 1] + (got[i - 1] != want[j - 1]),
                             cost[i - 1, j] + 1, cost[i, j - 1] + 1)
    ops: list[tuple[str, int | None, int | None]] = []
    i, j = n, m
    while i or j:
        if i and j and cost[i, j] == cost[i - 1, j - 1] + (got[i - 1] != want[j - 1]):
            ops.append(("same" if got[i - 1] == want[j - 1] else "sub", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and cost[i, j] == cost[i - 1, j] + 1:
            ops.append(("extra", i - 1, None))
            i -= 1
        else:
            ops.append(("missed", None, j - 1))
            j -= 1
    return ops[::-1]


# -- labelled folders ---------------------------------------------------------------------------
def what_it_says(obs: Observation) -> tuple[object, ...]:
    """What a read says of the table, to compare two reads: the cards, the tiles, the
    hands and the doubts (not the doubts' scores)."""
    return (obs.flags, obs.offline_north, obs.offline_south, obs.obstructed,
            tuple((d.where, d.index, d.best, d.second) for d in obs.doubtful))


def labelled_frames(directory: str | Path) -> list[tuple[Path, Path]]:
    d = Path(directory)
    if not d.is_dir():
        raise VisionError(f"{d} is not a folder of labelled frames")
    pairs = []
    for img in sorted(d.iterdir()):
        if img.suffix.lower() in (".png", ".jpg", ".jpeg") and img.with_suffix(".json").exists():
            pairs.append((img, img.with_suffix(".json")))
    if not pairs:
        raise VisionError(f"{d} holds no labelled frames (NAME.png with NAME.json)")
    return pairs


def evaluate_folder(directory: str | Path, deck: Deck) -> Score:
    """Read every labelled frame of a folder (each on its own) and score it."""
    from .pipeline import TableReader
    score = Score()
    for img_path, truth_path in labelled_frames(directory):
        try:
            truth = Observation.loads(truth_path.read_text(encoding="utf-8"))
        except ObservationError as exc:
            raise VisionError(f"{truth_path}: {exc}") from None
        frame = cvcompat.imread(img_path)
        reader = TableReader(deck, allow_missing_tiles=True)
        t0 = time.perf_counter()
        try:
            obs = reader.read(frame)
        except VisionError as exc:
            score.errors += 1
            score.mistakes.append(f"{img_path.name}: refused: {exc}")
            continue
        score.times.append(time.perf_counter() - t0)
        score.add(obs, truth, img_path.name)
    return score


__all__ = ["Score", "evaluate_folder", "labelled_frames", "what_it_says"]
