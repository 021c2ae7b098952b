"""Scenarios from JSON or TOML files, and by name (S-SIM-05).

A file holds one table; every key is optional when ``extends`` names a built-in scenario, whose
values the file then overrides key by key (a given ``windows`` list replaces the whole list).
``gateway/sim/data/example_scenario.toml`` is a complete, commented example. Keys::

    name, extends, cursor [x,y], focus (window title), active_desktop, desktops [..],
    screenshot_scale (0.1-1.0), max_tree_elements, backend, clipboard, home, clock,
    user_control (bool), next_pid,
    control   {state, generation, wait_seconds}
    displays  [{device, rect [l,t,r,b], primary, work_area, effective_dpi, scale}]
    windows   [{title, handle, rect, status, kind, depth, process, pid,
                children [element], dom [element], dom_text [..]}]
    element   {type, name, rect, children [element], role, localized, enabled, focused,
               password, value, range [min,max], toggle, state, shortcut,
               v, h (scroll percentages: scrollable when v is set), scroll_point [x,y]}
    processes [{pid, name, cpu, memory_mb, protected}]
    start_menu ["Name" | {name, detected, window}]
    registry  {"HKCU:\\\\Software\\\\X" = {ValueName = [data, type]}}
    files     {"C:/Users/demo/Desktop/a.txt" = "content"}   (a key ending in "/" is a folder)
    powershell {"Get-Date" = [stdout, exit code]}
    pages     {"https://example.com/" = "markdown"}
"""

from __future__ import annotations

import json
import tomllib
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from gateway.sim.model import ControlState, Display, Element, Process, Rect, Scenario, StartMenuApp, Window
from gateway.sim.scenarios.builtin import BUILTINS


class ScenarioError(ValueError):
    """A scenario name or file that cannot be used; the message names the key."""


def _rect(value: Any, where: str) -> Rect:
    if not isinstance(value, list | tuple) or len(value) != 4 or not all(isinstance(v, int) for v in value):
        raise ScenarioError(f"{where}: rect must be [left, top, right, bottom] integers, got {value!r}")
    return Rect(*value)


def _point(value: Any, where: str) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(isinstance(v, int) for v in value):
        raise ScenarioError(f"{where}: expected [x, y] integers, got {value!r}")
    return value[0], value[1]


def parse_element(data: dict[str, Any], where: str = "element") -> Element:
    """One element from its table form (see the module docstring)."""
    where = f"{where} {data.get('name', '?')!r}"
    value = data.get("value")
    rng = data.get("range")
    return Element(
        control_type=str(data["type"]),
        name=str(data.get("name", "")),
        rect=_rect(data.get("rect"), where),
        children=tuple(parse_element(c, where) for c in data.get("children", [])),
        role=data.get("role", ""),
        localized=data.get("localized"),
        enabled=bool(data.get("enabled", True)),
        focused=bool(data.get("focused", False)),
        password=bool(data.get("password", False)),
        value=None if value is None else (str(round(value, 2)) if isinstance(value, float) else str(value)),
        range=None if rng is None else (float(rng[0]), float(rng[1])),
        toggle=data.get("toggle"),
        state=data.get("state"),
        shortcut=data.get("shortcut"),
        v_scroll=None if data.get("v") is None else float(data["v"]),
        h_scroll=None if data.get("h") is None else float(data["h"]),
        scroll_point=None if data.get("scroll_point") is None else _point(data["scroll_point"], where),
    )


def parse_window(data: dict[str, Any]) -> Window:
    """One window from its table form (see the module docstring)."""
    where = f"window {data.get('title', '?')!r}"
    try:
        return Window(
            title=str(data["title"]),
            handle=int(data.get("handle", 100000 + zlib.crc32(str(data["title"]).encode()) % 900000)),
            rect=_rect(data.get("rect"), where),
            status=data.get("status", "Normal"),
            kind=data.get("kind", "app"),
            depth=int(data.get("depth", 1)),
            process=str(data.get("process", "")),
            pid=data.get("pid"),
            children=tuple(parse_element(c, where) for c in data.get("children", [])),
            dom=tuple(parse_element(c, where) for c in data.get("dom", [])),
            dom_text=tuple(str(t) for t in data.get("dom_text", [])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(f"{where}: {exc}") from exc


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    simple = ("focus", "active_desktop", "screenshot_scale", "max_tree_elements", "backend", "clipboard",
              "home", "clock", "user_control", "next_pid")  # fmt: skip
    for key in simple:
        if key in data:
            out[key] = data[key]
    if "cursor" in data:
        out["cursor"] = _point(data["cursor"], "cursor")
    if "desktops" in data:
        out["desktops"] = tuple(data["desktops"])
    if "control" in data:
        out["control"] = ControlState(**data["control"])
    if "displays" in data:
        out["displays"] = tuple(
            Display(
                device=d.get("device", f"\\\\.\\DISPLAY{i + 1}"), rect=_rect(d.get("rect"), f"display {i}"),
                primary=bool(d.get("primary", False)),
                work_area=_rect(d["work_area"], f"display {i}") if "work_area" in d else None,
                effective_dpi=int(d.get("effective_dpi", 96)), scale=float(d.get("scale", 1.0)),
            )
            for i, d in enumerate(data["displays"])
        )  # fmt: skip
    if "windows" in data:
        out["windows"] = tuple(parse_window(w) for w in data["windows"])
    if "processes" in data:
        out["processes"] = tuple(Process(**p) for p in data["processes"])
    if "start_menu" in data:
        out["start_menu"] = tuple(
            StartMenuApp(name=a)
            if isinstance(a, str)
            else StartMenuApp(name=a["name"], detected=a.get("detected", True),
                              window=parse_window(a["window"]) if "window" in a else None)
            for a in data["start_menu"]
        )  # fmt: skip
    if "registry" in data:
        out["registry"] = {
            p: {n: (str(v[0]), str(v[1])) for n, v in vals.items()} for p, vals in data["registry"].items()
        }
    if "files" in data:
        out["files"] = {str(k): str(v) for k, v in data["files"].items()}
    if "powershell" in data:
        out["powershell"] = {k: (str(v[0]), int(v[1])) for k, v in data["powershell"].items()}
    if "pages" in data:
        out["pages"] = {str(k): str(v) for k, v in data["pages"].items()}
    return out


def scenario_from_dict(data: dict[str, Any], *, default_name: str = "custom") -> Scenario:
    """Build a scenario from its table form, starting from ``extends`` when given.

    Raises:
        ScenarioError: unknown ``extends``, a missing or malformed key.
    """
    base_name = data.get("extends")
    try:
        fields = _fields(data)
        name = str(data.get("name", default_name))
        if base_name is not None:
            if base_name not in BUILTINS:
                raise ScenarioError(f"extends: unknown scenario {base_name!r} (known: {sorted(BUILTINS)})")
            return replace(BUILTINS[base_name](), name=name, **fields)
        if "displays" not in fields:
            raise ScenarioError("displays: required unless the file extends a built-in scenario")
        return Scenario(name=name, **fields)
    except ScenarioError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(f"scenario {data.get('name', default_name)!r}: {exc}") from exc


def load_scenario(spec: str | Path) -> Scenario:
    """A built-in scenario by name, or a scenario file (``.json`` / ``.toml``) by path.

    Raises:
        ScenarioError: neither a known name nor a readable, valid file.
    """
    if isinstance(spec, str) and spec in BUILTINS:
        return BUILTINS[spec]()
    path = Path(spec)
    if not path.is_file():
        raise ScenarioError(f"unknown scenario {str(spec)!r}: not a built-in name {sorted(BUILTINS)} nor a file")
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{path}: {exc}") from exc
    return scenario_from_dict(data, default_name=path.stem)
