"""Scoring reads against the truth, and a labelled folder end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.place import Place
from companion.rules.cards import BY_CODE
from companion.vision.errors import VisionError
from companion.synth.dataset import write_dataset
from companion.synth.errors import SynthError
from companion.synth.faces import printing_named
from companion.vision.evaluate import Score, _align, evaluate_folder
from companion.vision.observation import Doubt, FlagObservation, Observation

from .vision_helpers import deck

C = BY_CODE


def _obs(north: tuple[str, ...], doubts: tuple[Doubt, ...] = ()) -> Observation:
    flags = tuple(FlagObservation(n, "line", tuple(C[c] for c in north) if n == 1 else ())
                  for n in range(1, 10))
    return Observation(flags, doubtful=doubts)


def test_alignment_counts_substitutions_gaps_and_extras() -> None:
    got = (C["R8"], C["B3"], C["G1"])
    want = (C["R8"], C["G1"])
    assert [op for op, _, _ in _align(got, want)] == ["same", "extra", "same"]
    assert [op for op, _, _ in _align((C["R8"],), (C["R9"],))] == ["sub"]
    assert [op for op, _, _ in _align((), (C["R9"],))] == ["missed"]


def test_score_separates_flagged_from_silent_mistakes() -> None:
    truth = _obs(("R8", "R9", "R10"))
    s = Score()
    s.add(_obs(("R8", "R6", "R10"), (Doubt(Place.parse("flag 1 north"), C["R6"], C["R9"], 0.1, 1),)), truth)
    assert (s.right, s.doubtful, s.wrong) == (2, 1, 0)
    s.add(_obs(("R8", "R6")), truth)
    assert (s.right, s.wrong, s.missed) == (3, 1, 1)
    assert s.summary()["cards"] == 6


def test_right_reads_made_doubts_are_counted_by_the_reader_s_reason() -> None:
    truth = _obs(("R8", "R9", "R10"))
    here = Place.parse("flag 1 north")
    s = Score()
    s.add(_obs(("R8", "R9", "R6"), (Doubt(here, C["R8"], C["R6"], 0.1, 0, ("looks",)),
                                    Doubt(here, C["R9"], None, 0.1, 1, ("colour", "weak")),
                                    Doubt(here, C["R6"], C["R10"], 0.1, 2, ("looks",)))),
          truth, "frame 0")
    # R6 for R10 is a wrong read, flagged: not a right read made a doubt.
    assert s.doubt_why == {"looks": 1, "colour": 1, "weak": 1}
    # Every doubt is listed with its reasons, and whether it was right.
    assert s.doubts == ["frame 0: flag 1 north #0: R8 doubtful (looks), right",
                        "frame 0: flag 1 north #1: R9 doubtful (colour, weak), right",
                        "frame 0: flag 1 north #2: R6 doubtful (looks), truth R10"]
    # A doubt with no reason given (an older reader, a hand-made observation) is "?".
    s.add(_obs(("R8",), (Doubt(here, C["R8"], None, 0.1, 0),)), _obs(("R8",)), "frame 1")
    assert s.doubt_why["?"] == 1
    assert s.doubts[-1] == "frame 1: flag 1 north #0: R8 doubtful (?), right"
    # The reason is no part of what the doubt is.
    assert Doubt(here, C["R8"], None, 0.1, 0, ("looks",)) == Doubt(here, C["R8"], None, 0.1, 0)


def test_generate_then_evaluate(tmp_path: Path) -> None:
    write_dataset(tmp_path, 2, seed=5, printings=(printing_named("classic"),), degrade=False)
    assert len(list(tmp_path.glob("*.json"))) == 2
    score = evaluate_folder(tmp_path, deck("classic"))
    assert score.frames == 2 and score.errors == 0
    assert score.wrong == 0
    assert score.right >= 0.95 * score.cards
    assert any("cards right" in line for line in score.lines())


def test_bad_folders(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="not a folder"):
        evaluate_folder(tmp_path / "nope", deck("classic"))
    with pytest.raises(VisionError, match="no labelled frames"):
        evaluate_folder(tmp_path, deck("classic"))
    with pytest.raises(SynthError, match="unknown printing"):
        printing_named("glossy")


def test_the_vision_bench_lists_its_doubtful_reads_with_the_reader_s_reasons(
        capsys: pytest.CaptureFixture[str]) -> None:
    import re

    from companion.bench.vision import main
    args = ["--frames", "1", "--rig", "webcam", "--colour-frames", "0", "--families", "scenic"]
    assert main(args + ["--doubts", "4"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("scenic"))
    cards, doubtful = int(row.split()[3]), float(row.split()[6])
    n = round(cards * doubtful / 100)
    listed = [line.strip() for line in out.splitlines()
              if re.match(r"\s+scenic webcam frame 0: .* #\d+: \S+ doubtful \(", line)]
    if n:
        assert f"doubtful reads ({n}):" in out
    assert len(listed) == min(4, n)
    assert all(re.search(r"\(([a-z?]+(, )?)+\), (right|truth \S+|where none lies)$", line)
               for line in listed), listed
    # Not asked for, none are listed.
    assert main(args) == 0
    assert "doubtful reads" not in capsys.readouterr().out
