"""Owner-only state files: POSIX modes, the Windows ACL set with icacls, and messages that tell the truth.

The Windows branch runs on Linux with a fake command runner: it records the exact argv icacls
and whoami get and answers what Windows would print (S-WIN-01 … S-WIN-06).
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gateway.doctor.checks_files import TOKEN_FILE as DOCTOR_TOKEN_FILE
from gateway.doctor.checks_files import check_files
from gateway.doctor.model import Verdict
from gateway.files import owner_only
from gateway.files.owner_only import FileGuard, Identity, Protection, ProtectionKind, parse_icacls
from gateway.state.approvals import APPROVALS_DIR, ApprovalStore
from gateway.state.store import STOP_FILE, KillSwitch
from gateway.transport.http_guard import TOKEN_FILE, load_or_create_token
from policy.values import Approval
from tests._requirements import requirement

SID = "S-1-5-21-1004336348-1177238915-682003330-1001"
ICACLS = r"C:\Windows\System32\icacls.exe"
WHOAMI = r"C:\Windows\System32\whoami.exe"
ENV = {"SystemRoot": r"C:\Windows", "USERPROFILE": r"C:\Users\alice", "USERNAME": "alice", "USERDOMAIN": "DESKTOP-X"}
ONLY_ALICE = "DESKTOP-X\\alice:(F)"
DONE = "\n\nSuccessfully processed 1 files; Failed processing 0 files"
posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX modes (the Windows branch is tested with a fake icacls)")


class FakeWindows:
    """whoami and icacls as Windows answers them; `acl` is what `icacls PATH` lists per path."""

    def __init__(self, *, whoami: tuple[int, str] | None = None, set_code: int = 0, listing: str | None = None) -> None:
        self.calls: list[list[str]] = []
        self.whoami = whoami if whoami is not None else (0, f'"desktop-x\\alice","{SID}"')
        self.set_code = set_code
        self.listing = listing  # entries after the path; None: only alice (what a successful set leaves)
        self.seen_content: dict[str, bytes] = {}

    def __call__(self, argv: Sequence[str]) -> tuple[int, str]:
        self.calls.append(list(argv))
        if argv[0] == WHOAMI:
            return self.whoami
        assert argv[0] == ICACLS, argv
        path = argv[1]
        if len(argv) > 2:
            if os.path.isfile(path):
                self.seen_content[path] = Path(path).read_bytes()
            return (self.set_code, "" if self.set_code == 0 else f"{path}: Access is denied.")
        return 0, f"{path} {self.listing or ONLY_ALICE}{DONE}"


def guard(fake: FakeWindows, **env: str) -> FileGuard:
    return FileGuard(platform="win32", run=fake, environ={**ENV, **env})


@posix_only
@requirement("S-WIN-01")
def test_posix_files_and_dirs_become_owner_only_and_say_so(tmp_path: Path) -> None:
    """S-WIN-01: protect_file → 0600, protect_dir → 0700, and the protection is read back from the file."""
    file, directory = tmp_path / "f", tmp_path / "d"
    file.write_text("x")
    file.chmod(0o644)
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    here = FileGuard(platform="linux")
    assert str(here.inspect(file)) == "readable by others (mode 0644)" and not here.inspect(file).owner_only
    assert str(here.protect_file(file)) == "owner-only (mode 600)"
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert str(here.protect_dir(directory)) == "owner-only (mode 700)"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    fresh = tmp_path / "a" / "b"
    assert here.ensure_private_dir(fresh) == Protection(kind=ProtectionKind.OWNER_MODE, detail="700")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    directory.chmod(0o755)
    assert here.ensure_private_dir(directory) is not None and stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert here.ensure_private_dir(directory) is None, "an owner-only dir is left alone"


@requirement("S-WIN-02")
def test_windows_files_get_an_owner_only_acl_from_system32_icacls(tmp_path: Path) -> None:
    """S-WIN-02: the exact argv: System32's icacls, /inheritance:r, /grant:r *SID:F (dirs (OI)(CI)F), no shell."""
    fake = FakeWindows()
    win = guard(fake)
    token = r"D:\gateway state\http-token"
    protection = win.protect_file(token)
    assert fake.calls == [
        [WHOAMI, "/user", "/fo", "csv", "/nh"],
        [ICACLS, token, "/inheritance:r", "/grant:r", f"*{SID}:F"],
        [ICACLS, token],
    ]
    assert protection == Protection(kind=ProtectionKind.OWNER_ACL) and str(protection) == "owner-only ACL"
    assert protection.who_can_read() == "only you can read it: owner-only ACL"
    fake.calls.clear()
    win.protect_dir(r"D:\gateway state")
    assert [ICACLS, r"D:\gateway state", "/inheritance:r", "/grant:r", f"*{SID}:(OI)(CI)F"] in fake.calls


@requirement("S-WIN-02")
def test_without_whoami_the_user_comes_from_the_environment(tmp_path: Path) -> None:
    """S-WIN-02: whoami failing, icacls is given USERDOMAIN\\USERNAME; with neither, nothing is claimed."""
    fake = FakeWindows(whoami=(1, "whoami is not recognized"))
    guard(fake).protect_file(r"D:\s\STOP")
    assert [ICACLS, r"D:\s\STOP", "/inheritance:r", "/grant:r", r"DESKTOP-X\alice:F"] in fake.calls
    nobody = FileGuard(platform="win32", run=FakeWindows(whoami=(1, "")), environ={"SystemRoot": r"C:\Windows"})
    got = nobody.protect_file(r"D:\s\STOP")
    assert got.kind is ProtectionKind.UNKNOWN and "cannot tell who you are" in str(got)


@requirement("S-WIN-02")
def test_the_default_runner_uses_no_shell_and_closes_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-02: the argv goes to subprocess as a list, shell=False, stdin DEVNULL (stdio's stdin is MCP)."""
    seen: dict[str, Any] = {}

    def fake_run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        seen.update(argv=argv, **kwargs)
        return subprocess.CompletedProcess(argv, 0, stdout=b"ok\r\n", stderr=b"")

    monkeypatch.setattr(owner_only.subprocess, "run", fake_run)
    assert owner_only.run_command([ICACLS, r"C:\a b\c"]) == (0, "ok")
    assert seen["argv"] == [ICACLS, r"C:\a b\c"] and seen["shell"] is False and seen["stdin"] == subprocess.DEVNULL
    monkeypatch.setattr(owner_only.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(FileNotFoundError("x")))
    assert owner_only.run_command(["icacls"])[0] == -1


@requirement("S-WIN-03")
@pytest.mark.parametrize(
    ("path", "listing", "expected"),
    [
        (r"D:\gw\http-token", r"DESKTOP-X\alice:(F)", "owner-only ACL"),
        (r"D:\gw\http-token", r"DESKTOP-X\alice:(I)(F)", "owner-only ACL"),  # inherited from an owner-only dir
        (r"D:\gw\http-token", "Everyone:(DENY)(W)\n    DESKTOP-X\\alice:(F)", "owner-only ACL"),
        (r"D:\gw\http-token", f"{SID}:(F)", "owner-only ACL"),  # an unresolved SID that is yours
        (
            r"D:\gw\http-token",
            "BUILTIN\\Administrators:(I)(F)\n    NT AUTHORITY\\SYSTEM:(I)(F)\n    BUILTIN\\Users:(I)(RX)\n"
            "    NT AUTHORITY\\Authenticated Users:(I)(M)",
            r"readable by others (BUILTIN\Administrators, BUILTIN\Users, NT AUTHORITY\Authenticated Users, "
            r"NT AUTHORITY\SYSTEM)",
        ),
        (
            r"C:\Users\alice\AppData\Local\winmcp-gateway\state\http-token",
            "NT AUTHORITY\\SYSTEM:(I)(F)\n    BUILTIN\\Administrators:(I)(F)\n    DESKTOP-X\\alice:(I)(F)",
            r"inherited from the profile dir (also: BUILTIN\Administrators, NT AUTHORITY\SYSTEM)",
        ),
        (r"D:\gw\http-token", "this is not an ACL", "unknown: icacls printed what this reader does not understand"),
    ],
)
def test_windows_protection_is_read_back_from_the_acl(path: str, listing: str, expected: str) -> None:
    """S-WIN-03: only you → owner-only ACL; others in the profile → inherited; elsewhere → readable by others."""
    got = guard(FakeWindows(listing=listing)).inspect(path)
    assert str(got).startswith(expected)
    assert got.owner_only is (expected == "owner-only ACL")


@requirement("S-WIN-03")
def test_a_failed_icacls_is_reported_as_it_is() -> None:
    """S-WIN-03: icacls refusing (FAT32, no rights) is "unknown: why" outside the profile, never owner-only."""
    outside = guard(FakeWindows(set_code=5)).protect_file(r"E:\usb\http-token")
    assert outside.kind is ProtectionKind.UNKNOWN and "Access is denied" in str(outside) and not outside.owner_only
    inside = guard(FakeWindows(set_code=5)).protect_file(r"c:\users\ALICE\AppData\Local\s\http-token")
    assert inside.kind is ProtectionKind.PROFILE and "not verified" in str(inside)


@requirement("S-WIN-03")
def test_the_icacls_listing_parser_reads_paths_with_spaces_and_stops_at_the_summary() -> None:
    """S-WIN-03: `PATH who:(flags)` then indented entries, a blank line and the summary."""
    listing = "D:\\My State\\STOP NT AUTHORITY\\SYSTEM:(I)(F)\n               DESKTOP-X\\alice:(I)(RX,W)" + DONE
    assert parse_icacls(listing, r"D:\My State\STOP") == [
        (r"NT AUTHORITY\SYSTEM", "(I)(F)"),
        (r"DESKTOP-X\alice", "(I)(RX,W)"),
    ]
    assert parse_icacls("D:\\other DESKTOP-X\\alice:(F)", r"D:\My State\STOP") is None


@requirement("S-WIN-04")
def test_windows_leaves_an_existing_dir_alone_and_protects_a_new_one(tmp_path: Path) -> None:
    """S-WIN-04: `--state-dir` may name a shared folder: only a dir the gateway creates gets the ACL."""
    fake = FakeWindows()
    assert guard(fake).ensure_private_dir(tmp_path) is None and fake.calls == []
    created = guard(fake).ensure_private_dir(tmp_path / "state")
    assert created is not None and created.owner_only
    assert [ICACLS, str(tmp_path / "state"), "/inheritance:r", "/grant:r", f"*{SID}:(OI)(CI)F"] in fake.calls


@requirement("S-WIN-04")
def test_the_stop_file_is_made_owner_only_before_it_is_put_in_place(tmp_path: Path) -> None:
    """S-WIN-04: STOP's temporary file gets the ACL, then replaces STOP (the ACL travels with it)."""
    fake = FakeWindows()
    KillSwitch(tmp_path, guard=guard(fake)).engage(by="person", reason="lunch")
    sets = [c for c in fake.calls if c[0] == ICACLS and len(c) > 2]
    assert len(sets) == 1 and Path(sets[0][1]).name.startswith(f".{STOP_FILE}.") and sets[0][1].endswith(".tmp")
    assert b"lunch" in fake.seen_content[sets[0][1]] and (tmp_path / STOP_FILE).exists()


@posix_only
@requirement("S-WIN-04")
def test_approval_requests_live_in_an_owner_only_dir(tmp_path: Path) -> None:
    """S-WIN-04: the approvals dir is created 0700 (on Windows: an ACL its files inherit)."""
    approval = Approval(id="apr-0123456789", digest="d", tool="Process", session="s", created_ms=0.0, expires_ms=1.0)
    ApprovalStore(tmp_path).save(approval, call={"tool": "Process"})
    assert stat.S_IMODE((tmp_path / APPROVALS_DIR).stat().st_mode) == 0o700


@requirement("S-WIN-05")
def test_a_new_token_is_protected_before_it_is_written_and_the_message_says_so(tmp_path: Path) -> None:
    """S-WIN-05: icacls runs on the still-empty private file; the message names the owner-only ACL."""
    fake = FakeWindows()
    err = io.StringIO()
    token = load_or_create_token(tmp_path / TOKEN_FILE, err, guard=guard(fake))
    sets = [c for c in fake.calls if c[0] == ICACLS and len(c) > 2]
    assert sets and all(fake.seen_content[c[1]] == b"" for c in sets), "no token in a file before its ACL"
    assert (tmp_path / TOKEN_FILE).read_text().strip() == token
    assert "(only you can read it: owner-only ACL)" in err.getvalue() and token in err.getvalue()
    assert not list(tmp_path.glob(".http-token.*")), "the private name is gone"


@requirement("S-WIN-05")
@pytest.mark.parametrize(
    ("fake", "said"),
    [
        (FakeWindows(listing="BUILTIN\\Users:(I)(RX)\n    DESKTOP-X\\alice:(I)(F)"), r"OTHER USERS CAN READ IT"),
        (FakeWindows(set_code=5, listing="BUILTIN\\Users:(I)(RX)"), "who else can read it is not known: unknown:"),
    ],
)
def test_the_token_message_never_claims_what_does_not_hold(tmp_path: Path, fake: FakeWindows, said: str) -> None:
    """S-WIN-05: others in the ACL, or icacls refused: the message says so, never "only you can read it"."""
    err = io.StringIO()
    load_or_create_token(tmp_path / TOKEN_FILE, err, guard=guard(fake))
    assert said in err.getvalue() and "only you can read it" not in err.getvalue()


@posix_only
@requirement("S-WIN-05")
def test_an_existing_token_readable_by_others_is_tightened_with_the_truth(tmp_path: Path) -> None:
    """S-WIN-05: a 0644 token is set to 0600; the warning names before and after."""
    path = tmp_path / TOKEN_FILE
    path.write_text("t" * 40)
    path.chmod(0o644)
    err = io.StringIO()
    load_or_create_token(path, err)
    assert "was not owner-only (readable by others (mode 0644)); now owner-only (mode 600)" in err.getvalue()
    assert "(only you can read it: owner-only (mode 600))" in err.getvalue()


@posix_only
@requirement("S-WIN-06")
def test_the_doctor_names_each_state_file_and_who_can_read_it(tmp_path: Path) -> None:
    """S-WIN-06: owner-only is OK; a token others can read is SEVERE, other files WARNING, with the remedy."""
    tmp_path.chmod(0o700)
    assert check_files(tmp_path).verdict is Verdict.OK
    (tmp_path / TOKEN_FILE).write_text("t" * 40)
    (tmp_path / TOKEN_FILE).chmod(0o600)
    ok = check_files(tmp_path)
    assert ok.verdict is Verdict.OK and "http token owner-only (mode 600)" in ok.summary
    (tmp_path / TOKEN_FILE).chmod(0o644)
    (tmp_path / "audit.jsonl").write_text("")
    (tmp_path / "audit.jsonl").chmod(0o640)
    check = check_files(tmp_path)
    verdicts = {f.message.split(" /")[0]: f.verdict for f in check.findings}
    assert verdicts == {"http token": Verdict.SEVERE, "audit": Verdict.WARNING}
    assert check.verdict is Verdict.SEVERE and f"chmod 600 {tmp_path / TOKEN_FILE}" in check.findings[0].message
    assert check.data["kill switch"]["protection"] == "not created yet"
    assert stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o644, "the doctor changes nothing"


@requirement("S-WIN-06")
def test_the_doctor_says_unknown_when_windows_cannot_tell(tmp_path: Path) -> None:
    """S-WIN-06: icacls failing outside the profile is UNKNOWN (could not check), never OK."""

    class Failing(FakeWindows):
        def __call__(self, argv: Sequence[str]) -> tuple[int, str]:
            self.calls.append(list(argv))
            return self.whoami if argv[0] == WHOAMI else (1, "The system cannot find the path specified.")

    fake = Failing()
    check = check_files(tmp_path, guard=guard(fake))
    assert check.verdict is Verdict.UNKNOWN and "cannot find the path" in check.summary
    assert sum(c[0] == WHOAMI for c in fake.calls) == 1, "one whoami for every file"
    assert all(len(c) == 2 for c in fake.calls if c[0] == ICACLS), "the doctor only lists, never sets"


@requirement("S-WIN-06")
def test_the_doctor_looks_for_the_token_where_the_transport_writes_it() -> None:
    """S-WIN-06: the doctor's copy of the token's file name is the transport's."""
    assert DOCTOR_TOKEN_FILE == TOKEN_FILE
    assert Identity(name="D\\u", sid="S-1-5-1").principal == "*S-1-5-1" and Identity(name="D\\u").principal == "D\\u"
