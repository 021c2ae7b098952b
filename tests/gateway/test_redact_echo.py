"""Echo scrubbing: upstream repeats arguments in results, sometimes cut short (S-RED-08)."""

from __future__ import annotations

import json
from pathlib import Path

from gateway.audit.redact.scrub import masked_tokens, scrub_echoes
from gateway.audit.writer import AuditLog
from tests._requirements import requirement

BLOB = "QUJDRA==" * 40


@requirement("S-RED-08")
def test_a_cut_short_echo_of_a_masked_argument_is_masked_in_the_record(tmp_path: Path) -> None:
    """S-RED-08: Clipboard's 100-char echo of a masked blob never reaches the file."""
    log = AuditLog(tmp_path)
    echo = f"Clipboard set to: data {BLOB}"[:100] + "..."
    log.append(
        "allow",
        tool="Clipboard",
        args={"mode": "set", "text": f"data {BLOB} end"},
        result={"content": [{"type": "text", "text": echo}], "isError": False},
    )
    raw = (tmp_path / "audit.jsonl").read_bytes()
    assert b"QUJDRA==QUJDRA==" not in raw
    record = json.loads(raw)
    assert record["result"]["content"][0]["text"].startswith("Clipboard set to: data [REDACTED")


@requirement("S-RED-08")
def test_arguments_that_were_not_masked_stay_in_the_result() -> None:
    """S-RED-08: ordinary text echoed back is kept (no over-scrubbing)."""
    raw = {"command": "Get-ChildItem C:/Users/demo/Documents/reports"}
    assert masked_tokens(raw, dict(raw)) == ()
    assert (
        scrub_echoes("Directory: C:/Users/demo/Documents/reports", ()) == "Directory: C:/Users/demo/Documents/reports"
    )


@requirement("S-RED-08")
def test_masked_tokens_are_the_parts_redaction_removed() -> None:
    """S-RED-08: only the tokens that did not survive redaction count as secrets."""
    raw = {"command": "gh auth login -Token abc123def456ghi789 -Verbose", "n": 3}
    redacted = {"command": "gh auth login -Token [REDACTED] -Verbose", "n": 3}
    assert masked_tokens(raw, redacted) == ("abc123def456ghi789",)
    assert "abc123def456" not in scrub_echoes("logged in with abc123def456ghi789 ok", ["abc123def456ghi789"])
