"""The flag LEDs follow scripted game states; pin states are read from gpiozero's mock pins."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from companion.hw.leds import FlagLamps, FlagLeds, Lamp, lamps_for
from companion.hw.pins import PinMap
from companion.referee.display import IDLE, FlagView, Problem, Display


def view_with(**flags: FlagView) -> Display:
    base = list(Display().flags)
    for f in flags.values():
        base[f.number - 1] = f
    return Display(flags=tuple(base), to_move="south")


def pin_value(factory, pin: int) -> float:
    return float(factory.pin(pin).state)


def transitions(factory, pin: int) -> int:
    states = [s.state for s in factory.pin(pin).states]
    return sum(1 for a, b in zip(states, states[1:]) if a != b)


def test_lamps_for_a_scripted_game() -> None:
    assert lamps_for(None) == lamps_for(IDLE) == tuple(FlagLamps() for _ in range(9))
    view = view_with(a=FlagView(2, can_claim=(True, False)), b=FlagView(5, can_claim=(False, True)),
                     c=FlagView(7, claimed="north", can_claim=(True, True)))
    lamps = lamps_for(view)
    assert lamps[1] == FlagLamps(Lamp.ON, Lamp.OFF)
    assert lamps[4] == FlagLamps(Lamp.OFF, Lamp.ON)
    assert lamps[6] == FlagLamps(Lamp.OWNED, Lamp.OFF)   # a claim is final
    assert lamps[0] == FlagLamps()
    doubt = replace(view, problems=(Problem("doubt", "flag 2 south: O7 or R7?", flag=2),))
    assert lamps_for(doubt)[1] == FlagLamps(Lamp.BLINK, Lamp.BLINK)
    over = replace(view, winner="north")
    assert lamps_for(over)[1] == FlagLamps() and lamps_for(over)[6].north is Lamp.OWNED


def test_pins_follow_claimability_claims_and_idle(mock_factory, pin_map: PinMap) -> None:
    with FlagLeds(pin_map, pin_factory=mock_factory) as leds:
        assert all(pin_value(mock_factory, p) == 0 for pair in pin_map.leds for p in pair)
        leds.show(view_with(a=FlagView(3, can_claim=(True, False))))
        assert pin_value(mock_factory, pin_map.led_pin(3, "north")) == 1
        assert pin_value(mock_factory, pin_map.led_pin(3, "south")) == 0
        leds.show(view_with(a=FlagView(3, claimed="north")))
        assert pin_value(mock_factory, pin_map.led_pin(3, "north")) == pytest.approx(
            pin_map.claimed_brightness)
        assert pin_value(mock_factory, pin_map.led_pin(3, "south")) == 0
        leds.show(None)   # between games: everything off
        assert all(pin_value(mock_factory, p) == 0 for pair in pin_map.leds for p in pair)


def test_attention_blinks_both_colours_and_keeps_its_rhythm(mock_factory, pin_map: PinMap) -> None:
    with FlagLeds(pin_map, pin_factory=mock_factory) as leds:
        waiting = view_with(a=FlagView(4, can_claim=(False, True)))
        waiting = replace(waiting, problems=(Problem("violation", "two cards at once", flag=4),))
        leds.show(waiting)
        north, south = pin_map.led_pin(4, "north"), pin_map.led_pin(4, "south")
        time.sleep(0.3)
        leds.show(waiting)   # the same state again, as each frame arrives: no restart
        time.sleep(0.5)
        assert transitions(mock_factory, north) >= 3
        assert transitions(mock_factory, south) >= 3
        assert leds.lamps[3] == FlagLamps(Lamp.BLINK, Lamp.BLINK)
        leds.show(view_with(a=FlagView(4, can_claim=(False, True))))   # fixed
        time.sleep(0.05)
        assert pin_value(mock_factory, north) == 0 and pin_value(mock_factory, south) == 1


def test_without_pwm_a_claimed_flag_pulses(mock_factory, pin_map: PinMap) -> None:
    plain = replace(pin_map, pwm=False)
    with FlagLeds(plain, pin_factory=mock_factory) as leds:
        leds.show(view_with(a=FlagView(9, claimed="south")))
        time.sleep(0.05)
        assert pin_value(mock_factory, plain.led_pin(9, "south")) == 1   # long on ...
        assert pin_value(mock_factory, plain.led_pin(9, "north")) == 0


def test_close_is_safe_twice_and_turns_everything_off(mock_factory, pin_map: PinMap) -> None:
    leds = FlagLeds(pin_map, pin_factory=mock_factory)
    leds.show(view_with(a=FlagView(1, can_claim=(True, True))))
    leds.close()
    leds.close()
    assert pin_value(mock_factory, pin_map.led_pin(1, "north")) == 0
    leds.show(view_with(a=FlagView(1, can_claim=(True, True))))   # after close: ignored
