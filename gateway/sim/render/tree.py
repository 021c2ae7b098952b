"""The semantic UI tree and upstream's label table, from one walk of the windows (FORMATS §5, §7).

Rules implemented here, each observed in the upstream samples (S-SIM-04, S-SIM-06):

1. Windows traversed: the active window first, then taskbar/dialog windows, then Program Manager
   only when nothing is active (§5.3). Region mode traverses every window meeting the region and
   clips every box to it, centres recomputed from the clipped box (§5.4). ``use_dom`` keeps
   browser windows only, and a browser window shows its page (DOM) only (§5.5).
2. The walk is native order reversed (children right-to-left) and pre-order: that order fills
   the interactive and scrollable label lists (§7) and spends the element budget, so a
   truncated tree keeps the *last* children (§5.6). DOM nodes are walked forward.
3. Rendering is forward order: structural containers nest when they keep children, a scrollable
   container is printed after its children which become siblings, a node both interactive and
   scrollable is printed twice, browser pages add ``text "…"`` lines (§5.3).
4. Scrollable points: upstream prints a random point in the central 80 % of the box. The
   simulator prints the scenario's ``scroll_point`` when it lies in the box, else a point drawn
   from a generator seeded by window, name and box, so the output is reproducible.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from gateway.sim.model import Element, Rect, Window
from gateway.sim.world import LabelEntry, World

ACTIONS = {
    "edit": "fill",
    "check box": "toggle",
    "checkbox": "toggle",
    "combo box": "select",
    "combobox": "select",
    "radio button": "select",
    "slider": "slide",
    "document": "scroll",
}
_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeResult:
    """What one walk produced: the printed tree and the new label table."""

    text: str
    interactive: tuple[LabelEntry, ...]
    scrollable: tuple[LabelEntry, ...]
    truncated: bool

    @property
    def labels(self) -> tuple[LabelEntry, ...]:
        return self.interactive + self.scrollable


@dataclass(frozen=True, slots=True)
class _Seen:
    eligible: bool
    center: tuple[int, int]
    scroll_point: tuple[int, int]


@dataclass(slots=True)
class _Item:
    text: str
    children: list[_Item] = field(default_factory=list)


def select_windows(world: World, region: Rect | None, use_dom: bool) -> list[Window]:
    """Windows the tree walks, in the order they are printed (rule 1)."""
    active = world.focused_window
    first: list[Window] = []
    rest: list[Window] = []
    last: list[Window] = []
    if active is not None and (region is None or active.rect.intersect(region)):
        first.append(active)
    for win in world.windows:
        if win is active or not win.visible:
            continue
        if win.kind == "desktop":
            if active is None and (region is None or win.rect.intersect(region)):
                last.append(win)
        elif region is not None:
            if win.rect.intersect(region):
                rest.append(win)
        elif win.kind in ("taskbar", "dialog"):
            rest.append(win)
    chosen = first + rest + last
    return [w for w in chosen if w.is_browser] if use_dom else chosen


def _scroll_point(win: Window, el: Element, box: Rect) -> tuple[int, int]:
    if el.scroll_point is not None and box.contains(*el.scroll_point):
        return el.scroll_point
    rng = random.Random(f"{win.title}|{el.name}|{box.as_list()}")
    dx, dy = int(box.width * 0.1), int(box.height * 0.1)
    x = rng.randint(box.left + dx, max(box.left + dx, box.right - dx - 1))
    y = rng.randint(box.top + dy, max(box.top + dy, box.bottom - dy - 1))
    return x, y


class _Walk:
    """Rule 2: the reversed pre-order walk with the element budget."""

    def __init__(self, *, limit: int, screen: Rect, region: Rect | None) -> None:
        self.limit, self.screen, self.region = limit, screen, region
        self.count = 0
        self.truncated = False
        self.seen: dict[int, _Seen] = {}
        self.interactive: list[LabelEntry] = []
        self.scrollable: list[LabelEntry] = []

    def _judge(self, win: Window, el: Element) -> tuple[_Seen, Rect | None]:
        box = el.rect.intersect(win.rect)
        box = box.intersect(self.screen) if box else None
        if self.region is not None:
            box = box.intersect(self.region) if box else None
        elif box is None and el.control_type == "Edit" and not el.rect.empty:
            box = el.rect  # offscreen Edit fields are kept (FORMATS §5.3)
        if box is None or not el.name.strip() or not el.enabled:
            return _Seen(False, (0, 0), (0, 0)), None
        center = box.center()
        point = center if self.region is not None else _scroll_point(win, el, box)
        return _Seen(True, center, point), box

    def visit(self, win: Window, el: Element, *, recurse: bool) -> bool:
        if self.count >= self.limit:
            self.truncated = True
            return False
        self.count += 1
        seen, box = self._judge(win, el)
        self.seen[id(el)] = seen
        if seen.eligible and box is not None:
            entry = LabelEntry(
                kind="interactive",
                window=win.title,
                control_type=el.control_type,
                name=el.name,
                center=seen.center,
                bbox=box,
                focused=el.focused,
                value=el.value,
            )
            if el.kind == "interactive":
                self.interactive.append(entry)
            if el.scrollable:
                self.scrollable.append(
                    LabelEntry(
                        kind="scrollable",
                        window=win.title,
                        control_type=el.control_type,
                        name=el.name,
                        center=seen.scroll_point,
                        bbox=box,
                        focused=el.focused,
                    )
                )
        if recurse:
            return all(self.visit(win, child, recurse=True) for child in reversed(el.children))
        return True

    def window(self, win: Window, *, dom_only: bool) -> bool:
        native = () if dom_only else tuple(reversed(win.children))
        if not all(self.visit(win, el, recurse=True) for el in native):
            return False
        dom = win.dom if win.is_browser else ()
        return all(self.visit(win, el, recurse=False) for el in dom)


def _fmt(number: float) -> str:
    return str(round(float(number), 2))


def element_line(el: Element, point: tuple[int, int], *, scroll: bool) -> str:
    """One ``(x,y) ctrl "name"  [action: …]  […]`` line (FORMATS §5.1-§5.2)."""
    metas: list[str] = []
    if el.focused:
        metas.append("focused")
    if scroll:
        metas.append(f"v:{_fmt(el.v_scroll or 0.0)}%")
        if el.h_scroll is not None:
            metas.append(f"h:{_fmt(el.h_scroll)}%")
    else:
        if el.password:
            metas.append("password")
        if el.value is not None and el.value not in ("", "(empty)"):
            metas.append(f'value:"{el.value}"')
        if el.range is not None:
            metas.append(f"range:{float(el.range[0])}-{float(el.range[1])}")
        if el.toggle is not None:
            metas.append(f"toggle:{el.toggle}")
        if el.state is not None:
            metas.append(f"state:{el.state}")
        if el.shortcut is not None:
            metas.append(f"shortcut:{el.shortcut}")
    action = ACTIONS.get(el.ctrl, "click")
    head = f'({point[0]},{point[1]}) {el.ctrl} "{el.name.strip()}"  [action: {action}]'
    return head + "".join(f"  [{m}]" for m in metas)


def _items(elements: tuple[Element, ...], walk: _Walk) -> list[_Item]:
    """Rule 3 for native elements."""
    out: list[_Item] = []
    for el in elements:
        seen = walk.seen.get(id(el))
        if seen is None:
            continue
        kids = _items(el.children, walk)
        if not seen.eligible:
            out.extend(kids)
            continue
        if el.kind == "interactive":
            out.append(_Item(element_line(el, seen.center, scroll=False)))
        if el.scrollable:
            out.extend(kids)
            out.append(_Item(element_line(el, seen.scroll_point, scroll=True)))
        elif el.kind == "structural":
            if kids:
                out.append(_Item(f'{el.ctrl} "{el.name.strip()}"', kids))
        else:
            out.extend(kids)
    return out


def _browser_items(win: Window, walk: _Walk) -> list[_Item]:
    out: list[_Item] = []
    for el in win.dom:
        seen = walk.seen.get(id(el))
        if seen is not None and seen.eligible and el.kind == "interactive":
            out.append(_Item(element_line(el, seen.center, scroll=False)))
    out.extend(_Item(f'text "{text}"') for text in win.dom_text)
    return out


def _emit(items: list[_Item], prefix: str, lines: list[str]) -> None:
    for i, item in enumerate(items):
        last = i == len(items) - 1
        lines.append(prefix + ("└── " if last else "├── ") + item.text)
        _emit(item.children, prefix + ("    " if last else "│   "), lines)


def build_tree(world: World, *, region: Rect | None, use_dom: bool) -> TreeResult:
    """Walk the windows once; return the printed tree and the label table (rules 1-4).

    Args:
        world: the current desktop.
        region: the ``region`` argument as a rectangle (already validated), or None.
        use_dom: Snapshot's ``use_dom``.

    Returns:
        The tree text (``desktop`` root, no trailing newline, PUA characters removed) and labels.
    """
    walk = _Walk(limit=world.max_tree_elements, screen=world.virtual_screen, region=region)
    emitted: list[Window] = []
    for win in select_windows(world, region, use_dom):
        has_nodes = bool(win.children) or (win.is_browser and bool(win.dom))
        if walk.count >= walk.limit and has_nodes:
            walk.truncated = True
            break
        emitted.append(win)
        if not walk.window(win, dom_only=use_dom):
            break
    windows = [
        _Item(
            f'window "{win.title}"',
            _browser_items(win, walk) if win.is_browser else _items(win.children, walk),
        )
        for win in emitted
    ]
    lines = ["desktop"]
    _emit(windows, "", lines)
    return TreeResult(
        text=_PUA.sub("", "\n".join(lines)),
        interactive=tuple(walk.interactive),
        scrollable=tuple(walk.scrollable),
        truncated=walk.truncated,
    )
