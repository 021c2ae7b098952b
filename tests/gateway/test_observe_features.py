"""Step definitions binding features/observations.feature (S-OBS-*); steps call gateway.observe.parse."""

from __future__ import annotations

import base64
import dataclasses
import importlib.util
import json
import sys
import tracemalloc
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.observe.parse import CaptureFailure, parse_result, parse_text
from policy.observation import Capture, Element
from tests._requirements import REPO, SAMPLES

scenarios("observations.feature")

META = "Visible Displays: 0:\\\\.\\DISPLAY1 (0,0,2560,1440) primary\n"
TABLES = (
    "\n    Active Desktop:\n    Name\n---------------\nDefault Desktop\n\n"
    "    All Desktops:\n    Name\n---------------\nDefault Desktop\n\n"
    "    Focused Window:\n    No active window found\n\n    Opened Windows:\n    No windows found\n"
)


def _prose(meta: str, tree: str) -> str:
    """A Snapshot text laid out as FORMATS.md §2 shows it."""
    return "\n    Cursor Position: (5, 5)\n" + meta + TABLES + "\n\nUI Tree:\n" + tree


@given(parsers.parse('the upstream result of sample "{stem}"'), target_fixture="result")
def _sample_result(stem: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))["result"]
    for item in result["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    return result


@given("the Snapshot prose with this UI tree", target_fixture="text")
def _prose_with_tree(docstring: str) -> str:
    return _prose(META, docstring)


@given(parsers.parse('the Snapshot prose with metadata "{line}" and this UI tree'), target_fixture="text")
def _prose_with_meta(line: str, docstring: str) -> str:
    return _prose(META + line + "\n", docstring)


@when(parsers.parse('the gateway parses the "{tool}" result'), target_fixture="parsed")
def _parse_result(tool: str, result: dict[str, Any]) -> Capture | CaptureFailure:
    return parse_result(tool, result)


@when("the gateway parses the prose", target_fixture="parsed")
def _parse_prose(text: str) -> Capture:
    return parse_text("Snapshot", text)


@when(parsers.parse('the gateway parses the prose of "{name}"'), target_fixture="parsed")
def _parse_sample_prose(name: str) -> Capture:
    return parse_text("Snapshot", (SAMPLES / name).read_bytes().decode("utf-8"))


def _capture(parsed: Capture | CaptureFailure) -> Capture:
    assert isinstance(parsed, Capture), parsed
    return parsed


@then(parsers.parse('it equals the parsed prose of "{name}"'))
def _equals(parsed: Capture, name: str) -> None:
    assert parsed == parse_text("Snapshot", (SAMPLES / name).read_bytes().decode("utf-8"))


@then(parsers.parse("the cursor is at {x:d}, {y:d}"))
def _cursor(parsed: Capture, x: int, y: int) -> None:
    assert _capture(parsed).cursor == (x, y)


@then(parsers.parse('the UI tree state is "{state}"'))
def _tree_state(parsed: Capture, state: str) -> None:
    assert _capture(parsed).tree == state


@then("there is no focused window")
def _no_focus(parsed: Capture) -> None:
    assert _capture(parsed).focused is None


@then(parsers.parse('display {index:d} is "{device}" at {left:d}, {top:d}, {right:d}, {bottom:d}'))
def _display(parsed: Capture, index: int, device: str, left: int, top: int, right: int, bottom: int) -> None:
    (display,) = [d for d in _capture(parsed).displays if d.index == index]
    assert (display.device, display.rect) == (device, (left, top, right, bottom))


@then(parsers.parse("the printed coordinate scale is {scale:g}"))
def _scale(parsed: Capture, scale: float) -> None:
    assert _capture(parsed).coord_scale == scale


@then(parsers.parse("the image read from the PNG header is {width:d}x{height:d}"))
def _image(parsed: Capture, width: int, height: int) -> None:
    assert _capture(parsed).image_size == (width, height)


@then(parsers.parse('the focused window is "{name}" with handle {handle:d}'))
def _focused(parsed: Capture, name: str, handle: int) -> None:
    focused = _capture(parsed).focused
    assert focused is not None and (focused.name, focused.handle) == (name, handle)


@then("the opened windows are")
def _windows(parsed: Capture, datatable: list[list[str]]) -> None:
    rows = [(w.name, w.status, str(w.handle)) for w in _capture(parsed).windows]
    assert rows == [tuple(cell.strip() for cell in row) for row in datatable[1:]]


@then(parsers.parse('element "{name}" is at {x:d}, {y:d} in window "{window}"'))
def _element_at(parsed: Capture, name: str, x: int, y: int, window: str) -> None:
    (element,) = [e for e in _capture(parsed).elements if e.name == name]
    assert (element.point, element.window) == ((x, y), window)


@then(parsers.parse('only element "{name}" is focused'))
def _only_focused(parsed: Capture, name: str) -> None:
    assert [e.name for e in _capture(parsed).elements if "focused" in e.flags] == [name]


@then(parsers.parse('element "{name}" has value "{value}"'))
def _value(parsed: Capture, name: str, value: str) -> None:
    (element,) = [e for e in _capture(parsed).elements if e.name == name]
    assert element.value == value


@then(parsers.parse('element "{name}" is a password field'))
def _password(parsed: Capture, name: str) -> None:
    (element,) = [e for e in _capture(parsed).elements if e.name == name]
    assert element.is_password


@then("there are no parse warnings")
def _no_warnings(parsed: Capture) -> None:
    assert _capture(parsed).warnings == ()


@then(parsers.parse("the screenshot region is {left:d}, {top:d}, {right:d}, {bottom:d}"))
def _region(parsed: Capture, left: int, top: int, right: int, bottom: int) -> None:
    assert _capture(parsed).region == (left, top, right, bottom)


@then(parsers.parse('the only tree line is window "{name}"'))
def _only_window(parsed: Capture, name: str) -> None:
    assert [(e.kind, e.name) for e in _capture(parsed).elements] == [("window", name)]


@then("there are no elements")
def _no_elements(parsed: Capture) -> None:
    assert _capture(parsed).elements == ()


@then(parsers.parse('there is a parse warning about "{fragment}"'))
def _warning_about(parsed: Capture, fragment: str) -> None:
    assert any(fragment in w for w in _capture(parsed).warnings), _capture(parsed).warnings


@then(parsers.parse("the tree is truncated at {limit:d} elements"))
def _truncated(parsed: Capture, limit: int) -> None:
    capture = _capture(parsed)
    assert capture.tree_truncated and capture.tree_limit == limit


@then(parsers.parse('there is no observation, because "{start}"'))
def _failure(parsed: Capture | CaptureFailure, start: str) -> None:
    assert isinstance(parsed, CaptureFailure)
    assert parsed.message.startswith(start)


@pytest.fixture
def world() -> dict[str, int]:
    """What a step measured for a later step (the traced peak)."""
    return {}


@given(parsers.parse("the benchmark's Snapshot text with {count:d} elements"), target_fixture="text")
def _bench_text(count: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_parse", REPO / "scripts" / "bench_parse.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    text: str = bench.synthetic_text(count)
    return text


@given(parsers.parse("a Snapshot text whose UI tree repeats the line '{line}' {count:d} times"), target_fixture="text")
def _repeated_lines(line: str, count: int) -> str:
    return _prose(META, "desktop\n" + "\n".join([line] * count))


@when("the gateway parses the prose while tracing memory", target_fixture="parsed")
def _parse_traced(text: str, world: dict[str, int]) -> Capture:
    parse_text("Snapshot", _prose(META, "desktop"))  # the patterns are compiled before, as in use
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        parsed = parse_text("Snapshot", text)
        world["peak"] = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return parsed


@then(parsers.parse("there are {count:d} element lines and no parse warnings"))
def _element_count(parsed: Capture, count: int) -> None:
    capture = _capture(parsed)
    assert sum(e.kind == "element" for e in capture.elements) == count and capture.warnings == ()


@then("every element equals the one Element itself builds from the same fields")
def _elements_as_built(parsed: Capture) -> None:
    for e in _capture(parsed).elements:
        rebuilt = Element(**{f.name: getattr(e, f.name) for f in dataclasses.fields(Element)})
        assert type(e) is Element and e == rebuilt and hash(e) == hash(rebuilt) and repr(e) == repr(rebuilt)


@then(parsers.parse("the parse peaked at no more than {factor:d} times the text's own size plus {kib:d} KiB"))
def _peak_bound(text: str, world: dict[str, int], factor: int, kib: int) -> None:
    assert world["peak"] <= factor * sys.getsizeof(text) + kib * 1024, world["peak"]
