"""The pin map file loads, refuses bad maps, and the wiring table in hardware/ matches it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from companion.hw.errors import PinMapError
from companion.hw.pins import BCM_TO_HEADER, PinMap, load_pin_map, packaged_pin_map_path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|$")


def wiring_rows() -> dict[int, tuple[int, str, str, str]]:
    rows: dict[int, tuple[int, str, str, str]] = {}
    for line in (ROOT / "hardware" / "wiring.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line.strip())
        if m:
            gpio = int(m.group(1))
            assert gpio not in rows, f"GPIO{gpio} appears twice in wiring.md"
            rows[gpio] = (int(m.group(2)), m.group(3), m.group(4), m.group(5))
    return rows


def test_packaged_pin_map_is_the_hardware_one() -> None:
    assert packaged_pin_map_path().read_bytes() == (ROOT / "hardware" / "pinmap.yaml").read_bytes()


def test_wiring_table_matches_pin_map(pin_map: PinMap) -> None:
    rows = wiring_rows()
    used = pin_map.all_pins()
    assert set(rows) == set(used), "wiring.md and pinmap.yaml list different GPIOs"
    for gpio, what in used.items():
        header, connects, resistor, colour = rows[gpio]
        assert header == BCM_TO_HEADER[gpio], f"GPIO{gpio} is header pin {BCM_TO_HEADER[gpio]}"
        assert connects.startswith(what), f"GPIO{gpio}: wiring says {connects!r}, pin map {what!r}"
        if what.endswith("LED"):
            side = what.split()[2]
            assert colour == pin_map.colour(side)  # type: ignore[arg-type]
            ohms = int(re.match(r"(\d+)", resistor).group(1))  # type: ignore[union-attr]
            # 3.3 V, ~2 V forward: below 330 Ω eighteen lit colours exceed the GPIO budget.
            assert ohms >= 330
        else:
            assert "pull-up" in resistor


def test_pin_map_has_every_flag_and_four_buttons(pin_map: PinMap) -> None:
    assert len(pin_map.leds) == 9
    assert len({p for pair in pin_map.leds for p in pair}) == 18
    assert pin_map.button_pin("south", "pass") == 19
    assert pin_map.button_pin("north", "claim") == 20


def _base() -> dict:
    return yaml.safe_load(packaged_pin_map_path().read_text(encoding="utf-8"))


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["flags"][2].update(south=4), "GPIO4 is used twice"),
    (lambda d: d["flags"].pop(9), "each flag 1 to 9"),
    (lambda d: d["flags"][1].update(north="GPIO40"), "not a usable header GPIO"),
    (lambda d: d["flags"][1].update(north="x"), "not a GPIO number"),
    (lambda d: d.update(format="other"), "unknown format"),
    (lambda d: d["buttons"]["north"].update(undo=2), "only 'claim' and 'pass'"),
    (lambda d: d.update(blink=3), "unknown keys"),
    (lambda d: d.update(claimed_brightness=2), "between 0 and 1"),
])
def test_bad_pin_maps_are_refused_with_the_reason(mutate, words, tmp_path: Path) -> None:
    data = _base()
    mutate(data)
    path = tmp_path / "pinmap.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(PinMapError, match=words) as info:
        load_pin_map(path)
    assert str(path) in str(info.value)


def test_missing_and_unparsable_files(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="no such file"):
        load_pin_map(tmp_path / "none.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("flags: [", encoding="utf-8")
    with pytest.raises(PinMapError, match="not valid YAML"):
        load_pin_map(bad)


def test_data_directory_copy_overrides_the_packaged_map(_isolated_data_dir: Path) -> None:
    data = _base()
    data["flags"][1] = {"north": 2, "south": 3}
    (_isolated_data_dir / "pinmap.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    assert load_pin_map().led_pin(1, "north") == 2


def test_auto_pin_factory_warns_and_falls_back_to_mock_off_a_pi() -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.hw.errors import PinFactoryError
    from companion.hw.pins import make_pin_factory

    if Path("/proc/device-tree/model").exists() and "Raspberry" in Path(
            "/proc/device-tree/model").read_text(errors="ignore"):
        pytest.skip("on a real Pi the auto factory finds real pins")
    with pytest.warns(RuntimeWarning, match="mock pins"):
        factory = make_pin_factory("auto")
    assert isinstance(factory, MockFactory)
    factory.close()
    with pytest.raises(PinFactoryError, match="no GPIO pin factory"):
        make_pin_factory("real")
    with pytest.raises(PinFactoryError, match="'gpio'"):
        make_pin_factory("gpio")


def test_the_players_leds_are_told_apart_by_their_place_not_their_colour(
        pin_map: PinMap, tmp_path, caplog) -> None:
    from companion.hw.pins import load_pin_map
    # The rig's pin map: one colour on both sides, and it is no red/green pair.
    assert pin_map.colour("north") == pin_map.colour("south")
    assert {pin_map.colour("north"), pin_map.colour("south")} != {"red", "green"}
    # An older rig's red/green pin map still loads, with a warning saying why to change it.
    old = tmp_path / "pinmap.yaml"
    text = (ROOT / "hardware" / "pinmap.yaml").read_text(encoding="utf-8")
    old.write_text(text.replace("colours: {north: amber, south: amber}",
                                "colours: {north: red, south: green}"), encoding="utf-8")
    with caplog.at_level("WARNING"):
        assert load_pin_map(old).colours == ("red", "green")
    assert "red/green pair" in caplog.text
