"""`companion bench vision`: card-reading accuracy per printing family, and speed.

Every family of the printing zoo (`companion.synth.zoo`) is enrolled from one rendition of
its printing (a scan) and read on tables drawn with another (the copy on the table), on
seeded random tables with a random mix of camera faults (and sometimes a hand over the table),
at the reference rig and at a 1080p webcam.  The held-out families, never used to tune the
reader, are reported first and apart.  Every frame is read by a fresh `TableReader` (full
tile decode), then read again: that second read (tiles followed, all zones read) is the
timed one.  The motion test is timed on the low-resolution stream.  Figures are printed
beside the targets, with each family's enrolment time and the band network's self-test on
its printing (`net%`: the share of camera-like views of its enrolled bands the network puts
nearest their own card, `bandnet.self_test`), and the reasons the reader gave for the right
reads it made doubts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.vision.evaluate import Score

TARGET_RIGHT = {"reference": 99.5, "webcam": 99.0}
TARGET_WRONG = 0.1
TARGET_DOUBT = 1.0
ENROL_RENDITION, TABLE_RENDITION = 1, 2
"""The deck is enrolled from one copy of a printing and read on another (never the same)."""


def _merge(scores: Sequence[Score]) -> Score:
    from companion.vision.evaluate import Score
    total = Score()
    for sc in scores:
        for f in fields(Score):
            value = getattr(sc, f.name)
            if isinstance(value, int):
                setattr(total, f.name, getattr(total, f.name) + value)
        for why, n in sc.doubt_why.items():
            total.doubt_why[why] = total.doubt_why.get(why, 0) + n
    return total


def _ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def _row(label: str, sc: Score, rig: str, enrol_s: float | None = None,
         verdict: bool = False, trust: float | None = None) -> str:
    s = sc.summary()
    line = (f"  {label:22s} {s['frames']:4d} {s['errors']:4d} {s['cards']:6d} "
            f"{s['right_pct']:7.2f} {s['wrong_unflagged_pct']:7.2f} {s['doubtful_pct']:7.2f} "
            f"{s['missed_pct']:7.2f}  {s['tiles_right']:4d}/{s['tiles']:<4d} "
            f"{s['claimed_right']:3d}/{s['claimed']:<3d}")
    line += f" {enrol_s:6.2f}" if enrol_s is not None else "       "
    line += f" {100 * trust:5.1f}" if trust is not None else "      "
    if verdict:
        good = (s["right_pct"] >= TARGET_RIGHT[rig] and s["wrong_unflagged_pct"] <= TARGET_WRONG
                and s["doubtful_pct"] <= TARGET_DOUBT and s["tiles_right"] == s["tiles"]
                and s["claimed_right"] == s["claimed"] and s["errors"] == 0)
        line += f"  {_ok(good)}"
    return line


def _one_card_fewer(scene: Any, seed: int) -> Any:
    """The scene with the last card of one of its columns taken away (the table a move
    before), or None when no flag has a card; the column drawn from `seed`."""
    import numpy as np
    columns = [(i, side) for i, f in enumerate(scene.flags) for side in ("north", "south")
               if f.side(side)]
    if not columns:
        return None
    i, side = columns[int(np.random.default_rng(seed).integers(len(columns)))]
    flag = scene.flags[i]
    flags = list(scene.flags)
    flags[i] = replace(flag, **{side: flag.side(side)[:-1]})
    return replace(scene, flags=tuple(flags))


def main(argv: Sequence[str] | None = None) -> int:
    from companion.synth.zoo import FAMILIES, HELD_OUT

    p = argparse.ArgumentParser(prog="companion bench vision", description=__doc__)
    p.add_argument("--frames", type=int, default=24,
                   help="frames per family and rig (24)")
    p.add_argument("--families", default="all",
                   help="comma-separated families (default all: " + ", ".join(FAMILIES) + ")")
    p.add_argument("--rig", choices=("reference", "webcam", "both"), default="both",
                   help="the camera: the reference rig, a 1080p webcam, or both (both)")
    p.add_argument("--setup", choices=("varied", "standard"), default="varied",
                   help="how the tables are laid: as players do (first cards 0-40 mm from the "
                        "tile, tiles printed at 95-100 %%, columns askew) or the standard set-up")
    p.add_argument("--seed", type=int, default=0,
                   help="seeds the tables and each family's printing (0: the family's first)")
    p.add_argument("--colour-frames", type=int, default=1,
                   help="per family and rig, frames in greyscale and in strong warm light, "
                        "where a colour read must be a doubt (1)")
    p.add_argument("--mistakes", type=int, default=10, help="mistakes to list (10)")
    p.add_argument("--doubts", type=int, default=0,
                   help="doubtful reads to list, each with the reader's reasons and whether it "
                        "was right (0)")
    args = p.parse_args(list(argv or []))
    if args.families == "all":
        chosen = list(FAMILIES)
    else:
        chosen = [f.strip() for f in args.families.split(",") if f.strip()]
        unknown = [f for f in chosen if f not in FAMILIES]
        if unknown:
            p.error(f"unknown families {', '.join(unknown)}; use {', '.join(FAMILIES)}")
    held = [f for f in chosen if f in HELD_OUT]
    tuning = [f for f in chosen if f not in HELD_OUT]
    rigs = ("reference", "webcam") if args.rig == "both" else (args.rig,)

    import numpy as np

    from companion.vision.capture import make_lores
    from companion.vision.deck import enrol
    from companion.vision.errors import VisionError
    from companion.vision.evaluate import Score, what_it_says
    from companion.vision.motion import MotionDetector
    from companion.vision.pipeline import TableReader
    from companion.synth import RIGS, Degrade, Setup, render, rendition, write_deck_images
    from companion.synth.dataset import random_scene
    from companion.errors import CompanionError

    setup = Setup.varied() if args.setup == "varied" else Setup.standard()
    scores: dict[tuple[str, str], Score] = {}
    colour_scores: dict[tuple[str, str], Score] = {}
    enrol_s: dict[str, float] = {}
    trust: dict[str, float] = {}        # the band network's self-test on each printing
    refused_decks: dict[str, str] = {}
    read_ms: dict[str, list[float]] = {r: [] for r in rigs}
    first_ms: dict[str, list[float]] = {r: [] for r in rigs}
    move_ms: dict[str, list[float]] = {r: [] for r in rigs}
    motion_ms: list[float] = []
    detector = MotionDetector()
    render_s, rendered = 0.0, 0
    for family in held + tuning:
        printing = FAMILIES[family](args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            write_deck_images(rendition(printing, ENROL_RENDITION), tmp)
            t = time.perf_counter()
            try:
                deck = enrol(tmp, (printing.card_w, printing.card_h))
            except CompanionError as exc:
                refused_decks[family] = str(exc)
                print(f"{family}: enrolment refused", file=sys.stderr, flush=True)
                continue
            enrol_s[family] = time.perf_counter() - t
            trust[family] = deck.templates.net_trust
        # Progress on stderr: a full run reads hundreds of frames.
        print(f"{family}: enrolled in {enrol_s[family]:.1f} s, reading", file=sys.stderr,
              flush=True)
        on_table = rendition(printing, TABLE_RENDITION)
        keep = TableReader(deck)        # holds the shared zone workers between frames
        try:
            for rig_name in rigs:
                rig = RIGS[rig_name]
                rng = np.random.default_rng([args.seed, 0xBE7C, sorted(FAMILIES).index(family),
                                             rigs.index(rig_name)])
                score = scores.setdefault((family, rig_name), Score())
                colour = colour_scores.setdefault((family, rig_name), Score())
                frames = max(1, args.frames)
                for i in range(frames + 2 * max(0, args.colour_frames)):
                    scene = random_scene(rng, hand=bool(rng.random() < 0.15))
                    deg = Degrade.random(rng, hand=False)
                    target, kind = score, ""
                    if i >= frames:
                        # The colour faults: a greyscale camera, or tungsten light.
                        k = i - frames
                        target = colour
                        if k % 2 == 0:
                            deg, kind = Degrade(noise=deg.noise, jpeg=deg.jpeg, grey=True), "grey"
                        else:
                            deg, kind = Degrade(noise=deg.noise, jpeg=deg.jpeg, warm=0.9), "warm"
                    t = time.perf_counter()
                    seed = int(rng.integers(1 << 30))
                    frame = render(scene, on_table, seed, deg, rig=rig, setup=setup)
                    render_s += time.perf_counter() - t
                    rendered += 1
                    truth = scene.observation()
                    label = f"{family} {rig_name} frame {i}{' ' + kind if kind else ''}"
                    with TableReader(deck, allow_missing_tiles=True) as reader:
                        try:
                            t = time.perf_counter()
                            reader.read(frame)
                            first = 1000 * (time.perf_counter() - t)
                            reader.remember = False      # the whole read: every zone
                            t = time.perf_counter()
                            obs = reader.read(frame)
                            again = 1000 * (time.perf_counter() - t)
                            reader.remember = True
                            if not kind and (before := _one_card_fewer(scene, seed)) is not None:
                                # A move: the table a card before, then this one.
                                reader.read(render(before, on_table, seed, deg, rig=rig,
                                                   setup=setup))
                                t = time.perf_counter()
                                moved = reader.read(frame)
                                move_ms[rig_name].append(1000 * (time.perf_counter() - t))
                                if what_it_says(moved) != what_it_says(obs):
                                    target.mistakes.append(f"{label}: a move's read (zones "
                                                           "remembered) differs from the "
                                                           "whole read")
                        except VisionError as exc:
                            target.errors += 1
                            target.mistakes.append(f"{label}: refused: {exc}")
                            continue
                    if not kind:
                        first_ms[rig_name].append(first)
                        read_ms[rig_name].append(again)
                    target.add(obs, truth, label, spot=deg.glare > 0)
                    if rig_name == "reference" and not kind and len(motion_ms) < 60:
                        lores = make_lores(frame)
                        t = time.perf_counter()
                        detector.update(lores)
                        motion_ms.append(1000 * (time.perf_counter() - t))
        finally:
            keep.close()

    print(f"companion bench vision: {args.frames} frames per family and rig, seed {args.seed}, "
          f"set-up {args.setup}; each deck enrolled from one rendition of its printing and read "
          "on another")
    for family, why in refused_decks.items():
        print(f"  {family}: ENROLMENT REFUSED: {why}")
    header = (f"  {'family':22s} {'frm':>4s} {'ref':>4s} {'cards':>6s} {'right%':>7s} "
              f"{'wrong%':>7s} {'doubt%':>7s} {'miss%':>7s}  {'tiles':>9s} {'claimed':>7s} "
              f"{'enrol s':>6s} {'net%':>5s}")
    for rig_name in rigs:
        rig = RIGS[rig_name]
        print(f"\nrig {rig_name} ({rig.width}x{rig.height}, {10 * rig.px_per_mm:.0f} px/cm): "
              f"targets right >= {TARGET_RIGHT[rig_name]} %, wrong and not flagged <= "
              f"{TARGET_WRONG} %, doubtful <= {TARGET_DOUBT} %, every tile and claimed flag")
        print(header)
        for group, names in (("held-out", held), ("tuning", tuning)):
            rows = [scores[(f, rig_name)] for f in names if (f, rig_name) in scores]
            if not names:
                continue
            print(f"  -- {group} families" + (" (never used to tune the reader)"
                                              if group == "held-out" else ""))
            for f in names:
                if (f, rig_name) in scores:
                    print(_row(f, scores[(f, rig_name)], rig_name, enrol_s.get(f),
                               trust=trust.get(f)))
                else:
                    print(f"  {f:22s} not enrolled")
            total = _merge(rows)
            if len(names) != len(rows):
                print(f"  {group + ' total':22s} MISSED: {len(names) - len(rows)} families "
                      "could not be enrolled")
            print(_row(f"{group} total", total, rig_name, verdict=len(names) == len(rows)))
            if total.doubt_why:
                print(f"    {group}: right reads made doubts, by the reader's reason (a read may "
                      "have several): " + ", ".join(f"{why} {n}" for why, n in sorted(
                          total.doubt_why.items(), key=lambda kv: -kv[1])))
        everything = _merge([sc for (f, r), sc in scores.items() if r == rig_name])
        print(_row("all families", everything, rig_name,
                   verdict=not refused_decks))
        hs = everything.summary()
        print(f"  hands: {hs['hands_found']}/{hs['hands']} found, flags under a hand "
              f"{hs['obstructed_found']}/{hs['obstructed_flags']}; false alarms "
              f"{hs['false_obstructed']} flags in {hs['alarm_frames']} of {hs['frames']} frames "
              f"({hs['false_obstructed'] / max(1, hs['frames']):.2f} per frame)   target every "
              f"hand, no false alarm  {_ok(hs['hands_found'] == hs['hands'] and not hs['false_obstructed'])}")
        print(f"  glare: reported in {hs['spot_found']} of {hs['spot_frames']} frames drawn with a "
              f"spot, in {hs['plain_glare']} of {hs['plain_frames']} without one; "
              f"{hs['lost_at_glare']} of the {hs['lost']} cards lost at flags (missed, or wrong "
              "and not flagged) lay where glare was reported (the referee names the glare)")
        colour = _merge([sc for (f, r), sc in colour_scores.items() if r == rig_name])
        cs = colour.summary()
        if cs["frames"]:
            print(f"  greyscale / warm-light frames: {cs['frames']}, cards {cs['cards']}, "
                  f"wrong and not flagged {cs['wrong_unflagged_pct']:.2f} % (target 0: a colour "
                  f"the frame cannot show is a doubt)  {_ok(cs['wrong_unflagged_pct'] == 0.0)}; "
                  f"doubtful {cs['doubtful_pct']:.1f} %, right {cs['right_pct']:.1f} %")
        if read_ms[rig_name]:
            med = statistics.median(read_ms[rig_name])
            print(f"  frame read (tiles followed) median {med:6.1f} ms, p90 "
                  f"{float(np.percentile(read_ms[rig_name], 90)):6.1f} ms   target <= 60 ms  "
                  f"{_ok(med <= 60)}")
            if move_ms[rig_name]:
                print(f"  a move's read (one column changed, the other zones remembered) "
                      f"median {statistics.median(move_ms[rig_name]):6.1f} ms, p90 "
                      f"{float(np.percentile(move_ms[rig_name], 90)):6.1f} ms")
            print(f"  first frame (full decode)  median "
                  f"{statistics.median(first_ms[rig_name]):6.1f} ms")
    if motion_ms:
        mm = statistics.median(motion_ms)
        print(f"\nmotion test (lores)        median {mm:6.2f} ms, max {max(motion_ms):.2f} ms   "
              f"target <= 3 ms  {_ok(mm <= 3.0)}")
    if enrol_s:
        print(f"deck enrolment             median {statistics.median(enrol_s.values()):6.2f} s, "
              f"worst {max(enrol_s.values()):.2f} s per deck of 70 images   target < 30 s  "
              f"{_ok(max(enrol_s.values()) < 30)}; rendering {render_s / max(1, rendered):.2f} s "
              "per frame")
    every = (*scores.values(), *colour_scores.values())
    mistakes = [m for sc in every for m in sc.mistakes]
    for line in mistakes[:max(0, args.mistakes)]:
        print("    " + line)
    doubts = [d for sc in every for d in sc.doubts]
    if args.doubts > 0 and doubts:
        print(f"  doubtful reads ({len(doubts)}):")
        for line in doubts[:args.doubts]:
            print("    " + line)
    return 0
