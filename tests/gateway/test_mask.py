"""gateway/observe/mask.py and friends: painting, filtering, the annotation field, the doctor check (S-PRIV-02..09)."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from gateway.config.load import load_config
from gateway.doctor.checks_private import check_private
from gateway.doctor.model import Verdict
from gateway.observe.annotation import annotation_line
from gateway.observe.mask import MASK_FILL, WITHHELD, filter_prose, mask_result, paint_png, pixel_boxes
from gateway.pipeline.private_capture import withhold_images
from policy.observation import Capture, Mapping, Observation, Privacy, Window
from tests._requirements import requirement

TREE_TEXT = """
    Focused Window:
    Name                          Depth  Status      Width    Height    Handle
--------------------------  -------  --------  -------  --------  --------
Passwords.kdbx - KeePassXC        3  Normal        700       600   9900911

    Opened Windows:
    Name                   Depth  Status      Width    Height    Handle
-------------------  -------  --------  -------  --------  --------
notes.txt - Notepad        2  Normal        800       700   1706796


UI Tree:
desktop
├── window "Passwords.kdbx - KeePassXC"
│   ├── (1677,166) button "Close"  [action: click]
│   ├── list "Entries"
│   │   └── (1175,225) list item "Bank of Examples login"  [action: click]
│   └── (1510,225) edit "Entry password"  [action: fill]  [password]  [value:"correct-horse"]
└── window "Taskbar"
    └── pane "Taskbar"
        └── (216,1056) button "KeePassXC - 1 running window"  [action: click]"""
TITLE = "Passwords.kdbx - KeePassXC"


def png(size: tuple[int, int], colour: tuple[int, int, int] = (200, 10, 10)) -> str:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


def decode(data: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


@requirement("S-PRIV-03")
@pytest.mark.parametrize(
    ("mapping", "rect", "expected"),
    [
        # 1:1, origin 0,0
        (Mapping(origin=(0, 0), scale=(1, 1), image_size=(1920, 1080), source_size=(1920, 1080)),
         (1000, 150, 1700, 750), (1000, 150, 1700, 750)),
        # downscaled 2560x1440 → 1920x1080: scale 4/3, widened outward to whole pixels
        (Mapping(origin=(0, 0), scale=(4 / 3, 4 / 3), image_size=(1920, 1080), source_size=(2560, 1440)),
         (1001, 151, 1701, 751), (750, 113, 1276, 564)),
        # a negative origin (DISPLAY2 at -1920,0 left of the primary): screen -1700 is image px 220
        (Mapping(origin=(-1920, 0), scale=(1, 1), image_size=(4480, 1440), source_size=(4480, 1440)),
         (-1700, 100, -300, 900), (220, 100, 1620, 900)),
        # partly off the image: clipped
        (Mapping(origin=(0, 0), scale=(1, 1), image_size=(1920, 1080), source_size=(1920, 1080)),
         (1800, -50, 2400, 100), (1800, 0, 1920, 100)),
    ],
)  # fmt: skip
def test_screen_rects_map_to_image_pixels_through_the_one_mapping(
    mapping: Mapping, rect: tuple[int, int, int, int], expected: tuple[int, int, int, int]
) -> None:
    """S-PRIV-03: scaled and negative-origin captures put the mask where the window is in the image."""
    assert pixel_boxes(mapping, [rect]) == [expected]


@requirement("S-PRIV-03")
def test_a_rect_off_the_image_paints_nothing_and_painting_is_solid_and_exact() -> None:
    """S-PRIV-03: the painted box is exactly the pixels asked for; the rest of the image is unchanged."""
    mapping = Mapping(origin=(0, 0), scale=(1, 1), image_size=(40, 30), source_size=(40, 30))
    assert pixel_boxes(mapping, [(100, 100, 200, 200)]) == []
    painted = decode(paint_png(png((40, 30)), [(10, 5, 20, 15)]) or "")
    assert painted.size == (40, 30)
    assert painted.getpixel((10, 5)) == MASK_FILL and painted.getpixel((19, 14)) == MASK_FILL
    assert painted.getpixel((20, 14)) == (200, 10, 10) and painted.getpixel((9, 5)) == (200, 10, 10)
    whole = decode(paint_png(png((40, 30)), None) or "")
    assert whole.getcolors() == [(1200, MASK_FILL)]
    assert paint_png("bm90IGEgcG5n", None) is None  # not a PNG: the caller withholds it


@requirement("S-PRIV-04")
def test_rows_keep_their_columns_under_a_placeholder_and_the_subtree_is_dropped() -> None:
    """S-PRIV-04: the table row keeps depth/status/size/handle; the window line stays, its children go."""
    out = filter_prose(TREE_TEXT, [TITLE])
    for secret in (TITLE, "Bank of Examples login", "Entry password", "correct-horse", "Entries"):
        assert secret not in out
    assert "[private window 1]                3  Normal        700       600   9900911" in out
    assert '├── window "[private window 1]"\n└── window "Taskbar"' in out
    assert "notes.txt - Notepad        2  Normal" in out and "KeePassXC - 1 running window" in out
    indented = "\n".join(
        "    " + line if line.startswith(("desktop", "├", "│", "└")) else line for line in TREE_TEXT.split("\n")
    )
    assert "Bank of Examples" not in filter_prose(indented, [TITLE])  # a truncated tree is indented (FORMATS §5.6)


@requirement("S-PRIV-04")
def test_the_json_envelope_is_kept_and_an_unreadable_image_is_withheld() -> None:
    """S-PRIV-04: the JSON-wrapped text is filtered inside the envelope; a broken image never leaves."""
    result = {
        "content": [
            {"type": "text", "text": json.dumps([TREE_TEXT])},
            {"type": "image", "mimeType": "image/png", "data": "bm90IGEgcG5n"},
        ],
        "isError": False,
    }
    privacy = Privacy(count=1, rects=((977, -375, 1876, 767),), focused=True)
    mapping = Mapping(origin=(0, 0), scale=(1, 1), image_size=(1920, 1080), source_size=(1920, 1080))
    out = mask_result(result, titles=[TITLE], privacy=privacy, mapping=mapping)
    prose = json.loads(out["content"][0]["text"])[0]
    assert TITLE not in prose and "[private window 1]" in prose
    assert out["content"][1] == {"type": "text", "text": WITHHELD}
    assert mask_result(result, titles=[], privacy=Privacy(), mapping=mapping) is result  # nothing private
    assert withhold_images(result)["content"][1] == {"type": "text", "text": WITHHELD}


@requirement("S-PRIV-03")
def test_an_unknown_mapping_paints_the_whole_image() -> None:
    """S-PRIV-03: without a mapping the gateway cannot say where the window is in the image."""
    result = {
        "content": [{"type": "text", "text": "x"}, {"type": "image", "mimeType": "image/png", "data": png((8, 8))}]
    }
    out = mask_result(result, titles=[], privacy=Privacy(count=1, rects=((0, 0, 1, 1),)), mapping=None)
    assert decode(out["content"][1]["data"]).getcolors() == [(64, MASK_FILL)]


@requirement("S-PRIV-07")
def test_the_annotation_line_counts_what_was_masked() -> None:
    """S-PRIV-07: `masked=N` after `focused=`, `mask=whole` when all was painted; absent otherwise."""
    focused = Window(name="[private window 1]", depth=3, status="Normal", width=700, height=600, handle=9)
    base = Observation(
        id="obs-7", session="s", generation=1, taken_at_ms=0.0, capture=Capture(tool="Snapshot", focused=focused)
    )
    assert "masked" not in annotation_line(base)
    one = Observation(
        **{**{f: getattr(base, f) for f in base.__slots__}, "private": Privacy(count=1, rects=((0, 0, 1, 1),))}
    )
    assert annotation_line(one).startswith('[gateway] obs=obs-7 focused="[private window 1]" masked=1 | ')
    whole = Observation(
        **{**{f: getattr(base, f) for f in base.__slots__}, "private": Privacy(count=2, everywhere=True)}
    )
    assert ' masked=2 mask=whole | screen = origin + image_px × scale | cite based_on="obs-7"' in annotation_line(whole)


@requirement("S-PRIV-09")
def test_the_doctor_lists_the_effective_patterns_and_warns_about_bad_ones() -> None:
    """S-PRIV-09: OK with built-in and configured patterns; a bad pattern is a WARNING naming it."""
    good = check_private(load_config(environ={}, overrides={"private_windows": ["Payroll"]}))
    assert good.id == "private" and good.verdict is Verdict.OK
    assert "Payroll" in good.data["patterns"] and "KeePassXC" in good.data["patterns"]
    assert "1 from private_windows" in good.summary
    bad = check_private(load_config(environ={}, overrides={"private_windows": ["*", "class:X"]}))
    assert bad.verdict is Verdict.WARNING
    assert any("'*'" in f.message for f in bad.findings) and any("class:X" in f.message for f in bad.findings)
