"""Every shipped upstream sample parses to the values written in it (S-OBS-01…12).

Expected values below were copied by reading `tests/upstream_data/samples/*` (the
verbatim upstream output), not by running the parser.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from gateway.observe.parse import CaptureFailure, parse_result, parse_text
from policy.observation import Capture, Display, Element, Window
from tests._requirements import SAMPLES, UPSTREAM_DATA, requirement

DISPLAY1 = "\\\\.\\DISPLAY1"  # `\\.\DISPLAY1` after JSON decoding
DISPLAY2 = "\\\\.\\DISPLAY2"
NOTEPAD = Window(name="notes.txt - Notepad", depth=2, status="Normal", width=1200, height=800, handle=1706796)
DOWNLOADS = Window(name="Downloads - File Explorer", depth=1, status="Minimized", width=160, height=28, handle=3935530)


def sample_result(stem: str) -> dict[str, Any]:
    """The whole CallToolResult of a sample, with the elided image data replaced by the real PNG."""
    doc = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))
    result: dict[str, Any] = doc["result"]
    for item in result["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    return result


def sample_text(name: str) -> str:
    """A sample text file, byte-exact (no newline translation, so CRLF stays CRLF)."""
    return (SAMPLES / name).read_bytes().decode("utf-8")


def capture_of(stem: str, tool: str = "Snapshot") -> Capture:
    parsed = parse_result(tool, sample_result(stem))
    assert isinstance(parsed, Capture), parsed
    return parsed


def by_name(capture: Capture, name: str) -> list[Element]:
    return [e for e in capture.elements if e.name == name]


def kinds(capture: Capture) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in capture.elements:
        out[e.kind] = out.get(e.kind, 0) + 1
    return out


@requirement("S-OBS-03", "S-OBS-04", "S-OBS-05", "S-OBS-06", "S-OBS-11")
def test_sample_01_full_desktop_at_scale_1() -> None:
    """S-OBS-03/04/05/06/11: sample 01's metadata, tables, tree and PNG size."""
    c = capture_of("01_snapshot_full_desktop_scale1")
    assert c.tool == "Snapshot"
    assert c.cursor == (640, 480)
    assert c.screenshot_size == (1920, 1080)
    assert c.original_size is None and c.coord_scale is None
    assert c.displays == (Display(index=0, device=DISPLAY1, rect=(0, 0, 1920, 1080), primary=True),)
    assert c.backend == "dxcam"
    assert c.region is None and c.selected_displays is None
    assert c.active_desktop == "Default Desktop"
    assert c.desktops == ("Default Desktop",)
    assert c.focused == NOTEPAD
    chrome = Window(
        name="Example Domain - Google Chrome",
        depth=4,
        status="Normal",
        width=1400,
        height=940,
        handle=2821150,
    )
    assert c.windows == (DOWNLOADS, chrome)
    assert c.image_size == (1920, 1080)
    assert c.tree == "present" and not c.tree_truncated
    assert kinds(c) == {"window": 2, "structural": 3, "element": 14}
    editor_value, editor_scroll = by_name(c, "Text editor")
    assert editor_value == Element(
        kind="element",
        control="document",
        name="Text editor",
        point=(800, 520),
        action="scroll",
        flags=frozenset({"focused"}),
        meta=(("value", "Hello world"),),
        depth=1,
        window="notes.txt - Notepad",
    )
    assert editor_scroll.point == (1122, 691) and editor_scroll.meta == (("v", "0.0"),)
    assert editor_scroll.flags == frozenset({"focused"})
    (view,) = by_name(c, "View")
    assert (view.control, view.point, view.depth, view.window) == (
        "menu item",
        (308, 152),
        2,
        "notes.txt - Notepad",
    )
    (clock,) = by_name(c, "Clock 10:42 AM 5/14/2026")
    assert (clock.point, clock.depth, clock.window) == ((1860, 1056), 2, "Taskbar")
    (running,) = by_name(c, "Google Chrome - 1 running window")
    assert (running.depth, running.window) == (3, "Taskbar")
    (toolbar,) = by_name(c, "Running applications")
    assert (toolbar.kind, toolbar.control, toolbar.point, toolbar.action) == (
        "structural",
        "tool bar",
        None,
        None,
    )
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-04", "S-OBS-11")
def test_sample_02_downscaled_desktop() -> None:
    """S-OBS-03/04/11: sample 02 prints Original Size and the scale sentence; no other windows."""
    c = capture_of("02_snapshot_downscaled_2560x1440")
    assert c.cursor == (1280, 720)
    assert c.original_size == (2560, 1440)
    assert c.coord_scale == 1.333333
    assert c.screenshot_size is None
    assert c.displays == (Display(index=0, device=DISPLAY1, rect=(0, 0, 2560, 1440), primary=True),)
    assert c.focused == Window(
        name="notes.txt - Notepad", depth=2, status="Normal", width=1600, height=1040, handle=1706796
    )
    assert c.windows == ()
    assert c.image_size == (1920, 1080)
    assert kinds(c) == {"window": 2, "structural": 3, "element": 13}
    (clock,) = by_name(c, "Clock 10:42 AM 5/14/2026")
    assert clock.point == (2500, 1416)
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-05")
def test_sample_03_region_with_cursor_outside() -> None:
    """S-OBS-03/05: sample 03's `Cursor Position: None`, two displays, region and clipped tree."""
    c = capture_of("03_snapshot_region_nonzero_origin")
    assert c.cursor is None
    assert c.screenshot_size == (600, 600)
    assert c.displays == (
        Display(index=0, device=DISPLAY1, rect=(0, 0, 1920, 1080), primary=True),
        Display(index=1, device=DISPLAY2, rect=(1920, 0, 4480, 1440), primary=False),
    )
    assert c.region == (2000, 100, 2600, 700)
    assert c.focused == Window(
        name="notes.txt - Notepad", depth=2, status="Normal", width=500, height=550, handle=1706796
    )
    assert c.image_size == (600, 600)
    assert kinds(c) == {"window": 1, "structural": 1, "element": 5}
    (file_item,) = by_name(c, "File")
    assert (file_item.point, file_item.depth, file_item.window) == ((2128, 202), 2, "notes.txt - Notepad")
    assert [e.point for e in by_name(c, "Text editor")] == [(2354, 460), (2354, 460)]
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-05")
def test_sample_04a_negative_origin_layout() -> None:
    """S-OBS-03/05: sample 04a's negative cursor, negative display rect and negative element points."""
    c = capture_of("04a_snapshot_multimonitor_negative_origin")
    assert c.cursor == (-1000, 400)
    assert c.original_size == (4480, 1440)
    assert c.coord_scale == 2.333333
    assert c.displays == (
        Display(index=0, device=DISPLAY1, rect=(0, 0, 2560, 1440), primary=True),
        Display(index=1, device=DISPLAY2, rect=(-1920, 0, 0, 1080), primary=False),
    )
    assert c.windows == (
        Window(
            name="Example Domain - Google Chrome",
            depth=3,
            status="Normal",
            width=2000,
            height=1200,
            handle=2821150,
        ),
    )
    assert c.image_size == (1920, 617)
    assert by_name(c, "Minimize")[0].point == (-415, 116)
    assert by_name(c, "File")[0].point == (-1672, 152)
    assert by_name(c, "Text editor")[0].point == (-1000, 520)
    assert by_name(c, "Text editor")[1].point == (-652, 359)
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-04", "S-OBS-07")
def test_sample_04b_screenshot_of_one_display() -> None:
    """S-OBS-03/04/07: sample 04b's Selected Displays, negative region and the skipped tree."""
    c = capture_of("04b_screenshot_display_1_negative_origin", "Screenshot")
    assert c.tool == "Screenshot"
    assert c.cursor == (-1000, 400)
    assert c.screenshot_size == (1920, 1080)
    assert c.selected_displays == (1,)
    assert c.region == (-1920, 0, 0, 1080)
    assert c.backend == "dxcam"
    assert c.focused is None and c.windows == ()
    assert c.tree == "skipped" and c.elements == ()
    assert c.image_size == (1920, 1080)
    assert c.warnings == ()


@requirement("S-OBS-01", "S-OBS-04", "S-OBS-05", "S-OBS-06")
def test_sample_05_rich_tree() -> None:
    """S-OBS-01/04/05/06: sample 05's emoji tables and every kind of meta bracket."""
    c = capture_of("05_snapshot_rich_tree_no_vision")
    assert c.cursor == (980, 320)
    assert c.image_size is None and c.screenshot_size is None and c.backend is None
    assert c.active_desktop == "Work 🛠"
    assert c.desktops == ("Desktop 1", "Work 🛠")
    assert c.focused == Window(name="Settings", depth=5, status="Maximized", width=1600, height=960, handle=5049915)
    assert [w.name for w in c.windows] == [
        "Downloads - File Explorer",
        "Notes 📝 - Notepad",
        "Example Domain - Google Chrome",
    ]
    assert c.windows[1] == Window(
        name="Notes 📝 - Notepad", depth=3, status="Normal", width=1200, height=800, handle=1706796
    )
    assert kinds(c) == {"window": 3, "structural": 5, "element": 33}
    expected = {
        "Volume": ("slider", (720, 220), "slide", frozenset(), (("value", "0.0"), ("range", "0.0-100.0"))),
        "Balance": (
            "slider",
            (720, 270),
            "slide",
            frozenset(),
            (("value", "-12.5"), ("range", "-50.0-50.0")),
        ),
        "Mute": ("check box", (610, 315), "toggle", frozenset(), (("toggle", "on"),)),
        "Choose where to play sound": (
            "combo box",
            (810, 360),
            "select",
            frozenset(),
            (("value", "Speakers (Realtek(R) Audio)"), ("state", "collapsed")),
        ),
        'Rename "Default Speaker"': ("button", (870, 410), "click", frozenset(), ()),
        "Network security key": (
            "edit",
            (720, 710),
            "fill",
            frozenset({"password"}),
            (("value", "●●●●●●●●"),),
        ),
        "Search settings": ("edit", (1140, 710), "fill", frozenset({"focused"}), (("value", "sound"),)),
        "Themes": ("list", (741, 837), "click", frozenset(), (("v", "33.33"), ("h", "50.0"))),
        "Settings content": ("pane", (1615, 641), "click", frozenset(), (("v", "0.0"),)),
        "日本語 (Japanese) — Time & language": ("list item", (320, 210), "click", frozenset(), ()),
        " Personalization": ("list item", (320, 250), "click", frozenset(), ()),
        "🔊 Speaker test": ("button", (620, 410), "click", frozenset(), ()),
        "Stereo": ("radio button", (580, 485), "select", frozenset(), ()),
    }
    for name, (control, point, action, flags, meta) in expected.items():
        (e,) = by_name(c, name)
        assert (e.control, e.point, e.action, e.flags, e.meta) == (control, point, action, flags, meta), name
        assert e.window == "Settings"
    assert by_name(c, "Network security key")[0].is_password
    assert by_name(c, "Search settings")[0].value == "sound"
    saves = by_name(c, "Save")
    assert [(s.point, s.window, s.meta) for s in saves] == [
        ((1070, 410), "Settings", (("shortcut", "Ctrl+S"),)),
        ((1045, 755), "Save As", (("shortcut", "Alt+S"),)),
    ]
    assert [e.name for e in c.elements if "focused" in e.flags] == ["Search settings"]
    assert (by_name(c, "Glow")[0].depth, by_name(c, "Themes")[0].depth) == (1, 1)
    assert c.warnings == ()


@requirement("S-OBS-02")
def test_sample_06_crlf_gives_the_same_capture_as_sample_05() -> None:
    """S-OBS-02: the hand-made CRLF variant parses to exactly the Capture of its LF original."""
    crlf = sample_text("06_snapshot_rich_tree_CRLF_variant_handmade.decoded.txt")
    assert "\r\n" in crlf
    lf = parse_text("Snapshot", sample_text("05_snapshot_rich_tree_no_vision.decoded.txt"))
    assert parse_text("Snapshot", crlf) == lf
    assert len(lf.elements) == 41


@requirement("S-OBS-07")
def test_sample_07_bare_windows_make_an_empty_tree() -> None:
    """S-OBS-07: `desktop` with two bare windows is tree state `empty`, with the windows kept."""
    c = capture_of("07_snapshot_empty_ui_tree")
    assert c.cursor == (100, 100)
    assert c.focused is None and c.windows == ()
    assert c.tree == "empty"
    assert [(e.kind, e.name, e.depth) for e in c.elements] == [
        ("window", "Taskbar", 0),
        ("window", "Program Manager", 0),
    ]
    assert c.warnings == ()


@requirement("S-OBS-08")
def test_sample_08_truncated_tree() -> None:
    """S-OBS-08: the truncation note gives tree_limit 12 and the indented tree still parses."""
    c = capture_of("08_snapshot_truncated_tree")
    assert c.tree_truncated is True and c.tree_limit == 12
    assert c.tree == "present"
    assert c.focused == Window(
        name="Invoices - File Explorer", depth=2, status="Normal", width=1200, height=940, handle=7281245
    )
    assert kinds(c) == {"window": 1, "element": 12}
    first, last = c.elements[1], c.elements[-1]
    assert (first.name, first.point, first.depth, first.window) == (
        "invoice_029.pdf",
        (570, 788),
        1,
        "Invoices - File Explorer",
    )
    assert (last.control, last.name, last.point, last.meta) == (
        "list",
        "Items View",
        (1132, 671),
        (("v", "0.0"),),
    )
    assert [e.name for e in c.elements[1:12]] == [f"invoice_{n:03d}.pdf" for n in range(29, 40)]
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-07", "S-OBS-11")
def test_sample_09_screenshot_tool() -> None:
    """S-OBS-03/07/11: sample 09 (Screenshot) has the skipped tree and a 1920x1080 PNG."""
    c = capture_of("09_screenshot_tool_full_desktop", "Screenshot")
    assert c.cursor == (640, 480)
    assert c.screenshot_size == (1920, 1080) and c.image_size == (1920, 1080)
    assert c.tree == "skipped" and c.elements == ()
    assert c.warnings == ()


@requirement("S-OBS-05")
def test_sample_10_browser_text_nodes() -> None:
    """S-OBS-05: sample 10's DOM elements and `text "…"` lines belong to the browser window."""
    c = capture_of("10_snapshot_browser_window")
    chrome = "Example Domain - Google Chrome"
    texts = [(e.name, e.point, e.action, e.window) for e in c.elements if e.kind == "text"]
    assert texts == [
        ("Example Domain", None, None, chrome),
        ("This domain is for use in documentation examples.", None, None, chrome),
    ]
    (doc,) = [e for e in c.elements if e.control == "document"]
    assert (doc.point, doc.value, doc.window) == ((960, 561), "https://example.com/", chrome)
    assert kinds(c) == {"window": 2, "structural": 2, "element": 8, "text": 2}
    dom = capture_of("10b_snapshot_browser_use_dom")
    assert [e.window for e in dom.elements] == [chrome] * 6
    assert kinds(dom) == {"window": 1, "element": 3, "text": 2}


@requirement("S-OBS-12")
@pytest.mark.parametrize(
    ("stem", "tool", "start"),
    [
        (
            "11_snapshot_error_bad_region",
            "Snapshot",
            "Error capturing desktop state: region [5000, 5000, 5100, 5100]",
        ),
        (
            "12_screenshot_error_bad_display",
            "Screenshot",
            "Error capturing screenshot: Invalid display index 3.",
        ),
    ],
)
def test_error_samples_produce_no_capture(stem: str, tool: str, start: str) -> None:
    """S-OBS-12: upstream's `Error capturing …` (isError false, JSON-wrapped) is a CaptureFailure."""
    parsed = parse_result(tool, sample_result(stem))
    assert isinstance(parsed, CaptureFailure)
    assert parsed.kind == "capture_error"
    assert parsed.message.startswith(start)


@requirement("S-OBS-01")
@pytest.mark.parametrize(
    "stem",
    [
        "05_snapshot_rich_tree_no_vision",
        "07_snapshot_empty_ui_tree",
        "08_snapshot_truncated_tree",
        "10b_snapshot_browser_use_dom",
    ],
)
def test_json_wrapped_text_equals_its_decoded_prose(stem: str) -> None:
    """S-OBS-01: the JSON-array text item and the decoded prose give the same Capture."""
    wrapped = sample_text(f"{stem}.txt")
    assert wrapped.startswith('["')
    assert parse_text("Snapshot", wrapped) == parse_text("Snapshot", sample_text(f"{stem}.decoded.txt"))


@requirement("S-OBS-12")
def test_user_control_refusal_is_a_capture_failure() -> None:
    """S-OBS-12: the USER_CONTROL JSON Snapshot returns while a person holds control is no observation."""
    calls = json.loads((UPSTREAM_DATA / "tool_outputs_user_control.json").read_text(encoding="utf-8"))
    (snapshot,) = [c for c in calls if c["tool"] == "Snapshot"]
    parsed = parse_result("Snapshot", snapshot["result"])
    assert isinstance(parsed, CaptureFailure)
    assert parsed.kind == "control" and "USER_CONTROL" in parsed.message


@requirement("S-OBS-01")
def test_tool_outputs_snapshot_is_parsed() -> None:
    """S-OBS-01: the Snapshot recorded in tool_outputs.json (JSON-wrapped, no image) parses cleanly."""
    calls = json.loads((UPSTREAM_DATA / "tool_outputs.json").read_text(encoding="utf-8"))
    snapshots = [c for c in calls if c["tool"] == "Snapshot"]
    assert snapshots
    for call in snapshots:
        parsed = parse_result("Snapshot", call["result"])
        assert isinstance(parsed, Capture)
        assert parsed.cursor == (640, 480) and parsed.image_size is None
        assert parsed.warnings == ()
