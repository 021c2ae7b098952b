"""The parser against the grammar of FORMATS.md §1–§5, line by line, beyond the samples.

Texts here are assembled with FORMATS §2's skeleton (`prose()` below), so each test
changes exactly one thing relative to real upstream output.
"""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from gateway.observe.parse import MAX_WARNINGS, CaptureFailure, parse_result, parse_text, unwrap_text
from gateway.observe.png import png_size, png_size_from_base64
from policy.observation import Capture, Display, Window
from tests._requirements import requirement

NO_WINDOWS = "    Focused Window:\n    No active window found\n\n    Opened Windows:\n    No windows found\n"
DESKTOPS = (
    "    Active Desktop:\n    Name\n---------------\nDefault Desktop\n\n"
    "    All Desktops:\n    Name\n---------------\nDefault Desktop\n\n"
)


def prose(
    tree: str | None,
    meta: str = "Visible Displays: 0:\\\\.\\DISPLAY1 (0,0,1920,1080) primary\n",
    windows: str = NO_WINDOWS,
) -> str:
    """A Snapshot text per FORMATS §2: cursor + metadata, tables, then `UI Tree:` + tree."""
    text = "\n    Cursor Position: (10, 20)\n" + meta + "\n" + DESKTOPS + windows
    return text if tree is None else text + "\n\nUI Tree:\n" + tree


def tree_of(*lines: str) -> str:
    return "desktop\n" + "\n".join(lines)


def png_b64(width: int, height: int) -> str:
    buf = io.BytesIO()
    Image.new("RGB", (width, height)).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def only_element(text: str) -> Capture:
    c = parse_text("Snapshot", text)
    assert [e.kind for e in c.elements].count("element") == 1, c
    return c


# --- S-OBS-05: node grammar -------------------------------------------------------------


@requirement("S-OBS-05")
@pytest.mark.parametrize(
    ("line", "control", "name"),
    [
        (
            '│   ├── (10,20) button "Rename "Default Speaker""  [action: click]',
            "button",
            'Rename "Default Speaker"',
        ),
        ('│   ├── (10,20) button "a  [b]  c ]["  [action: click]', "button", "a  [b]  c ]["),
        ('│   ├── (10,20) button "ends with quote ""  [action: click]', "button", 'ends with quote "'),
        ('│   ├── (10,20) schaltfläche "Speichern"  [action: click]', "schaltfläche", "Speichern"),
        ('│   ├── (10,20) élément de liste "Fichier"  [action: click]', "élément de liste", "Fichier"),
        ('│   ├── (10,20) split button "Options"  [action: click]', "split button", "Options"),
        ('│   ├── (10,20) button ""  [action: click]', "button", ""),
        ('│   └── (10,20) button "x"  [action: click]"  [action: click]', "button", 'x"  [action: click]'),
    ],
)
def test_element_name_is_between_first_quote_and_last_action_quote(line: str, control: str, name: str) -> None:
    """S-OBS-05: CTRL may hold spaces and non-English letters; names keep quotes, brackets, double spaces."""
    c = only_element(prose(tree_of('├── window "W"', line)))
    e = c.elements[1]
    assert (e.control, e.name, e.point, e.depth, e.window) == (control, name, (10, 20), 1, "W")
    assert c.warnings == ()


@requirement("S-OBS-05")
def test_window_structural_and_text_lines_have_no_point() -> None:
    """S-OBS-05: window/structural/text lines parse to their kind; names end at the line's last quote."""
    c = parse_text(
        "Snapshot",
        prose(
            tree_of(
                '└── window "Say "hi" [1]"',
                '    ├── custom "Box  two  spaces"',
                '    │   └── (-5,-7) check box "Neg"  [action: toggle]  [toggle:off]',
                '    └── text "plain "quoted" text"',
            )
        ),
    )
    got = [(e.kind, e.control, e.name, e.point, e.depth, e.window) for e in c.elements]
    assert got == [
        ("window", "window", 'Say "hi" [1]', None, 0, 'Say "hi" [1]'),
        ("structural", "custom", "Box  two  spaces", None, 1, 'Say "hi" [1]'),
        ("element", "check box", "Neg", (-5, -7), 2, 'Say "hi" [1]'),
        ("text", "text", 'plain "quoted" text', None, 1, 'Say "hi" [1]'),
    ]
    assert c.elements[2].meta == (("toggle", "off"),)
    assert c.warnings == ()


@requirement("S-OBS-05")
def test_element_window_is_the_enclosing_top_level_window() -> None:
    """S-OBS-05: Element.window names the depth-0 window above it, also after a deeper subtree closes."""
    c = parse_text(
        "Snapshot",
        prose(
            tree_of(
                '├── window "First"',
                '│   ├── group "G"',
                '│   │   └── (1,1) button "deep"  [action: click]',
                '│   └── (2,2) button "shallow"  [action: click]',
                '└── window "Second"',
                '    └── (3,3) button "other"  [action: click]',
            )
        ),
    )
    assert [(e.name, e.depth, e.window) for e in c.elements] == [
        ("First", 0, "First"),
        ("G", 1, "First"),
        ("deep", 2, "First"),
        ("shallow", 1, "First"),
        ("Second", 0, "Second"),
        ("other", 1, "Second"),
    ]
    assert c.warnings == ()


@requirement("S-OBS-05", "S-OBS-10")
def test_element_name_with_a_line_break_is_joined_with_a_warning() -> None:
    """S-OBS-05/10: a UIA name holding a newline spans two physical lines; they are joined and flagged."""
    c = parse_text(
        "Snapshot",
        prose(
            tree_of(
                '└── window "W"',
                '    ├── (5,5) button "two',
                'lines"  [action: click]',
                '    └── (6,6) button "next"  [action: click]',
            )
        ),
    )
    assert [(e.name, e.point) for e in c.elements[1:]] == [("two\nlines", (5, 5)), ("next", (6, 6))]
    assert any("spans 2 lines" in w for w in c.warnings)


@requirement("S-OBS-05", "S-OBS-10")
@pytest.mark.parametrize(
    "bad",
    [
        "    ├── (5,5) button Start  [action: click]",  # name without quotes
        "    ├── (5,5)",  # coordinates only
        '    ├── (5,5)button "x"  [action: click]',  # no space after the point
        '    ├── (5.5,6) button "x"  [action: click]',  # not integers
        '    ├── (5,5) button "x"',  # element without its action bracket
        '    ├── pane "open',  # unterminated structural name
        "    ├──pane",  # broken connector
    ],
)
def test_malformed_tree_lines_become_warnings_not_elements(bad: str) -> None:
    """S-OBS-05/10: a tree line outside the grammar is a warning and no element."""
    c = parse_text("Snapshot", prose(tree_of('└── window "W"', bad, '    └── (6,6) button "ok"  [action: click]')))
    assert [e.name for e in c.elements] == ["W", "ok"]
    assert len(c.warnings) == 1 and "line" in c.warnings[0]


@requirement("S-OBS-05", "S-OBS-10")
def test_inconsistent_tree_prefixes_are_flagged() -> None:
    """S-OBS-05/10: a level jump or a prefix that contradicts the parents' connectors is a warning."""
    jump = parse_text("Snapshot", prose(tree_of('└── window "W"', '        └── (1,1) button "x"  [action: click]')))
    assert jump.elements[1].depth == 2
    assert any("jumps a level" in w for w in jump.warnings)
    wrong = parse_text("Snapshot", prose(tree_of('└── window "W"', '│   └── (1,1) button "x"  [action: click]')))
    assert any("prefix does not match" in w for w in wrong.warnings)


# --- S-OBS-06: meta brackets --------------------------------------------------------------


@requirement("S-OBS-06")
@pytest.mark.parametrize(
    ("tail", "flags", "meta"),
    [
        (
            '  [action: fill]  [focused]  [password]  [value:"●●"]',
            {"focused", "password"},
            (("value", "●●"),),
        ),
        (
            '  [action: slide]  [focused]  [value:"0.0"]  [range:-50.0-50.0]',
            {"focused"},
            (("value", "0.0"), ("range", "-50.0-50.0")),
        ),
        ('  [action: select]  [value:"a]  [focused]"]', set(), (("value", "a]  [focused]"),)),
        ('  [action: fill]  [value:"say "x"  [y]"]', set(), (("value", 'say "x"  [y]'),)),
        (
            "  [action: click]  [toggle:on]  [shortcut:Ctrl+]]",
            set(),
            (("toggle", "on"), ("shortcut", "Ctrl+]")),
        ),
        ("  [action: select]  [state:partially expanded]", set(), (("state", "partially expanded"),)),
        (
            "  [action: click]  [focused]  [v:33.33%]  [h:100.0%]",
            {"focused"},
            (("v", "33.33"), ("h", "100.0")),
        ),
        ("  [action: click]  [h:0.0%]", set(), (("h", "0.0"),)),
        ('  [action: fill]  [value:""]', set(), (("value", ""),)),
    ],
)
def test_meta_brackets_in_documented_order(tail: str, flags: set[str], meta: tuple[tuple[str, str], ...]) -> None:
    """S-OBS-06: flags and keyed meta of §5.2, including values holding `]`, `"` and two spaces."""
    c = only_element(prose(tree_of('└── window "W"', f'    └── (1,2) thing "N"{tail}')))
    e = c.elements[1]
    assert (e.name, e.flags, e.meta) == ("N", frozenset(flags), meta)
    assert c.warnings == ()


@requirement("S-OBS-06", "S-OBS-10")
def test_unknown_meta_bracket_keeps_the_element_and_warns() -> None:
    """S-OBS-06/10: a bracket outside §5.2's order keeps point/name/action and adds a warning."""
    c = only_element(
        prose(tree_of('└── window "W"', '    └── (1,2) button "N"  [action: click]  [selected]  [focused]'))
    )
    e = c.elements[1]
    assert (e.point, e.name, e.action, e.flags) == ((1, 2), "N", "click", frozenset({"focused"}))
    assert any("outside the documented grammar" in w for w in c.warnings)


@requirement("S-OBS-06")
@pytest.mark.parametrize("focused_first", [True, False])
def test_focused_stays_on_its_own_line(focused_first: bool) -> None:
    """S-OBS-06: regression — `[focused]` of one line never attaches to the element before or after it."""
    lines = ['    ├── (1,1) edit "A"  [action: fill]', '    └── (2,2) edit "B"  [action: fill]  [focused]']
    if focused_first:
        lines = [
            '    ├── (1,1) edit "A"  [action: fill]  [focused]',
            '    └── (2,2) edit "B"  [action: fill]',
        ]
    c = parse_text("Snapshot", prose(tree_of('└── window "W"', *lines)))
    focused = [e.name for e in c.elements if "focused" in e.flags]
    assert focused == (["A"] if focused_first else ["B"])


# --- S-OBS-09 and S-OBS-07: what is never an element ---------------------------------------


@requirement("S-OBS-09")
def test_no_element_outside_the_ui_tree_section() -> None:
    """S-OBS-09: regression — `Screenshot Region: (0,0,…)` and element-like titles are no elements."""
    meta = (
        "Screenshot Size: (2560,1440)\n"
        "Visible Displays: 0:\\\\.\\DISPLAY1 (0,0,2560,1440) primary\n"
        "Screenshot Region: (0,0,2560,1440)\n"
        "Coordinate Space: Virtual desktop coordinates\n"
        "Screenshot Backend: mss\n"
    )
    windows = (
        "    Focused Window:\n    No active window found\n\n    Opened Windows:\n"
        "    Name                                            Depth  Status    Width    Height    Handle\n"
        "----------------------------------------  -------  ------  -------  --------  --------\n"
        '(5,5) button "Fake"  [action: click]  [focused]        1  Normal       10        10        42\n'
    )
    c = parse_text("Snapshot", prose('desktop\n└── window "Real"', meta=meta, windows=windows))
    assert c.region == (0, 0, 2560, 1440)
    assert [(e.kind, e.name) for e in c.elements] == [("window", "Real")]
    assert c.windows == (
        Window(
            name='(5,5) button "Fake"  [action: click]  [focused]',
            depth=1,
            status="Normal",
            width=10,
            height=10,
            handle=42,
        ),
    )
    assert c.warnings == ()


@requirement("S-OBS-07")
@pytest.mark.parametrize(
    "after",
    [
        "",
        '\n├── (1,2) button "x"  [action: click]  [focused]',
        '\n(3,4) button "y"  [action: click]  [focused]  [value:"z"]',
    ],
)
def test_no_elements_sentinel_never_becomes_an_element(after: str) -> None:
    """S-OBS-07: regression — `UI Tree:\\nNo elements` gives no element, even with element lines after it."""
    c = parse_text("Snapshot", prose("No elements" + after))
    assert c.tree == "no_elements"
    assert c.elements == ()
    assert len(c.warnings) == (1 if after else 0)


@requirement("S-OBS-07", "S-OBS-10")
def test_no_elements_line_with_coordinates_is_not_an_element() -> None:
    """S-OBS-07/10: a `No elements` placeholder with a point and brackets is a warning, not an element."""
    c = parse_text("Snapshot", prose('No elements (10,20) button "x"  [action: click]  [focused]'))
    assert c.elements == ()
    assert c.warnings


@requirement("S-OBS-07")
@pytest.mark.parametrize(
    ("tree", "state"),
    [
        ("desktop", "empty"),
        ('desktop\n└── window "Taskbar"', "empty"),
        ('desktop\n└── window "T"\n    └── pane "P"', "present"),
        ('desktop\n└── window "T"\n    └── text "hello"', "present"),
    ],
)
def test_tree_states(tree: str, state: str) -> None:
    """S-OBS-07: `desktop` alone or bare windows are `empty`; any other line makes the tree `present`."""
    c = parse_text("Snapshot", prose(tree))
    assert c.tree == state and c.warnings == ()


@requirement("S-OBS-07", "S-OBS-10")
def test_missing_tree_section_is_absent_with_a_warning() -> None:
    """S-OBS-07/10: a Snapshot text without `UI Tree:` has tree state `absent` and says so."""
    c = parse_text("Snapshot", prose(None))
    assert c.tree == "absent" and c.elements == ()
    assert any("UI Tree" in w for w in c.warnings)


# --- S-OBS-08: truncation -----------------------------------------------------------------


@requirement("S-OBS-08")
def test_truncation_note_and_indented_tree() -> None:
    """S-OBS-08: the four extra spaces are removed and the note gives the element limit."""
    note = "... [truncated: reached the 500-element capture limit — some elements were not visited.]"
    text = (
        prose(None)
        + '\n\n    UI Tree:\n    desktop\n    └── window "W"\n'
        + '        └── (1,2) button "b"  [action: click]\n\n'
        + note
    )
    c = parse_text("Snapshot", text)
    assert (c.tree, c.tree_truncated, c.tree_limit) == ("present", True, 500)
    assert [(e.name, e.depth, e.point) for e in c.elements] == [("W", 0, None), ("b", 1, (1, 2))]
    assert c.warnings == ()


# --- S-OBS-03: metadata lines -------------------------------------------------------------


@requirement("S-OBS-03")
def test_every_metadata_line() -> None:
    """S-OBS-03: sizes, scale sentence, displays with fallback names, selection, region, backend."""
    meta = (
        "Screenshot Original Size: (3840,2160)\n"
        "Screenshot Coordinate Scale: 2.0 — image pixels are downscaled; multiply every image pixel "
        "coordinate by 2.0 before passing to Click, Move, Scroll, or any loc= argument "
        "(e.g. image pixel (200, 150) → screen coordinate (400, 300))\n"
        "Visible Displays: 0:DISPLAY0 (0,0,1920,1080); 1:\\\\.\\DISPLAY7 (-1280,-1024,0,0) primary; "
        "2:My Screen (x) (1920,-200,3840,880)\n"
        "Selected Displays: 0,2\n"
        "Screenshot Region: (0,-200,3840,1080)\n"
        "Coordinate Space: Virtual desktop coordinates\n"
        "Screenshot Backend: pillow\n"
    )
    c = parse_text("Snapshot", prose("desktop", meta=meta))
    assert c.cursor == (10, 20)
    assert (c.original_size, c.coord_scale, c.screenshot_size) == ((3840, 2160), 2.0, None)
    assert c.displays == (
        Display(index=0, device="DISPLAY0", rect=(0, 0, 1920, 1080), primary=False),
        Display(index=1, device="\\\\.\\DISPLAY7", rect=(-1280, -1024, 0, 0), primary=True),
        Display(index=2, device="My Screen (x)", rect=(1920, -200, 3840, 880), primary=False),
    )
    assert c.selected_displays == (0, 2)
    assert c.region == (0, -200, 3840, 1080)
    assert c.backend == "pillow"
    assert c.warnings == ()


@requirement("S-OBS-03", "S-OBS-10")
@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("Screenshot Coordinate Scale: abc — image pixels are downscaled", "not a positive number"),
        ("Screenshot Coordinate Scale: -2.0 — image pixels are downscaled", "not a positive number"),
        ("Coordinate Space: Logical pixels", "unknown coordinate space"),
        ("Visible Displays: 0:\\\\.\\DISPLAY1 (0,0,1920)", "display item not understood"),
        ("Screenshot Region: (10,10,5,5)", "region is empty"),
        ("Screenshot Zoom: 3", "metadata line not understood"),
        ("Cursor Position: (1, 2)", "repeated"),
    ],
)
def test_metadata_lines_outside_the_grammar_warn(line: str, fragment: str) -> None:
    """S-OBS-03/10: a metadata line that does not fit FORMATS §3 is reported, not guessed."""
    c = parse_text("Snapshot", prose("desktop", meta=line + "\n"))
    assert any(fragment in w for w in c.warnings), c.warnings
    assert c.cursor == (10, 20)
    if "Scale" in line:
        assert c.coord_scale is None


@requirement("S-OBS-03")
def test_cursor_none_and_negative() -> None:
    """S-OBS-03: `Cursor Position: None` is None; negative positions keep their sign."""
    text = prose("desktop")
    assert parse_text("Snapshot", text.replace("(10, 20)", "None")).cursor is None
    assert parse_text("Snapshot", text.replace("(10, 20)", "(-1000, -5)")).cursor == (-1000, -5)


# --- S-OBS-04: tables ---------------------------------------------------------------------


@requirement("S-OBS-04")
def test_window_rows_are_split_from_the_right() -> None:
    """S-OBS-04: runs of spaces, quotes and emoji in a title survive; the last five tokens are the numbers."""
    windows = (
        "    Focused Window:\n"
        "    Name                          Depth  Status    Width    Height    Handle\n"
        "--------------------------  -------  ------  -------  --------  --------\n"
        'Report   "Q3"  final - Word          7  Normal      800       600      9999\n'
        "\n    Opened Windows:\n"
        "    Name               Depth  Status    Width    Height    Handle\n"
        "-----------------  -------  ------  -------  --------  --------\n"
        "🎵🎶 Music  Player       1  Hidden        0         0        12\n"
        "Tiny                  2  Weird        10        10        13\n"
    )
    c = parse_text("Snapshot", prose("desktop", windows=windows))
    assert c.focused == Window(
        name='Report   "Q3"  final - Word', depth=7, status="Normal", width=800, height=600, handle=9999
    )
    assert c.windows == (
        Window(name="🎵🎶 Music  Player", depth=1, status="Hidden", width=0, height=0, handle=12),
        Window(name="Tiny", depth=2, status="Weird", width=10, height=10, handle=13),
    )
    assert [w for w in c.warnings if "Weird" in w]  # unknown status: kept, flagged


@requirement("S-OBS-04", "S-OBS-10")
def test_unreadable_window_row_is_a_warning() -> None:
    """S-OBS-04/10: a row whose last five tokens are not numbers/status is reported and skipped."""
    windows = (
        "    Focused Window:\n    Name  Depth  Status  Width  Height  Handle\n"
        "----  -----  ------  -----  ------  ------\n"
        "Broken row without numbers\n\n    Opened Windows:\n    No windows found\n"
    )
    c = parse_text("Snapshot", prose("desktop", windows=windows))
    assert c.focused is None
    assert any("window row not understood" in w for w in c.warnings)


# --- S-OBS-01 / S-OBS-02: envelope and line endings --------------------------------------


@requirement("S-OBS-01")
def test_envelope_unwrapping() -> None:
    """S-OBS-01: `["…"]` is JSON-decoded and joined; a cut-off envelope is repaired with a warning."""
    body = prose('desktop\n└── window "W"')
    wrapped = json.dumps([body], ensure_ascii=False)
    assert unwrap_text(wrapped) == (body, ())
    assert unwrap_text(json.dumps(["a", "b"])) == ("a\nb", ())
    cut, warns = unwrap_text(wrapped[:-10])
    assert body.startswith(cut) and len(cut) > len(body) - 12 and warns
    raw, warns = unwrap_text('["\\q not json')
    assert raw == '["\\q not json' and warns
    assert unwrap_text('["a", 3]') == ("a", ("JSON envelope holds non-string items; ignored them",))
    assert unwrap_text("plain") == ("plain", ())


@requirement("S-OBS-02")
def test_crlf_and_lf_give_the_same_capture() -> None:
    """S-OBS-02: converting a synthetic text to CRLF changes nothing in the Capture."""
    text = prose(tree_of('└── window "W"', '    └── (1,2) edit "E"  [action: fill]  [focused]  [value:"v"]'))
    assert parse_text("Snapshot", text.replace("\n", "\r\n")) == parse_text("Snapshot", text)


# --- S-OBS-11: the image item -------------------------------------------------------------


def result_with(text: str, *images: dict[str, str]) -> dict[str, object]:
    return {"content": [{"type": "text", "text": text}, *images], "isError": False}


@requirement("S-OBS-11")
def test_image_size_comes_from_the_png_header_not_the_text() -> None:
    """S-OBS-11: a 37x23 PNG is 37x23 even when the text claims 1920x1080."""
    text = prose("desktop", meta="Screenshot Size: (1920,1080)\nVisible Displays: 0:DISPLAY1 (0,0,1920,1080) primary\n")
    c = parse_result("Snapshot", result_with(text, {"type": "image", "mimeType": "image/png", "data": png_b64(37, 23)}))
    assert isinstance(c, Capture)
    assert c.image_size == (37, 23) and c.screenshot_size == (1920, 1080)


@requirement("S-OBS-11")
@pytest.mark.parametrize(
    ("image", "meta", "fragment"),
    [
        (
            {"type": "image", "mimeType": "image/jpeg", "data": png_b64(4, 4)},
            "Screenshot Size: (4,4)\n",
            "not image/png",
        ),
        (
            {"type": "image", "mimeType": "image/png", "data": "bm90IGEgcG5nIGF0IGFsbCwgc29ycnk="},
            "Screenshot Size: (4,4)\n",
            "not a readable PNG",
        ),
        (
            {"type": "image", "mimeType": "image/png", "data": "!!!!"},
            "Screenshot Size: (4,4)\n",
            "not a readable PNG",
        ),
        ({"type": "image", "mimeType": "image/png", "data": png_b64(4, 4)}, "", "prints no screenshot size"),
        (None, "Screenshot Size: (4,4)\n", "carries no image"),
    ],
)
def test_image_problems_are_warnings(image: dict[str, str] | None, meta: str, fragment: str) -> None:
    """S-OBS-11: a non-PNG or unreadable image, or size and image not going together, is a warning."""
    images = (image,) if image else ()
    c = parse_result("Screenshot", result_with(prose("desktop", meta=meta), *images))
    assert isinstance(c, Capture)
    assert any(fragment in w for w in c.warnings), c.warnings
    if fragment != "prints no screenshot size":
        assert c.image_size is None


@requirement("S-OBS-11")
def test_png_header_reader() -> None:
    """S-OBS-11: the IHDR reader accepts real PNG headers and rejects anything else."""
    data = base64.b64decode(png_b64(300, 7))
    assert png_size(data) == (300, 7)
    assert png_size(data[:23]) is None
    assert png_size(b"GIF89a" + data[6:]) is None
    assert png_size(data[:12] + b"IDAT" + data[16:]) is None
    b64 = png_b64(5, 6)
    assert png_size_from_base64(b64[:32]) == (5, 6)
    assert png_size_from_base64(b64[:31]) is None
    assert png_size_from_base64("\n".join(b64[i : i + 8] for i in range(0, 64, 8))) == (5, 6)


# --- S-OBS-12: results without an observation ---------------------------------------------


@requirement("S-OBS-12")
@pytest.mark.parametrize(
    ("result", "kind"),
    [
        (
            {"content": [{"type": "text", "text": "Error calling tool 'Snapshot': boom"}], "isError": True},
            "tool_error",
        ),
        (
            {
                "content": [{"type": "text", "text": '{"code": "TAKEOVER_PENDING", "status": {}}'}],
                "isError": True,
            },
            "control",
        ),
        (
            {
                "content": [{"type": "text", "text": '{"code": "CONTROL_PREEMPTED", "status": {}}'}],
                "isError": False,
            },
            "control",
        ),
        (
            {"content": [{"type": "text", "text": "Error capturing desktop state: x. Please try again."}]},
            "capture_error",
        ),
        (
            {"content": [{"type": "text", "text": '["Error capturing screenshot: y. Please try again."]'}]},
            "capture_error",
        ),
        (
            {"content": [{"type": "image", "mimeType": "image/png", "data": "AAAA"}], "isError": False},
            "no_text",
        ),
        ({"content": [{"type": "text", "text": "   "}]}, "no_text"),
        ({"content": []}, "no_text"),
        ({"content": "nope"}, "malformed"),
        ({}, "malformed"),
        ([], "malformed"),
        ({"content": [{"type": "text", "text": "Waited for 1 seconds."}]}, "unrecognized"),
    ],
)
def test_results_without_an_observation_are_failures(result: object, kind: str) -> None:
    """S-OBS-12: error texts, isError, control refusals, missing or foreign text give a CaptureFailure."""
    parsed = parse_result("Snapshot", result)
    assert isinstance(parsed, CaptureFailure)
    assert parsed.kind == kind and parsed.message


# --- S-OBS-10: warnings are bounded -------------------------------------------------------


@requirement("S-OBS-10")
def test_warnings_are_bounded_on_garbage() -> None:
    """S-OBS-10: ten thousand unknown lines produce at most MAX_WARNINGS warnings plus a count."""
    c = parse_text("Snapshot", "\n".join(f"garbage {i}" for i in range(10_000)))
    assert len(c.warnings) == MAX_WARNINGS + 1
    assert "more warnings" in c.warnings[-1]
