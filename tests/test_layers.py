"""The layering of the package (docs/architecture.md): no part imports a part above it.

A frame's route runs upwards through these layers only: rules <- vision <- synth <- referee
<- record <- hw <- appliance <- ui <- bench, commands, training.  Imports made only for type checking
(`if TYPE_CHECKING:`) are not counted: they load nothing at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
LAYERS = ("rules", "vision", "synth", "referee", "record", "hw", "appliance", "ui", "bench",
          "commands", "training")
LEVEL = {name: i for i, name in enumerate(LAYERS)} | {"commands": LAYERS.index("bench"),
                                                      "training": LAYERS.index("bench")}
"""The entry points (`commands`, `bench`) and the training tools share the top level."""
SHARED = {"errors", "paths", "__init__", "__main__", "cli"}   # usable from every layer
# What the screens may take from the running companion: its plain values, never its loop.
UI_FROM_APPLIANCE = {"companion.appliance.status"}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "companion" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


def _runtime_imports(path: Path, package: str) -> list[str]:
    """The modules `path` (a module of `package`) imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append(name)
            found += [f"{name}.{alias.name}" for alias in node.names
                      if _layer(f"{name}.{alias.name}") and not _layer(name)]
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] in LAYERS)


def _violations(path: Path, parts: tuple[str, ...]) -> list[str]:
    """What module `path` (at `parts` under companion/) imports from above its layer."""
    own = parts[0]
    out = []
    for name in _runtime_imports(path, ".".join(("companion",) + parts[:-1])):
        layer = _layer(name)
        if layer is None:
            continue
        if LEVEL[layer] > LEVEL[own]:
            out.append(f"{'/'.join(parts)} ({own}) imports {name} ({layer}), a layer above it")
        elif own == "ui" and layer == "appliance" and name not in UI_FROM_APPLIANCE:
            out.append(f"the screens import the running loop: {'/'.join(parts)} -> {name}")
    return out


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_layer_above_it(path: Path) -> None:
    assert _violations(path, path.relative_to(PACKAGE).parts) == []


def test_the_rules_core_imports_nothing_of_the_project_but_itself() -> None:
    for path in (PACKAGE / "rules").glob("*.py"):
        for name in _runtime_imports(path, "companion.rules"):
            assert not name.startswith("companion.") or name.startswith("companion.rules"), \
                f"rules/{path.name} imports {name}"


def test_the_check_sees_a_violation(tmp_path: Path) -> None:
    # The checker itself can fail: a referee module importing the recorder is caught, and so
    # is a screen starting the camera loop (a relative import too).
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from companion.record.store import MatchStore\n",
                     encoding="utf-8")
    assert "a layer above it" in _violations(probe, ("referee", "probe.py"))[0]
    probe.write_text("from ..appliance.session import Session\n", encoding="utf-8")
    assert "running loop" in _violations(probe, ("ui", "probe.py"))[0]
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from companion.appliance.session import Session\n", encoding="utf-8")
    assert _violations(probe, ("ui", "probe.py")) == []
