"""Benchmark: parsing a 5,000-element Snapshot text (gateway/observe/parse.py), against baselines.

Run: `.venv/bin/python scripts/bench_parse.py [--elements N] [--repeat R] [--memory] [--check]`

Absolute times depend on the machine, so every figure is also given as a ratio to
baselines measured in the same run on the same text: `str.splitlines` (the floor for
any line-based parser) and a single `re.findall` over the text (what a regex-only parser
that ignores the grammar would cost). No test asserts on these numbers.

Targets: S-OBS-30 (≤ 20 ms for 5,000 elements, plain and JSON-wrapped; for another N the
same 4 µs per element) and, with `--memory`, S-OBS-31 (tracemalloc peak ≤ 2.5× the text's
own size for this tree, ≤ 3.5× JSON-wrapped). Each is printed with whether it holds; the
exit code changes only with `--check` (1 when a target printed does not hold).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import tracemalloc
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


TARGET_MS = 20.0  # S-OBS-30: issue 13 item 6, "a 5,000-element tree parses in ≤ 20 ms (JSON-wrapped included)"
TARGET_ELEMENTS = 5000
MEMORY_BOUND = {"plain": 2.5, "JSON-wrapped": 3.5}  # S-OBS-31, × sys.getsizeof(text), for this tree


def peak_ratio(text: str) -> float:
    """tracemalloc peak while parsing `text`, as a multiple of the text's own size (sys.getsizeof)."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        capture = parse_text("Snapshot", text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del capture
    return (peak - base) / sys.getsizeof(text)


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
    parser.add_argument("--memory", action="store_true", help="also measure the tracemalloc peak (S-OBS-31)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a printed target does not hold")
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
    budget = TARGET_MS * parsed / TARGET_ELEMENTS
    held = max(plain, json_form) <= budget
    scaled = "" if parsed == TARGET_ELEMENTS else f" (scaled to {parsed:,} elements: ≤ {budget:.1f} ms)"
    print(
        f"target S-OBS-30: ≤ {TARGET_MS:.0f} ms for {TARGET_ELEMENTS:,} elements, JSON-wrapped included{scaled}:"
        f" {'holds' if held else 'does NOT hold'} (plain {plain:.1f} ms, JSON-wrapped {json_form:.1f} ms)"
    )
    ok = held
    if args.memory:
        for label, form in (("plain", text), ("JSON-wrapped", wrapped)):
            ratio, bound = peak_ratio(form), MEMORY_BOUND[label]
            ok = ok and ratio <= bound
            print(
                f"memory S-OBS-31 ({label}): tracemalloc peak {ratio:.2f}x the text's {sys.getsizeof(form):,} bytes,"
                f" bound ≤ {bound}x: {'holds' if ratio <= bound else 'does NOT hold'}"
            )
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
