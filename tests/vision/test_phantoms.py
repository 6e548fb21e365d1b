"""Phantom cards: bands on bare wood or inside a card's body that the cells take for a card's
top, and the band network takes away (`reading._unlike_any`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.bench.vision import ENROL_RENDITION, TABLE_RENDITION
from companion.synth import RIGS, Degrade, Setup, render, rendition
from companion.synth.dataset import random_scene
from companion.synth.zoo import FAMILIES
from companion.vision.pipeline import TableReader
from companion.vision.reading import ReadingSettings

from .vision_helpers import deck, enrolled


def _extra_reads(family: str, frames: int) -> tuple[int, int]:
    """Reads beyond the truth's cards, summed over every column of the first `frames` of the
    bench's reference-rig frames of `family` (seed 0), and the cards on those tables."""
    printing = FAMILIES[family](0)
    deck = enrolled(rendition(printing, ENROL_RENDITION))
    on_table = rendition(printing, TABLE_RENDITION)
    rng = np.random.default_rng([0, 0xBE7C, sorted(FAMILIES).index(family), 0])
    setup = Setup.varied()
    extra = cards = 0
    for _ in range(frames):
        scene = random_scene(rng, hand=bool(rng.random() < 0.15))
        deg = Degrade.random(rng, hand=False)
        frame = render(scene, on_table, int(rng.integers(1 << 30)), deg, rig=RIGS["reference"],
                       setup=setup)
        truth = scene.observation()
        with TableReader(deck, allow_missing_tiles=True, workers=0) as reader:
            obs = reader.read(frame)
        for got, want in zip(obs.flags, truth.flags):
            for side in ("north", "south"):
                extra += max(0, len(got.side(side)) - len(want.side(side)))
                cards += len(want.side(side))
        for side in ("north", "south"):
            extra += max(0, len(obs.offline(side)) - len(truth.offline(side)))
            cards += len(truth.offline(side))
    return extra, cards


def test_the_band_network_takes_phantom_cards_away(monkeypatch: pytest.MonkeyPatch) -> None:
    # Picture cards on grained wood under glare: the cells take grain and pictures for tops.
    with_veto, cards = _extra_reads("picture-tactics", 2)
    own = ReadingSettings.load()
    monkeypatch.setattr(ReadingSettings, "load",
                        classmethod(lambda cls: replace(own, net_card_min=-1.0)))
    without, same = _extra_reads("picture-tactics", 2)
    assert same == cards
    assert without >= 3
    assert with_veto <= without - 3


def test_the_network_takes_away_a_band_the_cells_fit_surely() -> None:
    # Templates softened for a soft frame fit wood grain by 0.9 and more, every one about
    # as well: the cells' sure fit must not shield such a band from the network's veto.
    from companion.rules.cards import BY_CODE
    from companion.vision.reading import CardRead, _fits_a_card

    s = ReadingSettings.load()
    cells = np.full(70, 0.88, np.float32)
    cells[3] = max(0.91, s.card_sure_shape + 0.01)
    card = BY_CODE["R4"]
    far = CardRead(((card, float(cells[3])),), 10.0, 30.0, shape=cells, cells=cells,
                   net=np.full(11, s.net_card_min - 0.1, np.float32))
    near = replace(far, net=np.full(11, s.net_card_min + 0.1, np.float32))
    assert not _fits_a_card(far, s)
    assert _fits_a_card(near, s)


def test_a_band_the_network_puts_only_faintly_near_a_card_is_a_doubt() -> None:
    # Glare over a tabletop the colour of a banner may fit a card's cells well and still sit
    # only faintly near the band network's classes: read, but as a doubt, never silently.
    from companion.rules.cards import BY_CODE
    from companion.rules.place import Place
    from companion.vision.pipeline import TableReader, _Slot
    from companion.vision.reading import CardRead

    s = ReadingSettings.load()
    assert s.net_card_min < s.net_sure_min

    def slot(flag: int, net: float) -> _Slot:
        cands = ((BY_CODE[f"O{flag}"], 0.9), (BY_CODE[f"R{flag}"], 0.6))
        return _Slot(Place(flag, "south"), 0, CardRead(cands, 6.0, 44.0,
                                                        net=np.full(11, net, np.float32)))

    slots = [slot(1, s.net_sure_min + 0.05), slot(2, s.net_sure_min - 0.05),
             slot(3, (s.net_card_min + s.net_sure_min) / 2)]
    with TableReader(deck("classic")) as reader:
        reader._settle(slots)
    assert [str(sl.card) for sl in slots] == ["O1", "O2", "O3"]
    assert [sl.doubt is not None for sl in slots] == [False, True, True]


@pytest.mark.parametrize("family,flag,side", [("banner", 5, "north"), ("dark-stock", 3, "south")])
def test_a_picture_s_edge_below_a_column_s_last_card_is_a_doubt(family: str, flag: int,
                                                                side: str) -> None:
    """A sky over a field across a column's last card, 50-70 mm below its top, fits some
    card's band fairly and shows a straight "top edge": at the webcam (the bench's seed-0
    frame 3, webcam-only tables) it was read as one more card, silently. The band network
    puts it far less near any class than the column's cards (`lone_last`): a doubt."""
    from companion.rules.place import Place
    from companion.vision.evaluate import Score

    from .vision_helpers import bench_webcam_frame

    img, d, truth, _ = bench_webcam_frame(family, 0, 3)
    with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
        obs = reader.read(img)
    where = Place(flag, side)
    got, want = obs.flags[flag - 1].side(side), truth.flags[flag - 1].side(side)
    assert len(got) == len(want) + 1 and got[:-1] == want
    assert any(x.where == where and x.index == len(want) and "faint" in x.why
               for x in obs.doubtful)
    score = Score()
    score.add(obs, truth)
    assert score.wrong == 0 and score.extra == 0, score.mistakes



def test_a_faint_band_inside_the_last_card_s_body_is_no_card() -> None:
    """A column's last read 40 mm or more below the card before it, whose band lies wholly
    inside that card's body and which the band network puts only faintly near any class
    (`faint_band`), is that card's picture or banner edge: no card (`lone_faint`). Nearer
    the card before (an echelon's step), reaching past its foot (a card laid apart), or
    less faint, it stays a read, judged as before."""
    from companion.rules.cards import BY_CODE
    from companion.vision.reading import CardRead, lone_faint

    s = ReadingSettings.load()
    before = CardRead(((BY_CODE["R6"], 0.9),), 10.0, 30.0, net=np.array([0.95, 0.1]))

    def last(gap: float, net: float) -> CardRead:
        return CardRead(((BY_CODE["B3"], 0.7),), 10.0 + gap, 30.0,
                        net=np.array([net, 0.1], np.float32))

    faint = s.net_sure_min - 0.05
    assert lone_faint(last(s.lone_gap_mm, faint), before, s)
    assert lone_faint(last(s.card_h - s.band_mm, faint), before, s)
    assert not lone_faint(last(s.lone_gap_mm - 1.0, faint), before, s)
    assert not lone_faint(last(s.card_h - s.band_mm + 1.0, faint), before, s)
    assert not lone_faint(last(s.lone_gap_mm + 5.0, s.net_sure_min + 0.05), before, s)
