"""The doctor's `files` check: who can read the state dir and what it holds (S-WIN-06).

The HTTP token lets anyone call the gateway, the audit and approvals record what the agent
did, and STOP is a person's stop: each should be readable by its owner only. Each is read back
(`gateway.files.owner_only`, which changes nothing when it only inspects):

    owner-only (mode or ACL)            fine
    inherited from the profile dir      fine (you, SYSTEM and Administrators), the detail names them
    readable by others                  SEVERE for the token, WARNING for the rest, with the command
                                        that makes it owner-only
    unknown                             UNKNOWN, with the reason
    not there yet                       fine: it is created owner-only
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gateway.audit.writer import FILE_NAME as AUDIT_FILE
from gateway.doctor.model import Check, Finding, Verdict
from gateway.files.owner_only import THIS_MACHINE, FileGuard, ProtectionKind
from gateway.state.approvals import APPROVALS_DIR
from gateway.state.store import STOP_FILE

# gateway.transport.http_guard.TOKEN_FILE, a layer above the doctor (a test keeps the two equal).
TOKEN_FILE = "http-token"
# (label, name in the state dir or None for the dir itself, is a dir, a secret: readable by others is SEVERE)
ITEMS: tuple[tuple[str, str | None, bool, bool], ...] = (
    ("state dir", None, True, False),
    ("http token", TOKEN_FILE, False, True),
    ("audit", AUDIT_FILE, False, False),
    ("approvals", APPROVALS_DIR, True, False),
    ("kill switch", STOP_FILE, False, False),
)


def check_files(state_dir: Path, *, guard: FileGuard = THIS_MACHINE) -> Check:
    """Report each state file's protection (the module docstring's table); writes nothing.

    Args:
        state_dir: the gateway's state dir.
        guard: how protection is read (tests pass a Windows one with a fake icacls).

    Returns:
        The `files` check; `data` maps each label to its path and protection.
    """
    guard = guard.with_identity()
    findings: list[Finding] = []
    data: dict[str, Any] = {}
    fine: list[str] = []
    absent: list[str] = []
    for label, name, directory, secret in ITEMS:
        path = state_dir if name is None else state_dir / name
        if not path.exists():
            data[label] = {"path": str(path), "protection": "not created yet"}
            absent.append(label)
            continue
        protection = guard.inspect(path)
        data[label] = {"path": str(path), "protection": str(protection)}
        if protection.kind is ProtectionKind.UNKNOWN:
            findings.append(Finding(verdict=Verdict.UNKNOWN, message=f"{label} {path}: {protection}"))
        elif protection.kind is ProtectionKind.OPEN:
            findings.append(
                Finding(
                    verdict=Verdict.SEVERE if secret else Verdict.WARNING,
                    message=f"{label} {path}: {protection.who_can_read()}; make it owner-only: "
                    f"{guard.remedy(path, directory=directory)}",
                )
            )
        else:
            fine.append(f"{label} {protection}")
    ok = "; ".join(fine) or "nothing created yet"
    if absent and fine:
        ok += f"; not created yet: {', '.join(absent)}"
    return Check.of("files", "who can read the state files", findings, ok=ok, data=data)
