"""Reading one column: a strip laid out by hand from deck faces, in echelon and apart."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np
import pytest

from companion.rules.cards import BY_CODE, Card
from companion.vision import geometry
from companion.vision.deck import face_reflectance
from companion.vision.reading import (CardRead, ColourModel, ReadingSettings, edge_cover,
                                      read_strip)

from .vision_helpers import deck


def _strip(codes: list[str], steps: list[float], table: tuple[float, float, float],
           name: str = "classic", start_mm: float = 6.0, dx_mm: float = 0.0) -> np.ndarray:
    """A zone strip (reflectance, upright) with the faces of `codes` laid from `start_mm`."""
    s = ReadingSettings.load()
    dk = deck(name)
    h, w = s.px(201.0), s.px(88.0)
    img = np.empty((h, w, 3), np.float32)
    img[:] = table
    rng = np.random.default_rng(4)
    img += rng.normal(0, 0.01, img.shape).astype(np.float32)
    y = start_mm
    for code, step in zip(codes, steps + [0.0]):
        face = face_reflectance(dk.face(code))
        top, left = s.px(y), s.px(44.0 - geometry.CARD_W / 2 + dx_mm)
        fh = min(face.shape[0], h - top)
        lo, hi = max(0, left), min(w, left + face.shape[1])      # a card sticking out
        img[top:top + fh, lo:hi] = face[:fh, lo - left:hi - left]
        y += step
    return img


@pytest.mark.parametrize("name", ["classic", "bold"])
def test_an_echelon_reads_in_placement_order(name: str) -> None:
    codes = ["R8", "FOG", "B4", "G10"]
    reads = read_strip(_strip(codes, [20.0, 21.0, 19.5], (0.35, 0.45, 0.6), name),
                       deck(name).templates)
    assert [str(r.best) for r in reads] == codes
    assert [r.top_mm for r in reads] == pytest.approx([6, 26, 47, 66.5], abs=1.0)


def test_cards_laid_apart_and_on_a_pale_table() -> None:
    reads = read_strip(_strip(["Y2", "P9"], [93.0], (0.8, 0.8, 0.78), dx_mm=2.0),
                       deck("classic").templates)
    assert [r.best for r in reads] == [BY_CODE["Y2"], BY_CODE["P9"]]


def test_an_empty_zone_reads_nothing() -> None:
    assert read_strip(_strip([], [], (0.3, 0.4, 0.5)), deck("classic").templates) == []


def test_a_top_inside_a_card_body_is_no_card() -> None:
    # With the column's end not trusted, the body is searched for tops too: the classic
    # Tactics art there fits a Tactics band fairly (a phantom REDEPLOY, 53 mm down) but shows
    # no card edge across its width.
    strip = _strip(["SHIELD", "CAVALRY"], [93.0], (0.35, 0.45, 0.6))
    reads = read_strip(strip, deck("classic").templates, reliable_end=False)
    assert [str(r.best) for r in reads] == ["SHIELD", "CAVALRY"]
    s = ReadingSettings.load()
    assert edge_cover(strip, 6.0, 44.0, s) >= s.edge_cover_min          # its true top
    assert edge_cover(strip, 59.0, 44.0, s) < s.edge_cover_min          # mid-body


@pytest.mark.parametrize("name", ["classic", "bold"])
def test_a_glare_covered_band_is_doubtful_not_wrong(name: str) -> None:
    s = ReadingSettings.load()
    strip = _strip(["B4", "O7"], [20.0], (0.35, 0.45, 0.6), name)
    # A bright spot washing out the second card's band (added light, clipped by the sensor).
    yy, xx = np.mgrid[0:strip.shape[0], 0:strip.shape[1]].astype(np.float32)
    spot = np.exp(-((xx - s.px(44.0)) ** 2 + (yy - s.px(33.0)) ** 2) / (2 * s.px(14.0) ** 2))
    glared = np.minimum(strip + 0.9 * spot[:, :, None], 1.05).astype(np.float32)
    reads = read_strip(glared, deck(name).templates)
    assert reads and str(reads[0].best) == "B4"           # the card outside the glare
    for r in reads:
        c = r.candidates
        sure = r.score >= s.doubt_min_score and c[0][1] - c[1][1] >= s.doubt_margin
        assert str(r.best) in ("B4", "O7") or not sure, (r.best, r.score)


def test_a_column_off_centre_between_neighbours_reads_with_the_sides_table_shade() -> None:
    # The column lies 8 mm off its strip's middle and a neighbouring column's cards cover
    # the other margin: both margins show paper over the echelon's rows.  With the table's
    # shade known from the side's other zones, the margin that is table is told apart.
    from companion.vision.reading import table_colour

    s = ReadingSettings.load()
    table = (0.55, 0.55, 0.52)
    strip = _strip(["G10", "P5", "G8"], [20.0, 20.0], table, "bold", dx_mm=-8.0)
    neighbour = face_reflectance(deck("bold").face("R3"))
    w = strip.shape[1]
    strip[s.px(8.0):s.px(8.0) + neighbour.shape[0], w - s.px(5.0):] = \
        neighbour[:, :s.px(5.0)]
    ref = np.empty((strip.shape[0], 3), np.float32)
    ref[:] = table
    reads = read_strip(strip, deck("bold").templates, table=table_colour(strip, s, ref))
    assert [str(r.best) for r in reads] == ["G10", "P5", "G8"]


@pytest.mark.parametrize("name, dx_mm, pale_mm", [("bold", 20.0, (4.0, 20.0)),
                                                    ("bold", -20.0, (24.0, 40.0)),
                                                    ("classic", 20.0, (44.0, 60.0))])
def test_a_column_sticking_out_of_its_strip_is_searched_where_its_mask_lies(
        name: str, dx_mm: float, pale_mm: tuple[float, float],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A claimed flag's zone anchored on a line extrapolated from far tiles lies 20 mm off
    # its column: the cards stick out of the strip's side by 8 mm. Over one card's band a
    # pale thing (a sleeve, a box lid) reaches from the free side to the card, so the
    # mask's edges there say nothing of the card's; the cells searched either side of the
    # strip's middle do not reach it. The column's own centre, from the rows where the
    # mask shows one card, does.
    from companion.vision import reading
    from companion.vision.reading import table_colour

    s = ReadingSettings.load()
    table = (0.35, 0.45, 0.6)
    codes = ["R8", "B4", "G10"]
    strip = _strip(codes, [20.0, 21.0], table, name, dx_mm=dx_mm)
    ref = np.empty((strip.shape[0], 3), np.float32)
    ref[:] = table
    tc = table_colour(strip, s, ref)
    rows = slice(s.px(pale_mm[0]), s.px(pale_mm[1]))
    free = slice(0, s.px(44.0 - geometry.CARD_W / 2 + dx_mm - 1.0)) if dx_mm > 0 else \
        slice(s.px(44.0 + geometry.CARD_W / 2 + dx_mm + 1.0), None)
    strip[rows, free] = (0.8, 0.75, 0.6)
    tpl = deck(name).templates
    assert [str(r.best) for r in read_strip(strip, tpl, table=tc)] == codes
    monkeypatch.setattr(reading, "_column_centre", lambda *_: None)
    assert [str(r.best) for r in read_strip(strip, tpl, table=tc)] != codes


def test_a_column_s_centre_is_read_only_where_its_mask_shows_one_card() -> None:
    from companion.vision.reading import _column_centre, _row_edges

    s = ReadingSettings.load()
    h, w, cw = s.px(100.0), s.px(88.0), s.px(geometry.CARD_W)
    mask = np.zeros((h, w), bool)
    mask[:, 10:10 + cw] = True
    assert _column_centre(_row_edges(mask), 0, h, s) == pytest.approx(10 + (cw - 1) / 2)
    cut = np.zeros((h, w), bool)
    cut[:, w - cw + s.px(8.0):] = True                      # 8 mm outside the right side
    assert _column_centre(_row_edges(cut), 0, h, s) == pytest.approx(w - cw + s.px(8.0) + cw / 2)
    # Two columns over the whole width, or a mask split into scraps: no centre.
    assert _column_centre(_row_edges(np.ones((h, w), bool)), 0, h, s) is None
    scraps = np.zeros((h, w), bool)
    scraps[:h // 4, 10:10 + cw] = True
    assert _column_centre(_row_edges(scraps), 0, h, s) is None


@pytest.mark.parametrize("name, off_mm", [("classic", 39.0), ("bold", 45.0)])
def test_a_faint_band_inside_a_face_that_no_card_s_top_fits_is_no_card(name: str,
                                                                       off_mm: float) -> None:
    # An R8 laid 5 mm off where its band put its centre: its face, asked at that centre,
    # does not explain a band down its body (a picture's edge there, read at the card's own
    # centre). A band there that the network puts only faintly near its class, and that no
    # card's top fits better than chance, is no card; the same band named surely stays, as
    # does the faint band in a frame without colour (a grey band fits every top poorly), a
    # real card's top a step below, however faint, and a card whose band glare washes out
    # (its straight top edge shows).
    from companion.vision.reading import Maps, _not_bodies

    s = ReadingSettings.load()
    tpl = deck(name).templates
    table, dx = (0.35, 0.45, 0.6), 5.0
    faint, sure = s.net_sure_min - 0.05, s.net_sure_min + 0.05

    def read(code: str, top_mm: float, net: float) -> CardRead:
        return CardRead(((BY_CODE[code], 0.6),), top_mm, 44.0 + dx,
                        net=np.array([net, 0.1], np.float32))

    def kept(codes: list[str], steps: list[float], reads: list[CardRead],
             grey: bool = False, washed_mm: float | None = None) -> list[str]:
        strip = _strip(codes, steps, table, name, dx_mm=dx)
        if washed_mm is not None:       # a card there whose band glare washes out
            left = s.px(44.0 + dx - geometry.CARD_W / 2)
            strip[s.px(washed_mm):, left:left + s.px(geometry.CARD_W)] = 0.6
        m = Maps.of(strip, s, tpl.stock)
        m.grey = grey
        return [str(r.best) for r in _not_bodies(m, tpl, reads)]

    above = dataclasses.replace(read("R8", 6.0, 0.95), centre_mm=44.0)
    assert kept(["R8"], [], [above, read("B3", 6.0 + off_mm, faint)]) == ["R8"]
    assert kept(["R8"], [], [above, read("B3", 6.0 + off_mm, sure)]) == ["R8", "B3"]
    assert kept(["R8"], [], [above, read("B3", 6.0 + off_mm, faint)], grey=True) == \
        ["R8", "B3"]
    assert kept(["R8", "B4"], [20.0], [above, read("B4", 26.0, faint)]) == ["R8", "B4"]
    assert kept(["R8"], [], [above, read("B3", 6.0 + off_mm, faint)],
                washed_mm=6.0 + off_mm) == ["R8", "B3"]


def test_a_frame_wide_colour_shift_is_taken_out() -> None:
    # A white balance the tiles do not undo (a channel clipped on the tiles' white, not on
    # the inks) moves every band's colour alike: the frame's own confident reads map the
    # colours back onto the deck's.
    from dataclasses import replace

    from companion.vision.reading import _scored, recolour

    s = ReadingSettings.load()
    dk = deck("bold")
    # A table's worth of cards, every colour among them.
    chosen = ["R2", "R7", "O3", "O9", "Y1", "Y6", "G4", "G10", "B5", "B8", "P2", "P9", "O6",
              "Y10", "R5", "G7", "B1", "P6"]
    reads = [read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), dk.templates)[0]
             for code in chosen]
    assert [str(r.best) for r in reads] == chosen
    a = np.array([[1.3, 0.0], [0.1, 0.85]], np.float32)
    shifted = []
    for r in reads:
        h = (a @ r.hue + np.array([0.1, -0.05], np.float32)).astype(np.float32)
        shifted.append(_scored(replace(r, hue=h), dk.templates, s, h))
    assert sum(str(r.best) == c for r, c in zip(shifted, chosen)) < len(chosen)
    assert [str(r.best) for r in recolour(shifted, dk.templates)] == chosen


def test_the_colour_map_s_fit_names_each_card_once() -> None:
    from companion.vision.reading import _once_each

    score = np.array([[0.9, 0.7, 0.1],     # leads by 0.2: keeps card 0
                      [0.8, 0.75, 0.2],    # leads by 0.05: takes its next, card 1
                      [0.3, 0.85, 0.8]])   # leads by 0.05 too, after it: card 2
    assert _once_each(score).tolist() == [0, 1, 2]
    assert _once_each(score[[0, 2]]).tolist() == [0, 1]     # no card twice: as they lead
    assert _once_each(np.array([[0.5, 0.4], [0.6, 0.1], [0.7, 0.2]])).tolist()[1:] == [0, 1]


def test_a_warm_light_s_oranges_are_not_all_read_as_reds() -> None:
    # A bench table in tungsten light (colour-word, seed 2, a webcam-only run's warm frame):
    # every orange band lay a third of the way towards red.  The colour map, fitted as each
    # read named its card alone, explained them all as reds: eight oranges read as reds,
    # five of them surely (no red of their value on the table to show the clash). Each card
    # exists once: where two reads named R1 (the red one and the orange one), the fit takes
    # the next card for the read that prefers R1 less, learns where this light puts orange,
    # and names every orange of the frame.
    from companion.vision.evaluate import Score
    from companion.vision.pipeline import TableReader

    from .vision_helpers import bench_webcam_frame

    img, d, truth, _ = bench_webcam_frame("colour-word", 2, 5, light="warm")
    with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
        obs = reader.read(img)
    score = Score()
    score.add(obs, truth, "warm")
    assert score.summary()["wrong_unflagged_pct"] == 0.0, score.mistakes
    oranges = [c for f in truth.flags for side in ("north", "south") for c in f.side(side)
               if c.code.startswith("O")]
    read = {c for f in obs.flags for side in ("north", "south") for c in f.side(side)}
    assert len(oranges) >= 6 and set(oranges) <= read


def test_a_light_far_from_the_white_balance_makes_every_troop_s_colour_a_doubt() -> None:
    # Tungsten light against a daylight balance (dark-stock, seed 2, a webcam-only run's warm
    # frame): the tiles' white lost half its blue and clipped its red, and an orange 10 was
    # read red, surely (its colour 0.07 of the way towards orange). Such a frame cannot show
    # colours: every Troop's is a doubt. The bench's widest everyday cast (each channel
    # 0.8-1.2) is no such light.
    from companion.rules.place import Place
    from companion.synth import RIGS, Degrade, render
    from companion.vision.evaluate import Score
    from companion.vision.glare import strong_cast, tiles_white
    from companion.vision.layout import acquire
    from companion.vision.observation import Observation
    from companion.vision.pipeline import TableReader

    from .vision_helpers import bench_webcam_frame, printing, sample_scene

    s = ReadingSettings.load()
    img, d, truth, _ = bench_webcam_frame("dark-stock", 2, 5, light="warm")
    assert strong_cast(tiles_white(acquire(img, allow_missing=True)), s.cast_ratio_min)
    with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
        obs = reader.read(img)
    assert obs.cast and Observation.loads(obs.dumps()).cast    # the touchscreen says why
    score = Score()
    score.add(obs, truth, "warm")
    assert score.summary()["wrong_unflagged_pct"] == 0.0, score.mistakes
    troops = {(dt.where, dt.index) for dt in obs.doubtful if "colour" in dt.why}
    for f in obs.flags:
        for side in ("north", "south"):
            for i, c in enumerate(f.side(side)):
                assert not c.is_troop or (Place(f.flag, side), i) in troops, (f.flag, side, c)
    plain, _, _, _ = bench_webcam_frame("dark-stock", 2, 5)
    assert not strong_cast(tiles_white(acquire(plain, allow_missing=True)), s.cast_ratio_min)
    for cast in ((0.8, 1.0, 1.2), (1.2, 1.0, 0.8)):
        lit = render(sample_scene(), printing("classic"), seed=5, degrade=Degrade(cast=cast),
                     rig=RIGS["webcam"])
        assert not strong_cast(tiles_white(acquire(lit)), s.cast_ratio_min), cast


def test_a_frame_s_colours_all_brighter_are_mapped_back_whole() -> None:
    # Exposure and a camera's processing make every colour of a frame brighter alike (here
    # twice as saturated as enrolled, every hue kept).  The colour map takes that gain out
    # freely: drawn towards no change, it stopped short and left each colour up to a sixth
    # of the way towards its neighbour (an orange already seen nearer yellow went over).
    from dataclasses import replace

    from companion.vision.reading import _scored, recolour

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    hue_of = {str(c): tpl.hues[i] for i, c in enumerate(tpl.cards)}
    chosen = ["B8", "G2", "R10", "O3", "R1", "R5", "P7", "Y6"]
    reads = []
    for code in chosen:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        h = (2.0 * hue_of[code]).astype(np.float32)
        reads.append(_scored(replace(band, hue=h), tpl, s, h))
    out = recolour(reads, tpl)
    assert [str(r.best) for r in out] == chosen
    assert max(abs(r.colour_t) for r in out) < 0.05


@pytest.mark.parametrize("vivid", [2.0, 3.0])
def test_a_vivid_frame_s_yellows_with_no_orange_beside_them_stay_yellow(vivid: float) -> None:
    # A frame showing every colour two or three times as vivid as enrolled (a second print
    # run's ink, a camera's saturation), five yellow cards and no orange: every colour lay
    # further than `colour_cap` from its own and the next alike, the map's fit started from
    # names the shapes alone gave, and it settled with every yellow read orange (twice as
    # vivid: a bench table at the webcam) or every card red (three times), silently.
    # Started with the frame's vividness taken out, it names them all.
    from companion.vision.reading import recolour

    tpl = deck("bold").templates
    chosen = ["G10", "P3", "Y4", "Y5", "Y3", "P8", "B7", "Y1", "P4", "R6", "B6", "Y2", "R9",
              "R2", "R8", "P10", "G9", "B3", "R4"]
    reads = _bold_reads_as_vivid(chosen, lambda code: vivid)
    assert [str(r.best) for r in recolour(reads, tpl)] == chosen


def test_a_frame_of_a_few_cards_has_its_colours_checked_by_a_map_where_the_two_agree(
        ) -> None:
    # A frame of five cards (too few for a colour map of its own, `recolour_min_reads`), a
    # second print run's colours a third more vivid and turned 8 degrees: the red 7 lay a
    # quarter of the way towards orange and was a doubt (`colour_doubt_unmapped`). A map
    # fitted from the five names every card as the camera's colour does, each near its
    # own: sure. Turned 15 degrees and half as vivid again, the red 7 is read orange; the
    # map names it otherwise, and it stays a doubt. One card alone is never mapped.
    from dataclasses import replace

    from companion.vision.reading import _scored, colour_unsure, recolour

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    chosen = ["R7", "G4", "P5", "B9", "Y3"]

    def seen(gain: float, deg: float, codes: list[str]) -> list[CardRead]:
        a = np.radians(deg)
        turn = gain * np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        out = []
        for code in codes:
            band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
            h = (turn @ tpl.hues[tpl.cards.index(BY_CODE[code])]).astype(np.float32)
            out.append(_scored(replace(band, hue=h), tpl, s, h))
        return out

    reads = seen(1.3, 8.0, chosen)
    assert [str(r.best) for r in reads] == chosen
    assert reads[0].colour_t >= s.colour_doubt_unmapped
    out = recolour(reads, tpl)
    assert [str(r.best) for r in out] == chosen
    assert not any(colour_unsure(r, s) for r in out)
    assert colour_unsure(recolour(reads[:1], tpl)[0], s)
    turned = recolour(seen(1.5, 15.0, chosen), tpl)
    assert str(turned[0].best) == "O7" and colour_unsure(turned[0], s)
    assert [str(r.best) for r in turned[1:]] == chosen[1:]


def _bold_reads_as_vivid(codes: list[str], vivid: Callable[[str], float]) -> list[CardRead]:
    """Reads of the bold printing's cards `codes`, each band's colour `vivid(code)` times as
    vivid as enrolled (scored again with it)."""
    from dataclasses import replace

    from companion.vision.reading import _scored

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    reads = []
    for code in codes:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        k = vivid(code)
        h = (k * tpl.hues[tpl.cards.index(BY_CODE[code])]).astype(np.float32)
        reads.append(_scored(replace(band, hue=h, vivid=k * band.vivid), tpl, s, h))
    return reads


def test_bands_unlike_any_card_do_not_turn_the_frame_s_colour_map() -> None:
    # A dull frame (glare) with its colours turned a little towards red, no red card on the
    # table, and bands of glare over wood whose cells fit a purple or blue value's layout and
    # whose colour is a dull orange.  Fitted from them too, the map turns every colour one
    # step on (oranges to red, yellows to orange), silently; the network puts such bands
    # only faintly near any class (`faint_band`), and the map is fitted without them.
    from dataclasses import replace

    from companion.vision.reading import _scored, recolour

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    hue_of = {str(c): tpl.hues[i] for i, c in enumerate(tpl.cards)}
    o, r = hue_of["O5"], hue_of["R5"]
    turn = 0.3 * (np.arctan2(r[1], r[0]) - np.arctan2(o[1], o[0]))
    seen = 0.7 * np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])

    def read(code: str, hue: np.ndarray, net: float | None = None) -> CardRead:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        assert str(band.best) == code and band.net is not None
        h = np.asarray(hue, np.float32)
        band = replace(band, hue=h) if net is None else \
            replace(band, hue=h, net=np.full_like(band.net, net))
        return _scored(band, tpl, s, h)

    chosen = ["O3", "O9", "O6", "Y1", "Y6", "Y10", "G4", "G10", "B5", "B8", "P2", "P9"]
    cards = [read(code, seen @ hue_of[code]) for code in chosen]

    def glare(net: float) -> list[CardRead]:
        # Ten of twenty-two bands: fewer (eight of twenty), the map's robust fit, naming each
        # card once, alone leaves them out
        # (`test_a_few_bands_far_from_every_colour_do_not_shrink_the_frame_s_colour_map`).
        return [read(code, 0.3 * hue_of["O3"], net)
                for code in ("P3", "P7", "P5", "P1", "P4", "P6", "P8", "P10", "B1", "B2")]

    faint = (s.net_card_min + s.net_sure_min) / 2
    assert [str(r.best) for r in recolour(cards + glare(faint), tpl)][:len(chosen)] == chosen
    # The same bands put near a class would turn it: what the test guards against.
    turned = [str(r.best) for r in recolour(cards + glare(0.9), tpl)][:len(chosen)]
    assert turned != chosen


@pytest.mark.parametrize("far", [("R5", "G1", "R8"), ("R5", "G1", "R8", "B4", "Y6", "R3")])
def test_a_few_bands_far_from_every_colour_do_not_shrink_the_frame_s_colour_map(
        far: tuple[str, ...]) -> None:
    # A zone whose light its tiles misjudged (a dark stock's reference read at half its
    # enrolled shade, the channels doubled) shows its cards twice as vivid as any card.
    # Fitted by least squares, those few bands shrank the map for the whole frame: every
    # other card moved a fifth to a third of the way to the next colour (a bench frame's
    # reds then fitted too poorly to be cards, and were lost). The fit is robust: a read far
    # from its card's colour through the map counts for less.
    from companion.vision.reading import recolour

    chosen = ["G10", "P3", "Y4", "O5", "Y3", "P8", "B7", "O1", "P4", "R6", "B6", "Y2", "R9",
              "R2", "G8", "P10", "G9", "B3", "O4"]
    reads = _bold_reads_as_vivid(chosen + list(far), lambda code: 2.2 if code in far else 1.0)
    out = recolour(reads, deck("bold").templates)[:len(chosen)]
    assert [str(r.best) for r in out] == chosen
    assert max(abs(r.colour_t) for r in out) < 0.1


def test_a_frame_without_colour_keeps_its_cards_as_colour_doubts() -> None:
    # A greyscale camera shows every band grey. Scored against the enrolled colours, a
    # vivid card's grey band lay far from every colour of its value and fitted too poorly to
    # be a card unless it showed a sure shape or a whole top edge: the bench lost a fifth
    # of a bold printing's cards on a grey frame (echelons hide most of a card's top edge).
    # In a frame known to show no colour, the reads are ranked on their shapes alone, and
    # every one is a colour doubt.
    from dataclasses import replace

    from companion.vision.reading import _scored, is_card, recolour

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    chosen = ["Y7", "O5", "Y10", "R3", "G9", "B4", "P6", "O8", "Y2"]
    reads = []
    for code in chosen:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        assert band.shape is not None and band.cells is not None
        grey = np.zeros(2, np.float32)
        fair = 0.85 / float(band.shape.max())     # a fair fit, not a sure one; a hidden edge
        band = replace(band, hue=grey, vivid=0.0, edge=0.2, shape=band.shape * fair,
                       cells=band.cells * fair)
        reads.append(_scored(band, tpl, s, grey))
    out = recolour(reads, tpl)
    assert all(is_card(r, s) for r in out)
    assert all(r.colour_t >= s.colour_doubt for r in out)
    assert [r.best.value for r in out] == [BY_CODE[c].value for c in chosen]


def test_a_card_whose_colour_is_misjudged_is_a_colour_doubt_not_lost() -> None:
    # A band that fits a card's shape fairly (a soft webcam frame) and shows a whole top
    # edge is a card; its colour far from every colour (a zone whose light was misjudged:
    # two and a half times as vivid as enrolled) took up to 0.72 off its score, and the card
    # was lost without a word. The colour now counts for at most `card_colour_cost` in
    # whether it is a card; a colour named otherwise than the card's is a doubt.
    from dataclasses import replace

    from companion.vision.reading import _scored, colour_unsure, is_card

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    for code in ["R5", "Y7", "B3", "G9", "O2", "P8"]:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        assert band.shape is not None and band.cells is not None
        fair = 0.75 / float(band.shape.max())
        j = tpl.cards.index(BY_CODE[code])
        far = (2.5 * tpl.hues[j]).astype(np.float32)
        read = _scored(replace(band, hue=far, edge=1.0, shape=band.shape * fair,
                               cells=band.cells * fair), tpl, s, far)
        assert is_card(read, s), code
        assert read.best.value == BY_CODE[code].value
        assert str(read.best) == code or colour_unsure(read, s), (code, read.best)


def test_a_darker_print_run_of_a_dark_stock_keeps_its_cards_and_colours() -> None:
    # The copy on the table printed darker than the enrolled one (a gamma of 1.3 or 1.6):
    # its black stock shows at half its enrolled shade or less, while its coloured numerals
    # darken far less. Scaled to match the stock, every channel doubled and the numerals
    # came out twice as vivid as any card: their colours fitted so poorly that the cards
    # were no cards, and a whole column was lost (bench, dark stock, seed 1). A reference
    # this dark measures the print's black, not the light on the card: it rescales nothing.
    from companion.synth.zoo import FAMILIES

    from .vision_helpers import enrolled

    s = ReadingSettings.load()
    dk = enrolled(FAMILIES["dark-stock"](0))
    tpl = dk.templates
    codes = ["R2", "B5", "G7", "Y3", "O9", "P4", "R9", "Y8"]
    for gamma in (1.3, 1.6):
        for code in codes:
            img = np.empty((s.px(120.0), s.px(88.0), 3), np.float32)
            img[:] = (0.45, 0.35, 0.3)
            face = face_reflectance(dk.face(code)) ** gamma
            top, left = s.px(6.0), s.px(44.0 - tpl.card_w / 2)
            img[top:top + face.shape[0], left:left + face.shape[1]] = face[:img.shape[0] - top]
            reads = read_strip(img, tpl)
            assert [str(r.best) for r in reads] == [code], (gamma, code)
            assert abs(reads[0].colour_t) < 0.2, (gamma, code, reads[0].colour_t)


def test_a_colour_no_frame_map_checked_needs_a_wider_margin() -> None:
    # A frame of a few cards has too few reads to map its colours by: a second print run's
    # orange, turned a quarter of the way towards yellow, is read as orange still, but no
    # map checked it, so it is a doubt; the same on a table full enough to be mapped is not.
    from dataclasses import replace

    from companion.vision.reading import _scored, colour_unsure, recolour

    s = ReadingSettings.load()
    tpl = deck("bold").templates
    hue_of = {str(c): tpl.hues[i] for i, c in enumerate(tpl.cards)}
    t = (s.colour_doubt_unmapped + s.colour_doubt) / 2

    def read(code: str, towards: str | None = None) -> CardRead:
        band = read_strip(_strip([code], [], (0.35, 0.45, 0.6), "bold"), tpl)[0]
        h = hue_of[code] if towards is None else (1 - t) * hue_of[code] + t * hue_of[towards]
        h = np.asarray(h, np.float32)
        return _scored(replace(band, hue=h), tpl, s, h)

    few = [read("O5", "Y5"), read("B3"), read("G8")]
    assert len(few) < s.recolour_min_reads and not colour_unsure(few[0], s)
    out = recolour(few, tpl)
    assert str(out[0].best) == "O5" and colour_unsure(out[0], s)
    assert not any(colour_unsure(r, s) for r in out[1:])
    full = few + [read(c) for c in ("R2", "R7", "O3", "Y1", "Y6", "G4", "B8", "P2", "P9")]
    out = recolour(full, tpl)
    assert str(out[0].best) == "O5" and not colour_unsure(out[0], s)


def _faces_apart(apart: float) -> np.ndarray:
    """Four enrolled faces' cells (cards x rows x columns): two that correlate 1 - `apart`,
    and their negatives (the deck's mean face is then blank: each face is all its own)."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 40))
    a, b = a - a.mean(), b - b.mean()
    a /= np.linalg.norm(a)
    b -= (b @ a) * a
    b /= np.linalg.norm(b)
    near = 1.0 - apart
    c = near * a + np.sqrt(1.0 - near * near) * b
    return np.stack([a, c, -a, -c]).reshape(4, 4, 10)


def _two_looks(cells_lead: float, net_lead: float, score: float, sep: float | None = None,
               trust: float = 1.0, pair: float | None = None,
               face: tuple[float, float] | None = None, faces_apart: float = 0.3,
               settle_behind: bool = False) -> bool:
    """`looks_disagree` on a read of R6 whose cells put R6 `cells_lead` ahead of R8 (behind
    when negative) and whose network puts it `net_lead` nearer R6's class than R8's, on a
    printing whose classes the network puts `sep` apart (by default as far as usual), R6's
    and R8's `pair` apart (by default `sep`), and tells apart in `trust` of camera-like
    views; `face`: how well the read's whole face fits R6's and R8's enrolled faces (a
    column's last card), which lie `faces_apart` apart."""
    from types import SimpleNamespace

    from companion.vision.reading import CardRead, _own_faces, looks_disagree

    # Two Tactics cards the read is nothing like, for faces of their own.
    cards = (BY_CODE["R6"], BY_CODE["R8"], BY_CODE["FOG"], BY_CODE["MUD"])
    sep = ReadingSettings.load().net_sep_ref if sep is None else sep
    turn = np.arccos(1.0 - (sep if pair is None else pair))
    protos = np.array([[1.0, 0.0], [np.cos(turn), np.sin(turn)], [-1.0, 0.0], [0.0, -1.0]],
                      np.float32)
    own, common = _own_faces(_faces_apart(faces_apart))
    tpl = SimpleNamespace(cards=cards, class_of=np.arange(4), net_sep=sep, net_trust=trust,
                          protos=protos, own_faces=own, face_common=common)
    read = CardRead(((cards[0], score), (cards[1], score - 0.05)), 10.0, 30.0,
                    net=np.array([0.5 + net_lead, 0.5, 0.0, 0.0], np.float32),
                    cells=np.array([0.8 + cells_lead, 0.8, 0.0, 0.0], np.float32),
                    face=None if face is None else np.array([*face, -1.0, -1.0], np.float32))
    return looks_disagree(read, cards[0], tpl, ReadingSettings.load(),  # type: ignore[arg-type]
                          settle_behind=settle_behind)


def test_a_column_s_last_card_is_named_by_its_whole_face_where_its_band_is_not() -> None:
    s = ReadingSettings.load()
    tie, unsure = -s.cells_tie / 2, s.net_settle_lead - 0.05
    assert _two_looks(tie, unsure, 0.9)
    # Its whole face fits R6's far better than R8's: R6, however the band's looks tie ...
    assert not _two_looks(tie, unsure, 0.9, face=(0.9, 0.7))
    # ... and R8 is no sure read of it, however the band's looks agree on R8.
    assert _two_looks(0.05, 0.4, 0.9, face=(0.7, 0.9))
    # A face that fits neither well, or leads by less than a share of how far apart the two
    # faces lie as enrolled (or than a floor), names nothing: the band's looks decide.
    assert _two_looks(tie, unsure, 0.9, face=(s.face_fit_min - 0.05, 0.2))
    lead = s.face_share * 0.6 * 0.8
    assert lead > s.face_lead_min
    assert _two_looks(tie, unsure, 0.9, face=(0.9, 0.9 - lead), faces_apart=0.6)
    assert not _two_looks(tie, unsure, 0.9, face=(0.9, 0.9 - lead), faces_apart=0.6 * 0.7)
    assert _two_looks(tie, unsure, 0.9, face=(0.9, 0.9 - s.face_lead_min * 0.8),
                      faces_apart=0.01)
    assert not _two_looks(0.05, 0.4, 0.9, face=(0.9, 0.9 - lead), faces_apart=0.6)


def test_cells_a_little_behind_are_settled_by_the_network_where_the_face_sides_with_it(
        ) -> None:
    # An R6 whose cells put R8 first, but not clearly: the network puts the band clearly
    # nearer R6, and the read's face, naming no class surely, fits R6's better than R8's.
    # Two looks of three name R6: its card is no doubt for that (`settle_behind`, the
    # pipeline's question), though whether the band is a card at all asks as before.
    s = ReadingSettings.load()
    behind = -(s.cells_tie + s.cells_clear_lead) / 2
    lead = s.net_settle_lead + 0.05
    assert _two_looks(behind, lead, 0.9, face=(0.45, 0.4))
    assert not _two_looks(behind, lead, 0.9, face=(0.45, 0.4), settle_behind=True)
    # The face siding with the cells (a network confidently wrong), cells clearly behind,
    # a network not clearly ahead, a weak read, or a printing the network cannot read:
    # still a doubt.
    assert _two_looks(behind, lead, 0.9, face=(0.4, 0.45), settle_behind=True)
    assert _two_looks(-s.cells_clear_lead - 0.01, lead, 0.9, face=(0.45, 0.4),
                      settle_behind=True)
    assert _two_looks(behind, s.net_settle_lead - 0.05, 0.9, face=(0.45, 0.4),
                      settle_behind=True)
    assert _two_looks(behind, lead, s.doubt_floor - 0.05, face=(0.45, 0.4),
                      settle_behind=True)
    assert _two_looks(behind, lead, 0.9, trust=s.net_trust_min - 0.05, face=(0.45, 0.4),
                      settle_behind=True)

def _stand_in_templates(cards: tuple[Card, ...], class_of: list[int]) -> Any:
    """Templates enough for the two looks' rules: `cards`, the network's class of each
    (`class_of`, one prototype per class, as far apart as usual), a printing the network
    reads well."""
    from types import SimpleNamespace

    n = max(class_of) + 1
    return SimpleNamespace(cards=cards, class_of=np.array(class_of), net_trust=1.0,
                           net_sep=ReadingSettings.load().net_sep_ref,
                           protos=np.eye(n, dtype=np.float32))


def test_a_rival_value_held_for_sure_elsewhere_settles_the_two_looks() -> None:
    # A red 6 whose band the network finds nearer an 8's: a doubt, unless the red 8 lies for
    # sure at another flag (each card exists once). A blue 8 elsewhere says nothing of it.
    # Where a 9 is next nearest once the 8 is out, it stays a doubt, the red 9 held or not:
    # only the class each look puts first is taken away, never a chain of them.

    from companion.vision.reading import CardRead, looks_agree_without, looks_disagree

    s = ReadingSettings.load()
    r6, r8, b8, r9 = (BY_CODE[c] for c in ("R6", "R8", "B8", "R9"))
    cards = (r6, r8, b8, r9)
    tpl = _stand_in_templates(cards, [0, 1, 1, 2])

    def read(nine: float) -> CardRead:
        return CardRead(((r6, 0.85), (r8, 0.83)), 10.0, 30.0,
                        net=np.array([0.5, 0.6, nine], np.float32),
                        cells=np.array([0.8, 0.78, 0.78, 0.3], np.float32))

    def settled(r: CardRead, *sure: Card) -> bool:
        return looks_agree_without(r, r6, tpl, s, set(sure))  # type: ignore[arg-type]

    lone = read(0.0)
    assert looks_disagree(lone, r6, tpl, s)                   # type: ignore[arg-type]
    assert not settled(lone) and not settled(lone, b8)
    assert settled(lone, r8) and settled(lone, b8, r8)
    near_nine = read(0.55)
    assert not settled(near_nine, r8) and not settled(near_nine, r8, r9)
    # Cells that put the 8 first are held against it the same way.
    cells_eight = CardRead(((r6, 0.85), (r8, 0.84)), 10.0, 30.0,
                           net=np.array([0.5, 0.6, 0.0], np.float32),
                           cells=np.array([0.78, 0.8, 0.8, 0.3], np.float32))
    assert not settled(cells_eight) and settled(cells_eight, r8)


def test_a_band_the_network_names_as_its_cells_do_is_a_card_however_little_it_leads() -> None:
    # A thin numeral (a centred 1) fits every card's cells about as well as its own: its
    # lead over the deck's median is under `lead_min`. Where the network puts the band
    # `net_named_min` near the class the cells name, it is a card all the same; not where
    # the network puts it less near, names another class, or vetoes it as no band at all.

    from companion.vision.reading import CardRead, _fits_a_card, _net_named_card

    s = ReadingSettings.load()
    r1, o1, r6, r8 = (BY_CODE[c] for c in ("R1", "O1", "R6", "R8"))
    tpl = _stand_in_templates((r1, o1, r6, r8), [0, 0, 1, 2])
    cells = np.array([0.88, 0.87, 0.86, 0.86], np.float32)

    def read(*net: float) -> CardRead:
        return CardRead(((r1, 0.88), (o1, 0.87)), 10.0, 30.0,
                        net=np.array(net, np.float32), cells=cells)

    assert not _fits_a_card(read(0.95, 0.2, 0.2), s, s.card_lead_min)
    named = read(0.95, 0.2, 0.2)
    assert _net_named_card(named, tpl, s)                              # type: ignore[arg-type]
    faint = read(s.net_named_min - 0.05, 0.2, 0.2)
    assert not _net_named_card(faint, tpl, s)                          # type: ignore[arg-type]
    assert not _net_named_card(read(0.2, 0.95, 0.2), tpl, s)           # type: ignore[arg-type]
    assert not _net_named_card(read(0.3, 0.3, 0.3), tpl, s)            # type: ignore[arg-type]
    assert not _net_named_card(CardRead(((r1, 0.88),), 10.0, 30.0, cells=cells), tpl,
                               s)                                      # type: ignore[arg-type]


def test_a_card_on_a_card_of_its_own_stock_needs_no_top_edge_where_the_network_names_it(
        ) -> None:
    # A white card laid on a white card shows no step at its top: a read that fits only
    # fairly must show one, unless the band network surely names its class.

    from companion.vision.reading import CardRead, is_card

    s = ReadingSettings.load()
    r6, r8 = BY_CODE["R6"], BY_CODE["R8"]
    tpl = _stand_in_templates((r6, r8), [0, 1])
    fair = (s.not_a_card_score + s.edge_check_below) / 2

    def read(*net: float) -> CardRead:
        return CardRead(((r6, fair), (r8, fair - 0.1)), 10.0, 30.0, edge=0.0,
                        net=np.array(net, np.float32),
                        cells=np.array([fair, fair - 0.1], np.float32))

    assert not is_card(read(0.95, 0.2), s)
    assert is_card(read(0.95, 0.2), s, tpl)                            # type: ignore[arg-type]
    assert not is_card(read(0.6, 0.58), s, tpl)                        # type: ignore[arg-type]
    assert not is_card(read(0.2, 0.95), s, tpl)                        # type: ignore[arg-type]
    assert is_card(dataclasses.replace(read(0.2, 0.95), edge=1.0), s,
                   tpl)                                                # type: ignore[arg-type]


def _crowded(monkeypatch: pytest.MonkeyPatch, lost: tuple[int, bool], peak: int,
             cells: tuple[float, float], net: tuple[float, float],
             asked: list[list[tuple[int, int]]] | None = None) -> list[Card]:
    """The cards `_crowded_out` keeps of a peak at row `peak` that a top read as no card
    (`lost`: its row, whether the network vetoed it) crowded out, where the peak reads as
    R6 with the cells' and the network's similarities to R6 and R8 `cells` and `net`; the
    tops it asks to read go to `asked`."""
    from types import SimpleNamespace

    from companion.vision import reading
    from companion.vision.reading import CardRead, _crowded_out

    s = ReadingSettings.load()
    r6, r8 = BY_CODE["R6"], BY_CODE["R8"]

    def identify(_m: object, tops: list[tuple[int, int]], _tpl: object) -> list[CardRead]:
        if asked is not None:
            asked.append(tops)
        return [CardRead(((r6, cells[0]), (r8, cells[1])), y / s.px_per_mm, 30.0,
                         net=np.array(net, np.float32), cells=np.array(cells, np.float32))
                for y, _ in tops]

    monkeypatch.setattr(reading, "identify_many", identify)
    m, tpl = SimpleNamespace(s=s), _stand_in_templates((r6, r8), [0, 1])
    kept = _crowded_out(m, tpl, [], [lost], [(peak, 0)],  # type: ignore[arg-type]
                        s.card_lead_min)
    return [r.best for r in kept]


def test_a_peak_crowded_out_by_a_top_the_network_vetoed_is_read_however_near(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The band window shifted a few mm onto the table above a column's first card can fit
    # the deck's bands better than the card's own top and keep it out; the network then
    # finds no band of the printing there. The peak it crowded out is read, however near:
    # the vetoed top was no band, so the peak is not that band again. It is kept only where
    # the network surely names it. A peak as near a top lost for its cells alone is that
    # band again, and is not read.
    s = ReadingSettings.load()
    lost_top, peak = 100, 100 + s.px(s.band_mm / 4)
    asked: list[list[tuple[int, int]]] = []
    assert _crowded(monkeypatch, (lost_top, True), peak, (0.9, 0.7), (0.95, 0.2),
                    asked) == [BY_CODE["R6"]]
    assert asked == [[(peak, 0)]]
    assert _crowded(monkeypatch, (lost_top, True), peak, (0.9, 0.7), (0.6, 0.58)) == []
    asked.clear()
    assert _crowded(monkeypatch, (lost_top, False), peak, (0.9, 0.7), (0.95, 0.2),
                    asked) == [] and asked == []


def test_a_peak_crowded_out_is_kept_where_the_network_names_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A peak a top read as no card crowded out (half a band to a step from it) is kept on
    # the terms of any top: its cells fit a card clearly, or the network names the class its
    # cells name (`_net_named_card`). A picture in a scenic G6's band left the cells' lead
    # 0.034, under `card_lead_min`, with the network at 0.85: the card was lost.
    s = ReadingSettings.load()
    lost_top = 100
    peak = lost_top + (s.px(s.band_mm / 2) + s.px(s.min_step_mm)) // 2
    for net, kept in ((s.net_named_min + 0.05, [BY_CODE["R6"]]),
                      (s.net_named_min - 0.05, [])):
        assert _crowded(monkeypatch, (lost_top, False), peak, (0.75, 0.73),
                        (net, 0.2)) == kept


def test_a_close_call_between_two_values_asks_for_the_face() -> None:
    from dataclasses import replace

    from companion.vision.reading import CardRead, _close_call

    s = ReadingSettings.load()
    tpl = deck("classic").templates
    r6, o6, r8 = BY_CODE["R6"], BY_CODE["O6"], BY_CODE["R8"]

    def read(*cands: tuple[object, float]) -> CardRead:
        return CardRead(tuple(cands), 10.0, 30.0)   # type: ignore[arg-type]

    assert _close_call(read((r6, 0.9), (r8, 0.9 - s.face_close / 2)), tpl, s)
    assert not _close_call(read((r6, 0.9), (r8, 0.9 - 2 * s.face_close)), tpl, s)
    # Another colour of the same value is no call for the face: it tells values apart.
    assert not _close_call(read((r6, 0.9), (o6, 0.9), (r8, 0.9 - 2 * s.face_close)), tpl, s)
    # A card whose band the printing does not tell from the first's is, however far behind.
    i6, i8 = tpl.cards.index(r6), tpl.cards.index(r8)
    twins = replace(tpl, alike=frozenset({(i6, i8), (i8, i6)}))
    assert _close_call(read((r6, 0.9), (r8, 0.5)), twins, s)
    assert _close_call(read((r8, 0.9), (o6, 0.6), (r6, 0.5)), twins, s)


def _bench_read(family: str, seed: int, frame: int, light: str = "",  # noqa: ANN202
                pairs: tuple[tuple[str, str], ...] | None = None):
    """The reader's observation of a bench table at the webcam (`bench_webcam_frame`) and
    the reader that made it; no read of it wrong and not flagged. `pairs`: the deck's alike
    pairs instead of those its enrolment found."""
    from companion.vision.deck import Deck
    from companion.vision.evaluate import Score
    from companion.vision.pipeline import TableReader

    from .vision_helpers import bench_webcam_frame

    img, d, truth, _ = bench_webcam_frame(family, seed, frame, light)
    if pairs is not None:
        d = Deck(d.cards, d.faces, d.px_per_mm, d.source, d.card_size, pairs, d.stock)
    with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
        obs = reader.read(img)
    score = Score()
    score.add(obs, truth, light or "webcam")
    assert score.summary()["wrong_unflagged_pct"] == 0.0, score.mistakes
    return obs, reader


def test_a_webcam_s_last_cards_are_named_by_their_faces() -> None:
    # A bench table (scenic, seed 0, a webcam-only run's frame 1): a numeral a few pixels
    # high in a picture's corner. The band's two looks did not agree on four columns' last
    # cards; their whole faces name R8 and R6, read so, and those reads are sure. The other
    # two faces name a 7 and a 9 where the band read Y1 and Y6 (wrongly, as doubts): the
    # faces rank the reads' candidates, and Y7 and Y9 are read, surely.
    obs, _ = _bench_read("scenic", 0, 1)
    assert not obs.doubtful
    assert obs.flags[0].north == (BY_CODE["Y7"],) and obs.flags[6].north == (BY_CODE["Y9"],)


_SIX_EIGHT = tuple((f"{c}6", f"{c}8") for c in "OYGBP")


def test_cards_whose_bands_are_alike_are_told_apart_by_their_faces() -> None:
    # A bench table (picture-tactics, seed 2, a webcam-only run's frame 3): a printing whose
    # 6s and 8s the cells find alike in the band, taken as pairs (`Deck.pairs`) as an
    # enrolment gives them where the band network does not tell them apart either, so that
    # every read of one is a doubt (`pair`). What shows of four such cards' faces names
    # them: no doubt is left, and none is read wrong.
    obs, reader = _bench_read("picture-tactics", 2, 3, pairs=_SIX_EIGHT)
    assert reader.deck.alike()
    assert not obs.doubtful
    assert BY_CODE["B8"] in obs.flags[2].north and BY_CODE["O6"] in obs.flags[4].south
    assert BY_CODE["G6"] in obs.flags[5].south and BY_CODE["Y8"] in obs.flags[8].north


def test_cards_alike_in_the_cells_that_the_band_network_tells_apart_are_no_pair() -> None:
    # Picture-tactics, seed 2: heavy numerals whose 6 and 8 differ only in a small opening.
    # The cells find each colour's 6 and 8 alike (more than `same_band`), but the band
    # network tells the two classes apart in nearly every camera-like view of their enrolled
    # bands: enrolment reports no pair, and their reads are judged by the two looks as any
    # read is. On a bench table (a webcam-only run's frame 0) the G8 and O6 that were pair
    # doubts (with the pairs, below) are read right, surely; the doubts the looks raise stay.
    from dataclasses import replace

    from companion.vision.config import load_config
    from companion.vision.deck import Deck, _alike_pairs

    obs, reader = _bench_read("picture-tactics", 2, 0)
    d = reader.deck
    assert d.pairs == ()
    t, cfg = d.templates, load_config()["enrol"]
    codes = [c.code for c in t.cards]
    for a, b in _SIX_EIGHT:
        assert float(t.fine[codes.index(a)] @ t.fine[codes.index(b)]) > cfg["same_band"]
    assert obs.flags[5].north[1] == BY_CODE["G8"] and obs.flags[8].north[1] == BY_CODE["O6"]
    doubts = {(dt.best.code, dt.why) for dt in obs.doubtful}
    assert doubts == {("P6", ("looks",)), ("P1", ("faint",))}
    paired, _ = _bench_read("picture-tactics", 2, 0, pairs=_SIX_EIGHT)
    assert {(dt.best.code, dt.why) for dt in paired.doubtful} == {
        ("P6", ("pair", "looks")), ("P1", ("faint",)), ("G8", ("pair",)), ("O6", ("pair",))}
    # On a printing the network does not read well enough (its self-test under
    # `net_trust_min`), its say does not count: the pairs stay.
    weak = Deck(d.cards, d.faces, d.px_per_mm, d.source, d.card_size, (), d.stock)
    weak._templates = replace(t, net_trust=0.5)
    assert set(_alike_pairs(weak, cfg)) == set(_SIX_EIGHT)


def test_a_face_in_a_greyscale_frame_names_a_value_and_leaves_the_colour_a_doubt() -> None:
    from companion.vision.reading import face_class

    obs, reader = _bench_read("scenic", 0, 1, light="grey")
    named = [(w, i) for w, i, r in reader.last_reads
             if face_class(r, reader.templates, reader.settings) is not None]
    assert named
    why = {(dt.where, dt.index): dt.why for dt in obs.doubtful}
    assert all("colour" in why.get(at, ()) for at in named)


def _echelon_of_three():  # noqa: ANN202
    """A classic R8, B4 and G6 laid in an echelon (20 and 21 mm apart): the templates, their
    settings, the strip's reads and its maps."""
    from companion.vision.reading import Maps

    tpl = deck("classic").templates
    s = tpl.settings()
    refl = _strip(["R8", "B4", "G6"], [20.0, 21.0], (0.35, 0.45, 0.6))
    return tpl, s, read_strip(refl, tpl), Maps.of(refl, s, tpl.stock)


def test_a_face_is_matched_whole_only_where_it_shows_whole() -> None:
    from dataclasses import replace

    from companion.vision.reading import face_class, face_look

    tpl, s, reads, m = _echelon_of_three()
    six = int(tpl.class_of[tpl.cards.index(BY_CODE["G6"])])
    last = face_look(m, tpl, reads[-1])
    assert last is not None and int(np.argmax(last)) == six
    assert face_class(replace(reads[-1], face=last), tpl, s) == six
    # The first card's face lies under the two laid on it: it names nothing.
    first = face_look(m, tpl, reads[0])
    assert first is not None and face_class(replace(reads[0], face=first), tpl, s) is None
    # A face running past the strip's end is not looked at.
    assert face_look(m, tpl, replace(reads[-1], top_mm=150.0)) is None


def test_an_echelon_s_card_is_named_by_what_shows_of_its_face(monkeypatch) -> None:
    from dataclasses import replace

    from companion.vision import reading
    from companion.vision.reading import _with_face, face_class, face_look

    tpl, s, reads, m = _echelon_of_three()
    eight = int(tpl.class_of[tpl.cards.index(BY_CODE["R8"])])
    # The first card's face down to the second card's top, matched with the enrolled faces'
    # same rows, names it (whole, it names nothing: `..._only_where_it_shows_whole`).
    seen = face_look(m, tpl, reads[0], 18)
    assert seen is not None and int(np.argmax(seen)) == eight
    assert face_class(replace(reads[0], face=seen, face_rows=18), tpl, s) == eight
    # Asked where the band's looks do not name its card: down to the next card's top, less
    # `face_cover_mm`; not where no more than the band shows.
    monkeypatch.setattr(reading, "looks_disagree", lambda *a, **k: True)
    looked = _with_face(m, tpl, reads[0], [], reads[1])
    shown = reads[1].top_mm - reads[0].top_mm - s.face_cover_mm
    assert looked.face is not None and looked.face_rows == int(shown / s.cell_mm)
    assert looked.best == BY_CODE["R8"]
    near = replace(reads[1], top_mm=reads[0].top_mm + s.band_mm + s.face_cover_mm)
    assert _with_face(m, tpl, reads[0], [], near).face is None


def test_a_webcam_s_echelons_are_named_by_what_shows_of_their_faces() -> None:
    # A bench table (scenic, seed 0, a webcam-only run's frame 0): the band's two looks did
    # not agree on a G5 under a P8 and a Y9 under an O6 (doubts); what shows of their faces
    # names them, and they are read, surely. No read is wrong and not flagged.
    obs, _ = _bench_read("scenic", 0, 0)
    doubted = {(d.where.flag, d.where.side, d.index) for d in obs.doubtful}
    assert not doubted & {(4, "north", 1), (6, "north", 0)}
    assert obs.flags[3].north[1] == BY_CODE["G5"] and obs.flags[5].north[0] == BY_CODE["Y9"]


def test_cells_that_tie_leave_the_value_to_a_sure_network() -> None:
    s = ReadingSettings.load()
    # Both looks name R6: no doubt, unless the network barely does.
    assert not _two_looks(0.05, 0.4, 0.9)
    assert _two_looks(0.05, s.net_doubt_lead / 2, 0.9)
    # The cells put R8 first by a hair: a network sure of R6, on a read that fits well, names it.
    assert not _two_looks(-s.cells_tie / 2, s.net_settle_lead + 0.05, 0.9)
    # ... but not a network less sure, nor on a read that fits poorly, nor against cells
    # that clearly name R8.
    assert _two_looks(-s.cells_tie / 2, s.net_settle_lead - 0.05, 0.9)
    assert _two_looks(-s.cells_tie / 2, s.net_settle_lead + 0.05, s.settle_min_score - 0.05)
    assert _two_looks(-2 * s.cells_tie, 0.9, 0.9)


def test_the_network_s_leads_are_read_against_the_printing_s_own_separation() -> None:
    s = ReadingSettings.load()
    # A printing the network puts a sixth as far apart as usual (a border stripe filling the
    # band's ink): a band on its class's prototype leads by about that sixth, and a lead of
    # half the doubt line is then three times the line, not a doubt.
    narrow = s.net_sep_ref / 6
    assert _two_looks(0.05, s.net_doubt_lead / 2, 0.9)
    assert not _two_looks(0.05, s.net_doubt_lead / 2, 0.9, sep=narrow)
    assert _two_looks(0.05, s.net_doubt_lead / 12, 0.9, sep=narrow)
    # Not so the lead that lets the network alone settle a tie of the cells: scaled up, it
    # would be the network's noise scaled up.
    assert _two_looks(-s.cells_tie / 2, s.net_settle_lead / 3, 0.9, sep=narrow)
    # A printing it puts further apart than usual asks for a larger lead.
    assert _two_looks(0.05, s.net_doubt_lead * 1.2, 0.9, sep=2 * s.net_sep_ref)
    # ... but only where the network tells the printing's cards apart about as well as
    # those it was tuned on: elsewhere a small lead is its noise.
    assert _two_looks(0.05, s.net_doubt_lead / 2, 0.9, sep=narrow, trust=s.net_trust_min - 0.1)
    # Prototypes that coincide say nothing: the separation is taken as at least its floor.
    from companion.vision.bandnet import separation
    assert separation(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], np.float32)) == 0.0
    assert _two_looks(0.05, 0.0, 0.9, sep=0.0)


def test_cells_that_clearly_name_a_card_weigh_the_network_against_its_nearest_rival() -> None:
    s = ReadingSettings.load()
    # Two cards alike but for a detail (a Schotten Totten printing's Jokers: one word over
    # two crowns) that the network puts a tenth as far apart as its usual classes: a band
    # on one's prototype leads the other by that tenth at most.
    close = s.net_sep_ref / 10
    clear = s.cells_clear_lead + 0.05
    assert _two_looks(clear, close / 2, 0.9)
    assert not _two_looks(clear, close / 2, 0.9, pair=close)
    # ... still a doubt where the network leans barely or the other way ...
    assert _two_looks(clear, close / 50, 0.9, pair=close)
    assert _two_looks(clear, -close / 2, 0.9, pair=close)
    # ... or where the cells name the card by less (as between a 6 and an 8) ...
    assert _two_looks(s.cells_clear_lead - 0.05, close / 2, 0.9, pair=close)
    # ... or where the network does not tell the printing's cards apart well.
    assert _two_looks(clear, close / 2, 0.9, pair=close, trust=s.net_trust_min - 0.1)
    # A pair further apart than the printing's usual asks for no more than usual.
    assert not _two_looks(clear, s.net_doubt_lead * 1.2, 0.9, pair=2 * s.net_sep_ref)


def test_a_printing_s_separation_is_how_far_its_classes_lie_apart() -> None:
    from companion.vision.bandnet import separation

    # Three unit prototypes: two at 60 degrees, the third square to both.
    protos = np.array([[1.0, 0.0, 0.0], [0.5, np.sqrt(0.75), 0.0], [0.0, 0.0, 1.0]],
                      np.float32)
    assert separation(protos) == pytest.approx(0.5)
    assert separation(np.zeros((5, 0), np.float32)) == 0.0
    tpl = deck("bold").templates
    assert 0.2 < tpl.net_sep < 1.0


def test_the_network_s_self_test_tells_a_printing_it_reads_from_one_it_cannot() -> None:
    from companion.vision import bandnet
    from companion.vision.deck import face_reflectance
    from companion.vision.reading import face_maps, net_input

    dk = deck("classic")
    tpl = dk.templates
    s = tpl.settings()
    bands = np.array([net_input(face_maps(face_reflectance(f), s, tpl.stock).ink, 0, 0, s)
                      for f in dk.faces], np.float32)
    assert tpl.net_trust >= s.net_trust_min
    assert bandnet.self_test(bands, tpl.class_of, tpl.protos) == tpl.net_trust   # seeded
    # Prototypes that name every class wrong: no view lies nearest its own.
    assert bandnet.self_test(bands, tpl.class_of, np.roll(tpl.protos, 1, axis=0)) < 0.1
    # The softened templates keep the sharp faces' figure.
    assert dk.templates_at(1.5).net_trust == tpl.net_trust


@pytest.mark.parametrize("deg", [-6.0, 4.0])
def test_a_column_laid_askew_is_read_upright(deg: float, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from dataclasses import replace

    from companion.vision.reading import upright

    codes = ["R8", "B4", "G10"]
    tpl = deck("bold").templates
    leaning = upright(_strip(codes, [20.0, 19.0], (0.35, 0.45, 0.6), "bold"), deg)
    reads = read_strip(leaning, tpl)
    assert [str(r.best) for r in reads] == codes
    assert min(r.score for r in reads) > 0.9
    # Read as it lies, the turned bands fit their own cards far worse, or not at all.
    own = ReadingSettings.load()
    monkeypatch.setattr(ReadingSettings, "load",
                        classmethod(lambda cls: replace(own, lean_min_deg=1000.0)))
    lying = read_strip(leaning, tpl)
    assert [str(r.best) for r in lying] != codes or min(r.score for r in lying) < 0.85


def test_the_lean_is_the_cards_turn_not_their_steps_aside() -> None:
    """Cards laid a few mm aside of each other make a staircase of the column's edges, not
    a lean; cards turned make one."""
    import cv2

    from companion.vision.reading import column_lean

    s = ReadingSettings.load()
    h, w = s.px(201.0), s.px(88.0)
    corners = np.array([[0, 0], [s.px(63.0), 0], [s.px(63.0), s.px(88.0)], [0, s.px(88.0)]],
                       np.float64)

    def column(turn: float) -> np.ndarray:
        mask = np.zeros((h, w), np.uint8)
        rot = cv2.getRotationMatrix2D((0.0, 0.0), turn, 1.0)
        for i, aside in enumerate((0.0, 3.0, -2.0)):
            at = corners @ rot[:, :2].T + rot[:, 2] + [s.px(12.5 + aside), s.px(6.0 + 20.0 * i)]
            cv2.fillPoly(mask, [np.round(at).astype(np.int32)], 1)
        return mask.astype(bool)

    assert column_lean(column(0.0), [(0, h)], s) == 0.0
    for turn in (-4.0, 3.0):
        assert abs(column_lean(column(turn), [(0, h)], s) - turn) < 0.5


def test_cards_the_table_s_own_shade_are_found_by_their_ink(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Dark stock on a table of the stock's own shade: the mask sees only the numerals, no
    # column (the strip ends before the last card's body). The whole strip is searched for
    # bands that fit surely.
    from dataclasses import replace

    from companion.synth.zoo import FAMILIES

    from .vision_helpers import enrolled
    dk = enrolled(FAMILIES["dark-stock"](1))
    tpl = dk.templates
    s = ReadingSettings.load()
    table = tuple(float(x) for x in tpl.paper)
    h, w = s.px(70.0), s.px(88.0)
    rng = np.random.default_rng(5)

    def strip(codes: list[str], tops_mm: list[float]) -> np.ndarray:
        img = np.empty((h, w, 3), np.float32)
        img[:] = table
        img += rng.normal(0, 0.01, img.shape).astype(np.float32)
        for code, y in zip(codes, tops_mm):
            face = face_reflectance(dk.face(code))
            top, left = s.px(y), s.px(44.0 - dk.card_size[0] / 2)
            fh = min(face.shape[0], h - top)
            img[top:top + fh, left:left + face.shape[1]] = face[:fh]
        return img

    laid = strip(["R7", "B2", "G10"], [6.0, 26.0, 46.0])
    assert [r.best.code for r in read_strip(laid, tpl, table=np.asarray(table))] == \
        ["R7", "B2", "G10"]
    # Without the search the column is not seen at all.
    own = ReadingSettings.load()
    monkeypatch.setattr(ReadingSettings, "load",
                        classmethod(lambda cls: replace(own, marks_min=2.0)))
    assert read_strip(laid, tpl, table=np.asarray(table)) == []
    monkeypatch.undo()
    # Bare table with specks on it is still empty.
    specks = strip([], [])
    for y, x in rng.integers(0, [h - 4, w - 4], size=(150, 2)):
        specks[y:y + 3, x:x + 3] = 0.9
    from companion.vision.reading import _marks_only, card_mask, column_runs
    mask = card_mask(specks, np.asarray(table), s, tpl.paper)
    assert not column_runs(mask, s) and _marks_only(mask, s)     # searched, and found empty
    assert read_strip(specks, tpl, table=np.asarray(table)) == []


def test_a_greyscale_camera_s_dark_stock_cards_the_table_s_shade_are_found_as_colour_doubts(
        ) -> None:
    # A greyscale camera shows a dark stock only a few hundredths darker than the table (and
    # lighter than enrolled: the light, the print run): the mask sees little but numerals
    # and pips, and where it outlines no card only sure bands count. Scored against
    # the enrolled colours, no grey band fitted surely, and whole columns were lost (the
    # bench lost 15 of a dark-stock printing's 45 cards on one such frame). The strip shows
    # no colour at all: its bands are ranked on shape alone, and a band the network surely
    # names (its class far nearer than any other) is a card if its cells fit it fairly.
    from companion.synth.zoo import FAMILIES

    from companion.vision.reading import no_colour

    from .vision_helpers import enrolled
    dk = enrolled(FAMILIES["dark-stock"](1))
    tpl = dk.templates
    s = ReadingSettings.load()

    def grey(refl: np.ndarray) -> np.ndarray:
        lum = refl @ np.array([0.114, 0.587, 0.299], np.float32)
        return np.repeat(lum[:, :, None], 3, axis=2)

    stock = float(grey(tpl.paper[None, None].astype(np.float32))[0, 0, 0])
    table = np.full(3, stock + 0.08, np.float32)
    h, w = s.px(110.0), s.px(88.0)
    rng = np.random.default_rng(6)
    img = np.empty((h, w, 3), np.float32)
    img[:] = table
    img += rng.normal(0, 0.01, (h, w, 1)).astype(np.float32)  # one noise for all channels
    laid = [("R7", 6.0), ("B2", 26.0), ("G10", 46.0)]
    for code, y in laid:
        face = grey(face_reflectance(dk.face(code))) + 0.04
        top, left = s.px(y), s.px(44.0 - dk.card_size[0] / 2)
        fh = min(face.shape[0], h - top)
        img[top:top + fh, left:left + face.shape[1]] = face[:fh]
    assert no_colour(img, s)
    reads = read_strip(img, tpl, table=np.tile(table, (h, 1)))
    assert [r.best.value for r in reads] == [BY_CODE[c].value for c, _ in laid]
    assert all(r.colour_t == 1.0 for r in reads)        # every colour a doubt
    # A colour camera's strip is no grey one, however dark its stock.
    assert not no_colour(_strip(["R7"], [], (0.3, 0.25, 0.2)), s)


def test_a_top_past_the_end_of_a_run_shorter_than_a_card_is_looked_for() -> None:
    # A picture of the table's very colour across a card's band (a beige landscape on a
    # beige table) ends the mask's run inside that band: the run is shorter than a card, so
    # its end is no card's foot, and the card whose band it cuts was never looked for (its
    # top lay less than a band before the run's end).
    from companion.vision.reading import card_mask, column_runs

    s = ReadingSettings.load()
    table = (0.35, 0.45, 0.6)
    img = _strip(["R8", "B4", "G10"], [22.0, 30.0], table, start_mm=4.0)
    left, right = s.px(44.0 - 63.0 / 2), s.px(44.0 + 63.0 / 2)
    img[s.px(26.0 + 10.0):s.px(26.0 + 28.0), left:right] = table     # B4 from 10 mm down
    tpl = deck("classic").templates
    runs = column_runs(card_mask(img, np.asarray(table, np.float32), s, tpl.paper), s)
    assert runs[0][1] < s.px(26.0 + 14.0) and runs[0][1] - runs[0][0] < s.px(63.0)
    reads = read_strip(img, tpl, table=np.asarray(table, np.float32))
    assert [r.best.code for r in reads] == ["R8", "B4", "G10"]


def test_a_column_ends_at_its_last_card_s_foot_not_at_the_strip_s_end() -> None:
    from companion.vision.reading import column_runs

    s = ReadingSettings.load()
    mask = np.zeros((s.px(201.0), s.px(88.0)), bool)
    middle = slice(s.px(10.0), s.px(78.0))
    mask[s.px(4.0):s.px(92.0), middle] = True        # a card 4 mm from the strip's start
    mask[s.px(100.0):s.px(196.0), middle] = True     # 8 mm of bare table, then cards to 196
    # The gap between the two is closed (shorter than a band); the table between the
    # column and either end of the strip is no gap: the run is the cards' own extent.
    assert column_runs(mask, s) == [(s.px(4.0), s.px(196.0))]
    # A column that does reach the strip's end runs to it.
    mask[s.px(196.0):] = mask[s.px(195.0)]
    assert column_runs(mask, s) == [(s.px(4.0), s.px(201.0))]


def test_a_top_the_band_network_takes_for_no_card_loses_to_the_outline_s_top(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the outline demands a last card's top and a peak of the cells lies within a step
    of it (the foot of the card before: its last word over its edge), the better read wins;
    a band the network puts unlike any card reads worse, whatever the cells say."""
    import companion.vision.reading as reading

    s = ReadingSettings.load()
    tpl = deck("classic").templates
    m = reading.Maps.of(_strip(["R8", "B4"], [40.0], (0.35, 0.45, 0.6)), s, tpl.stock)
    left = s.px(44.0 - 63.0 / 2)
    card, body = (s.px(46.0), left), (s.px(30.0), left)     # B4's top; inside R8's body

    def network(first: float, second: float) -> None:
        """The network puts the two bands compared this near their nearest class."""
        def fake(m: object, tpl: reading.Templates, tops: np.ndarray, lefts: np.ndarray
                 ) -> np.ndarray:
            out = np.zeros((len(tops), len(tpl.protos)), np.float32)
            out[0, 0], out[1, 0] = first, second
            return out
        monkeypatch.setattr(reading, "_net_sims", fake)

    like, unlike = 0.9, s.net_card_min / 2
    network(like, like)                     # both like a card: the cells decide
    assert reading._better_top(m, tpl, card, body)
    assert not reading._better_top(m, tpl, body, card)
    network(unlike, like)                   # the cells' better band is like no card
    assert not reading._better_top(m, tpl, card, body)
    network(like, unlike)
    assert reading._better_top(m, tpl, body, card)


def test_a_band_the_network_puts_clearly_nearer_its_card_reads_better(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both bands like a card: the one the network puts clearly nearer the card its cells
    name reads better, whatever the cells' colour-weighted fit says (wood grain lengthening
    the outline puts the demanded last top a few mm below the card's own)."""
    import companion.vision.reading as reading

    s = ReadingSettings.load()
    tpl = deck("classic").templates
    m = reading.Maps.of(_strip(["R8", "B4"], [40.0], (0.35, 0.45, 0.6)), s, tpl.stock)
    left = s.px(44.0 - 63.0 / 2)
    card, body = (s.px(46.0), left), (s.px(30.0), left)
    named = [r.best for r in reading.identify_many(m, [card, body], tpl, net=False)]
    cls = [int(tpl.class_of[tpl.cards.index(c)]) for c in named]

    def network(first: float, second: float) -> None:
        """The network puts the bands at `card` and `body` this near the classes their
        cells name, and no nearer any other than the like-a-card floor."""
        def fake(m: object, tpl: reading.Templates, tops: np.ndarray, lefts: np.ndarray
                 ) -> np.ndarray:
            out = np.full((len(tops), len(tpl.protos)), s.net_card_min, np.float32)
            for row, top in enumerate(tops):
                k = 0 if abs(int(top) - card[0]) < abs(int(top) - body[0]) else 1
                out[row, cls[k]] = (first, second)[k]
            return out
        monkeypatch.setattr(reading, "_net_sims", fake)

    sure, fair = 0.95, s.net_card_min + 0.05
    assert sure - fair >= s.net_settle_lead
    network(sure, fair)
    assert reading._better_top(m, tpl, card, body)
    assert not reading._better_top(m, tpl, body, card)
    network(fair, sure)                       # the cells favour the card's top; the network
    assert reading._better_top(m, tpl, body, card)       # surely names the other band
    assert not reading._better_top(m, tpl, card, body)
    network(sure, sure - s.net_settle_lead / 2)           # nearly as near: the cells decide
    assert reading._better_top(m, tpl, card, body)
    assert not reading._better_top(m, tpl, body, card)


def test_a_printing_whose_values_share_their_band_asks_a_smaller_lead_of_a_card() -> None:
    """A colour's name beside a small value: a value's band seen in another colour leads the
    deck's median card by almost nothing, and so do its cards on the table. The line a band
    must pass to be a card is scaled down on such a printing only."""
    from types import SimpleNamespace

    from companion.synth.zoo import FAMILIES, rendition
    from companion.vision.reading import lead_min

    from .vision_helpers import enrolled

    s = ReadingSettings.load()
    classic = deck("classic").templates
    assert classic.face_lead >= s.face_lead_ref
    assert lead_min(classic, s) == s.card_lead_min
    named = enrolled(rendition(FAMILIES["colour-word"](1), 1)).templates
    assert named.face_lead < s.face_lead_ref / 2
    assert lead_min(named, s) < s.card_lead_min / 2
    # Never more than the usual line, and never below nothing.
    assert lead_min(SimpleNamespace(face_lead=1.0), s) == s.card_lead_min   # type: ignore[arg-type]
    assert lead_min(SimpleNamespace(face_lead=-0.1), s) == 0.0              # type: ignore[arg-type]


def _colour_model() -> tuple[ColourModel, np.ndarray]:
    """A colour model learnt from one value's six colours: a numeral's cells in the card's
    colour, the rest paper; and the orange card's cells."""
    inks = np.array([[0.2, 0.2, 0.8], [0.1, 0.45, 0.85], [0.2, 0.75, 0.8],
                     [0.2, 0.6, 0.2], [0.8, 0.4, 0.2], [0.6, 0.2, 0.5]], np.float32)  # BGR
    paper = np.array([0.85, 0.88, 0.9], np.float32)
    cells = np.repeat(paper[None, None, :], 6 * 20, axis=0).reshape(6, 20, 3).copy()
    cells[:, :6] = inks[:, None, :]             # the numeral's cells
    model = ColourModel.learn(cells, np.zeros(6, np.int64), np.array([True]),
                              ReadingSettings.load())
    return model, cells[1]


def test_white_light_added_to_a_band_leaves_its_colour_as_it_was() -> None:
    """Glare adds white light to a band, paper and ink alike: taken away before the channels
    are scaled to the reference cells, it leaves the colour as it was; scaled away, it would
    wash the colour out (an orange card read as yellow)."""
    s = ReadingSettings.load()
    model, orange = _colour_model()
    clean = model.hue(orange, 0, s)
    for white in (0.05, 0.15, 0.3):
        glared = model.hue(orange + white, 0, s)
        assert np.linalg.norm(glared - clean) < 0.02 * np.linalg.norm(clean), white
    # A cast (each channel scaled) is still scaled away; with a warm cast, white light added
    # is taken away with the same scale on every channel.
    cast = model.hue(orange * np.array([0.8, 1.0, 1.15], np.float32), 0, s)
    assert np.linalg.norm(cast - clean) < 0.02 * np.linalg.norm(clean)
    warm = np.array([1.0, 1.1, 1.2], np.float32)
    cast = model.hue(orange * warm + 0.1, 0, s)
    assert np.linalg.norm(cast - clean) < 0.02 * np.linalg.norm(clean)
