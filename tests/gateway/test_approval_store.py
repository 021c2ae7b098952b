"""The approvals dir: pruning, the per-session index, compare-and-set races, the CLI's answer (S-APR-11..14)."""

from __future__ import annotations

import io
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from gateway.cli import approvals as approvals_module  # the CLI answer lives there
from gateway.cli import main as cli_main
from gateway.state.approvals import APPROVALS_DIR, PRUNE_INTERVAL_MS, ApprovalStore, new_approval_id
from policy import Verdict, approval_digest, consume_approval, grant_approval, session_approval
from policy.approval import grant as real_grant
from policy.values import Approval, ToolCall
from tests._requirements import requirement
from tests.e2e.approval_lifetimes_flows import counting_approval_io, stale_approvals
from tests.gateway._approval_spender import ready, spend_once

NOW = 1_700_000_000_000.0
TTL = 120_000.0
SESSION = "stdio:00112233aabbccdd"
KILL = {"mode": "kill", "name": "notepad.exe", "force": True}


def _approval(session: str = SESSION, *, created: float = NOW, **changes: object) -> Approval:
    base = Approval(
        id=new_approval_id(),
        digest=approval_digest("Process", KILL),
        tool="Process",
        session=session,
        created_ms=created,
        expires_ms=created + TTL,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def _once(store: ApprovalStore, *, at: float = NOW) -> Approval:
    granted = grant_approval(_approval(created=at), scope="once", now_ms=at, ttl_ms=TTL)
    store.save(granted)
    return granted


def _files(state: Path, pattern: str = "apr-*.json") -> int:
    return sum(1 for _ in (state / APPROVALS_DIR).glob(pattern))


@requirement("S-APR-11")
def test_prune_deletes_what_nobody_can_use_and_keeps_the_rest(tmp_path: Path) -> None:
    """S-APR-11: expired (pending, used, denied), expiry-less and unreadable files go; usable ones stay."""
    store = ApprovalStore(tmp_path)
    stale_approvals(tmp_path, 40, now_ms=NOW)  # 10 each: expired pending, used, denied, legacy "stdio" grants
    keep = [
        _approval(),  # pending, within its ttl
        _once(store),
        grant_approval(_approval(), scope="session", now_ms=NOW, ttl_ms=TTL, session_ttl_ms=TTL),
        replace(_once(store), status="used", uses=1),  # used, but a replay is still told "already used"
    ]
    for a in keep:
        store.save(a)
    (tmp_path / APPROVALS_DIR / "apr-00000000ff.json").write_text("{not json", encoding="utf-8")
    (tmp_path / APPROVALS_DIR / "apr-00000000fe.json.4242.tmp").write_text("{}", encoding="utf-8")
    assert _files(tmp_path) == 40 + 4 + 1
    assert store.prune(NOW) == 40 + 1 + 1 + 1  # the stale, the unreadable, the leftover, the legacy index
    assert sorted(p.stem for p in (tmp_path / APPROVALS_DIR).glob("apr-*.json")) == sorted(a.id for a in keep)
    assert list((tmp_path / APPROVALS_DIR).glob("*.tmp")) == []
    assert store.session_grants(SESSION) == {keep[2].id: keep[2]}
    assert store.prune(NOW + TTL + 1) == 4 + 1, "past their expiry the rest goes too (and the session's index)"
    assert _files(tmp_path) == 0 and not any((tmp_path / APPROVALS_DIR / "sessions").iterdir())


@requirement("S-APR-11")
def test_a_write_sweeps_at_most_once_per_interval(tmp_path: Path) -> None:
    """S-APR-11: a model asking in a loop cannot make every ask read the whole dir."""
    store = ApprovalStore(tmp_path)
    stale_approvals(tmp_path, 8, now_ms=NOW)
    assert store.prune_if_due(NOW) == 8 + 1
    stale_approvals(tmp_path, 8, now_ms=NOW)
    assert store.prune_if_due(NOW + PRUNE_INTERVAL_MS - 1) == 0
    assert store.prune_if_due(NOW + PRUNE_INTERVAL_MS) == 8 + 1


@requirement("S-APR-11")
def test_serve_prunes_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-APR-11: `serve` sweeps the approvals dir before it serves."""
    import gateway.transport.server as server

    stale_approvals(tmp_path, 12, now_ms=time.time() * 1000.0)
    monkeypatch.setattr(server, "run_stdio", lambda factory: None)
    assert cli_main(["serve", "--upstream", "sim", "--state-dir", str(tmp_path)]) == 0
    assert _files(tmp_path) == 0


@requirement("S-APR-12")
def test_session_grants_read_the_session_index_not_the_dir(tmp_path: Path) -> None:
    """S-APR-12: the grants of a session cost one index and its grants, with 2,000 other files or none."""
    store = ApprovalStore(tmp_path)
    mine = grant_approval(_approval(), scope="session", now_ms=NOW, ttl_ms=TTL, session_ttl_ms=TTL)
    store.save(mine)
    with counting_approval_io(tmp_path) as few:
        assert store.session_grants(SESSION) == {mine.id: mine}
    stale_approvals(tmp_path, 2000, now_ms=NOW)
    with counting_approval_io(tmp_path) as many:
        assert store.session_grants(SESSION) == {mine.id: mine}
        assert store.session_grants("stdio:ffffffffffffffff") == {}
    assert few == {"opened": 2, "listed": 0}
    assert many == {"opened": 2 + 1, "listed": 0}, "the second lookup opened one (absent) index"


def _spend_once(state: Path, before: Approval, start: float) -> bool:
    return spend_once(state, before, start, KILL, NOW + 1)


def _race(
    state: Path, spenders: int, run: Callable[[list[Approval], float], list[bool]], rounds: int = 25
) -> list[int]:
    wins = []
    store = ApprovalStore(state)
    for _ in range(rounds):
        before = _once(store)
        wins.append(sum(run([before] * spenders, time.time() + 0.05)))
    return wins


@requirement("S-APR-13")
def test_threads_racing_to_spend_one_approval_win_exactly_once(tmp_path: Path) -> None:
    """S-APR-13: eight threads, each with its own store (its own lock handle), 25 rounds: one winner each."""

    def run(befores: list[Approval], start: float) -> list[bool]:
        results: list[bool] = []
        threads = [
            threading.Thread(target=lambda b=b: results.append(_spend_once(tmp_path, b, start))) for b in befores
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results

    assert _race(tmp_path, 8, run) == [1] * 25


@requirement("S-APR-13")
@pytest.mark.e2e  # it starts four Python processes: the process boundary is the point
def test_processes_racing_to_spend_one_approval_win_exactly_once(tmp_path: Path) -> None:
    """S-APR-13: four processes spend one single-use approval at once, 25 rounds: one winner each."""
    with ProcessPoolExecutor(4, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert all(pool.map(ready, range(4)))  # workers import the store before the clock matters

        def run(befores: list[Approval], start: float) -> list[bool]:
            n = len(befores)
            return list(pool.map(spend_once, [tmp_path] * n, befores, [start] * n, [KILL] * n, [NOW + 1] * n))

        assert _race(tmp_path, 4, run) == [1] * 25


@requirement("S-APR-13")
def test_a_lost_race_is_judged_on_what_is_stored_now(tmp_path: Path) -> None:
    """S-APR-13: a session grant counts both uses of two racing calls; a revoked one refuses the loser."""
    store = ApprovalStore(tmp_path)
    grant = grant_approval(_approval(), scope="session", now_ms=NOW, ttl_ms=TTL, session_ttl_ms=TTL)
    store.save(grant)
    call = ToolCall(tool="Process", args=KILL, session=SESSION)
    after, decision = consume_approval(grant, call, NOW + 1)
    assert after is not None
    store.save(after)  # the other call of this session went first
    won = store.spend({grant.id: grant}, call, decision, NOW + 1)
    assert won.verdict is Verdict.ALLOW and won.approval is not None and won.approval.uses == 2
    assert store.load(grant.id) == won.approval
    revoked = replace(won.approval, status="denied", decided_ms=NOW + 2)
    store.save(revoked)
    lost = store.spend({grant.id: grant}, call, decision, NOW + 3)
    assert lost.verdict is Verdict.DENY and "denied" in lost.reason
    assert store.load(grant.id) == revoked


@requirement("S-APR-14")
def test_an_answer_to_a_request_that_changed_meanwhile_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-APR-14: `approve` shows the expiry; if another answer lands while it runs, it writes nothing, exit 2."""
    now = time.time() * 1000.0
    store = ApprovalStore(tmp_path)
    request = _approval(created=now)
    store.save(request, call={"tool": "Process", "args": KILL, "rule": "force-kill", "reason": "why"})

    def grant_while_someone_denies(a: Approval, **kw: object) -> Approval:
        store.save(replace(a, status="denied", decided_ms=now))  # the other answer
        return real_grant(a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(approvals_module, "grant", grant_while_someone_denies)
    assert cli_main(["approve", request.id, "--yes", "--state-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "expires: in 12" in captured.out  # 120 s ttl, shown before the person answers
    assert "changed while you answered (now denied)" in captured.err
    assert store.load(request.id).status == "denied"  # type: ignore[union-attr]


@requirement("S-APR-10", "S-APR-14")
def test_the_cli_session_grant_carries_the_requests_ttl(tmp_path: Path) -> None:
    """S-APR-10: `approve --session` ends the grant the ttl of the gateway that asked after the answer."""
    now = time.time() * 1000.0
    store = ApprovalStore(tmp_path)
    request = _approval(created=now, expires_ms=now + 7_000)
    store.save(request)
    assert cli_main(["approve", request.id, "--session", "--yes", "--state-dir", str(tmp_path)]) == 0
    granted = store.load(request.id)
    assert granted is not None and granted.scope == "session" and granted.expires_ms is not None
    assert granted.decided_ms is not None and granted.expires_ms == granted.decided_ms + 7_000
    assert store.session_grants(SESSION) == {granted.id: granted}
    call = ToolCall(tool="Process", args=KILL, session=SESSION)
    assert session_approval(store.session_grants(SESSION), call, granted.expires_ms) == granted
    assert session_approval(store.session_grants(SESSION), call, granted.expires_ms + 1) is None


def test_counting_sees_pathlib_reads(tmp_path: Path) -> None:
    """The read counter the cost tests rely on counts pathlib's reads and listings inside the dir."""
    (tmp_path / APPROVALS_DIR).mkdir()
    target = tmp_path / APPROVALS_DIR / "x.json"
    target.write_text("{}", encoding="utf-8")
    with counting_approval_io(tmp_path) as counts:
        target.read_text(encoding="utf-8")
        list((tmp_path / APPROVALS_DIR).glob("*.json"))
        (tmp_path / "elsewhere.txt").write_text("", encoding="utf-8")
    assert counts["opened"] == 1 and counts["listed"] >= 1
    assert io.open is open
