"""`companion claim --batch` under hostile input: every line gets a verdict or one error line.

Lines are random JSON, mutations of real claims (misspelt keys, cards moved, doubled or added,
claims set at random, values swapped for junk), and hostile text (nesting a thousand deep and
more, integers over 4,300 digits, lone surrogates, broken bytes).  Each output line must be a
contract 1 verdict or `{"error": ...}`, one per input line, in order, never a traceback; and a
verdict must never be given on a table that an independent check (below, written from
RULES.md with the exhaustive oracle for claims) finds impossible.

The suite runs a modest number of examples; `COMPANION_FUZZ_EXAMPLES=5000 pytest -s ...`
runs a longer fuzz by hand and prints its figures.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bench.rules import random_position
from companion.cli import main
from companion.rules.cards import ALL_CARDS, BY_CODE
from companion.rules.position import FLAG_COUNT, SIDES, Position

from . import oracle

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "60"))
DATA = Path(__file__).parent / "data" / "claims.jsonl"
BASES = [{"position": c["position"], "flag": c["flag"], "player": c["player"]}
         for c in map(json.loads, DATA.read_text(encoding="utf-8").splitlines())
         if "unreachable" not in c]
CODES = [c.code for c in ALL_CARDS]
VERDICT_KEYS = {"flag", "player", "valid", "reason", "claimant", "opponent", "proof"}
TALLY: Counter[str] = Counter()


def run_batch(data: bytes) -> list[str]:
    """`companion claim --batch -` in this process, `data` on its standard input."""
    out = io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out):
            status = main(["claim", "--batch", "-"])
    finally:
        sys.stdin = saved
    assert status == 0
    return out.getvalue().splitlines()


# -- what a batch line may be ---------------------------------------------------------------
def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, sometimes a card code or a side, sometimes hostile."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(CODES + ["north", "south", "nörth", "R11", "", "\ud800"])
    if roll < 0.25:
        return rng.choice([None, True, False, 0, -1, 3, 9, 10, 2.5, 1e308, 10 ** 4000])
    if roll < 0.35 and depth < 3:
        return [junk(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if roll < 0.42 and depth < 3:
        return {rng.choice(["north", "x", "env", "position"]): junk(rng, depth + 1)}
    if roll < 0.47:
        return nested(rng.choice([10, 999, 1000, 3000]))
    return rng.choice(["", "fog", "MUD", "CAVALRY=G8", "+R10", 7, [], {}])


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def mutate(rng: random.Random, claim: dict[str, Any]) -> dict[str, Any]:
    """One change a careless or hostile writer could make to a claim line."""
    pos: Any = claim.get("position")
    flags = pos.get("flags") if isinstance(pos, dict) else None
    flag = rng.choice(flags) if isinstance(flags, list) and flags else None
    if not isinstance(flag, dict):
        flag = None
    op = rng.randrange(12)
    if op == 0 and flag is not None and flag:  # misspell a key
        key = rng.choice(list(flag))
        flag[rng.choice([key + "s", key.replace("o", "ö"), key.upper()])] = flag.pop(key)
    elif op == 1 and flag is not None:  # move a card to the discards
        side = flag.get(rng.choice(SIDES))
        if isinstance(side, list) and side and isinstance(pos.get("discards"), list):
            pos["discards"].append(side.pop(rng.randrange(len(side))))
    elif op in (2, 3) and flag is not None:  # add a card, maybe one already on the table
        where = rng.choice(["north", "south", "env"])
        if isinstance(flag.get(where), list):
            flag[where].append(rng.choice(CODES))
    elif op == 4 and isinstance(pos, dict) and isinstance(pos.get("discards"), list):
        pos["discards"].append(rng.choice(CODES))
    elif op in (5, 6) and flag is not None:  # claim a flag for anyone
        flag["claimed"] = rng.choice(["north", "south", "north", "south", None, "east", 1])
    elif op == 7 and flag is not None:
        flag["completed_first"] = rng.choice(["north", "south", None, True])
    elif op == 8:
        claim["flag"] = junk(rng) if rng.random() < 0.5 else rng.randint(-1, 11)
    elif op == 9:
        claim["player"] = junk(rng) if rng.random() < 0.5 else rng.choice(SIDES)
    elif op == 10 and flag is not None and flag:  # a value swapped for junk
        flag[rng.choice(list(flag))] = junk(rng)
    elif op == 11 and isinstance(pos, dict):
        key = rng.choice(["format", "flags", "discards", "edition", "extra"])
        pos[key] = junk(rng) if rng.random() < 0.7 else "battle-line"
    return claim


def reachable_base(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.5:
        copy: dict[str, Any] = json.loads(json.dumps(rng.choice(BASES)))
        return copy
    p = random_position(rng, discards=(0, 2), p_claimed=0.0, p_morale=0.5, p_env=0.4)
    return {"position": p.to_json(), "flag": rng.randint(1, FLAG_COUNT), "player": rng.choice(SIDES)}


def dump(value: Any, ascii_only: bool) -> str:
    try:
        return json.dumps(value, ensure_ascii=ascii_only)
    except ValueError:  # an integer json itself cannot write
        return '{"position": ' + "9" * 5000 + "}"
    except RecursionError:  # nesting json itself cannot write: the same, by hand
        return '{"position": ' + "[" * 1000 + "]" * 1000 + ', "flag": 1, "player": "south"}'


def line(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.1:
        return dump(junk(rng), True).encode()
    claim = reachable_base(rng)
    for _ in range(rng.choice((0, 1, 1, 2, 3, 4))):
        claim = mutate(rng, claim)
    text = dump(claim, rng.random() < 0.5)
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate as raw (invalid) UTF-8
    roll = rng.random()
    if roll < 0.04:
        data = data[:rng.randrange(len(data) + 1)]  # cut short
    elif roll < 0.08:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    elif roll < 0.1:
        depth = rng.choice((999, 1000, 100_000))
        data = b'{"position": ' + b"[" * depth + b"]" * depth + b', "flag": 1, "player": "north"}'
    return data.replace(b"\n", b" ")


# -- the independent check of what must never get a verdict ---------------------------------
def impossible(obj: dict[str, Any]) -> str | None:
    """Why no game reaches this claim's table, from RULES.md alone; None when it may."""
    pos = obj["position"]
    if set(obj) != {"position", "flag", "player"} or set(pos) - {"format", "edition", "flags",
                                                                 "discards"}:
        return "unknown key"
    if pos.get("edition", "battle-line") != "battle-line":
        return "edition"
    flags = pos["flags"]
    seen: list[str] = list(pos.get("discards", []))
    if len(seen) > 2 or any(BY_CODE[c].family in ("environment", "guile") for c in seen):
        return "discards"
    for f in flags:
        if set(f) - {"north", "south", "env", "claimed", "completed_first"}:
            return "unknown flag key"
        size = 4 if "MUD" in f.get("env", []) else 3
        for s in SIDES:
            cards = f.get(s, [])
            if len(cards) > size:
                return "overfull side"
            seen += cards
        seen += f.get("env", [])
        if f.get("claimed") is not None and len(f.get(f["claimed"], [])) != size:
            return "claimed by an incomplete side"
    if len(seen) != len(set(seen)):
        return "a card twice"
    for s in SIDES:
        if sum(c in ("ALEXANDER", "DARIUS") for f in flags for c in f.get(s, [])) > 1:
            return "two Leaders"
    plain = Position.from_json({**pos, "flags": [{**f, "claimed": None} for f in flags]},
                               reachable=False)
    for n, f in enumerate(flags, start=1):
        winner = f.get("claimed")
        if winner is None or oracle.work(plain, n, winner) > 40_000:
            continue
        both = all(len(f.get(s, [])) == plain.flag(n).size for s in SIDES)
        if both and f.get("completed_first") is None:
            mine = oracle.best([BY_CODE[c] for c in f[winner]], plain.flag(n).fog)
            theirs = oracle.best([BY_CODE[c] for c in f["south" if winner == "north" else "north"]],
                                 plain.flag(n).fog)
            if mine < theirs:
                return "claimed by the weaker side"
            continue
        if not oracle.verdict(plain, n, winner)[0]:
            return "claim the oracle refuses"
    held = {s: {n for n, f in enumerate(flags, start=1) if f.get("claimed") == s} for s in SIDES}
    won = [len(h) >= 5 or any({n, n + 1, n + 2} <= h for n in range(1, 8)) for h in held.values()]
    if all(won):
        return "both won"
    return None


def check(data: bytes) -> None:
    lines = [raw for raw in io.BytesIO(data) if raw.strip()]
    out = run_batch(data)
    assert len(out) == len(lines), (len(out), len(lines))
    for raw, text in zip(lines, out):
        TALLY["lines"] += 1
        result = json.loads(text)
        if set(result) == {"error"}:
            assert isinstance(result["error"], str) and result["error"].startswith("line ")
            assert "Traceback" not in result["error"] and text.isascii()
            TALLY["refused"] += 1
            continue
        assert VERDICT_KEYS <= set(result) <= VERDICT_KEYS | {"edition"}, result
        TALLY["verdicts"] += 1
        why = impossible(json.loads(raw))
        if why is not None:
            TALLY["accepted but impossible: " + why] += 1
        assert why is None, (why, raw[:300])


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 6))
def test_every_batch_line_gets_a_verdict_or_one_error_line(rng: random.Random, count: int) -> None:
    check(b"\n".join(line(rng) for _ in range(count)) + b"\n")


@settings(max_examples=max(20, EXAMPLES // 3), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(values=st.lists(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=15), min_size=1, max_size=4))
def test_random_json_lines_are_refused_one_by_one(values: list[Any]) -> None:
    check(b"\n".join(json.dumps(v).encode("utf-8", "surrogatepass") for v in values) + b"\n")


def test_the_issues_hostile_lines() -> None:
    good = json.dumps(BASES[0]).encode()
    lines = [
        b'{"position": ' + b"[" * 1000 + b"]" * 1000 + b', "flag": 1, "player": "north"}',
        good.replace(b'"discards": []', b'"discards": [' + b"[" * 1000 + b"]" * 1000 + b"]"),
        good.replace(b'"player": "north"', b'"player": ' + b"9" * 4301),
        good.replace(b'"player": "north"', b'"player": "\\ud800"'),
        good.replace(b'"player": "north"', b'"player": "\xed\xa0\x80"'),  # raw surrogate bytes
        good.replace(b'"north": ', b'"n\xc3\xb6rth": ', 1),
        good,
    ]
    out = [json.loads(t) for t in run_batch(b"\n".join(lines) + b"\n")]
    assert [set(o) for o in out[:6]] == [{"error"}] * 6
    assert "nested too deep" in out[0]["error"] and "nested too deep" in out[1]["error"]
    assert "4300 digits" in out[2]["error"]
    assert "'\\ud800' is not a player" in out[3]["error"]
    assert out[4]["error"] == "line 5: not UTF-8 text"
    assert "unknown key 'n\\xf6rth' in flag 1" in out[5]["error"]
    assert out[6]["reason"] == "stronger"


def test_fuzz_figures_are_reported() -> None:
    """Prints the figures of the fuzz above (run with -s); nothing impossible got a verdict."""
    print(f"\nclaim --batch fuzz: {dict(sorted(TALLY.items()))}")
    assert not any(k.startswith("accepted but impossible") for k in TALLY)
