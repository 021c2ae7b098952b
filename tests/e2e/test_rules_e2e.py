"""The command-rule corpus replayed through the gateway (S-FLOW-08).

Every dangerous call is refused — with its rule's id, or as an approval request for rules
that ask — and the simulator's event log proves none of them reached the (simulated) system;
every ordinary call is forwarded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig
from tests.policy.rule_corpus import DANGEROUS, ORDINARY

pytestmark = pytest.mark.anyio


@requirement("S-FLOW-08")
async def test_the_dangerous_corpus_never_reaches_the_system_and_ordinary_calls_do(tmp_path: Path) -> None:
    """S-FLOW-08: ≥400 dangerous calls refused end to end with no simulator event; ≥200 ordinary calls pass."""
    assert len(DANGEROUS) >= 400 and len(ORDINARY) >= 200
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})  # Shortcut calls in the corpus are input actions
        wrong: list[tuple[str, object, str, str]] = []
        for tool, args, rule_id in DANGEROUS:
            text = first_text(await rig.call(tool, args))
            refused = text.startswith(("DENIED COMMAND_RULE", "DENIED APPROVAL_REQUIRED", "DENIED SELF_PROTECTION"))
            invalid = text.startswith("DENIED BAD_ARGUMENTS")  # upstream's schema rejects the spelling: never sent
            if not invalid and (not refused or rule_id not in text):
                wrong.append((tool, args, rule_id, text[:160]))
        assert not wrong, f"{len(wrong)} dangerous calls were not refused by their rule: {wrong[:3]}"
        assert [e for e in rig.side_effects()] == [], "a refused call reached the simulated system"

        passed_through = 0
        for tool, args in ORDINARY:
            await rig.call("Snapshot", {})  # keep the basis fresh for the input tools among them
            text = first_text(await rig.call(tool, args))
            assert not text.startswith("DENIED"), f"ordinary call refused: {tool} {args}: {text[:200]}"
            passed_through += 1
        forwarded = [line for line in rig.audit_lines() if line["event"] == "allow"]
        assert len(forwarded) == passed_through == len(ORDINARY)


@requirement("S-FLOW-12")
async def test_the_agent_cannot_lift_its_own_guard(tmp_path: Path) -> None:
    """S-FLOW-12: deleting the STOP file, rewriting the audit, or running the gateway's CLI is SELF_PROTECTION."""
    async with gateway_rig(tmp_path, config={"command_rules_enabled": False}) as rig:
        state = str(rig.app.config.state_dir)
        attempts = [
            ("PowerShell", {"command": f"Remove-Item '{state}\\STOP' -Force"}),
            ("PowerShell", {"command": "winmcp-gateway approve apr-0123456789 --yes"}),
            ("PowerShell", {"command": "winmcp-gateway kill release"}),
            ("FileSystem", {"mode": "delete", "path": f"{state}/STOP"}),
            ("FileSystem", {"mode": "write", "path": f"{state.upper()}/audit.jsonl", "content": "{}"}),
            (
                "App",
                {
                    "mode": "launch_executable",
                    "executable": "C:/Python311/python.exe",
                    "args": ["-m", "gateway", "kill", "release"],
                },
            ),
        ]
        for tool, args in attempts:
            text = first_text(await rig.call(tool, args))
            assert text.startswith("DENIED SELF_PROTECTION: "), (tool, args, text)
        assert rig.side_effects() == []
        ok = await rig.call("PowerShell", {"command": "Get-Date"})
        assert ok["isError"] is False, "rules off: ordinary commands still pass, only self-protection stays on"


@requirement("S-SELF-13")
async def test_the_gateways_own_python_environment_is_refused_end_to_end(tmp_path: Path) -> None:
    """S-SELF-13: through `serve`, with rules switched off too: a write into the venv the gateway runs in (a
    dependency every request passes through) is SELF_PROTECTION and never reaches the simulated system; reading it
    is forwarded."""
    import os
    import sys

    import mcp

    dependency = os.path.join(os.path.dirname(os.path.realpath(mcp.__file__)), "server", "lowlevel", "server.py")
    venv_cfg = os.path.join(os.path.realpath(sys.prefix), "pyvenv.cfg")
    async with gateway_rig(tmp_path, config={"command_rules_enabled": False}) as rig:
        for tool, args in (
            ("FileSystem", {"mode": "write", "path": dependency, "content": "import os"}),
            ("FileSystem", {"mode": "delete", "path": venv_cfg}),
            ("PowerShell", {"command": f"Set-Content '{dependency}' 'import os'"}),
        ):
            text = first_text(await rig.call(tool, args))
            assert text.startswith("DENIED SELF_PROTECTION: "), (tool, args, text)
            assert "the Python environment the gateway runs in" in text
        assert rig.side_effects() == []
        read = await rig.call("FileSystem", {"mode": "read", "path": dependency})
        assert not first_text(read).startswith("DENIED"), first_text(read)
