"""`companion bench ui`: does the touchscreen stay smooth while frames stream in, and how fast
is the app ready?

A folder of synthetic overhead frames of a short scripted game is rendered once; the real
app is started on it (real vision, real referee, mock LEDs) and a probe scheduled on Kivy's
clock records the gap between consecutive ticks while the worker reads every frame.
Targets: no gap over 50 ms on the Kivy thread; ready (first frame drawn) within 5 s of start.
Needs a display (on a headless machine: `xvfb-run -a companion bench ui`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

T0 = time.perf_counter()   # as early as possible: start-up time counts from here

STALL_TARGET_MS = 50.0
READY_TARGET_S = 5.0

# A short opening: (side, card, flag).  Each moment is shown on `calm` identical frames.
SCRIPT: tuple[tuple[str, str, int], ...] = (
    ("south", "R8", 1), ("north", "B2", 1), ("south", "R9", 1), ("north", "G3", 2),
    ("south", "R10", 1), ("north", "Y5", 4), ("south", "P7", 5), ("north", "O1", 9),
)


def render_frames(directory: Path, *, calm: int = 4, steps: int | None = None,
                  printing: str = "classic", seed: int = 7) -> tuple[Path, int]:
    """Write the frames of the scripted opening and the enrolled deck; (deck file, moves)."""
    import cv2

    from companion.appliance.demo import scene_of
    from companion.rules.actions import Play
    from companion.rules.cards import BY_CODE
    from companion.rules.state import GameState
    from companion.vision import deck as deck_mod
    from companion.synth import PRINTINGS, render, write_deck_images

    frames = directory / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    faces = directory / "faces"
    write_deck_images(PRINTINGS[printing], faces)
    deck_path = deck_mod.enrol(faces).save(directory / "deck.npz")
    game = GameState.new_table()
    script = SCRIPT[:steps] if steps is not None else SCRIPT
    states = [game]
    for side, code, flag in script:
        game = game.apply(Play(side, BY_CODE[code], flag))  # type: ignore[arg-type]
        states.append(game)
    n = 0
    for state in states:
        image = render(scene_of(state, seed), PRINTINGS[printing], seed=seed)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        assert ok
        for _ in range(calm):
            (frames / f"frame-{n:05d}.jpg").write_bytes(data.tobytes())
            n += 1
    return deck_path, len(script)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion bench ui", description=__doc__)
    parser.add_argument("--size", default="800x480", help="window size (default 800x480)")
    parser.add_argument("--calm", type=int, default=8,
                        help="frames per table moment (default 8: a second at 8 fps)")
    parser.add_argument("--fps", type=float, default=8.0,
                        help="frames per second streamed, like the camera loop (default 8)")
    parser.add_argument("--no-taps", dest="taps", action="store_false",
                        help="do not open proof screens while streaming")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="render the frames and the deck into DIR and keep them (then try "
                             "`companion run --source DIR/frames --deck DIR/deck.npz`)")
    args = parser.parse_args(list(argv or []))
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
            and sys.platform.startswith("linux") and not os.path.exists("/dev/dri/card0"):
        print("companion bench ui: needs a display; run it as `xvfb-run -a companion bench ui`",
              file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="companion-bench-ui-") as tmp:
        where = args.keep if args.keep is not None else Path(tmp)
        t_render = time.perf_counter()
        deck_path, moves = render_frames(where, calm=args.calm)
        render_s = time.perf_counter() - t_render
        return _measure(args, where, deck_path, moves, render_s)


def _measure(args: argparse.Namespace, tmp: Path, deck_path: Path, moves: int,
             render_s: float) -> int:
    from companion.commands.run import configure_kivy, make_referee, parse_size

    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    configure_kivy(parse_size(args.size))
    # Start-up is timed from here: what `companion run` does after its arguments.
    t_start = time.perf_counter()

    from kivy.clock import Clock

    from companion.hw.leds import FlagLeds
    from companion.hw.pins import load_pin_map, make_pin_factory
    from companion.ui.app import CompanionApp
    from companion.ui.prefs import Prefs
    from companion.vision.capture import FolderSource
    from companion.appliance.eyes import load_reader
    from companion.appliance.session import Session

    # As `companion run` does: read on the session's thread, the zones in the vision's workers.
    reader = load_reader(deck_path)
    source = FolderSource(tmp / "frames")
    factory = make_pin_factory("mock")
    leds = FlagLeds(load_pin_map(), pin_factory=factory)
    session = Session(make_referee(Prefs()), source=source, reader=reader, leds=leds,
                      pace=True, frame_interval=1.0 / args.fps)
    app = CompanionApp(make_referee=lambda prefs: make_referee(prefs), session=session,
                       leds=leds, prefs=Prefs(), failsafe=False)
    gaps: list[float] = []
    flips_in_gap: list[float] = []    # time the gap spent in the GL buffer swap
    flip_time = [0.0]
    last = [0.0]
    done_at = [0.0]
    taps = [0]
    confirmed: set[int] = set()

    def probe(dt: float) -> None:
        now = time.perf_counter()
        if last[0]:
            gaps.append(now - last[0])
            flips_in_gap.append(flip_time[0])
        flip_time[0] = 0.0
        last[0] = now
        session = app.session
        if session is not None and session.ended and not done_at[0]:
            done_at[0] = now
            Clock.schedule_once(lambda dt: app.stop(), 0.5)
        # Players use the screen meanwhile: open a flag's proof now and then.
        # A player confirms each doubtful read the referee waits on, as on the fix screen.
        for p in app.view.problems:
            if p.kind == "doubt" and p.best is not None and id(p.source) not in confirmed:
                confirmed.add(id(p.source))
                app.confirm(p, p.best)
        if args.taps and len(gaps) % 40 == 20 and app.root is not None:
            taps[0] += 1
            app.open_flag(1 + taps[0] % 9)
            Clock.schedule_once(lambda dt: app.go("table"), 0.3)

    def start_probe(dt: float) -> None:
        # The buffer swap is where the GL driver renders: timed apart, since on a machine
        # without a GPU (software Mesa) it dominates and says nothing about our code.
        from kivy.core.window import Window
        flip = Window.flip

        def timed_flip() -> None:
            t = time.perf_counter()
            flip()
            flip_time[0] += time.perf_counter() - t
        Window.flip = timed_flip
        Clock.schedule_interval(probe, 0)

    Clock.schedule_once(start_probe, 0)
    t_run = time.perf_counter()
    try:
        app.run()
    finally:
        app.close()
        leds.close()
        factory.close()
    if app.ready_at is None or not gaps:
        print("companion bench ui: the app never drew its first frame", file=sys.stderr)
        return 1
    ready_s = app.ready_at - t_start
    process_s = app.ready_at - T0 - render_s
    ms = sorted(g * 1000 for g in gaps)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    worst = ms[-1]
    frames = len(list((tmp / "frames").iterdir()))
    stream_s = (done_at[0] or time.perf_counter()) - t_run
    committed = len(app.view.actions)
    where = "followed on the worker thread, zones read in the vision's worker processes"
    print(f"companion bench ui  ({args.size}, {frames} frames of {moves} moves at "
          f"{args.fps:g} fps, real vision {where}, referee on the worker thread)")
    print(f"  ready (first frame drawn) : {ready_s:6.2f} s after `run` starts the UI "
          f"({process_s:.2f} s from process start, frame rendering excluded)   "
          f"target <= {READY_TARGET_S:g} s  {'OK' if ready_s <= READY_TARGET_S else 'MISSED'}")
    print(f"  Kivy ticks measured       : {len(gaps)} over {stream_s:.1f} s of streaming, "
          f"{taps[0]} proof screens opened and {len(confirmed)} doubtful reads confirmed "
          "meanwhile")
    print(f"  gap between ticks         : median {statistics.median(ms):5.1f} ms   "
          f"p99 {p99:5.1f} ms   worst {worst:5.1f} ms   target <= {STALL_TARGET_MS:g} ms  "
          f"{'OK' if worst <= STALL_TARGET_MS else 'MISSED'}")
    print(f"  gaps over {STALL_TARGET_MS:g} ms            : {sum(1 for g in ms if g > STALL_TARGET_MS)}")
    rest = sorted((g - f) * 1000 for g, f in zip(gaps, flips_in_gap))
    swap = sorted(f * 1000 for f in flips_in_gap)
    rest_p99 = rest[min(len(rest) - 1, int(0.99 * len(rest)))]
    print(f"  of which GL buffer swap   : median {statistics.median(swap):5.1f} ms   "
          f"worst {swap[-1]:5.1f} ms   (the GPU's work; software Mesa here)")
    print(f"  gap without the swap      : median {statistics.median(rest):5.1f} ms   "
          f"p99 {rest_p99:5.1f} ms   worst {rest[-1]:5.1f} ms   "
          f"(our code, the worker's GIL share, the frame limiter)")
    try:
        load = os.getloadavg()[0]
        print(f"  machine load average      : {load:.1f} on {os.cpu_count()} cores")
    except OSError:
        pass
    print(f"  moves committed by the referee: {committed} of {moves}")
    ok = ready_s <= READY_TARGET_S and rest[-1] <= STALL_TARGET_MS and committed == moves
    return 0 if ok else 1
