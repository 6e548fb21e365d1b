"""`companion bench rules`: how fast the claim prover answers, against its targets.

Times `prove` on a fixed, seeded set of realistic positions (Fog, Mud, wildcards, discards)
and `claimable` (all 18 pairs) on each, and prints median, 99th percentile and worst.
The position generator is also used by the prover's tests.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence

from companion.rules.cards import BY_CODE, Card
from companion.rules.edition import BATTLE_LINE, Edition
from companion.rules.position import FLAG_COUNT, SIDES, FlagPosition, Position, Side

MORALE = tuple(BY_CODE[c] for c in ("ALEXANDER", "DARIUS", "CAVALRY", "SHIELD"))
FOG = BY_CODE["FOG"]
MUD = BY_CODE["MUD"]

TARGET_MEDIAN_MS = 0.2
TARGET_WORST_MS = 2.0
TARGET_BOARD_MEDIAN_MS = 3.0
REFERENCE_MS = (1.5, 12.0)  # a compiled brute-force engine: per claim check, and under Mud


def random_position(rng: random.Random, *, discards: tuple[int, int] = (0, 12),
                    p_claimed: float = 0.08, p_morale: float = 0.5, p_env: float = 0.35,
                    focus: int | None = None, edition: Edition = BATTLE_LINE) -> Position:
    """A position as a real game could leave it: no card twice, sides of 0 to 3 (4 under Mud).

    Each Tactics card exists once, so Fog and Mud lie at one flag each at most; each morale
    card is on the table with probability `p_morale`.  With `focus` (a flag), the Tactics go
    to that flag, so tests see them where the claim is checked.  The cards are the edition's
    (Schotten Totten: Clan cards 1-9, the Spy instead of Companion Cavalry).
    """
    deck = list(edition.troops)
    morale = tuple(c for c in edition.tactics if c.family == "morale")
    rng.shuffle(deck)
    env: list[list[Card]] = [[] for _ in range(FLAG_COUNT)]
    for card in (FOG, MUD):
        if rng.random() < p_env:
            env[(focus or rng.randint(1, FLAG_COUNT)) - 1].append(card)
    sides: dict[tuple[int, Side], list[Card]] = {(n, s): [] for n in range(FLAG_COUNT) for s in SIDES}
    leader_side: Side | None = None
    for card in morale:
        if rng.random() < p_morale:
            n = (focus - 1) if focus is not None else rng.randrange(FLAG_COUNT)
            side = rng.choice(SIDES)
            if card.is_leader:
                # D2: one Leader per player, so the two Leaders are never on the same side.
                if leader_side == side:
                    side = "south" if side == "north" else "north"
                leader_side = side
            sides[(n, side)].append(card)
    flags = []
    for n in range(FLAG_COUNT):
        size = 4 if MUD in env[n] else 3
        for s in SIDES:
            cards = sides[(n, s)][:size]
            want = rng.randint(len(cards), size)
            while len(cards) < want and deck:
                cards.append(deck.pop())
            rng.shuffle(cards)
            sides[(n, s)] = cards
        full = all(len(sides[(n, s)]) == size for s in SIDES)
        flags.append(FlagPosition(
            north=tuple(sides[(n, "north")]), south=tuple(sides[(n, "south")]),
            env=tuple(env[n]),
            claimed=rng.choice(SIDES) if rng.random() < p_claimed else None,
            completed_first=rng.choice(SIDES) if full else None))
    gone = [c for c in morale if not any(c in cs for cs in sides.values())]
    count = min(rng.randint(*discards), len(deck))
    thrown = [deck.pop() for _ in range(count)]
    thrown += [c for c in gone if rng.random() < 0.2]
    return Position(tuple(flags), tuple(thrown), edition)


def positions(count: int, seed: int, edition: Edition = BATTLE_LINE) -> list[Position]:
    rng = random.Random(seed)
    return [random_position(rng, discards=rng.choice(((0, 4), (0, 12), (8, 25))),
                            edition=edition)
            for _ in range(count)]


def _percentile(data: Sequence[float], q: float) -> float:
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    from companion.rules.prover import claimable, prove

    parser = argparse.ArgumentParser(prog="companion bench rules", description=__doc__)
    parser.add_argument("--positions", type=int, default=10_000, help="positions (default 10000)")
    parser.add_argument("--seed", type=int, default=20260)
    parser.add_argument("--repeats", type=int, default=3, help="runs per check; the fastest counts")
    parser.add_argument("--edition", default="battle-line",
                        choices=("battle-line", "schotten-totten"),
                        help="whose deck the positions are dealt from (default battle-line)")
    args = parser.parse_args(argv)
    from companion.rules.edition import of_rules

    built = positions(args.positions, args.seed, of_rules(args.edition))
    rng = random.Random(args.seed + 1)
    checks = []
    for p in built:
        n = rng.randint(1, FLAG_COUNT)
        checks.append((p, n, rng.choice(SIDES)))
    # Each check runs `repeats` times and keeps its fastest run, as timeit does: on a shared
    # machine the other runs only add the time the scheduler took away.  GC stays off while
    # timing; the single-run worst is printed too.
    clock = time.perf_counter
    repeats = args.repeats

    def timed(call: Callable[[], object]) -> tuple[float, float]:
        runs = []
        for _ in range(repeats):
            t0 = clock()
            call()
            runs.append((clock() - t0) * 1e3)
        return min(runs), max(runs)

    single: list[float] = []
    single_raw: list[float] = []
    mud: list[float] = []
    board: list[float] = []
    board_raw: list[float] = []
    hard: list[float] = []
    texts: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for p, n, side in checks:
            best, raw = timed(lambda: prove(p, n, side))
            single.append(best)
            single_raw.append(raw)
            if p.flags[n - 1].mud:
                mud.append(best)
        for p in built:
            best, raw = timed(lambda: claimable(p))
            board.append(best)
            board_raw.append(raw)
        for p in built:
            for n, f in enumerate(p.flags, start=1):
                for side in SIDES:
                    opp: Side = "south" if side == "north" else "north"
                    if f.claimed is None and f.complete(side) and not f.complete(opp):
                        hard.append(timed(lambda: prove(p, n, side))[0])
                        if len(texts) < 5000:
                            texts.append(timed(lambda: prove(p, n, side).to_json())[0])
    finally:
        gc.enable()

    def row(name: str, data: list[float], median_target: float | None, worst_target: float | None) -> None:
        med, p99, worst = statistics.median(data), _percentile(data, 0.99), max(data)
        tm = f"(target <= {median_target})" if median_target is not None else ""
        tw = f"(target <= {worst_target})" if worst_target is not None else ""
        print(f"{name:<48} n={len(data):>6}  median {med:7.3f} ms {tm:<16} "
              f"p99 {p99:7.3f} ms  worst {worst:7.3f} ms {tw}")

    print(f"claim prover, {len(built)} seeded {args.edition} positions (seed {args.seed}); "
          f"reference engine {REFERENCE_MS[0]} ms per check, {REFERENCE_MS[1]} ms under Mud")
    row(f"prove(), random flag and player, best of {repeats}", single, TARGET_MEDIAN_MS, TARGET_WORST_MS)
    row("prove(), the same, slowest single run", single_raw, None, None)
    if mud:
        row("prove(), of which at a Mud flag", mud, TARGET_MEDIAN_MS, TARGET_WORST_MS)
    row("prove(), claimant complete, opponent not", hard, TARGET_MEDIAN_MS, TARGET_WORST_MS)
    row("prove().to_json(), with the English proof", texts, None, None)
    row("claimable(), all 18 pairs", board, TARGET_BOARD_MEDIAN_MS, None)
    row("claimable(), the same, slowest single run", board_raw, None, None)
    ok = (statistics.median(single) <= TARGET_MEDIAN_MS and max(single) <= TARGET_WORST_MS
          and statistics.median(board) <= TARGET_BOARD_MEDIAN_MS)
    print("targets met" if ok else "targets NOT met (the machine may be busy; figures are noisy)")
    return 0
