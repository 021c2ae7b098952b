"""The audit of a real session through the gateway (S-FLOW-09).

Secrets of the redaction corpus go through PowerShell, Clipboard, Notification, FileSystem
and Type (into the password field of the simulated Settings window); afterwards none of them,
and no image data, appears in any file of the state dir, every line parses, and
`audit-report --verify` passes — until one byte is flipped, which it finds at that line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.cli import main as cli_main
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig
from tests.gateway.test_redact import SHAPES

pytestmark = pytest.mark.anyio

WIFI_PASSWORD = "correct horse battery staple 42"  # not secret-shaped: only the [password] flag protects it


def _state_bytes(state: Path) -> bytes:
    return b"\n".join(p.read_bytes() for p in sorted(state.rglob("*")) if p.is_file())


@requirement("S-FLOW-09")
async def test_no_secret_or_image_reaches_the_state_dir_and_the_chain_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-FLOW-09: secrets and screenshots never reach the audit; verify passes, a flipped byte is found."""
    async with gateway_rig(tmp_path, scenario="settings") as rig:
        await rig.call("Snapshot", {"use_vision": True})  # an image the audit must not keep
        for _, text, _ in SHAPES:
            await rig.call("PowerShell", {"command": text})
            await rig.call("Clipboard", {"mode": "set", "text": text})
            await rig.call("Notification", {"title": "status", "message": text, "app_id": "demo"})
            await rig.call("FileSystem", {"mode": "write", "path": "notes.txt", "content": text})
        await rig.call("Snapshot", {})
        typed = await rig.call("Type", {"loc": [720, 710], "text": WIFI_PASSWORD})
        assert typed["isError"] is False, first_text(typed)
        assert WIFI_PASSWORD in first_text(typed), "upstream echoes typed text: the audit must scrub the echo"
        state = rig.app.config.state_dir

    everything = _state_bytes(state)
    leaked = [secret for _, _, secret in SHAPES if secret.encode() in everything]
    assert not leaked, f"secrets found in the state dir: {leaked}"
    assert WIFI_PASSWORD.encode() not in everything, "text typed into a [password] field reached the state dir"
    assert b"iVBORw0KGgo" not in everything, "PNG data reached the state dir"

    lines = (state / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) >= 4 * len(SHAPES)
    assert all(r["ts"].endswith("Z") for r in records)

    capsys.readouterr()
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) == 0

    middle = len(lines) // 2
    tampered = lines[middle].replace('"tool":"', '"tool":"X', 1)
    assert tampered != lines[middle]
    lines[middle] = tampered
    (state / "audit.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) != 0
    out = capsys.readouterr()
    assert f":{middle + 1}" in out.out + out.err, "verify names the tampered line"


@requirement("S-FLOW-09")
async def test_a_refusal_that_quotes_the_command_leaks_no_secret_into_approval_files(tmp_path: Path) -> None:
    """S-FLOW-09: dynamic and unreadable commands ask; their reasons quote no secret into the state dir."""
    async with gateway_rig(tmp_path) as rig:
        for _, text, _ in SHAPES:
            for command in (f"& $tool {text}", f"Start-Process $exe -ArgumentList '{text}'", f"{text} {{"):
                result = await rig.call("PowerShell", {"command": command})
                assert first_text(result).startswith(("DENIED APPROVAL_REQUIRED", "DENIED COMMAND_RULE")), first_text(
                    result
                )[:200]
        state = rig.app.config.state_dir
    assert list((state / "approvals").glob("apr-*.json")), "the asks were recorded as approval requests"
    everything = _state_bytes(state)
    leaked = [secret for _, _, secret in SHAPES if secret.encode() in everything]
    assert not leaked, f"secrets found in the state dir: {leaked}"
