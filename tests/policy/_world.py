"""Small builders for policy tests: observations, views, contexts and calls as plain values.

No mocks: `TableRules` is a tiny real implementation of the `CommandRules` protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from policy import (
    Approval,
    Context,
    KillState,
    PolicyConfig,
    Probe,
    RuleHit,
    SessionView,
    ToolCall,
)
from policy.labels import label_signature
from policy.observation import Capture, Element, Observation, TreeState, Window
from policy.observation import Mapping as ImageMapping

SESSION = "s1"
OTHER = "s2"
T0 = 1_000_000.0  # an arbitrary epoch-ms "now" for observations

NOTEPAD = Window(name="notes.txt - Notepad", depth=2, status="Normal", width=1200, height=800, handle=1706796)
SETTINGS = Window(name="Settings", depth=5, status="Maximized", width=1600, height=960, handle=5049915)


def _line(control: str, name: str, point: tuple[int, int], window: str, *meta: tuple[str, str]) -> Element:
    return Element(kind="element", control=control, name=name, point=point, depth=1, window=window, meta=meta)


# The element lines of samples/01 (a Notepad window and the taskbar): 13 interactive, 1 scrollable.
NOTEPAD_TREE: tuple[Element, ...] = (
    Element(kind="window", control="window", name=NOTEPAD.name, window=NOTEPAD.name),
    *(
        _line("button", n, p, NOTEPAD.name)
        for n, p in (("Minimize", (1285, 116)), ("Maximize", (1331, 116)), ("Close", (1377, 116)))
    ),
    *(_line("menu item", n, (x, 152), NOTEPAD.name) for n, x in (("File", 228), ("Edit", 268), ("View", 308))),
    _line("document", "Text editor", (800, 520), NOTEPAD.name),
    _line("document", "Text editor", (1122, 691), NOTEPAD.name, ("v", "0.0")),
    Element(kind="window", control="window", name="Taskbar", window="Taskbar"),
    *(
        _line("button", n, (x, 1056), "Taskbar")
        for n, x in (
            ("Start", 24),
            ("Search", 72),
            ("Task View", 120),
            ("Notepad - 1 running window", 168),
            ("Google Chrome - 1 running window", 216),
            ("Clock 10:42 AM 5/14/2026", 1860),
        )
    ),
)


def window(name: str, handle: int) -> Window:
    return Window(name=name, depth=0, status="Normal", width=800, height=600, handle=handle)


def observation(
    obs_id: str = "obs-1",
    *,
    session: str = SESSION,
    generation: int = 1,
    taken_at_ms: float = T0,
    focused: Window | None = NOTEPAD,
    tool: str = "Snapshot",
    tree: TreeState = "present",
    image_size: tuple[int, int] | None = None,
    mapping: ImageMapping | None = None,
    elements: tuple[Element, ...] | None = None,
    use_dom: bool = False,
) -> Observation:
    """An observation; a Snapshot with a tree holds `NOTEPAD_TREE` unless `elements` says otherwise."""
    if elements is None:
        elements = NOTEPAD_TREE if tool == "Snapshot" and tree == "present" else ()
    capture = Capture(tool=tool, focused=focused, tree=tree, image_size=image_size, elements=elements)
    return Observation(
        id=obs_id,
        session=session,
        generation=generation,
        taken_at_ms=taken_at_ms,
        capture=capture,
        mapping=mapping,
        use_dom=use_dom,
    )


def probe_ok(focused: Window | None, *, captured: bool = True, tree: tuple[Element, ...] | None = None) -> Probe:
    """An answered probe; `tree` makes it a full-tree probe whose label signature is that tree's."""
    labels = None if tree is None else label_signature(Capture(tool="Snapshot", tree="present", elements=tree))
    return Probe(status="ok", focused=focused, captured=captured, labels=labels)


def view(
    *observations: Observation,
    session: str = SESSION,
    latest: str | None = None,
    generation: int | None = None,
    probe: Probe | None = None,
    retired: Mapping[str, str] | None = None,
    foreign: frozenset[str] = frozenset(),
) -> SessionView:
    """A view of `observations`; latest = the last one, generation = its generation, probe = same window."""
    last = observations[-1] if observations else None
    if latest is None and last is not None:
        latest = last.id
    if generation is None:
        generation = last.generation if last is not None else 0
    if probe is None:
        probe = probe_ok(last.focused) if last is not None else Probe(status="not_probed", captured=False)
    return SessionView(
        session=session,
        observations={o.id: o for o in observations},
        latest_id=latest,
        retired=dict(retired or {}),
        foreign_ids=foreign,
        generation=generation,
        probe=probe,
    )


def context(
    the_view: SessionView | None = None,
    *,
    config: PolicyConfig | None = None,
    kill: KillState | None = None,
    approvals: Mapping[str, Approval] | None = None,
    rules: object = None,
    rules_error: str | None = None,
) -> Context:
    return Context(
        config=config or PolicyConfig(),
        kill=kill or KillState(),
        view=the_view if the_view is not None else view(),
        approvals=dict(approvals or {}),
        rules=rules,  # type: ignore[arg-type]
        rules_error=rules_error,
    )


def call(
    tool: str, *, session: str = SESSION, based_on: object = None, approval_id: object = None, **args: object
) -> ToolCall:
    return ToolCall(tool=tool, args=args, session=session, based_on=based_on, approval_id=approval_id)


def click(x: int = 100, y: int = 200, **kw: object) -> ToolCall:
    return call("Click", loc=[x, y], **kw)  # type: ignore[arg-type]


@dataclass
class TableRules:
    """A real (tiny) CommandRules: the first (tool, substring) row found in the args' text hits."""

    rows: tuple[tuple[str, str, RuleHit], ...] = ()
    calls: list[str] = field(default_factory=list)

    def match(self, tool: str, args: Mapping[str, object], *, table: bool = True) -> RuleHit | None:
        self.calls.append(tool)
        text = " ".join(str(v) for v in args.values()).lower()
        for row_tool, needle, hit in self.rows:
            if row_tool == tool and needle in text:
                return hit
        return None


def hit(rule_id: str = "recursive-delete", action: str = "deny") -> RuleHit:
    return RuleHit(rule_id=rule_id, action=action, risk="data loss", reason="recursive delete")  # type: ignore[arg-type]
