"""Private windows: which windows the model must never see or touch (issue 15.1; S-PRIV-01..08).

Pure: patterns and a capture in, values out. The shell (`gateway/observe/mask.py`,
`gateway/pipeline/private_capture.py`) paints and filters; `check_private_window` is a step of
`policy.decide`'s chain.

Patterns (S-PRIV-01). Case-insensitive (`str.casefold`). A pattern with `*` or `?` is a glob over
the whole title (`*` any run, `?` one character; `[` is a literal); a pattern without them matches
as a substring anywhere in the title, so `KeePass` covers `Passwords.kdbx - KeePassXC`. A deny-list
errs towards masking more, which is why plain words are substrings (unlike `allowed_windows`).
`class:NAME` patterns name a window class; Windows-MCP 0.8.8 prints no class, so they cannot match
yet and the doctor says so. The built-in `DEFAULT_PRIVATE_WINDOWS` always apply: the person's
`private_windows` extend them and cannot drop one. A bad pattern fails closed (S-PRIV-02): a
non-string is kept as its literal text, an empty one is ignored (it names nothing), one that matches
every title is kept — it masks everything — and each gets a warning.

Where a private window is (S-PRIV-03). Upstream prints a window's size and status but not its
position; the points of its elements are screen points inside it (centres clipped to the window).
A window W×H that contains every point lies inside the union of all such placements:
`(max_x − W, max_y − H, min_x + W + 1, min_y + H + 1)`. That superset is masked. A window that is
shown (not Minimized/Hidden) but has no size or no points cannot be placed: then the whole capture
is masked (`everywhere`), never a guess.

What is stored (S-PRIV-04). `redact_capture` renames each private window to `[private window N]` in
the tables and the tree and blanks its elements' names and values but keeps their points, so the
gateway's label table stays aligned with upstream's and a label of a private element is recognised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from policy.catalog import ToolClass, classify
from policy.context import Context
from policy.decision import Code, Decision, refuse
from policy.freshness import basis_of
from policy.labels import cited_labels, label_table
from policy.observation import NO_PRIVACY, Capture, Element, Observation, Point, Privacy, Rect, Window
from policy.values import ToolCall

# The built-in list (S-PRIV-01): password managers, banking, and the gateway's own terminal — a
# console running `winmcp-gateway serve` shows its banner, state dir and approvals.
DEFAULT_PRIVATE_WINDOWS: tuple[str, ...] = (
    "KeePass",  # KeePass 2.x and KeePassXC
    "KeePassXC",
    "1Password",
    "Bitwarden",
    "LastPass",
    "Dashlane",
    "Keeper Password Manager",
    "NordPass",
    "Enpass",
    "RoboForm",
    "Proton Pass",
    "Password Manager",  # a browser's own: Chrome's page is titled "Google Password Manager" (S-RULE-214)
    "Credential Manager",
    "Online Banking",
    "*bank*",
    "winmcp-gateway",
)
PLACEHOLDER = "[private window]"  # the prefix of every name a private window is given
CLASS_PREFIX = "class:"
PRIVATE_REMEDY = (
    "do not act on or read this window; it is private (private_windows). Work in another window, "
    "or ask the person to do this step themselves"
)
_KEYBOARD_TOOLS = frozenset({"Type", "Shortcut", "MultiEdit"})  # their keys go to the focused window
_HIDDEN = frozenset({"Minimized", "Hidden"})


def _regex(pattern: str) -> re.Pattern[str]:
    folded = pattern.casefold()
    if "*" not in folded and "?" not in folded:
        return re.compile(".*" + re.escape(folded) + ".*", re.DOTALL)
    parts = [".*" if c == "*" else "." if c == "?" else re.escape(c) for c in folded]
    return re.compile("".join(parts), re.DOTALL)


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivatePatterns:
    """The effective patterns: the built-in ones, then the person's (module docstring)."""

    patterns: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    _titles: tuple[re.Pattern[str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        titles = tuple(_regex(p) for p in self.patterns if not p.casefold().startswith(CLASS_PREFIX))
        object.__setattr__(self, "_titles", titles)

    @property
    def class_patterns(self) -> tuple[str, ...]:
        return tuple(p for p in self.patterns if p.casefold().startswith(CLASS_PREFIX))

    def matches(self, title: str) -> bool:
        """Whether a window title is private (a placeholder name always is)."""
        if title.startswith(PLACEHOLDER[:-1]):
            return True
        folded = title.casefold()
        return any(rx.fullmatch(folded) for rx in self._titles)


def private_patterns(extra: Iterable[object] = ()) -> PrivatePatterns:
    """Build the effective patterns from the person's `private_windows` (S-PRIV-01, S-PRIV-02).

    Args:
        extra: the configured patterns; anything that is not a usable string is handled fail-closed.

    Returns:
        Defaults plus the person's patterns, with a warning per odd pattern.
    """
    out = list(DEFAULT_PRIVATE_WINDOWS)
    warns: list[str] = []
    for raw in extra:
        text = raw if isinstance(raw, str) else str(raw)
        if not isinstance(raw, str):
            warns.append(f"private_windows: {raw!r} is not a string; kept as the literal text {text!r}")
        if not text.strip():
            warns.append("private_windows: an empty pattern names no window; ignored (the built-in ones still apply)")
            continue
        if text.casefold().startswith(CLASS_PREFIX):
            warns.append(
                f"private_windows: {text!r} names a window class, which Windows-MCP 0.8.8 does not print; "
                "it cannot match until upstream does (use a title pattern as well)"
            )
        elif _regex(text).fullmatch(""):
            warns.append(f"private_windows: {text!r} matches every window title; every capture is masked whole")
        if text not in out:
            out.append(text)
    return PrivatePatterns(patterns=tuple(out), warnings=tuple(warns))


def _rows(capture: Capture) -> list[Window]:
    return ([capture.focused] if capture.focused is not None else []) + list(capture.windows)


def private_titles(capture: Capture, patterns: PrivatePatterns) -> tuple[str, ...]:
    """The titles of the capture's private windows, tables first, then the tree, each once."""
    names = [w.name for w in _rows(capture)] + [e.name for e in capture.elements if e.kind == "window"]
    return tuple(n for n in dict.fromkeys(names) if patterns.matches(n))


def _place(title: str, row: Window | None, elements: Sequence[Element]) -> Rect | None | bool:
    """The screen rect covering one private window; False when it is not shown; None when unplaceable."""
    if row is not None and row.status in _HIDDEN:
        return False
    points = [e.point for e in elements if e.window == title and e.point is not None]
    if row is None or not points or row.width <= 0 or row.height <= 0:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if max(xs) - min(xs) >= row.width or max(ys) - min(ys) >= row.height:
        return None  # no single W×H window holds these points (two windows of one title?)
    return (max(xs) - row.width, max(ys) - row.height, min(xs) + row.width + 1, min(ys) + row.height + 1)


def privacy_of(capture: Capture, patterns: PrivatePatterns) -> Privacy:
    """What must be masked in a capture (module docstring, S-PRIV-03).

    Args:
        capture: a capture that enumerated windows (a Snapshot with its UI tree).
        patterns: the effective patterns.

    Returns:
        The count, the covering rects, whether the whole capture must be masked, whether the
        focused window is private.
    """
    titles = private_titles(capture, patterns)
    if not titles:
        return NO_PRIVACY
    rows = {w.name: w for w in reversed(_rows(capture))}
    rects: list[Rect] = []
    everywhere = False
    for title in titles:
        placed = _place(title, rows.get(title), capture.elements)
        if placed is None:
            everywhere = True
        elif placed is not False:
            assert not isinstance(placed, bool)
            rects.append(placed)
    focused = capture.focused is not None and capture.focused.name in titles
    return Privacy(count=len(titles), rects=tuple(rects), everywhere=everywhere, focused=focused)


def placeholder(index: int) -> str:
    """The name the n-th private window of a capture is given (numbered, so label order holds)."""
    return f"{PLACEHOLDER[:-1]} {index}]"


def redact_capture(capture: Capture, titles: Sequence[str]) -> Capture:
    """The capture with private windows renamed and their elements' names and values blanked (S-PRIV-04)."""
    if not titles:
        return capture
    names = {t: placeholder(i + 1) for i, t in enumerate(titles)}

    def row(w: Window | None) -> Window | None:
        return replace(w, name=names[w.name]) if w is not None and w.name in names else w

    def element(e: Element) -> Element:
        if e.window not in names:
            return e
        new = names[e.window]
        return replace(e, name=new if e.kind == "window" else "", meta=(), window=new)

    return replace(
        capture,
        focused=row(capture.focused),
        windows=tuple(w for w in (row(w) for w in capture.windows) if w is not None),
        elements=tuple(element(e) for e in capture.elements),
    )


def _decoded(raw: object) -> object:
    """`raw`, or the JSON a string holds (upstream `json.loads` a string `loc`/`locs`); a non-JSON string stays."""
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return raw
    return raw


def _point(raw: object) -> Point | None:
    raw = _decoded(raw)
    if isinstance(raw, list | tuple) and len(raw) >= 2:
        try:
            return int(float(raw[0])), int(float(raw[1]))
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def aimed_points(tool: str, args: Mapping[str, object], cursor: Point | None) -> tuple[Point | None, ...]:
    """Every screen point an input call acts at; None for a point the call names but policy cannot read.

    The mouse position counts when the call acts there: Scroll without `loc`/`label`, a Move drag
    without `from_loc` (it starts at the cursor).
    """
    points: list[Point | None] = []
    for key in ("loc", "from_loc"):
        if args.get(key) is not None:
            points.append(_point(args[key]))
    locs = _decoded(args.get("locs"))  # a list, or its JSON string: the gateway passes both on
    if isinstance(locs, list):
        points.extend(_point(item) for item in locs)
    elif locs is not None:
        points.append(None)  # named but unreadable: it cannot be shown to miss a private window
    no_target = args.get("loc") is None and args.get("label") is None
    if (tool == "Scroll" and no_target) or (tool == "Move" and args.get("drag") and args.get("from_loc") is None):
        points.append(cursor)
    return tuple(points)


def inside(point: Point, rect: Rect) -> bool:
    """Border included on all four sides: a point on the edge of a private window is in it."""
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def _label_hits(call: ToolCall, obs: Observation) -> bool:
    cited = cited_labels(call.tool, call.args)
    if not cited:
        return False
    table = label_table(obs, use_dom=obs.use_dom)
    rows = {r.label: r for r in table.rows}
    for label in cited:
        row = rows.get(label)
        if row is None:
            return True  # a label this observation cannot place may be one of the private window's
        if row.window.startswith(PLACEHOLDER[:-1]):
            return True
        if any(c.point is not None and any(inside(c.point, r) for r in obs.private.rects) for c in row.candidates):
            return True
    return False


def check_private_window(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Chain step: refuse INPUT aimed at a private window (S-PRIV-05, S-PRIV-06).

    Args:
        call: the call.
        ctx: the basis observation's `private` facts and the probe's focused window are read.
        now_ms: unused.

    Returns:
        None, or PRIVATE_WINDOW. The reason never names the window.
    """
    if classify(call.tool) is not ToolClass.INPUT:
        return None
    obs, _ = basis_of(call, ctx.view)
    probe = ctx.view.probe
    focused_now = probe.status == "ok" and probe.focused is not None and probe.focused.name.startswith(PLACEHOLDER[:-1])
    privacy = obs.private if obs is not None else NO_PRIVACY
    why = ""
    if call.tool in _KEYBOARD_TOOLS and (privacy.focused or focused_now):
        why = f"{call.tool} sends keys to the focused window, which is private"
    elif obs is not None and privacy.count:
        for point in aimed_points(call.tool, call.args, obs.capture.cursor):
            if point is None or privacy.everywhere or any(inside(point, r) for r in privacy.rects):
                where = "somewhere the gateway had to mask whole" if privacy.everywhere or point is None else point
                why = f"the point {list(where) if isinstance(where, tuple) else where} lies on a private window"
                break
        if not why and _label_hits(call, obs):
            why = "the label is an element of a private window (or cannot be told apart from one)"
    if not why:
        return None
    return refuse(
        Code.PRIVATE_WINDOW,
        f"{why} ({obs.id if obs else 'the probe'} masked {max(privacy.count, 1)} private window(s)).",
        PRIVATE_REMEDY,
        spec="S-PRIV-05",
        observation=obs.id if obs is not None else None,
    )
