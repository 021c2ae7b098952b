"""Observation ids reserved in blocks (S-OBS-35): unique across processes, no file lock per id."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gateway.state.store import SharedCounter
from tests._requirements import requirement


@requirement("S-OBS-35")
def test_ids_come_from_blocks_and_the_file_lock_is_taken_once_per_block(tmp_path: Path) -> None:
    """S-OBS-35: 200 ids from one counter, blocks of 64: at most 4 reservations, ids 1..200 in order."""
    counter = SharedCounter(tmp_path / "ids", block=64)
    reservations = 0
    original = counter._reserve

    def counted() -> range:
        nonlocal reservations
        reservations += 1
        return original()

    counter._reserve = counted  # type: ignore[method-assign]
    ids = [counter() for _ in range(200)]
    assert ids[:3] == [1, 2, 3] and len(set(ids)) == 200
    assert sorted(ids) == ids
    assert reservations <= 4  # the first block was reserved before the patch, in the constructor


@requirement("S-OBS-35")
def test_counters_sharing_a_state_dir_never_hand_out_the_same_id(tmp_path: Path) -> None:
    """S-OBS-35: two counters on one file (two gateway processes) interleaved: all ids distinct."""
    a, b = SharedCounter(tmp_path / "ids", block=8), SharedCounter(tmp_path / "ids", block=8)
    ids = [c() for _ in range(50) for c in (a, b)]
    assert len(set(ids)) == len(ids) == 100


@pytest.mark.e2e
@requirement("S-OBS-35")
def test_processes_sharing_a_state_dir_never_hand_out_the_same_id(tmp_path: Path) -> None:
    """S-OBS-35: three real processes taking 150 ids each from one state dir: 450 distinct ids."""
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from pathlib import Path
        from gateway.state.store import SharedCounter
        counter = SharedCounter(Path({str(tmp_path / "ids")!r}), block=16)
        print(" ".join(str(counter()) for _ in range(150)))
        """
    )
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    ids = [int(x) for out in outs for x in out.split()]
    assert len(ids) == 450 and len(set(ids)) == 450
