"""A small re-implementation of ``tabulate(..., tablefmt="simple")`` (FORMATS §4, S-SIM-04).

Upstream renders its desktop, window and process tables with tabulate 0.10 and no wcwidth, so:

* a column is as wide as its longest cell, and at least ``len(header) + 2`` (tabulate's
  ``MIN_PADDING`` applies to headers only);
* numeric columns (every cell an int/float or a numeric string) are right-aligned, others
  left-aligned, and the header follows its column's alignment;
* columns are separated by two spaces, the rule line is dashes, every line is right-stripped;
* cell strings are stripped of surrounding whitespace (``PRESERVE_WHITESPACE = False``).

Widths are measured by a caller-supplied function: window titles come from UI Automation as
UTF-16, so an emoji counts two while tabulate pads and one after ``repair_surrogates()``; that
is why the ``Notes 📝 - Notepad`` row of samples/05 is one character short (FORMATS §4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Cell = str | int | float
WidthFn = Callable[[str], int]
MIN_PADDING = 2  # tabulate.MIN_PADDING


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the width tabulate saw for UIA window titles."""
    return len(text.encode("utf-16-le")) // 2


def _is_number(cell: Cell) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int | float):
        return True
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _text(cell: Cell) -> str:
    return cell.strip() if isinstance(cell, str) else str(cell)


def tabulate_simple(
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    widths: Sequence[WidthFn] | None = None,
) -> str:
    """Render ``rows`` under ``headers`` exactly as tabulate's "simple" format does.

    Args:
        headers: column titles.
        rows: table rows; each as long as ``headers``.
        widths: per-column width functions (default ``len``).

    Returns:
        The table without a trailing newline.

    Raises:
        ValueError: when a row length differs from the header length.
    """
    ncols = len(headers)
    width_fns: list[WidthFn] = list(widths) if widths is not None else [len] * ncols
    for row in rows:
        if len(row) != ncols:
            raise ValueError(f"row {list(row)!r} has {len(row)} cells, expected {ncols}")
    columns = [[row[i] for row in rows] for i in range(ncols)]
    numeric = [bool(col) and all(_is_number(c) for c in col) for col in columns]
    texts = [[_text(c) for c in col] for col in columns]
    col_widths = [
        max([width_fns[i](h) + MIN_PADDING] + [width_fns[i](t) for t in texts[i]]) for i, h in enumerate(headers)
    ]

    def pad(i: int, text: str) -> str:
        fill = " " * (col_widths[i] - width_fns[i](text))
        return fill + text if numeric[i] else text + fill

    lines = ["  ".join(pad(i, h) for i, h in enumerate(headers)).rstrip()]
    lines.append("  ".join("-" * w for w in col_widths))
    for r in range(len(rows)):
        lines.append("  ".join(pad(i, texts[i][r]) for i in range(ncols)).rstrip())
    return "\n".join(lines)
