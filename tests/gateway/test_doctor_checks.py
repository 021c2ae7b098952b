"""The doctor's verdict model and its non-schema checks (S-DOC-01, S-DOC-06 … S-DOC-09)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PIL import Image

from gateway.audit.writer import AuditLog
from gateway.config.load import load_config
from gateway.doctor.checks import (
    check_audit,
    check_config,
    check_kill,
    check_mapping,
    check_rules,
    check_upstream,
)
from gateway.doctor.model import CHECK_IDS, FORMAT, Check, Finding, Report, Verdict, worst
from gateway.observe.coords import derive_mapping
from gateway.observe.parse import CaptureFailure, parse_text, unwrap_text
from gateway.state.store import KillSwitch
from policy.observation import Capture
from policy.rules.match import load_rules
from tests._requirements import SAMPLES, requirement

V = Verdict
N = len(CHECK_IDS)  # the checks every report has


def _report(*verdicts: Verdict) -> Report:
    checks = tuple(Check(id=cid, title=cid, verdict=v, summary="s") for cid, v in zip(CHECK_IDS, verdicts, strict=True))
    return Report(upstream="x", checks=checks)


@requirement("S-DOC-01")
@pytest.mark.parametrize(
    ("verdicts", "overall", "code"),
    [
        ((V.OK,) * N, V.OK, 0),
        ((V.OK,) * (N - 1) + (V.WARNING,), V.WARNING, 0),
        ((V.WARNING,) * (N - 1) + (V.UNKNOWN,), V.UNKNOWN, 1),
        ((V.UNKNOWN,) * (N - 1) + (V.SEVERE,), V.SEVERE, 1),
        ((V.SEVERE,) + (V.OK,) * (N - 1), V.SEVERE, 1),
    ],
)
def test_overall_is_the_worst_and_exit_is_zero_only_without_severe_or_unknown(
    verdicts: tuple[Verdict, ...], overall: Verdict, code: int
) -> None:
    """S-DOC-01: overall = worst of OK < WARNING < UNKNOWN < SEVERE; exit 0 only without SEVERE/UNKNOWN."""
    report = _report(*verdicts)
    assert report.overall is overall and report.exit_code == code
    assert worst([]) is V.OK


@requirement("S-DOC-01")
def test_a_check_cannot_report_better_than_its_worst_finding_and_the_order_is_fixed() -> None:
    """S-DOC-01: a check's verdict never hides a worse finding; a report has all nine checks in order."""
    with pytest.raises(ValueError, match="hides"):
        Check(
            id="kill",
            title="k",
            verdict=V.OK,
            summary="fine",
            findings=(Finding(verdict=V.UNKNOWN, message="could not read"),),
        )
    with pytest.raises(ValueError):
        Report(upstream="x", checks=tuple(reversed(_report(*(V.OK,) * N).checks)))
    assert Check.of("kill", "k", [Finding(verdict=V.UNKNOWN, message="m")], ok="fine").verdict is V.UNKNOWN


@requirement("S-DOC-01")
def test_json_shape_is_stable_and_text_has_one_line_per_check() -> None:
    """S-DOC-01: as_json has exactly the documented keys (winmcp-doctor/1); the text leads with verdicts."""
    checks = list(_report(*(V.OK,) * N).checks)
    checks[1] = Check.of(
        "schema.read_args",
        "t",
        [
            Finding(
                verdict=V.SEVERE,
                message="PowerShell.command: gone",
                tool="PowerShell",
                field="command",
                rules=("r1",),
            ),
            Finding(verdict=V.SEVERE, message="Registry.mode: gone"),
        ],
        ok="",
    )
    report = Report(upstream="uvx windows-mcp", checks=tuple(checks))
    data = json.loads(json.dumps(report.as_json()))
    assert set(data) == {"format", "overall", "exit_code", "upstream", "counts", "checks"}
    assert data["format"] == FORMAT == "winmcp-doctor/1"
    assert data["counts"] == {"OK": N - 1, "WARNING": 0, "UNKNOWN": 0, "SEVERE": 1}
    assert [c["id"] for c in data["checks"]] == list(CHECK_IDS)
    assert all(set(c) == {"id", "title", "verdict", "summary", "findings", "data"} for c in data["checks"])
    assert data["checks"][1]["findings"][0] == {
        "verdict": "SEVERE",
        "message": "PowerShell.command: gone",
        "tool": "PowerShell",
        "field": "command",
        "rules": ["r1"],
    }
    text = report.render_text().splitlines()
    heads = [line.split()[:2] for line in text if line.startswith("  ") and line.split()[0] in {v.value for v in V}]
    assert [h[1] for h in heads] == list(CHECK_IDS)
    assert any("- SEVERE: PowerShell.command: gone" in line for line in text)
    assert text[-1].startswith("overall: SEVERE") and text[-1].endswith("exit 1")


@requirement("S-DOC-06")
def test_upstream_check_verdicts() -> None:
    """S-DOC-06: unreachable SEVERE (with stderr), odd protocol WARNING, no protocol UNKNOWN, else OK."""
    down = check_upstream("cmd", tool_count=None, error="boom", protocol=None, server=None, stderr_tail="trace")
    assert down.verdict is V.SEVERE and "boom" in down.summary and down.data["stderr_tail"] == "trace"
    odd = check_upstream("cmd", tool_count=21, error=None, protocol="1999-01-01", server="w 1")
    assert odd.verdict is V.WARNING
    assert check_upstream("cmd", tool_count=21, error=None, protocol=None, server="w").verdict is V.UNKNOWN
    ok = check_upstream("cmd", tool_count=21, error=None, protocol="2025-11-25", server="windows-mcp 4.0.10")
    assert ok.verdict is V.OK and "21 tools" in ok.summary and "2025-11-25" in ok.summary


def _sample_capture(stem: str) -> Capture:
    text, _ = unwrap_text((SAMPLES / f"{stem}.txt").read_text(encoding="utf-8"))
    with Image.open(SAMPLES / f"{stem}.png") as png:
        size = png.size
    return dataclasses.replace(parse_text("Snapshot", text), image_size=size)


@requirement("S-DOC-07")
def test_mapping_of_a_negative_origin_capture_is_ok() -> None:
    """S-DOC-07: a consistent mapping (sample 04a: origin -1920,0, scale 2.333…) is OK, named."""
    capture = _sample_capture("04a_snapshot_multimonitor_negative_origin")
    mapping, warnings = derive_mapping(capture)
    check = check_mapping("obs-7 (Snapshot)", capture, mapping, warnings)
    assert check.verdict is V.OK, check.findings
    assert "obs-7 (Snapshot): origin -1920,0 scale 2.333" in check.summary


@requirement("S-DOC-07")
def test_mapping_problems_have_the_right_verdicts() -> None:
    """S-DOC-07: none or busy desktop → UNKNOWN; unrecognised text or unmappable image → SEVERE."""
    assert check_mapping("no observation", None, None).verdict is V.UNKNOWN
    busy = CaptureFailure(message="USER_CONTROL: a person holds the desktop", kind="control")
    assert check_mapping("Screenshot", busy, None).verdict is V.UNKNOWN
    garbled = CaptureFailure(message="text is not a Snapshot result", kind="unrecognized")
    assert check_mapping("Screenshot", garbled, None).verdict is V.SEVERE
    no_origin = Capture(tool="Screenshot", screenshot_size=(100, 50), image_size=(100, 50))
    mapping, warnings = derive_mapping(no_origin)
    assert mapping is None
    assert check_mapping("s", no_origin, mapping, warnings).verdict is V.SEVERE
    lost_png = Capture(tool="Screenshot", screenshot_size=(100, 50))
    assert check_mapping("s", lost_png, None).verdict is V.SEVERE
    tree_only = Capture(tool="Snapshot")
    assert check_mapping("s", tree_only, None).verdict is V.UNKNOWN
    capture = _sample_capture("04a_snapshot_multimonitor_negative_origin")
    noisy = dataclasses.replace(capture, warnings=("line 9 not understood",))
    mapping, warnings = derive_mapping(noisy)
    assert check_mapping("s", noisy, mapping, warnings).verdict is V.WARNING


@requirement("S-DOC-08")
def test_rules_check_verdicts(tmp_path: Path) -> None:
    """S-DOC-08: a load error is SEVERE, rules off and exemptions are WARNING, loaded rules OK with counts."""
    cfg = load_config(environ={}, state_dir=tmp_path)
    assert check_rules(cfg, None, "custom rule #0: bad").verdict is V.SEVERE
    off = load_config(environ={}, state_dir=tmp_path, overrides={"command_rules_enabled": False})
    assert check_rules(off, None, None).verdict is V.WARNING
    exempt = check_rules(cfg, load_rules((), ["force-kill"]), None)
    assert exempt.verdict is V.WARNING and exempt.findings[0].rules == ("force-kill",)
    ok = check_rules(cfg, load_rules(), None)
    assert ok.verdict is V.OK and ok.data["custom"] == 0 and ok.data["builtin"] > 10


@requirement("S-DOC-08")
def test_config_check_lists_warnings_and_weakened_checks(tmp_path: Path) -> None:
    """S-DOC-08: every config warning and every explicitly weakened check is a WARNING finding."""
    assert check_config(load_config(environ={}, state_dir=tmp_path)).verdict is V.OK
    cfg = load_config(
        environ={"WINMCP_GATEWAY_REQUIRE_PROCESS_MATCH": "false", "WINMCP_GATEWAY_AUDIT_KEEP": "x"},
        state_dir=tmp_path,
        overrides={"unknown_tools": "allow"},
    )
    messages = [f.message for f in check_config(cfg).findings]
    assert len(messages) == 3
    assert messages[0].startswith("config audit_keep:")
    assert "require_process_match = false" in messages[1] and 'unknown_tools = "allow"' in messages[2]


@requirement("S-DOC-09")
def test_audit_check_finds_a_broken_chain_and_writes_nothing(tmp_path: Path) -> None:
    """S-DOC-09: intact chain OK, an edited line SEVERE naming file:line; the doctor appends nothing."""
    cfg = load_config(environ={}, state_dir=tmp_path)
    log = AuditLog(tmp_path)
    for i in range(3):
        log.append("allow", tool="Snapshot", reason=f"r{i}")
    before = (tmp_path / "audit.jsonl").read_bytes()
    ok = check_audit(cfg, log.stats())
    assert ok.verdict is V.OK and "chain intact over 3 records" in ok.summary
    assert (tmp_path / "audit.jsonl").read_bytes() == before
    (tmp_path / "audit.jsonl").write_bytes(before.replace(b'"r1"', b'"r9"'))
    broken = check_audit(cfg, log.stats())
    assert broken.verdict is V.SEVERE and "audit.jsonl:2" in broken.findings[0].message


@requirement("S-DOC-09")
def test_audit_check_flags_unwritable_state_off_audit_and_failures(tmp_path: Path) -> None:
    """S-DOC-09: a state dir that cannot be written is SEVERE; audit off and past failures are WARNING."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    cfg = load_config(environ={}, state_dir=blocker / "state")
    assert check_audit(cfg, None).verdict is V.SEVERE
    off = load_config(environ={}, state_dir=tmp_path / "s", overrides={"auto_audit": False})
    assert check_audit(off, None).verdict is V.WARNING
    on = load_config(environ={}, state_dir=tmp_path / "s2")
    failed = check_audit(on, {"failures": 2, "last_error": "disk full"})
    assert failed.verdict is V.WARNING and "disk full" in failed.findings[0].message


@requirement("S-DOC-09")
def test_kill_check_warns_while_engaged(tmp_path: Path) -> None:
    """S-DOC-09: an engaged kill switch is a WARNING naming who engaged it; off is OK."""
    switch = KillSwitch(tmp_path)
    assert check_kill(switch.status()).verdict is V.OK
    switch.engage(by="person", reason="lunch")
    check = check_kill(switch.status())
    assert check.verdict is V.WARNING and "ENGAGED by person" in check.summary and "lunch" in check.summary
