"""Property tests: the parser never raises, and printed tree lines parse back (S-OBS-10, S-OBS-05/06)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.observe.parse import CaptureFailure, parse_result, parse_text
from policy.observation import Capture
from tests._requirements import SAMPLES, requirement

SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
SAMPLE_TEXTS = sorted(
    p.read_bytes().decode("utf-8") for p in SAMPLES.glob("*.txt") if not p.name.startswith(("11_", "12_"))
)
ANY_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=400)
TREE_TOKENS = st.sampled_from(
    [
        *'├└│─ "[]():,-.\n\r\tx09',
        "├── ",
        "└── ",
        "│   ",
        "    ",
        "  [action: click]",
        "  [focused]",
        "desktop",
        "No elements",
    ]
)


def _ok(capture: object) -> None:
    assert isinstance(capture, Capture)
    assert isinstance(capture.warnings, tuple)


@requirement("S-OBS-10")
@SETTINGS
@given(ANY_TEXT)
def test_parse_text_never_raises_on_arbitrary_unicode(text: str) -> None:
    """S-OBS-10: any unicode string parses to a Capture."""
    _ok(parse_text("Snapshot", text))


@requirement("S-OBS-10")
@SETTINGS
@given(st.lists(st.lists(TREE_TOKENS, max_size=12).map("".join), max_size=40))
def test_parse_text_never_raises_on_tree_shaped_noise(lines: list[str]) -> None:
    """S-OBS-10: noise made of tree glyphs, quotes and brackets after a `UI Tree:` header parses."""
    _ok(parse_text("Snapshot", "\n    Cursor Position: (1, 1)\n\n\nUI Tree:\n" + "\n".join(lines)))


@requirement("S-OBS-10", "S-OBS-01")
@SETTINGS
@given(st.lists(st.one_of(ANY_TEXT, st.integers(), st.none(), st.floats(allow_nan=True)), max_size=5))
def test_arbitrary_json_array_envelopes(items: list[Any]) -> None:
    """S-OBS-10/01: any JSON array as the text item, wrapped or cut, never raises in either entry point."""
    wrapped = json.dumps(items)
    for text in (wrapped, wrapped[: len(wrapped) // 2], '["' + wrapped):
        _ok(parse_text("Snapshot", text))
        parsed = parse_result("Snapshot", {"content": [{"type": "text", "text": text}], "isError": False})
        assert isinstance(parsed, Capture | CaptureFailure)


@requirement("S-OBS-10")
@SETTINGS
@given(st.sampled_from(SAMPLE_TEXTS), st.floats(min_value=0, max_value=1))
def test_truncated_samples_never_raise(text: str, fraction: float) -> None:
    """S-OBS-10: every sample cut at any point (wrapped ones included) still parses."""
    _ok(parse_text("Snapshot", text[: int(len(text) * fraction)]))


@requirement("S-OBS-10")
@SETTINGS
@given(st.sampled_from(SAMPLE_TEXTS), st.integers(min_value=0), st.text(max_size=8))
def test_samples_with_injected_text_never_raise(text: str, where: int, junk: str) -> None:
    """S-OBS-10: random text spliced anywhere into a sample still parses."""
    pos = where % (len(text) + 1)
    _ok(parse_text("Snapshot", text[:pos] + junk + text[pos:]))


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=20,
)


@requirement("S-OBS-10", "S-OBS-12")
@SETTINGS
@given(
    st.one_of(
        JSONISH,
        st.fixed_dictionaries(
            {"content": st.lists(st.dictionaries(st.sampled_from(["type", "text", "data", "mimeType"]), JSONISH))}
        ),
    )
)
def test_parse_result_never_raises_on_arbitrary_values(value: Any) -> None:
    """S-OBS-10/12: any JSON-like value as a result gives a Capture or a CaptureFailure."""
    assert isinstance(parse_result("Snapshot", value), Capture | CaptureFailure)


# --- round trip: a line printed by §5.1/§5.2's grammar parses back to its parts -------------

NAME = st.text(st.characters(codec="utf-8", exclude_characters="\n\r\x85\u2028\u2029"), max_size=20).filter(
    lambda s: '"  [action: ' not in s
)
CTRL = st.text(st.characters(categories=["Ll"]), min_size=1, max_size=8).flatmap(
    lambda a: st.sampled_from([a, a + " item", "schaltfläche", "split button"])
)
VALUE = NAME.filter(lambda s: '"]' not in s)


@requirement("S-OBS-05", "S-OBS-06")
@SETTINGS
@given(
    st.integers(-5000, 5000),
    st.integers(-5000, 5000),
    CTRL,
    NAME,
    st.sampled_from(["click", "fill", "toggle", "select", "slide", "scroll"]),
    st.booleans(),
    st.booleans(),
    st.none() | VALUE,
    st.none() | st.sampled_from(["on", "off"]),
    st.none() | st.sampled_from(["Ctrl+S", "Alt+]", "F5"]),
    st.integers(1, 4),
)
def test_printed_element_lines_parse_back(
    x: int,
    y: int,
    ctrl: str,
    name: str,
    action: str,
    focused: bool,
    password: bool,
    value: str | None,
    toggle: str | None,
    shortcut: str | None,
    depth: int,
) -> None:
    """S-OBS-05/06: an element line printed per the grammar parses back to point, CTRL, name, flags, meta."""
    meta = []
    tail = f"  [action: {action}]"
    if focused:
        tail += "  [focused]"
    if password:
        tail += "  [password]"
    if value is not None:
        tail += f'  [value:"{value}"]'
        meta.append(("value", value))
    if toggle is not None:
        tail += f"  [toggle:{toggle}]"
        meta.append(("toggle", toggle))
    if shortcut is not None:
        tail += f"  [shortcut:{shortcut}]"
        meta.append(("shortcut", shortcut))
    prefix = "    " * depth
    parents = "".join("    " * d + '└── group "g"\n' for d in range(1, depth))
    head = '\n    Cursor Position: (1, 1)\n\n\nUI Tree:\ndesktop\n└── window "W"\n'
    text = f'{head}{parents}{prefix}└── ({x},{y}) {ctrl} "{name}"{tail}'
    c = parse_text("Snapshot", text)
    element = c.elements[-1]
    flags = {f for f, on in (("focused", focused), ("password", password)) if on}
    got = (
        element.kind,
        element.point,
        element.control,
        element.name,
        element.action,
        element.flags,
        element.meta,
    )
    assert got == ("element", (x, y), ctrl, name, action, frozenset(flags), tuple(meta))
    assert (element.depth, element.window) == (depth, "W")
    assert c.warnings == ()
