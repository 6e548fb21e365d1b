"""`companion deck enrol`, `companion scan` (contract 2) and `companion vision evaluate|synth|check`.

Every failure is a `CompanionError` (or an `OSError`) and becomes one line on stderr with exit
status 2 (see `companion.cli`); OpenCV and numpy are imported inside the handlers only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    deck = sub.add_parser("deck", help="enrol the deck of cards the camera will read",
                          description="Manage the enrolled deck (contract 2).")
    dsub = deck.add_subparsers(dest="deck_command", metavar="ACTION")
    enrol = dsub.add_parser("enrol", help="enrol a folder of card images",
                            description="Enrol DIR (one straight-on upright image per card, "
                                        "named by its code: R8.png, ALEXANDER.jpg, ...) into "
                                        "a deck file: Battle Line's 70 cards, or Schotten "
                                        "Totten's 64 (with SPY.png; docs/editions.md).")
    enrol.add_argument("directory", metavar="DIR", nargs="?",
                       help="the card images (without --camera)")
    enrol.add_argument("--out", required=True, metavar="DECKFILE", help="the deck file to write")
    enrol.add_argument("--card-size", default="63x88", metavar="WxH",
                       help="the printing's card width and height in mm (default 63x88; "
                            "with --camera the rig measures it)")
    enrol.add_argument("--camera", action="store_true",
                       help="enrol on the rig: lay each card alone under the camera when asked "
                            "(the card size is measured against the flag tiles)")
    enrol.add_argument("--source", default=None, metavar="SOURCE",
                       help="with --camera: a USB camera index or a folder of frames "
                            "(default: the Pi camera)")
    enrol.add_argument("--keep", default=None, metavar="DIR",
                       help="with --camera: where the card pictures go (default: the data "
                            "directory's enrol/; a stopped enrolment goes on from there)")
    enrol.add_argument("--edition", default="battle-line",
                       choices=("battle-line", "battle-line-medieval", "schotten-totten"),
                       help="with --camera: whose cards to ask for (default battle-line; a "
                            "folder tells by itself)")
    enrol.add_argument("--settle", type=int, default=5, metavar="N",
                       help="with --camera: frames to let pass after a card is laid (default 5)")
    enrol.set_defaults(handler=_enrol)
    deck.set_defaults(handler=_deck_help(deck))

    scan = sub.add_parser("scan", help="read one overhead frame (contract 2 JSON)",
                          description="Print the battleline-observation/1 JSON of one frame.")
    scan.add_argument("image", metavar="IMAGE")
    scan.add_argument("--deck", required=True, metavar="DECKFILE", help="an enrolled deck file")
    scan.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    scan.add_argument("--allow-missing", action="store_true",
                      help="report unread tiles as missing instead of refusing the frame "
                           "(at least 5 tiles must still be read)")
    scan.set_defaults(handler=_scan)

    vision = sub.add_parser("vision", help="camera pipeline tools: evaluate, synth, check",
                            description="Measure the camera pipeline on labelled frames.")
    vsub = vision.add_subparsers(dest="vision_command", metavar="ACTION")
    ev = vsub.add_parser("evaluate", help="accuracy over a folder of labelled frames",
                         description="Read every NAME.png|jpg of DIR and compare with NAME.json "
                                     "(the true observation).")
    ev.add_argument("directory", metavar="DIR")
    ev.add_argument("--deck", required=True, metavar="DECKFILE")
    ev.add_argument("--mistakes", type=int, default=20, metavar="N",
                    help="list up to N mistakes (default 20)")
    ev.set_defaults(handler=_evaluate)
    sy = vsub.add_parser("synth", help="write labelled frames from the synthetic renderer",
                         description="Write N seeded frames of random tables (NAME.png + "
                                     "NAME.json) into DIR, for `companion vision evaluate`; "
                                     "--count 0 --deck-images DECKDIR writes card images only.")
    sy.add_argument("directory", metavar="DIR")
    sy.add_argument("--count", type=int, default=10, metavar="N")
    sy.add_argument("--printing", action="append", default=None,
                    help="classic, bold, random-N or a printing family as FAMILY or FAMILY-N "
                         "(repeatable: frames cycle through them; default classic)")
    sy.add_argument("--rig", choices=("reference", "webcam"), default="reference",
                    help="the camera: the reference rig or a 1080p webcam (reference)")
    sy.add_argument("--setup", choices=("standard", "varied"), default="standard",
                    help="the table laid at the standard set-up, or as players do (first "
                         "cards 0-40 mm from the tile, tiles at 95-100 %%, columns askew)")
    sy.add_argument("--renditions", action="store_true",
                    help="card images from one rendition of each printing, frames from another "
                         "(as a scan and the cards on the table differ)")
    sy.add_argument("--seed", type=int, default=0)
    sy.add_argument("--clean", action="store_true", help="no camera faults")
    sy.add_argument("--hands", type=float, default=0.15, metavar="SHARE",
                    help="share of frames with an arm over the table (default 0.15)")
    sy.add_argument("--deck-images", metavar="DECKDIR",
                    help="also write the printing's card images (for `companion deck enrol`)")
    sy.set_defaults(handler=_synth)
    ck = vsub.add_parser("check", help="check the rig's set-up from one frame",
                         description="Say which flag tiles one overhead frame shows, the "
                                     "camera's scale on the table against what the pipeline "
                                     "needs, and (with cards at some flags) the tiles' print "
                                     "scale; or, with --camera, how high a camera may hang.")
    ck.add_argument("image", metavar="IMAGE", nargs="?")
    ck.add_argument("--card-width", type=float, default=None, metavar="MM",
                    help="the deck's card width (default: 63 mm)")
    ck.add_argument("--camera", nargs=3, type=float, default=None,
                    metavar=("WIDTH", "HEIGHT", "FOV"),
                    help="a camera's frame size (px) and horizontal field of view (degrees)")
    ck.set_defaults(handler=_check)
    vision.set_defaults(handler=_deck_help(vision))


def _deck_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def show(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2
    return show


def _enrol(args: argparse.Namespace) -> int:
    if args.camera:
        return _enrol_camera(args)
    if args.directory is None:
        from companion.vision.errors import VisionError
        raise VisionError("deck enrol needs a folder of card images, or --camera")
    from companion.vision.deck import enrol, parse_card_size
    deck = enrol(args.directory, parse_card_size(args.card_size))
    path = deck.save(args.out)
    print(f"enrolled {len(deck.cards)} cards from {args.directory} into {path}")
    _report_enrolment(deck, path)
    return 0


def _report_enrolment(deck: Any, path: Any) -> None:
    from companion.vision.reading import ReadingSettings
    trust = deck.templates.net_trust
    if trust < ReadingSettings.load().net_trust_min:
        print(f"the band network tells this printing's cards apart in only {100 * trust:.0f}% "
              "of camera-like views (the printings it was tuned on: 97% and more); its reads "
              "will more often be doubts that ask for confirmation")
    if deck.pairs:
        print(f"{len(deck.pairs)} pairs of cards look the same in their top band; reads of "
              f"them ask for confirmation unless what shows of the card's face tells them apart "
              f"(pictures in {deck.pairs_dir(path)}):")
        for a, b in deck.pairs:
            print(f"  {a} and {b}")


def _scan(args: argparse.Namespace) -> int:
    from companion.vision.deck import Deck
    from companion.vision.pipeline import read_image
    deck = Deck.load(args.deck)
    obs = read_image(args.image, deck, args.allow_missing)
    print(json.dumps(obs.to_json(), indent=args.indent))
    return 0


def _check(args: argparse.Namespace) -> int:
    from companion.vision import calibration, geometry
    from companion.vision.errors import VisionError
    if args.camera is None and args.image is None:
        raise VisionError("give a frame (IMAGE) or a camera (--camera WIDTH HEIGHT FOV)")
    if args.camera is not None:
        w, h, fov = args.camera
        d = calibration.camera_distance(int(w), int(h), fov)
        across, down = calibration.table_view_mm()
        print(f"the picture must show {across / 10:.0f} x {down / 10:.0f} cm of the table and "
              f"give at least {calibration.min_px_per_cm():.0f} px per cm")
        if d.possible:
            print(f"a {int(w)}x{int(h)} camera with {fov:g} degrees across: hang its lens "
                  f"{d.near_cm:.0f}-{d.far_cm:.0f} cm above the table "
                  f"({d.px_per_cm_near:.1f} px per cm at {d.near_cm:.0f} cm)")
        else:
            print(f"a {int(w)}x{int(h)} camera with {fov:g} degrees across cannot do it: "
                  f"seeing the whole table ({d.near_cm:.0f} cm up) it gives "
                  f"{d.px_per_cm_near:.1f} px per cm; use a higher resolution")
    if args.image is not None:
        from companion.vision.cvcompat import imread
        width = args.card_width if args.card_width is not None else geometry.CARD_W
        if not 40.0 <= width <= 100.0:
            raise VisionError(f"--card-width {width:g} mm is not a card's width (40-100 mm)")
        for line in calibration.check(imread(args.image), width).lines(width):
            print(line)
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from companion.vision.deck import Deck
    from companion.vision.evaluate import evaluate_folder
    deck = Deck.load(args.deck)
    score = evaluate_folder(args.directory, deck)
    for line in score.lines():
        print(line)
    for line in score.mistakes[:max(0, args.mistakes)]:
        print("  " + line)
    return 0


def _synth(args: argparse.Namespace) -> int:
    from companion.synth import RIGS, Setup, printing_named, rendition, write_deck_images
    from companion.synth.dataset import write_dataset
    if args.count < 0 or (args.count == 0 and not args.deck_images):
        from companion.vision.errors import VisionError
        raise VisionError(f"--count must be at least 1 (0 with --deck-images), not {args.count}")
    printings = tuple(printing_named(p) for p in args.printing or ["classic"])
    on_table = tuple(rendition(p, 2) for p in printings) if args.renditions else printings
    if args.count:
        items = write_dataset(args.directory, args.count, args.seed, on_table,
                              degrade=not args.clean, hands=args.hands, rig=RIGS[args.rig],
                              setup=Setup.varied() if args.setup == "varied" else None)
        print(f"wrote {len(items)} labelled frames into {args.directory}")
    if args.deck_images:
        for printing in printings:
            where = args.deck_images if len(printings) == 1 else f"{args.deck_images}/{printing.name}"
            write_deck_images(rendition(printing, 1) if args.renditions else printing, where)
            print(f"wrote the {printing.name} card images into {where}")
    return 0


def _enrol_camera(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.appliance.enrol import enrol_from_camera
    from companion.paths import data_dir
    from companion.vision.capture import open_source

    if args.directory is not None:
        from companion.vision.errors import VisionError
        raise VisionError("--camera enrols from the camera: give no folder of images")
    directory = Path(args.keep) if args.keep else data_dir() / "enrol"

    from companion.rules.edition import edition as edition_named
    cards = edition_named(args.edition).cards

    def ask(i: int, card: object) -> bool:
        print(f"[{i + 1}/{len(cards)}] lay {card} alone, face up, under the camera, then press Enter "
              "(q and Enter: stop)", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        return bool(line) and line.strip().lower() != "q"

    with open_source(args.source) as source:
        deck, size = enrol_from_camera(source, directory, ask,
                                       lambda text: print(text, file=sys.stderr),
                                       settle=args.settle, cards=cards)
    path = deck.save(args.out)
    print(f"enrolled {len(deck.cards)} cards from the camera ({size[0]:g} x {size[1]:g} mm) "
          f"into {path}")
    _report_enrolment(deck, path)
    return 0

