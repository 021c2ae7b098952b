"""The record: an append-only, redacted, hash-chained JSONL audit log, and reading it back.

`AuditLog` writes (`writer`), `audit_files` / `recent_records` read (`reader`), `verify_chain`
checks the chain (`verify`), `summarize` / `render_summary` make the report (`report`).
`AuditSink` and `Clock` are the seams `gateway.app.GatewayApp` is handed (`seams`).
"""

from gateway.audit.reader import audit_files, recent_records
from gateway.audit.report import render_summary, summarize
from gateway.audit.seams import AuditSink, Clock
from gateway.audit.verify import verify_chain
from gateway.audit.writer import FILE_NAME, AuditLog

__all__ = [
    "FILE_NAME",
    "AuditLog",
    "AuditSink",
    "Clock",
    "audit_files",
    "recent_records",
    "render_summary",
    "summarize",
    "verify_chain",
]
