"""`--since` / `--until` / `--session` on every report form (S-AREP-01, S-AREP-02, S-AREP-03)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gateway.audit.filters import EventFilter, FilterError, build_filter, parse_time
from gateway.audit.report import main
from gateway.audit.writer import AuditLog
from tests._requirements import requirement

T0 = 1796207462.0  # 2026-12-02T10:31:02Z
NOW = T0 + 3 * 3600


def _log(directory: Path) -> None:
    clock = {"t": T0}
    log = AuditLog(directory, clock=lambda: clock["t"])
    for hour, session, event, code in [
        (0, "s-1", "deny", "NO_OBSERVATION"),
        (1, "s-1", "observation", None),
        (1, "s-2", "deny", "COMMAND_RULE"),
        (2, "s-2", "allow", None),
        (2, None, "kill", None),
    ]:
        clock["t"] = T0 + hour * 3600
        log.append(event, session=session, tool="Click", code=code, reason="r", by="person")


def _run(directory: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--state-dir", str(directory), *argv], stdout=out, stderr=err, clock=lambda: NOW)
    return code, out.getvalue(), err.getvalue()


@requirement("S-AREP-02")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-03", "2026-12-03T00:00:00.000Z"),
        ("2026-12-03T14:05", "2026-12-03T14:05:00.000Z"),
        ("2026-12-03T14:05:09.250Z", "2026-12-03T14:05:09.250Z"),
        ("2026-12-03T15:05:09+01:00", "2026-12-03T14:05:09.000Z"),
        ("90s", "2026-12-02T10:29:32.000Z"),
        ("2h", "2026-12-02T08:31:02.000Z"),
        ("1w", "2026-11-25T10:31:02.000Z"),
    ],
)
def test_times_are_iso_8601_utc_or_a_span_back_from_now(text: str, expected: str) -> None:
    """S-AREP-02: the accepted forms, converted to the writer's ts shape."""
    assert parse_time("--since", text, now_s=T0) == expected


@requirement("S-AREP-02")
@pytest.mark.parametrize("text", ["yesterday", "", "2h30m", "-2h", "2026-13-01", "0001-01-01T00:00+05:00", "9999999w"])
def test_a_time_that_is_not_understood_names_itself_and_the_forms(text: str) -> None:
    """S-AREP-02: not a time, or none a clock can hold, raises naming the value and the forms."""
    with pytest.raises(FilterError) as caught:
        parse_time("--until", text, now_s=T0)
    assert repr(text) in str(caught.value) and "2h" in str(caught.value) and "--until" in str(caught.value)


@requirement("S-AREP-02")
def test_bad_filters_exit_2_with_a_remedy(tmp_path: Path) -> None:
    """S-AREP-02: a bad time, since not before until, or an empty session exits 2 before reading."""
    _log(tmp_path)
    for argv, says in [
        (["--since", "soon"], "is not a time"),
        (["--since", "1h", "--until", "2h"], "is not before"),
        (["--session", " "], "--session needs a session id"),
    ]:
        code, out, err = _run(tmp_path, *argv)
        assert (code, out) == (2, "") and says in err


@requirement("S-AREP-03")
def test_since_is_inclusive_until_exclusive_and_untimed_lines_are_left_out() -> None:
    """S-AREP-03: [since, until); a line without a well-shaped ts is out once a bound is set."""
    flt = EventFilter(since="2026-12-02T10:00:00.000Z", until="2026-12-02T11:00:00.000Z")
    assert flt.keeps({"ts": "2026-12-02T10:00:00.000Z"})
    assert not flt.keeps({"ts": "2026-12-02T11:00:00.000Z"})
    assert not flt.keeps({"ts": "2026-12-02 10:30"}) and not flt.keeps({})
    assert EventFilter().keeps({}) and not EventFilter().active


@requirement("S-AREP-03")
def test_session_keeps_only_the_named_sessions() -> None:
    """S-AREP-03: --session is exact and repeatable; a line without a session is left out."""
    flt = build_filter(since=None, until=None, sessions=["s-1", "s-3"], now_s=T0)
    assert [flt.keeps({"session": s}) for s in ("s-1", "s-2", "s-3", None)] == [True, False, True, False]


@requirement("S-AREP-01")
def test_filters_narrow_the_text_json_recent_and_check_forms(tmp_path: Path) -> None:
    """S-AREP-01: the same filter narrows --json counts, --recent lists, the text and --check."""
    _log(tmp_path)
    code, out, _ = _run(tmp_path, "--json", "--check")
    assert code == 1 and json.loads(out)["events"] == 5
    code, out, _ = _run(tmp_path, "--json", "--check", "--session", "s-1", "--since", "2026-12-02T11:00Z")
    summary = json.loads(out)
    assert code == 0 and summary["events"] == 1 and summary["refusals"] == 0  # the hour-0 deny is before since
    assert summary["filter"] == {"since": "2026-12-02T11:00:00.000Z", "until": None, "sessions": ["s-1"]}
    code, out, _ = _run(tmp_path, "--json", "--recent", "5", "--until", "90m")  # before NOW - 1.5 h
    summary = json.loads(out)
    assert [r["code"] for r in summary["refusals_recent"]] == ["NO_OBSERVATION", "COMMAND_RULE"]
    assert summary["by_event"] == {"deny": 2, "observation": 1}
    code, out, _ = _run(tmp_path, "--session", "s-2")
    assert code == 0 and "audit: 2 events matching session s-2" in out and "COMMAND_RULE" in out


@requirement("S-AREP-01")
def test_verify_reads_every_line_whatever_the_filter(tmp_path: Path) -> None:
    """S-AREP-01: --verify checks the whole chain and schema even when the filter keeps nothing."""
    _log(tmp_path)
    code, out, _ = _run(tmp_path, "--verify", "--json", "--session", "nobody")
    summary = json.loads(out)
    assert code == 0 and summary["events"] == 0
    assert summary["verify"]["records"] == 5 and summary["schema"]["checked"] == 5
