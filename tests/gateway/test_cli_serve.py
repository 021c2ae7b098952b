"""What `serve` says on stderr, in process: the start-up lines and the per-call line (S-CLI-40, S-CLI-41).

The real child (stdout protocol only, the banner and `-v` lines on stderr) is
tests/e2e/test_cli_serve_e2e.py."""

from __future__ import annotations

import io
import logging
import time
from pathlib import Path

import pytest

from gateway import __version__
from gateway.cli.banner import print_banner, serve_banner
from gateway.config.load import load_config
from gateway.transport.call_log import CALL_LOG, log_call, outcome_of
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement


@requirement("S-CLI-40")
def test_the_banner_names_version_upstream_protocol_state_config_audit_and_mode(tmp_path: Path) -> None:
    """S-CLI-40: one line each, in order; no config file is "none, defaults"; shadow mode and weakened checks say so."""
    config = load_config(environ={}, state_dir=tmp_path / "state")
    spec = UpstreamSpec(argv=("uvx", "windows-mcp"))
    lines = serve_banner(config, spec, http=None, mode="legacy")
    assert all(line.startswith("winmcp-gateway: ") for line in lines)
    assert lines[0].startswith(f"winmcp-gateway: version {__version__}, serving MCP over stdio")
    labels = [line.split(":", 2)[1].strip() for line in lines[1:]]
    assert labels == ["upstream", "protocol", "state dir", "config", "audit", "mode"]
    text = "\n".join(lines)
    assert "uvx windows-mcp (command)" in text and "legacy" in text
    assert str(tmp_path / "state") in text and str(tmp_path / "state" / "audit.jsonl") in text
    assert lines[4].endswith("none, defaults") and lines[6].endswith("enforcing")

    toml = tmp_path / "gateway.toml"
    toml.write_text("enforce = false\nrequire_observation = false\nauto_audit = false\n", encoding="utf-8")
    shadow = load_config(environ={}, config_file=toml, state_dir=tmp_path / "state")
    lines = serve_banner(shadow, UpstreamSpec(url="http://127.0.0.1:8000/mcp"), http="127.0.0.1:8765", mode="auto")
    assert "streamable HTTP on 127.0.0.1:8765" in lines[0] and "(URL)" in lines[1]
    assert lines[4].endswith(str(toml)) and "off (auto_audit = false)" in lines[5]
    assert "SHADOW MODE" in lines[6] and "require_observation = false" in lines[6]
    out = io.StringIO()
    print_banner(shadow, spec, http=None, mode="legacy", stream=out)
    assert out.getvalue().count("\n") == 7


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        ({"content": [{"type": "text", "text": "ok"}], "isError": False}, "OK"),
        ({"content": [{"type": "text", "text": "DENIED STALE_OBSERVATION: old. Remedy: look"}], "isError": True},
         "DENIED STALE_OBSERVATION"),
        ({"content": [{"type": "text", "text": "FAILED UPSTREAM_DIED: x"}], "isError": True}, "FAILED UPSTREAM_DIED"),
        ({"content": [{"type": "text", "text": "Error calling tool 'Click': bad"}], "isError": True}, "ERROR"),
        ({"content": [], "isError": True}, "ERROR"),
        ({"resultType": "input_required"}, "ASK elicitation"),
    ],
)  # fmt: skip
@requirement("S-CLI-41")
def test_the_outcome_of_a_call_is_read_from_its_result(result: dict[str, object], outcome: str) -> None:
    """S-CLI-41: OK, DENIED <CODE>, FAILED <CODE>, ERROR or ASK, as the client sees the result."""
    assert outcome_of(result) == outcome


@requirement("S-CLI-41")
def test_one_info_line_per_call_and_nothing_when_not_verbose(caplog: pytest.LogCaptureFixture) -> None:
    """S-CLI-41: `gateway.calls` logs `<tool> <outcome> <ms> ms` at INFO; at the default WARNING level nothing."""
    denied = {"content": [{"type": "text", "text": "DENIED KILLED: stop"}], "isError": True}
    with caplog.at_level(logging.WARNING, logger=CALL_LOG.name):
        assert not CALL_LOG.isEnabledFor(logging.INFO)
    with caplog.at_level(logging.INFO, logger=CALL_LOG.name):
        log_call("Click", denied, time.perf_counter())
    [record] = [r for r in caplog.records if r.name == "gateway.calls"]
    assert record.levelno == logging.INFO
    tool, verdict, code, ms, unit = record.getMessage().split()
    assert (tool, verdict, code, unit) == ("Click", "DENIED", "KILLED", "ms") and float(ms) >= 0
