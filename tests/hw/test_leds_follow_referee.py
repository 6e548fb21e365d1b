"""The LEDs follow a real referee through a scripted game (observations as vision reports
them); pin states are read from a fresh mock pin factory."""

from __future__ import annotations

import time

from companion.rules.place import Place
from companion.hw.leds import FlagLamps, FlagLeds, Lamp
from companion.hw.pins import PinMap
from companion.referee.referee import Referee
from companion.rules.cards import BY_CODE
from companion.vision.observation import Doubt, FlagObservation, Observation


def table(cards: dict[tuple[int, str], list[str]], doubt: Doubt | None = None) -> Observation:
    flags = tuple(FlagObservation(n, "line",
                                  tuple(BY_CODE[c] for c in cards.get((n, "north"), [])),
                                  tuple(BY_CODE[c] for c in cards.get((n, "south"), [])))
                  for n in range(1, 10))
    return Observation(flags, doubtful=(doubt,) if doubt else ())


def feed(referee: Referee, obs: Observation, t0: list[float]) -> None:
    for _ in range(5):   # calm frames: the referee commits a table seen steadily
        referee.feed(obs, t0[0])
        t0[0] += 0.125


def test_leds_through_a_scripted_game(mock_factory, pin_map: PinMap) -> None:
    referee = Referee()
    t = [0.0]
    on = lambda flag, side: float(mock_factory.pin(pin_map.led_pin(flag, side)).state)  # noqa: E731
    with FlagLeds(pin_map, pin_factory=mock_factory) as leds:
        unsubscribe = referee.subscribe(leds.show)   # the app does this on its worker thread
        cards: dict[tuple[int, str], list[str]] = {}
        for side, code, flag in (("south", "R8", 1), ("north", "B2", 1), ("south", "R9", 1),
                                 ("north", "G3", 2)):
            cards.setdefault((flag, side), []).append(code)
            feed(referee, table(cards), t)
        assert len(referee.state.actions) == 4
        assert all(on(n, s) == 0 for n in range(1, 10) for s in ("north", "south"))
        cards[(1, "south")].append("R10")   # South completes a Wedge nobody can beat
        feed(referee, table(cards), t)
        assert on(1, "south") == 1 and on(1, "north") == 0
        assert leds.lamps[0] == FlagLamps(Lamp.OFF, Lamp.ON)

        # South claims flag 1 from the touchscreen: dim south colour from then on.
        verdict = referee.request_claim(1, "south")
        assert verdict.valid
        assert leds.lamps[0] == FlagLamps(Lamp.OFF, Lamp.OWNED)
        assert on(1, "south") == pin_map.claimed_brightness

        # A doubtful read at flag 4 blinks it amber until the players confirm the card.
        cards[(4, "north")] = ["Y5"]
        doubt = Doubt(Place.parse("flag 4 north"), BY_CODE["Y5"], BY_CODE["O5"], 0.2, 0)
        feed(referee, table(cards, doubt), t)
        assert referee.state.doubts
        assert leds.lamps[3] == FlagLamps(Lamp.BLINK, Lamp.BLINK)
        time.sleep(0.6)
        assert len({s.state for s in mock_factory.pin(pin_map.led_pin(4, "north")).states}) == 2
        referee.confirm(referee.state.doubts[0], BY_CODE["Y5"])
        assert leds.lamps[3] == FlagLamps()
        assert on(4, "north") == 0 and on(4, "south") == 0

        unsubscribe()
        leds.show(None)   # between games
        assert all(on(n, s) == 0 for n in range(1, 10) for s in ("north", "south"))
