"""Probe a real Windows-MCP once: does it still look the way the gateway assumes? (S-DOC-11)

Run on Windows after installing or upgrading Windows-MCP:

    python scripts/live_probe.py                                   # starts `uvx windows-mcp`
    python scripts/live_probe.py --upstream-cmd "uvx windows-mcp==0.8.8"
    python scripts/live_probe.py --upstream-url http://127.0.0.1:8000/mcp
    python scripts/live_probe.py --json > probe.json              # to attach to a bug report

It runs the doctor's schema comparison (every argument the catalog, the command rules and
the drift probe use must exist upstream; unknown arguments on gated tools and unknown tools
are flagged) and ONE read-only Snapshot with `use_vision=true`, parsed by
`gateway.observe.parse.parse_result` and mapped by `gateway.observe.coords.derive_mapping`, and prints
what it found: displays, focused window, element count, image size, mapping and every
parser warning. Nothing is clicked or typed; the screenshot is not saved (the image is
reduced to its size). Exit code 0 when nothing is SEVERE or UNKNOWN, else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.doctor.checks import check_mapping, check_upstream  # noqa: E402
from gateway.doctor.model import Check, worst  # noqa: E402
from gateway.doctor.schema import compare_schema  # noqa: E402
from gateway.observe.coords import derive_mapping, image_to_screen  # noqa: E402
from gateway.observe.parse import CaptureFailure, parse_result  # noqa: E402
from gateway.upstream.client import Upstream
from gateway.upstream.supervisor import UpstreamSpec
from policy.observation import Capture  # noqa: E402

SNAPSHOT_ARGS = {"use_vision": True}


def _capture_facts(capture: Capture) -> dict[str, Any]:
    focused = capture.focused
    return {
        "cursor": capture.cursor,
        "displays": [
            {"index": d.index, "device": d.device, "rect": d.rect, "primary": d.primary} for d in capture.displays
        ],
        "region": capture.region,
        "screenshot_size": capture.screenshot_size,
        "original_size": capture.original_size,
        "coord_scale": capture.coord_scale,
        "image_size": capture.image_size,
        "focused": None
        if focused is None
        else {
            "name": focused.name,
            "handle": focused.handle,
            "status": focused.status,
            "size": [focused.width, focused.height],
        },
        "windows": len(capture.windows),
        "elements": len(capture.elements),
        "tree": capture.tree,
        "tree_truncated": capture.tree_truncated,
        "parse_warnings": list(capture.warnings),
    }


async def probe(spec: UpstreamSpec, timeout_s: float) -> dict[str, Any]:
    """Connect, compare the schema, take and parse one Snapshot; return every fact found.

    Args:
        spec: the Windows-MCP to probe.
        timeout_s: per-call timeout (a first `uvx` run may download for a while).

    Returns:
        `{"upstream": …, "checks": [schema checks…, mapping check], "snapshot": facts|None,
        "overall": verdict, "exit_code": 0|1}`.
    """
    with tempfile.TemporaryDirectory(prefix="winmcp-probe-", ignore_cleanup_errors=True) as tmp:
        errlog = Path(tmp) / "upstream.stderr.log"
        async with Upstream(spec, timeout_s=timeout_s, stderr_path=errlog) as upstream:
            out: dict[str, Any] = {"upstream": {"spec": spec.describe()}, "snapshot": None}
            try:
                tools = await upstream.list_tools()
            except Exception as exc:  # noqa: BLE001 - reported, never a traceback for the user
                tail = errlog.read_text(encoding="utf-8", errors="replace")[-2000:] if errlog.exists() else ""
                out["upstream"].update(error=f"{type(exc).__name__}: {exc}", stderr_tail=tail)
                checks = [
                    check_upstream(
                        spec.describe(),
                        tool_count=None,
                        error=f"{type(exc).__name__}: {exc}",
                        protocol=None,
                        server=None,
                        stderr_tail=tail,
                    )
                ]
                return _finish(out, checks)
            info = upstream.server_info
            out["upstream"].update(
                server=None if info is None else f"{info.name} {info.version}",
                protocol=upstream.protocol_version,
                tools=len(tools),
            )
            checks = [
                check_upstream(
                    spec.describe(),
                    tool_count=len(tools),
                    error=None,
                    protocol=upstream.protocol_version,
                    server=out["upstream"]["server"],
                ),
                *compare_schema(tools, None),
            ]
            if "Snapshot" not in {t.get("name") for t in tools}:
                checks.append(check_mapping("upstream offers no Snapshot tool", None, None))
                return _finish(out, checks)
            try:
                result = await upstream.call_tool("Snapshot", SNAPSHOT_ARGS)
            except Exception as exc:  # noqa: BLE001
                checks.append(check_mapping(f"the Snapshot failed ({type(exc).__name__}: {exc})", None, None))
                return _finish(out, checks)
            capture = parse_result("Snapshot", result)
            if isinstance(capture, CaptureFailure):
                checks.append(check_mapping("the Snapshot", capture, None))
                return _finish(out, checks)
            mapping, warnings = derive_mapping(capture)
            out["snapshot"] = _capture_facts(capture)
            if mapping is not None:
                cx, cy = mapping.image_size[0] // 2, mapping.image_size[1] // 2
                out["snapshot"]["example"] = {
                    "image_px": [cx, cy],
                    "screen": list(image_to_screen(mapping, cx, cy)),
                }
            checks.append(check_mapping("the Snapshot", capture, mapping, warnings))
            return _finish(out, checks)


def _finish(out: dict[str, Any], checks: list[Check]) -> dict[str, Any]:
    overall = worst(c.verdict for c in checks)
    out["checks"] = [c.as_json() for c in checks]
    out["overall"] = overall.value
    out["exit_code"] = 1 if any(c.verdict.fails for c in checks) else 0
    return out


def render(found: dict[str, Any]) -> str:
    """The probe's findings as text."""
    up = found["upstream"]
    lines = [f"upstream: {up['spec']}"]
    if "error" in up:
        lines.append(f"  NOT REACHABLE: {up['error']}")
        if up.get("stderr_tail"):
            lines += ["  its stderr ended with:", *("    " + s for s in up["stderr_tail"].splitlines()[-15:])]
    else:
        lines.append(f"  server {up.get('server')}, protocol {up.get('protocol')}, {up.get('tools')} tools")
    snap = found.get("snapshot")
    if snap:
        lines.append("snapshot (use_vision=true):")
        for d in snap["displays"]:
            lines.append(f"  display {d['index']} {d['device']} {tuple(d['rect'])}{' primary' if d['primary'] else ''}")
        focused = snap["focused"]
        lines.append(
            f"  focused window: {focused['name']!r} handle {focused['handle']}"
            if focused
            else "  focused window: none reported"
        )
        lines.append(
            f"  cursor {snap['cursor']}, {snap['windows']} windows, {snap['elements']} elements, "
            f"tree {snap['tree']}{' (truncated)' if snap['tree_truncated'] else ''}"
        )
        lines.append(
            f"  image {snap['image_size']}, printed size {snap['original_size'] or snap['screenshot_size']}, "
            f"coord scale {snap['coord_scale']}"
        )
        if "example" in snap:
            ex = snap["example"]
            lines.append(
                f"  image pixel {tuple(ex['image_px'])} is screen point ({ex['screen'][0]:.2f}, {ex['screen'][1]:.2f})"
            )
    for c in found.get("checks", []):
        lines.append(f"{c['verdict']:<8} {c['id']:<20} {c['summary']}")
        if len(c["findings"]) > 1:
            lines += [f"{'':<29}- {f['verdict']}: {f['message']}" for f in c["findings"]]
    lines.append(f"overall: {found.get('overall')} (exit {found.get('exit_code')})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (0 when nothing is SEVERE or UNKNOWN)."""
    parser = argparse.ArgumentParser(prog="live_probe.py", description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--upstream-cmd", metavar="CMD", help='Windows-MCP as a stdio command (default "uvx windows-mcp")'
    )
    where.add_argument("--upstream-url", metavar="URL", help="Windows-MCP as a streamable-HTTP URL")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds per upstream call (default 150)")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    args = parser.parse_args(argv)
    spec = (
        UpstreamSpec(url=args.upstream_url)
        if args.upstream_url
        else UpstreamSpec.command(args.upstream_cmd or "uvx windows-mcp")
    )
    found = anyio.run(probe, spec, args.timeout)
    sys.stdout.write((json.dumps(found, indent=2, default=str) if args.json else render(found)) + "\n")
    return int(found["exit_code"])


if __name__ == "__main__":
    raise SystemExit(main())
