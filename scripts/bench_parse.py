"""Benchmark: parsing a 5,000-element Snapshot text (gateway/observe/parse.py), against baselines.

Run: `.venv/bin/python scripts/bench_parse.py [--elements N] [--repeat R]`

Absolute times depend on the machine, so every figure is also given as a ratio to
baselines measured in the same run on the same text: `str.splitlines` (the floor for
any line-based parser) and a single `re.findall` over the text (what a regex-only parser
that ignores the grammar would cost). No test asserts on these numbers.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.observe.parse import parse_text  # noqa: E402

HEAD = (
    "\n    Cursor Position: (640, 480)\n"
    "Visible Displays: 0:\\\\.\\DISPLAY1 (0,0,2560,1440) primary; 1:\\\\.\\DISPLAY2 (-1920,0,0,1080)\n"
    "\n    Active Desktop:\n    Name\n---------------\nDefault Desktop\n\n"
    "    All Desktops:\n    Name\n---------------\nDefault Desktop\n\n"
    "    Focused Window:\n"
    "    Name                   Depth  Status      Width    Height    Handle\n"
    "-------------------  -------  --------  -------  --------  --------\n"
    "notes.txt - Notepad        2  Normal       1200       800   1706796\n\n"
    "    Opened Windows:\n    No windows found\n\n\nUI Tree:\ndesktop\n"
)
# A mix of the line shapes of FORMATS §5.1/§5.2, repeated inside groups of 50 under one window.
SHAPES = (
    '({x},{y}) list item "invoice_{n:05d}.pdf"  [action: click]',
    '({x},{y}) button "Rename "Default Speaker" {n}"  [action: click]  [shortcut:Ctrl+S]',
    '({x},{y}) edit "Search {n}"  [action: fill]  [focused]  [value:"a]  [b {n}"]',
    '({x},{y}) slider "Volume {n}"  [action: slide]  [value:"-12.5"]  [range:-50.0-50.0]',
    '({x},{y}) list "Themes {n}"  [action: click]  [v:33.33%]  [h:50.0%]',
)


def synthetic_text(elements: int) -> str:
    """A Snapshot text with `elements` element lines (plus one group line per 50 elements)."""
    lines = ['└── window "Big - Explorer"']
    groups = (elements + 49) // 50
    n = 0
    for g in range(groups):
        last_group = g == groups - 1
        lines.append(("    └── " if last_group else "    ├── ") + f'group "Group {g}"')
        inner = "        " if last_group else "    │   "
        count = min(50, elements - n)
        for k in range(count):
            connector = "└── " if k == count - 1 else "├── "
            shape = SHAPES[n % len(SHAPES)].format(x=(n * 7) % 2560 - 1920, y=(n * 13) % 1440, n=n)
            lines.append(inner + connector + shape)
            n += 1
    return HEAD + "\n".join(lines)


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `fn` in milliseconds over `repeat` runs (after one warm-up)."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    """Print parse time for an N-element tree, plain and JSON-wrapped, with ratios to the baselines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)
    text = synthetic_text(args.elements)
    wrapped = json.dumps([text], ensure_ascii=False)
    capture = parse_text("Snapshot", text)
    parsed = sum(1 for e in capture.elements if e.kind == "element")
    if parsed != args.elements or capture.warnings:
        print(f"parse check failed: {parsed} elements, warnings {capture.warnings[:3]}", file=sys.stderr)
        return 1
    coords = re.compile(r"\((-?\d+),(-?\d+)\) ")
    base_split = timed(text.splitlines, args.repeat)
    base_regex = timed(lambda: coords.findall(text), args.repeat)
    plain = timed(lambda: parse_text("Snapshot", text), args.repeat)
    json_form = timed(lambda: parse_text("Snapshot", wrapped), args.repeat)
    size = f"{len(text):,} chars, {text.count(chr(10)) + 1:,} lines, {parsed:,} elements"
    print(f"text: {size}; median of {args.repeat} runs")
    print(f"baseline str.splitlines          {base_split:9.3f} ms")
    print(f"baseline re.findall (points)     {base_regex:9.3f} ms")
    for label, ms in (("parse_text (plain prose)", plain), ("parse_text (JSON-wrapped)", json_form)):
        print(
            f"{label:32s} {ms:9.3f} ms  = {ms / base_split:7.1f}x splitlines, {ms / base_regex:6.1f}x regex,"
            f" {1000.0 * ms / parsed:6.2f} µs/element"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
