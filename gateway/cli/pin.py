"""A person's side of tool pinning: `winmcp-gateway pin show` and `pin accept [TOOL…]` (S-PIN-03).

    pin show [--json]            every tool's status (pinned, changed, new, removed) against what the
                                 upstream offered last, and for a changed tool what changed: the
                                 description as a word diff, arguments added/removed/changed (type),
                                 required, output schema, annotations; SEVERE where an argument the
                                 gateway's checks read disappeared or changed type. Exit 0 when every
                                 tool is as pinned, 1 when something needs a person, 2 on a usage error.
    pin accept [TOOL…] [--yes]   accept what the upstream offered last: every change (no TOOL), or the
                                 tools named; asks first unless --yes (no terminal and no --yes: exit 2);
                                 each accepted tool is audited as an `approval` (`approval: "pin-<digest>"`,
                                 code TOOL_CHANGED) with `by: "cli"`.

Both read the state dir as `serve` does (`--state-dir`, else `WINMCP_GATEWAY_STATE_DIR`, else the
user state dir); neither needs the upstream: the gateway records what it was offered.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from pathlib import Path
from typing import Any

from gateway.audit.writer import AuditLog
from gateway.config.load import GatewayConfig, load_config
from gateway.doctor.model import Verdict
from gateway.doctor.pins import change_verdict, diff_summary
from gateway.state.command_line import state_dir_hint
from gateway.state.pins import PinFileError, PinStore
from policy.pins import PinReport, PinStatus, ToolChange, compare

ERROR = "winmcp-gateway: error:"
WIDTH = 100  # a word diff wraps here


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pin show` and `pin accept` to the command line (`gateway/cli/commands.py`)."""
    pin = sub.add_parser("pin", help="tool-definition pins: show what upstream changed, accept it")
    verbs = pin.add_subparsers(dest="pin_command", required=True)
    show = verbs.add_parser("show", help="each tool's pin status and a diff of what changed")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    accept = verbs.add_parser("accept", help="accept the offered definitions (all changes, or the tools named)")
    accept.add_argument("tools", nargs="*", metavar="TOOL", help="only these tools (default: every change)")
    accept.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    for p in (show, accept):
        p.add_argument("--config", type=Path, help="TOML config file")
        p.add_argument(
            "--state-dir", type=Path, help="state dir (default: $WINMCP_GATEWAY_STATE_DIR or the user state dir)"
        )
    show.set_defaults(handler=run_show)
    accept.set_defaults(handler=run_accept)


def _config(args: argparse.Namespace) -> GatewayConfig:
    config = load_config(environ=os.environ, config_file=args.config, state_dir=args.state_dir)
    for warning in config.warnings:
        print(f"winmcp-gateway: warning: {warning}", file=sys.stderr)
    return config


def _report(store: PinStore) -> tuple[PinReport | None, str | None, bool]:
    """(report, why the pins are unusable, whether anything was ever offered)."""
    offered = store.read_offered()
    try:
        pins = store.read_pins()
    except PinFileError as exc:
        return None, str(exc), offered is not None
    return compare(pins or {}, offered or []), None, offered is not None


def word_diff(before: str, after: str) -> str:
    """`after` with what was removed as `[-…-]` and what was added as `{+…+}` (git's word diff)."""
    a, b = before.split(), after.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out += a[i1:i2]
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _wrap(text: str, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def render_change(change: ToolChange) -> list[str]:
    """The lines `pin show` prints for one tool that is not as pinned."""
    pin = change.pin
    since = f" (pinned {pin.at or '?'} by {pin.by})" if pin is not None else ""
    if change.status is PinStatus.NEW:
        return [f"NEW      {change.name}: offered since the first pinning; pinned on first sight, not trusted{since}"]
    if change.status is PinStatus.REMOVED:
        return [f"REMOVED  {change.name}: pinned, no longer offered{since}"]
    diff = change.diff
    assert diff is not None and pin is not None and change.offered is not None
    verdict, lost = change_verdict(change)
    lines = [f"CHANGED  {change.name}{since}: {diff_summary(diff)}"]
    if verdict is Verdict.SEVERE:
        lines.append(f"  SEVERE: the gateway's checks read {', '.join(lost)}, which disappeared or changed type")
    if diff.description_changed:
        lines.append("  description ([-removed-] {+added+}):")
        before, after = str(pin.definition.get("description") or ""), str(change.offered.get("description") or "")
        lines += _wrap(word_diff(before, after), "    ")
    for name in diff.removed:
        lines.append(f"  - argument {name}")
    for name in diff.added:
        lines.append(f"  + argument {name}")
    for c in diff.changed:
        lines.append(f"  ~ argument {c.name}: {c.before} → {c.after}")
    for key, a, b in diff.annotations:
        lines.append(f"  ~ annotation {key}: {a} → {b}")
    return lines


def render_show(store: PinStore, config: GatewayConfig) -> tuple[str, int]:
    """What `pin show` prints, and its exit code."""
    report, error, offered = _report(store)
    hint = state_dir_hint(config.state_dir)
    if error is not None:
        return (
            f"tool pins in {config.state_dir}: UNUSABLE — {error}\n"
            "every upstream tool is withheld (fail closed); re-pin what the upstream offers with "
            f"`winmcp-gateway pin accept{hint}` (the bad file is kept beside it)",
            1,
        )
    assert report is not None
    if not offered:
        return f"no tool pins in {config.state_dir} yet: the first `serve` (or `doctor`) pins what upstream offers", 0
    counts = {s: len(report.named(s)) for s in PinStatus}
    head = f"tool pins in {config.state_dir} (pin_mode = {config.pin_mode}): " + ", ".join(
        f"{n} {s.value}" for s, n in counts.items()
    )
    lines = [head]
    pending = [t for t in report.tools if t.status is not PinStatus.PINNED]
    for change in pending:
        lines += render_change(change)
    if pending:
        names = " ".join(t.name for t in pending)
        lines += ["", f"accept all: winmcp-gateway pin accept{hint}  |  some: winmcp-gateway pin accept {names}{hint}"]
    return "\n".join(lines), 1 if pending else 0


def _as_json(store: PinStore, config: GatewayConfig) -> tuple[dict[str, Any], int]:
    report, error, _ = _report(store)
    if error is not None or report is None:
        return {"state_dir": str(config.state_dir), "error": error, "tools": []}, 1
    tools = []
    for t in report.tools:
        item: dict[str, Any] = {"name": t.name, "status": t.status.value}
        if t.diff is not None:
            verdict, lost = change_verdict(t)
            item.update(verdict=verdict.value, summary=diff_summary(t.diff), gated_lost=list(lost))
            item.update(removed=list(t.diff.removed), added=list(t.diff.added))
        tools.append(item)
    pending = any(t.status is not PinStatus.PINNED for t in report.tools)
    return {"state_dir": str(config.state_dir), "mode": config.pin_mode, "error": None, "tools": tools}, int(pending)


def run_show(args: argparse.Namespace) -> int:
    """`winmcp-gateway pin show [--json]`."""
    config = _config(args)
    store = PinStore(config.state_dir)
    if args.json:
        data, code = _as_json(store, config)
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return code
    text, code = render_show(store, config)
    print(text)
    return code


def run_accept(args: argparse.Namespace) -> int:
    """`winmcp-gateway pin accept [TOOL…] [--yes]`."""
    config = _config(args)
    store = PinStore(config.state_dir)
    report, error, offered = _report(store)
    if not offered:
        print(f"{ERROR} nothing offered yet in {config.state_dir}: start the gateway once first", file=sys.stderr)
        return 2
    names = tuple(args.tools)
    if error is not None:
        if names:
            print(f"{ERROR} {error}; re-pin everything with `winmcp-gateway pin accept` (no tool)", file=sys.stderr)
            return 2
        print(f"the pin file is unusable ({error}); accepting re-pins every tool upstream offered last")
    else:
        assert report is not None
        pending = {t.name: t for t in report.tools if t.status is not PinStatus.PINNED}
        unknown = [n for n in names if n not in pending]
        if unknown:
            print(f"{ERROR} nothing to accept for {', '.join(unknown)} (`winmcp-gateway pin show`)", file=sys.stderr)
            return 2
        chosen = [pending[n] for n in names] if names else list(pending.values())
        if not chosen:
            print("every tool is offered as pinned; nothing to accept")
            return 0
        for change in chosen:
            print("\n".join(render_change(change)))
    if not args.yes:
        if not sys.stdin.isatty():
            print(f"{ERROR} not a terminal; re-run with --yes to accept without a prompt", file=sys.stderr)
            return 2
        if input("accept these tool definitions? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    try:
        done = store.accept(names)
    except PinFileError as exc:
        print(f"{ERROR} {exc}", file=sys.stderr)
        return 2
    log = AuditLog.for_config(config)
    for name, status, digest in done:  # S-PIN-03: a person's acceptance is in the record, like an approval
        log.append(
            "approval",
            approval=f"pin-{(digest or 'removed')[:16]}",  # the accepted definition's digest (or a dropped pin)
            code="TOOL_CHANGED",
            tool=name,
            reason=f"tool definition accepted by a person from the command line (it was {status.value})",
            by="cli",
        )
    print(f"accepted {len(done)} tool definition(s): {', '.join(n for n, _, _ in done) or 'none'}")
    return 0
