"""`companion bench vision`: card-reading accuracy and speed over a seeded synthetic set.

Frames alternate between the two named printings, each with a random mix of camera faults
(and sometimes a hand over the table); each printing is enrolled from its own card images.
Every frame is read by a fresh `TableReader` (full tile decode), then read again: that
second read (tiles followed, all zones read) is the timed one.  The motion test is timed on
the low-resolution stream.  Figures are printed beside the targets.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="companion bench vision", description=__doc__)
    p.add_argument("--frames", type=int, default=200, help="frames to render and read (200)")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--mistakes", type=int, default=10, help="mistakes to list (10)")
    args = p.parse_args(list(argv or []))

    import numpy as np

    from companion.vision.capture import make_lores
    from companion.vision.deck import enrol
    from companion.vision.errors import VisionError
    from companion.vision.evaluate import Score
    from companion.vision.motion import MotionDetector
    from companion.vision.pipeline import TableReader
    from companion.synth import PRINTINGS, Degrade, render, write_deck_images
    from companion.synth.dataset import random_scene

    names = ("classic", "bold")
    t0 = time.perf_counter()
    decks = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            d = f"{tmp}/{name}"
            write_deck_images(PRINTINGS[name], d)
            decks[name] = enrol(d)
    enrol_s = (time.perf_counter() - t0) / len(names)

    rng = np.random.default_rng([args.seed, 0xBE7C])
    score = Score()
    read_ms: list[float] = []
    first_ms: list[float] = []
    motion_ms: list[float] = []
    detector = MotionDetector()
    render_s = 0.0
    for i in range(max(1, args.frames)):
        name = names[i % len(names)]
        scene = random_scene(rng, hand=bool(rng.random() < 0.15))
        deg = Degrade.random(rng, hand=False)
        t = time.perf_counter()
        frame = render(scene, PRINTINGS[name], int(rng.integers(1 << 30)), deg)
        render_s += time.perf_counter() - t
        truth = scene.observation()
        reader = TableReader(decks[name], allow_missing_tiles=True)
        try:
            t = time.perf_counter()
            reader.read(frame)
            first_ms.append(1000 * (time.perf_counter() - t))
            t = time.perf_counter()
            obs = reader.read(frame)
            read_ms.append(1000 * (time.perf_counter() - t))
        except VisionError as exc:
            score.errors += 1
            score.mistakes.append(f"frame {i} ({name}): refused: {exc}")
            continue
        score.add(obs, truth, f"frame {i} ({name})")
        lores = make_lores(frame)
        for _ in range(3):
            t = time.perf_counter()
            detector.update(lores)
            motion_ms.append(1000 * (time.perf_counter() - t))

    s = score.summary()
    def ok(good: bool) -> str:
        return "ok" if good else "MISSED"

    print(f"companion bench vision: {s['frames']} frames ({', '.join(names)}), seed {args.seed}")
    print(f"  frames refused             {s['errors']}")
    print(f"  cards scored               {s['cards']} "
          f"(+{s['obstructed_cards_skipped']} under hands, not scored)")
    print(f"  cards read right           {s['right_pct']:7.2f} %   target >= 99.5 %  "
          f"{ok(s['right_pct'] >= 99.5)}")
    print(f"  wrong, not flagged         {s['wrong_unflagged_pct']:7.2f} %   target <= 0.1 %   "
          f"{ok(s['wrong_unflagged_pct'] <= 0.1)}")
    print(f"  doubtful                   {s['doubtful_pct']:7.2f} %   target <= 1 %     "
          f"{ok(s['doubtful_pct'] <= 1.0)}")
    print(f"  missed                     {s['missed_pct']:7.2f} %")
    print(f"  tiles right                {s['tiles_right']}/{s['tiles']}   target all  "
          f"{ok(s['tiles_right'] == s['tiles'])}")
    print(f"  claimed flags right        {s['claimed_right']}/{s['claimed']}   target all  "
          f"{ok(s['claimed_right'] == s['claimed'])}")
    found, flagged = s['obstructed_found'], s['obstructed_found'] + s['false_obstructed']
    print(f"  obstructed flags found     {found}/{s['obstructed_flags']}, "
          f"false alarms {s['false_obstructed']}: precision "
          f"{100.0 * found / max(1, flagged):5.1f} %, recall "
          f"{100.0 * found / max(1, s['obstructed_flags']):5.1f} %")
    if read_ms:
        med = statistics.median(read_ms)
        print(f"  frame read (tiles followed) median {med:6.1f} ms, p90 "
              f"{float(np.percentile(read_ms, 90)):6.1f} ms   target <= 60 ms  {ok(med <= 60)}")
        print(f"  first frame (full decode)  median {statistics.median(first_ms):6.1f} ms")
    if motion_ms:
        mm = statistics.median(motion_ms)
        print(f"  motion test (lores)        median {mm:6.2f} ms, max {max(motion_ms):.2f} ms   "
              f"target <= 3 ms  {ok(mm <= 3.0)}")
    print(f"  deck enrolment             {enrol_s:6.2f} s per printing; rendering "
          f"{render_s / max(1, args.frames):.2f} s per frame")
    for line in score.mistakes[:max(0, args.mistakes)]:
        print("    " + line)
    return 0
