"""`companion run`: the appliance (contract 3): camera, touchscreen, LEDs and buttons.

On the Pi it reads the Pi camera and drives the real LEDs; elsewhere `--source` names a video
file, a folder of frames or a USB camera index, and the LEDs fall back to mock pins (with a
warning), so anyone can try the referee on a laptop.  `--demo` plays the built-in demo game
in front of it: the table drawn on the fly (`appliance.demotable`), mock LEDs, the record in
a scratch folder unless `--db` names one.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.referee.referee import Referee
    from companion.record.store import MatchStore
    from companion.ui.prefs import Prefs

log = logging.getLogger(__name__)


class RunError(CompanionError, ValueError):
    """A bad `companion run` option (a screen size that is not WxH, a missing deck)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "run", help="the appliance: camera, touchscreen referee, LEDs",
        description="Start the touchscreen referee. Without --source it reads the Pi camera; "
                    "with --source it reads a video file, a folder of frames or a USB camera "
                    "index, and drives mock LEDs when there is no GPIO.")
    p.add_argument("--source", default=None, metavar="VIDEO|FOLDER|INDEX",
                   help="where frames come from (default: the Pi camera)")
    p.add_argument("--deck", type=Path, default=None, metavar="FILE",
                   help="the enrolled deck (default: deck.npz in the data directory)")
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help="match database (default: matches.sqlite in the data directory)")
    p.add_argument("--size", default=None, metavar="WxH",
                   help="window size, e.g. 800x480 (default: full screen)")
    p.add_argument("--pins", type=Path, default=None, metavar="FILE",
                   help="pin map (default: pinmap.yaml in the data directory, else the packaged one)")
    p.add_argument("--gpio", choices=("auto", "real", "mock"), default="auto",
                   help="pin factory: real pins, mock pins, or real when present (default)")
    p.add_argument("--fps", type=float, default=8.0,
                   help="frames per second read from a recorded source (default 8)")
    p.add_argument("--no-frames", dest="record_frames", action="store_false",
                   help="do not save the camera frame of each committed action in the match "
                        "record (saved by default: recorded matches become labelled data)")
    p.add_argument("--event", default=None, metavar="NAME",
                   help="the event (club night, tournament) the matches started now belong "
                        "to, kept in each match record (default: the one set on the Settings "
                        "screen; '' for none)")
    p.add_argument("--demo", action="store_true",
                   help="watch the whole appliance play the built-in demo game: the camera "
                        "films a drawn table, the LEDs are mock pins, the match is recorded "
                        "in a scratch folder (or --db)")
    p.add_argument("--seed", type=int, default=None,
                   help="with --demo: which demo game (default 1)")
    p.add_argument("--quit-at-end", action="store_true",
                   help="stop by itself once the frames are over (a recorded source, or the "
                        "demo game played to its end)")
    p.add_argument("--quit-after", type=float, default=None, metavar="SECONDS",
                   help="stop by itself after this long (a check that the appliance starts)")
    p.set_defaults(handler=_run)


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{3,4})\s*[xX×]\s*(\d{3,4})\s*", text)
    if not m:
        raise RunError(f"--size {text!r}: give the window size as WIDTHxHEIGHT, e.g. 800x480")
    return int(m.group(1)), int(m.group(2))


def configure_kivy(size: tuple[int, int] | None) -> None:
    """Window options; must run before Kivy's window module is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # SDL's own clipboard: no probing for xclip/xsel, which a kiosk does not have.
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    from kivy.config import Config

    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
        Config.set("graphics", "resizable", "0")
    else:
        Config.set("graphics", "fullscreen", "auto")
    # No red multitouch-emulation dots on a real touchscreen.
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def _run(args: argparse.Namespace) -> int:
    size = parse_size(args.size) if args.size else None
    if args.event is not None:
        from companion.record.summary import check_event
        check_event(args.event)       # a bad name is one line before anything starts
    from companion.paths import data_dir

    if args.demo:
        if args.source is not None:
            raise RunError("--demo draws its own table: leave out --source")
        if args.deck is not None:
            raise RunError("--demo enrols the deck it draws: leave out --deck")
        if args.gpio == "real":
            raise RunError("--demo drives mock LEDs: leave out --gpio real")
        return _run_demo(args, size)
    if args.seed is not None:
        raise RunError("--seed picks the demo game: it goes with --demo")
    deck_path = args.deck if args.deck is not None else data_dir() / "deck.npz"
    configure_kivy(size)

    from companion.hw.buttons import PlayerButtons
    from companion.hw.leds import FlagLeds
    from companion.hw.pins import load_pin_map, make_pin_factory
    from companion.hw.sdnotify import SdNotify
    from companion.record.store import MatchStore
    from companion.ui.app import CompanionApp
    from companion.ui.prefs import Prefs
    from companion.vision.capture import open_source
    from companion.appliance.eyes import Reader, load_reader
    from companion.appliance.session import Session

    pin_map = load_pin_map(args.pins)
    reader: Reader | None = None
    if deck_path.exists():
        reader = load_reader(deck_path)   # a damaged deck is one clear line now
    else:
        # First start on a new rig: the camera screen and the enrolment work without a deck.
        log.warning("no enrolled deck at %s: enrol one on the Camera screen or with "
                    "`companion deck enrol DIR --out FILE` (calibration/README.md)", deck_path)
    live = args.source is None or str(args.source).isdigit()
    with open_source(args.source, retry=True) as source, MatchStore(args.db) as store, \
            SdNotify() as notifier:
        factory = make_pin_factory(args.gpio)
        with FlagLeds(pin_map, pin_factory=factory) as leds:
            prefs = Prefs.load()
            if args.event is not None:
                prefs = prefs.with_(event=args.event)

            def new_referee(p: Prefs) -> Referee:
                return make_referee(p, store, record_frames=args.record_frames)

            first = make_referee(prefs, store, record_frames=args.record_frames, resume=True)
            session = Session(first, source=source,
                              reader=reader, leds=leds, reader_factory=load_reader, live=live,
                              pace=not live, frame_interval=1.0 / max(0.5, args.fps))
            app = CompanionApp(
                make_referee=new_referee, session=session,
                leds=leds, notifier=notifier, store=store, prefs=prefs,
                deck_path=deck_path, start_screen="table" if reader is not None else "calibration",
                buttons_factory=lambda on_press: PlayerButtons(pin_map, on_press,
                                                               pin_factory=factory))
            _quit_options(app, args)
            try:
                app.run()
            finally:
                app.close()     # the session closes the reader with it
                if reader is not None:
                    reader.close()  # safe twice
    return 0


def _run_demo(args: argparse.Namespace, size: tuple[int, int] | None) -> int:
    """`companion run --demo`: the appliance as it runs at a table, in front of the demo's
    drawn table; says at the end whether the record holds the game the bots played."""
    import tempfile

    from companion.appliance.demotable import DemoTable, played_actions

    seed = 1 if args.seed is None else args.seed
    table = DemoTable(seed=seed)     # a bad seed or printing is one line, before Kivy
    configure_kivy(size)

    from companion.appliance.eyes import load_reader
    from companion.appliance.session import Session
    from companion.hw.leds import FlagLeds
    from companion.hw.pins import load_pin_map, make_pin_factory
    from companion.record.store import MatchStore
    from companion.ui.app import CompanionApp
    from companion.ui.prefs import Prefs

    with tempfile.TemporaryDirectory(prefix="companion-run-demo-") as tmp:
        scratch = Path(tmp)
        db = args.db if args.db is not None else scratch / "matches.sqlite"
        log.warning("demo: enrolling the drawn deck; the match is recorded in %s", db)
        reader = load_reader(table.enrol(scratch / "deck.npz"))
        pin_map = load_pin_map(args.pins)
        # The demo game is played under the standard rules, one round.
        prefs = Prefs.load().with_(timing="standard", rounds=1)
        if args.event is not None:
            prefs = prefs.with_(event=args.event)
        with table.source() as source, MatchStore(db) as store, \
                FlagLeds(pin_map, pin_factory=make_pin_factory("mock")) as leds:
            extra = {"demo_seed": str(seed)}

            def new_referee(p: Prefs) -> Referee:
                return make_referee(p, store, record_frames=args.record_frames, extra=extra)

            session = Session(new_referee(prefs), source=source, reader=reader, leds=leds,
                              reader_factory=load_reader, pace=True,
                              frame_interval=1.0 / max(0.5, args.fps))
            table.join(session)
            app = CompanionApp(make_referee=new_referee, session=session, leds=leds,
                               store=store, prefs=prefs, deck_path=None)
            _quit_options(app, args)
            try:
                app.run()
            finally:
                app.close()
                reader.close()
            ids = store.match_ids()
            recorded = tuple(store.effective_actions(ids[-1])) if ids else ()
            over = any(e.kind == "round-end" for e in store.entries(ids[-1])) if ids else False
    played = played_actions(seed)
    same = sum(1 for a, b in zip(played, recorded) if a == b)
    log.warning("demo: %d of the %d moves played are recorded as played%s; %d frames, "
                "the cards straightened %d times, %d reads confirmed, %d corrected, %d undone",
                same, len(played), ", the game is over" if over else "", table.frames,
                table.nudges, table.confirmations, table.corrections, table.undos)
    return 0 if over and recorded == played else 1


def _quit_options(app: object, args: argparse.Namespace) -> None:
    from kivy.clock import Clock
    if args.quit_after is not None:
        Clock.schedule_once(lambda dt: app.stop(), max(0.0, args.quit_after))  # type: ignore[attr-defined]
    if args.quit_at_end:
        def ended(_: object, status: object) -> None:
            if getattr(status, "ended", False):
                # A moment to show the last state, then stop.
                Clock.schedule_once(lambda dt: app.stop(), 1.0)  # type: ignore[attr-defined]
        app.bind(status=ended)  # type: ignore[attr-defined]


def make_referee(prefs: Prefs, store: MatchStore | None = None,
                 record_frames: bool = False, resume: bool = False,
                 extra: dict[str, str] | None = None) -> Referee:
    """A referee for a new match with the players' preferences (names go in the header).

    `record_frames`: save the frame of each committed action with the record (the appliance
    does, unless told `--no-frames`).
    """
    from companion.referee.referee import Referee
    from companion.referee.settings import RefereeSettings
    from companion.rules.state import Settings

    settings = RefereeSettings(rounds=prefs.rounds, record_frames=record_frames,
                               game=Settings(claim_timing=prefs.timing,  # type: ignore[arg-type]
                                             naming=prefs.naming,  # type: ignore[arg-type]
                                             edition=prefs.edition))
    if store is None:
        return Referee(settings)
    from companion.record.recorder import open_match, unfinished_match
    match_id = unfinished_match(store) if resume else None
    if match_id is not None:
        # The companion stopped mid-match (a power cut, a kill): the match goes on where the
        # record ends; the table is checked against it and the players are shown only what
        # differs.  A record that cannot be replayed is said, and a new match begins.
        try:
            referee, _ = open_match(store, settings, match_id)
            log.info("resuming match %d from its record", match_id)
            return referee
        except CompanionError as exc:
            log.error("match %d cannot be resumed (%s): a new match begins", match_id, exc)
    extra = {**(extra or {}), "north_name": prefs.north_name, "south_name": prefs.south_name}
    if prefs.event:
        from companion.record.summary import EVENT_TAG
        extra[EVENT_TAG] = prefs.event
    referee, _ = open_match(store, settings, extra=extra)
    return referee
