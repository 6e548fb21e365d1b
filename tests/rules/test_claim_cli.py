"""`companion claim`: single claims, batches, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).parent / "data" / "claims.jsonl"
CASES = {c["name"]: c for c in map(json.loads, DATA.read_text(encoding="utf-8").splitlines())}
VENV_COMPANION = Path(sys.executable).parent / "companion"


def _position_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(CASES[name]["position"]), encoding="utf-8")
    return path


def test_single_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _position_file(tmp_path, "gmt-wedge-fails-b7-b10-unseen")
    assert main(["claim", str(path), "--flag", "3", "--player", "north"]) == 0
    out = capsys.readouterr().out
    verdict = json.loads(out)
    assert set(verdict) == {"flag", "player", "valid", "reason", "claimant", "opponent", "proof"}
    assert verdict["valid"] is False and verdict["reason"] == "can-beat"
    assert verdict["opponent"]["cards"] == ["B8", "B9", "+B10"]
    assert "blue 10" in verdict["proof"]


def test_single_claim_in_french(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _position_file(tmp_path, "gmt-wedge-holds-b7-b10-seen")
    assert main(["claim", str(path), "--flag", "3", "--player", "north",
                 "--lang", "fr", "--naming", "medieval-fr"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["reason"] == "cannot-beat"
    assert "Enveloppement" in verdict["proof"] and "bleu 10 (défausse)" in verdict["proof"]


def test_batch_goes_on_after_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = CASES["tie-first"]
    lines = [
        json.dumps({"position": good["position"], "flag": 6, "player": "north"}),
        "{not json",
        json.dumps({"position": good["position"], "flag": 12, "player": "north"}),
        "",
        json.dumps({"position": good["position"], "flag": 6, "player": "south"}),
        json.dumps({"flag": 6, "player": "south"}),
        json.dumps({"position": {"format": "nope"}, "flag": 1, "player": "north"}),
    ]
    batch = tmp_path / "claims.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["claim", "--batch", str(batch)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == 6
    assert out[0]["reason"] == "tie-first"
    assert out[1]["error"].startswith("line 2: not valid JSON")
    assert "line 3" in out[2]["error"] and "no flag 12" in out[2]["error"]
    assert out[3]["reason"] == "tie-later"
    assert out[4]["error"] == "line 6: missing position"
    assert "line 7" in out[5]["error"] and "format" in out[5]["error"]


def test_batch_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    rows = [json.dumps({"position": c["position"], "flag": c["flag"], "player": c["player"]})
            for c in CASES.values()]
    fake = io.TextIOWrapper(io.BytesIO(("\n".join(rows) + "\n").encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", fake)
    assert main(["claim", "--batch", "-"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # A hand-made table no game reaches (the D10 study) is refused, the batch goes on.
    assert [v.get("reason", "refused") for v in out] == \
        ["refused" if "unreachable" in c else c["expect"]["reason"] for c in CASES.values()]
    refused = [v["error"] for v in out if "error" in v]
    assert len(refused) == 1 and "the discards hold 55 cards" in refused[0]


@pytest.mark.parametrize("argv, message", [
    (["claim", "{tmp}/missing.json", "--flag", "1", "--player", "north"], "No such file"),
    (["claim", "{tmp}/bad.json", "--flag", "1", "--player", "north"], "bad.json: not valid JSON"),
    (["claim", "{tmp}/dup.json", "--flag", "1", "--player", "north"], "R8 is both"),
    (["claim", "{tmp}/good.json", "--flag", "10", "--player", "north"], "no flag 10"),
    (["claim", "{tmp}/good.json", "--flag", "x", "--player", "north"], "invalid int value: 'x'"),
    (["claim", "{tmp}/good.json", "--flag", "1", "--player", "east"], "invalid choice: 'east'"),
    (["claim", "{tmp}/good.json", "--flag", "1"], "needs both --flag N and --player"),
    (["claim"], "give POSITION.json"),
    (["claim", "--batch", "{tmp}/missing.jsonl"], "No such file"),
    (["claim", "--batch", "{tmp}/good.json", "--flag", "2"], "--batch takes"),
    (["claim", "{tmp}/tie.json", "--flag", "6", "--player", "north"], "completed_first is missing"),
])
def test_errors_are_one_line_with_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           argv: list[str], message: str) -> None:
    (tmp_path / "bad.json").write_text("{oops", encoding="utf-8")
    good = CASES["tie-first"]["position"]
    (tmp_path / "good.json").write_text(json.dumps(good), encoding="utf-8")
    dup = json.loads(json.dumps(good))
    dup["flags"][0]["north"] = ["R8"]
    dup["flags"][1]["south"] = ["R8"]
    (tmp_path / "dup.json").write_text(json.dumps(dup), encoding="utf-8")
    tie = json.loads(json.dumps(good))
    tie["flags"][5]["completed_first"] = None
    (tmp_path / "tie.json").write_text(json.dumps(tie), encoding="utf-8")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse usage errors
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and message in err, err


def test_through_a_subprocess(tmp_path: Path) -> None:
    path = _position_file(tmp_path, "gmt-wedge-beats-phalanx")
    ok = subprocess.run([str(VENV_COMPANION), "claim", str(path), "--flag", "1", "--player", "north"],
                        capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["reason"] == "stronger"
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not text")
    fail = subprocess.run([str(VENV_COMPANION), "claim", str(bad), "--flag", "1", "--player", "north"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert fail.returncode == 2
    assert fail.stdout == "" and len(fail.stderr.strip().splitlines()) == 1
    assert "Traceback" not in fail.stderr and "not a UTF-8 text file" in fail.stderr


def test_french_proof_names_cards_in_french_by_default(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = _position_file(tmp_path, "gmt-wedge-holds-b7-b10-seen")
    assert main(["claim", str(path), "--flag", "3", "--player", "north", "--lang", "fr"]) == 0
    proof = json.loads(capsys.readouterr().out)["proof"]
    assert "Pointe rouge 5-6-7" in proof and "bleu 10 (défausse)" in proof and "blue" not in proof


def test_single_claim_from_stdin(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    import io

    text = json.dumps(CASES["wedge-tie-is-enough"]["position"])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    flag = str(CASES["wedge-tie-is-enough"]["flag"])
    assert main(["claim", "-", "--flag", flag, "--player", "north"]) == 0
    assert json.loads(capsys.readouterr().out)["reason"] == "cannot-beat"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[]"), encoding="utf-8"))
    assert main(["claim", "-", "--flag", "1", "--player", "north"]) == 2
    assert capsys.readouterr().err.strip() == \
        "companion claim: standard input: a position must be a JSON object"


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "not valid JSON: nested too deep"),
    ('{"format": ' + "9" * 4400 + "}", "Exceeds the limit (4300 digits)"),
    ('{"format": "battleline-position/1", "flags": [], "discards": ["\\ud800"]}', "9 flags"),
])
def test_a_hostile_position_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             text: str, message: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    assert main(["claim", str(path), "--flag", "1", "--player", "north"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert message in captured.err and "sys." not in captured.err


def test_an_impossible_position_is_refused_with_status_2(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A claimed flag whose winner holds two cards: no game reaches it (docs/rules-decisions.md)."""
    position = json.loads(json.dumps(CASES["tie-first"]["position"]))
    position["flags"][0].update(north=["R1", "R2"], claimed="north")
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    assert main(["claim", str(path), "--flag", "6", "--player", "north"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"companion claim: {path}: flag 1 is claimed by north, whose side holds 2 "
                   "cards; a claim needs a complete formation of 3")


def test_the_edition_is_echoed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Contract 1: an optional edition; verdicts echo it when given."""
    position = {**CASES["tie-first"]["position"], "edition": "battle-line"}
    path = tmp_path / "edition.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    assert main(["claim", str(path), "--flag", "6", "--player", "north"]) == 0
    assert json.loads(capsys.readouterr().out)["edition"] == "battle-line"
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"position": position, "flag": 6, "player": "south"}) + "\n"
                     + json.dumps({"position": position, "flag": 6, "player": "south",
                                   "playr": "north"}) + "\n", encoding="utf-8")
    assert main(["claim", "--batch", str(batch)]) == 0
    first, second = map(json.loads, capsys.readouterr().out.splitlines())
    assert first["edition"] == "battle-line" and first["reason"] == "tie-later"
    assert second == {"error": "line 2: unknown key 'playr': expected position, flag, player"}


# -- Schotten Totten positions -----------------------------------------------------------------
ST_DATA = Path(__file__).parent / "data" / "schotten_claims.jsonl"
ST_CASES = {c["name"]: c for c in map(json.loads, (
    line for line in ST_DATA.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("//")))}


def test_schotten_totten_claim_in_its_own_words(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    case = ST_CASES["st-three-nines-cannot-be-beaten"]
    path = tmp_path / "stones.json"
    path.write_text(json.dumps(case["position"]), encoding="utf-8")
    assert main(["claim", str(path), "--flag", "4", "--player", "south", "--lang", "fr"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["edition"] == "schotten-totten"
    assert (verdict["valid"], verdict["reason"]) == (True, "cannot-beat")
    assert "Brelan" in verdict["proof"] and "borne 5" in verdict["proof"]
    assert "drapeau" not in verdict["proof"]
    # A Battle Line naming does not fit a Schotten Totten position: one line, status 2.
    assert main(["claim", str(path), "--flag", "4", "--player", "south",
                 "--naming", "gmt-en"]) == 2
    err = capsys.readouterr().err
    assert "not one of Schotten Totten" in err and len(err.strip().splitlines()) == 1


def test_schotten_totten_batch_mixed_with_battle_line(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    st = ST_CASES["st-no-ten-to-finish-the-run"]
    bl = dict(st["position"])
    del bl["edition"]  # the same table, read as Battle Line: its 10s can still come
    lines = [{"position": st["position"], "flag": 1, "player": "south"},
             {"position": bl, "flag": 1, "player": "south"},
             {"position": {**st["position"], "discards": ["R10"]}, "flag": 1, "player": "south"}]
    data = "\n".join(json.dumps(x) for x in lines).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["claim", "--batch", "-"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["reason"] == "cannot-beat" and out[0]["edition"] == "schotten-totten"
    assert out[1]["reason"] == "can-beat" and "edition" not in out[1]
    assert "R10 is not a Schotten Totten card" in out[2]["error"]
