"""The doctor's `pins` check: does upstream still offer the tool definitions a person trusted (S-PIN-05)?

Against the pin file (`gateway/state/pins.py`), with the doctor's live `tools/list`; like the
gateway, the doctor's first contact with an upstream on a fresh state dir pins what it offers.

    changed, and an argument the gateway's checks read      SEVERE  (a rule, the coordinate or the
    (`schema.reads_of`) disappeared or changed type                   label check went dead or blind)
    changed otherwise (description, other arguments,       WARNING
    output schema, annotations)
    new since the first pinning (pinned on first sight)     WARNING
    pinned but no longer offered                            WARNING
    the pin file is unusable                                SEVERE  (every upstream tool is withheld)

Each finding names `winmcp-gateway pin show` and `pin accept`.
"""

from __future__ import annotations

from typing import Any

from gateway.doctor.model import Check, Finding, Verdict
from gateway.doctor.schema import reads_of
from gateway.state.pins import Recorded
from policy.pins import ACCEPT, SHOW, PinGate, PinStatus, ToolChange, ToolDiff, gated_loss

TITLE = "tool definitions against their pins"


def diff_summary(diff: ToolDiff) -> str:
    """One line: what differs (`description; arguments removed: label; …`)."""
    parts: list[str] = []
    if diff.description_changed:
        parts.append("description")
    if diff.removed:
        parts.append(f"arguments removed: {', '.join(diff.removed)}")
    if diff.added:
        parts.append(f"arguments added: {', '.join(diff.added)}")
    parts += [f"argument {c.name}: {c.before} → {c.after}" if c.type_changed else f"argument {c.name} changed"
              for c in diff.changed]  # fmt: skip
    if diff.required_added or diff.required_removed:
        parts.append(f"required +{list(diff.required_added)} -{list(diff.required_removed)}")
    if diff.schema_keys:
        parts.append(f"inputSchema {', '.join(diff.schema_keys)}")
    if diff.output_schema_changed:
        parts.append("outputSchema")
    if diff.annotations:
        parts.append("annotations " + ", ".join(f"{k}: {a} → {b}" for k, a, b in diff.annotations))
    return "; ".join(parts) or "pinned fields differ"


def change_verdict(change: ToolChange) -> tuple[Verdict, tuple[str, ...]]:
    """SEVERE (with the gated arguments lost) for a changed tool that lost what a check reads, else WARNING."""
    if change.status is PinStatus.CHANGED and change.diff is not None:
        lost = gated_loss(change.diff, reads_of(change.name))
        return (Verdict.SEVERE if lost else Verdict.WARNING), lost
    return Verdict.WARNING, ()


def _finding(change: ToolChange, fate: str) -> Finding | None:
    name = change.name
    if change.status is PinStatus.CHANGED and change.diff is not None:
        verdict, lost = change_verdict(change)
        text = f"{name}: upstream changed its definition since it was pinned ({diff_summary(change.diff)})"
        if lost:
            text += f"; the gateway's checks read {', '.join(lost)}, which disappeared or changed type"
        text += f"; {fate}. Review: {SHOW}; accept: {ACCEPT} {name}"
        return Finding(verdict=verdict, tool=name, field=lost[0] if lost else None, message=text)
    if change.status is PinStatus.NEW:
        return Finding(
            verdict=Verdict.WARNING,
            tool=name,
            message=f"{name}: offered since the first pinning; pinned on first sight so a change is caught, "
            f"not trusted (the catalog decides whether it is visible); accept: {ACCEPT} {name}",
        )
    if change.status is PinStatus.REMOVED:
        return Finding(
            verdict=Verdict.WARNING,
            tool=name,
            message=f"{name}: pinned, but upstream no longer offers it; forget the pin: {ACCEPT} {name}",
        )
    return None


def check_pins(recorded: Recorded, gate: PinGate, *, pin_file: str) -> Check:
    """The `pins` check (module docstring).

    Args:
        recorded: what recording the doctor's tool list found.
        gate: the gate that recording made (its mode says withheld or reported only).
        pin_file: the pin file's path, for the data.

    Returns:
        The check.
    """
    fate = "withheld and refused TOOL_CHANGED" if gate.mode == "enforce" else 'reported only (pin_mode = "warn")'
    data: dict[str, Any] = {"pin_file": pin_file, "mode": gate.mode}
    if recorded.error is not None or recorded.report is None:
        why = recorded.error or "no comparison"
        finding = Finding(
            verdict=Verdict.SEVERE,
            message=f"the pin file is unusable ({why}): every upstream tool is {fate}; "
            f"a person can look with `{SHOW}` and re-pin with `{ACCEPT}`",
        )
        return Check.of("pins", TITLE, [finding], ok="", data={**data, "error": why})
    report = recorded.report
    findings = [f for t in report.tools if (f := _finding(t, fate)) is not None]
    for status in PinStatus:
        data[status.value] = list(report.named(status))
    pinned = len(report.named(PinStatus.PINNED))
    ok = f"all {pinned} upstream tools are offered as pinned" + (
        " (pinned now: this was the first connection on this state dir)" if recorded.first else ""
    )
    return Check.of("pins", TITLE, findings, ok=ok, data=data)
