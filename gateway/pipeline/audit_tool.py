"""`winmcp_audit {view: summary|raw, limit?}`: the audit log as the model may read it (DESIGN.md §6).

Events are already redacted when written; this view only reads. A model can read the audit
but never write or rewrite it (the state dir is self-protected).
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread

from gateway.app import GatewayApp
from gateway.audit.reader import audit_files, recent_records
from gateway.audit.report import render_summary, summarize
from gateway.tools import structured

DEFAULT_LIMIT = 20
MAX_LIMIT = 500


async def audit_view(app: GatewayApp, args: dict[str, Any]) -> dict[str, Any]:
    """Answer `winmcp_audit` (reads off the event loop: the files may be large)."""
    view = args.get("view", "summary")
    limit = args.get("limit", DEFAULT_LIMIT)
    if view not in ("summary", "raw"):
        return structured(
            {"view": str(view), "error": "view must be summary or raw"},
            "view must be summary or raw",
            is_error=True,
        )
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        return structured(
            {"view": view, "error": f"limit must be an integer 1..{MAX_LIMIT}"},
            f"limit must be an integer 1..{MAX_LIMIT}",
            is_error=True,
        )
    if not app.config.auto_audit:
        msg = "auditing is off (auto_audit = false): nothing is recorded"
        return structured({"view": view, "summary": {}, "events": []}, msg)
    await app.audit_flush()  # the model reads what it did, including the call just before this one
    files = audit_files(app.config.state_dir)
    if view == "raw":
        events = await anyio.to_thread.run_sync(recent_records, files, limit)
        text = (
            "\n".join(
                f"{e.get('ts')} {e.get('event')} {e.get('tool') or ''} {e.get('code') or ''} "
                f"{e.get('reason') or ''}".rstrip()
                for e in events
            )
            or "no audit events yet"
        )
        return structured({"view": "raw", "events": events}, text)
    summary = await anyio.to_thread.run_sync(lambda: summarize(files, recent=limit))
    return structured({"view": "summary", "summary": summary}, render_summary(summary))
