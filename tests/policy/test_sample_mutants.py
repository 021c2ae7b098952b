"""Behaviour a random mutation sample of policy/ found unpinned (issue 12: survivors of the first run).

Each test is a command an agent could send, or one cmd.exe line, and what the gateway reads from it:
the verdict, an effect, the arguments the analyser folds, or its failure text. Expectations are what
Windows, PowerShell and cmd.exe do; where the analyser is stricter than PowerShell (it reads a value
as unknown rather than guess), the test says so.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable

import pytest

from policy.rules.command import judge_call
from policy.rules.match import load_rules
from policy.rules.normalize import expand
from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from tests._requirements import requirement
from tests.policy.verdicts import RULES, args_of, ps

K = EffectKind


def _effects(command: str) -> list[tuple[EffectKind, str | None, str]]:
    return [(e.kind, e.target, e.detail) for e in judge_call("PowerShell", {"command": command}).effects]


def _reason(command: str) -> str:
    hit = RULES.match("PowerShell", {"command": command})
    assert hit is not None
    return hit.reason


def _within(seconds: float, work: Callable[[], object]) -> list[object]:
    """`work()`'s result in a one-item list, or [] if it has not returned after `seconds` (a hang)."""
    box: list[object] = []
    worker = threading.Thread(target=lambda: box.append(work()), daemon=True)
    worker.start()
    worker.join(seconds)
    return box


# ---------------------------------------------------------------------------------------
# File, registry and process effects


@requirement("S-RULE-46")
def test_cacls_grant_before_the_path_writes_the_path() -> None:
    """S-RULE-46: `cacls /g user:F <file>`: /G takes the next word, so the file is still the path written."""
    assert ps(r"cacls /g bob:F C:\Windows\System32\drivers\etc\hosts") == ("protected-place-write", "deny")


@requirement("S-RULE-05")
def test_moving_a_machine_registry_key_deletes_it_from_the_hive() -> None:
    """S-RULE-05: `Move-Item HKLM:\\…\\Run` (no destination) is a registry delete in HKLM, not a file move."""
    assert ps(r"Move-Item HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Run") == (
        "registry-delete-machine-hive",
        "deny",
    )


@requirement("S-RULE-89")
@pytest.mark.parametrize("destination", ["env:FOO", "function:prompt", "variable:x"])
def test_a_copy_onto_a_session_drive_writes_no_file(destination: str) -> None:
    """S-RULE-89: `Copy-Item f -Destination env:X` (or function:, variable:) reads f and writes no file."""
    assert _effects(rf"Copy-Item C:\Temp\a.txt -Destination {destination}") == [(K.READ, r"C:\Temp\a.txt", "Copy-Item")]


@requirement("S-RULE-59")
def test_tar_long_file_option_names_the_archive_read() -> None:
    """S-RULE-59: `tar -x --file a.tar -C dir` reads a.tar (the value of `--file`) and writes dir."""
    found = [e for e in _effects(r"tar -x --file C:\t\a.tar -C C:\t\out") if e[2] == "tar -x"]
    assert found == [(K.READ, r"C:\t\a.tar", "tar -x"), (K.WRITE, r"C:\t\out", "tar -x")]


@requirement("S-RULE-59")
def test_tar_exclude_from_list_does_not_move_the_extraction_folder() -> None:
    """S-RULE-59: `-X list` (exclude-from) is not `-C`: the files still land in the `-C` folder."""
    assert ps(r"tar -xf C:\t\a.tar -C C:\Windows\System32 -X skip.txt") == ("protected-place-write", "deny")


@requirement("S-RULE-30")
def test_a_cloud_copy_of_several_local_files_uploads_each() -> None:
    """S-RULE-30: `gsutil cp a b gs://bucket/`: the last word is the remote end, both files are sent."""
    assert _effects(r"gsutil cp C:\t\a.txt C:\t\b.txt gs://bucket/") == [
        (K.UPLOAD, r"C:\t\a.txt", "gsutil cp to another machine"),
        (K.UPLOAD, r"C:\t\b.txt", "gsutil cp to another machine"),
    ]
    assert ps(r"gsutil cp C:\t\a.txt C:\t\b.txt gs://bucket/") == ("upload-file", "ask")


@requirement("S-RULE-20")
@pytest.mark.parametrize(
    "command", ["Get-WmiObject Win32_ShadowCopy", "Get-CimInstance Win32_ShadowCopy | Select-Object ID"]
)
def test_listing_shadow_copies_deletes_no_backup(command: str) -> None:
    """S-RULE-20: naming Win32_ShadowCopy without a delete (a listing) is ordinary, not `delete-backups`."""
    assert ps(command) is None


@requirement("S-RULE-31")
@pytest.mark.parametrize("command", [r"Invoke-Item \\host\share\x.exe", r"Invoke-Command -FilePath \\host\share\x.ps1"])
def test_invoke_item_and_invoke_command_file_from_a_share_ask(command: str) -> None:
    """S-RULE-31: `Invoke-Item`/`Invoke-Command -FilePath` run what they name: from a share, `remote-code`."""
    assert ps(command) == ("remote-code", "ask")


@requirement("S-RULE-11")
def test_cmd_start_with_an_unknown_program_after_an_odd_switch_is_judged() -> None:
    """S-RULE-11: `start / !x!` (a program word not constant after a bare `/`) gets a verdict, no exception."""
    assert ps("cmd /c start / !x!") == ("dynamic-command", "ask")


@requirement("S-RULE-19")
def test_an_account_change_reason_names_the_cmdlet() -> None:
    """S-RULE-19: the reason of `account-change` quotes the cmdlet that made the change."""
    reason = _reason("Add-LocalGroupMember -Group Administrators -Member bob")
    assert "(Add-LocalGroupMember)" in reason


@requirement("S-RULE-18")
def test_a_delete_of_each_listed_item_in_a_foreach_object_is_judged() -> None:
    """S-RULE-18: `Get-Item X | ForEach-Object { $_.Delete() }` deletes X (the object handed down the pipe)."""
    command = r"Get-Item C:\Windows\System32\drivers | ForEach-Object { $_.Delete() }"
    assert (K.DELETE, r"C:\Windows\System32\drivers", ".delete()") in _effects(command)
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-35")
def test_a_delete_of_a_nested_folder_listing_deletes_its_items() -> None:
    """S-RULE-35: `Remove-Item (Get-ChildItem ~\\Documents)` deletes Documents' items (a wildcard), not Documents."""
    command = r"Remove-Item (Get-ChildItem C:\Users\bob\Documents)"
    assert (K.DELETE, r"C:\Users\bob\Documents\*", "Remove-Item") in _effects(command)
    assert ps(command) == ("wildcard-delete", "ask")


@requirement("S-SELF-12")
def test_a_client_configuration_refusal_has_the_self_protection_risk() -> None:
    """S-SELF-12: naming an AI client's MCP configuration is refused with risk `self-protection`."""
    rules = load_rules(protected_paths=["C:\\Users\\bob\\AppData\\Local\\winmcp-gateway"])  # as the gateway has them
    hit = rules.match("PowerShell", {"command": r"Set-Content C:\Users\bob\.cursor\mcp.json x"})
    assert hit is not None
    assert (hit.rule_id, hit.action, hit.risk) == ("self-protection", "deny", "self-protection")


@requirement("S-RULE-80")
def test_ssh_without_a_remote_forward_opens_no_tunnel() -> None:
    """S-RULE-80: `ssh -V` (no destination, no -R) is not a tunnel; `ssh -R …` alone still is."""
    assert ps("ssh -V") is None
    assert ps("ssh -R 8080:localhost:80") == ("security-weakening", "deny")


# ---------------------------------------------------------------------------------------
# Layers and cmd.exe


@requirement("S-RULE-03")
def test_an_encoded_payload_is_decoded_once_from_the_text_that_keeps_its_case() -> None:
    """S-RULE-03: the lower-cased copy of `-enc <base64>` in an inner layer is not decoded again into noise."""
    payload = base64.b64encode("Get-Date".encode("utf-16-le")).decode()
    assert expand(f"cmd /c powershell -enc {payload}") == [
        f"cmd /c powershell -enc {payload.lower()}",
        "get-date",
        f"powershell -encodedcommand {payload.lower()}",
    ]


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("line", "failed"),
    [
        ('echo a > & echo "b', "redirection without a target; unbalanced quotes"),
        ('echo "a', "unbalanced quotes"),
    ],
)
def test_cmd_failures_are_named_and_joined(line: str, failed: str) -> None:
    """S-RULE-15: each reason a cmd line cannot be read is named once, joined by `; `."""
    assert analyse_cmd(line).failed == failed


@requirement("S-RULE-11")
def test_cmd_reads_nothing_after_the_nesting_bound() -> None:
    """S-RULE-11: past cmd's nesting bound the line is not read further: no command after it is taken as read."""
    analysis = analyse_cmd("(" * 50 + "echo a" + ")" * 50 + r" & del C:\x")
    assert analysis.operations == ()
    assert analysis.failed is not None
    assert analysis.failed.startswith("too deeply nested")


@requirement("S-RULE-11")
def test_a_lone_percent_in_a_cmd_line_is_read_in_bounded_time() -> None:
    """S-RULE-11: `echo 100% done` (a `%` that starts no variable) is read once, as text, and the reading ends."""
    found = _within(10.0, lambda: [(o.name, o.args) for o in analyse_cmd("echo 100% done").operations])
    assert found == [[("echo", ("100% done",))]]


# ---------------------------------------------------------------------------------------
# The PowerShell analyser


@requirement("S-RULE-14")
def test_a_script_block_made_from_an_environment_variable_is_dynamic_either_way_it_is_called() -> None:
    """S-RULE-14: `[scriptblock].Create($env:X)` (also via a variable holding the type) asks like `::Create`."""
    for command in (
        "[scriptblock]::Create($env:COMSPEC)",
        "[scriptblock].Create($env:COMSPEC)",
        "$t = [scriptblock]; $t.Create($env:WINDIR).Invoke()",
    ):
        assert ps(command) == ("dynamic-command", "ask"), command


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "command",
    [
        r"$d = 'C:\Windows\System32'; & $d\cmd.exe /c rd /s /q C:\Users",
        r"& $env:SystemRoot\System32\cmd.exe /c rd /s /q C:\Users",
    ],
)
def test_a_command_path_built_from_a_known_variable_is_resolved(command: str) -> None:
    """S-RULE-13: `& $d\\cmd.exe …` with $d known runs that cmd, judged on its line (not a dynamic name)."""
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-100")
def test_unknown_text_piped_to_a_shell_names_the_shell() -> None:
    """S-RULE-100: `$c | cmd` asks, and the reason says it is cmd that runs the piped commands."""
    assert "'cmd' runs the commands piped into it" in _reason("$c | cmd")


@requirement("S-RULE-13")
def test_a_parameter_in_a_command_with_non_ascii_text_is_read() -> None:
    """S-RULE-13: `-Recurse` after a non-ASCII path is still a parameter of the command."""
    command = r"Remove-Item C:\Windows\System32\café -Recurse"
    clear_analysis_cache()
    analysis = analyse_powershell(command)
    assert analysis.failed is None
    assert [(o.name, o.params, o.args) for o in analysis.operations] == [
        ("remove-item", (("recurse", "true"),), ("C:\\Windows\\System32\\café",))
    ]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # .NET's String(char[], start, length) throws past the end: no value, not a shorter one.
        (r"Get-ChildItem ([string]::new('C:\t\abc', 2, 9))", [(None,)]),
        (r"Get-ChildItem ([string]::new('C:\t\abc', 2, 3))", [("\\t\\",)]),
        # String times string throws in PowerShell: not constant, and the analysis goes on.
        (r"$p = 'C:\t' * 'x'; Get-ChildItem $p", [(None,)]),
        # Products are folded only below 2**62 on each side (a bound, not PowerShell's int64 range).
        (r'$n = 1 * 4611686018427387904; Get-ChildItem "C:\t\$n"', [(None,)]),
        (r'$n = 6 * 7; Get-ChildItem "C:\t\$n"', [("C:\\t\\42",)]),
        # Ranges count up or down.
        (r'$a = (1 .. 3) -join ""; Get-ChildItem "C:\t\$a"', [("C:\\t\\123",)]),
        (r'$a = (3 .. 1) -join ""; Get-ChildItem "C:\t\$a"', [("C:\\t\\321",)]),
        # `{{` in a format string is a literal brace.
        (r"Get-ChildItem ('C:\t\{{x}}{0}' -f 'a')", [("C:\\t\\{x}a",)]),
        # A verbatim here-string written with CRLF line ends: its body has no trailing CR.
        ("Get-ChildItem @'\r\nC:\\t\\a\r\n'@", [("C:\\t\\a",)]),
    ],
    ids=[
        "new-string-past-end",
        "new-string",
        "string-times-string",
        "product-bound",
        "product",
        "range-up",
        "range-down",
        "format-brace",
        "here-string-crlf",
    ],
)
def test_constant_folding_matches_dotnet(command: str, expected: list[tuple[str | None, ...]]) -> None:
    """S-RULE-13: what `[string]::new`, `*`, `..`, `-f` and here-strings fold to, or unknown where .NET throws."""
    assert args_of(command, "get-childitem") == expected


@requirement("S-RULE-13")
def test_the_items_of_a_range_loop_are_unrolled() -> None:
    """S-RULE-13: `foreach ($i in 1 .. 2)` runs its body for 1 then 2."""
    assert args_of(r'foreach ($i in 1 .. 2) { Get-ChildItem "C:\t\$i" }', "get-childitem") == [
        ("C:\\t\\1",),
        ("C:\\t\\2",),
    ]


@requirement("S-RULE-86")
def test_an_array_whose_first_item_ends_in_x_parses() -> None:
    """S-RULE-86: `Get-Item C:\\t\\X,C:\\t\\y` is an ordinary array argument (the comma repair keeps it readable)."""
    assert ps(r"Get-Item C:\t\X,C:\t\y") is None


@requirement("S-RULE-13")
def test_an_array_after_8_kb_of_text_is_read_from_the_right_place() -> None:
    """S-RULE-13: in a script over 8 KB, a repaired `a,b` is read at its own offsets."""
    command = "# " + "x" * 9000 + "\nGet-Item C:\\t\\a,C:\\t\\b"
    assert args_of(command, "get-item") == [("C:\\t\\a,C:\\t\\b",)]


@requirement("S-RULE-38")
def test_a_ctrl_chord_on_a_lone_brace_swallows_only_the_brace() -> None:
    """S-RULE-38: in SendKeys text `^{rd …~`, Ctrl takes the lone `{`; the rest is typed and judged.

    (.NET throws on the unbalanced brace; the gateway reads the rest as typed, the stricter way.)
    """
    command = (
        "Add-Type -AssemblyName System.Windows.Forms; "
        r"[System.Windows.Forms.SendKeys]::SendWait('^{rd /s /q C:\Windows\System32~')"
    )
    assert ps(command) == ("protected-place-delete", "deny")


# ---------------------------------------------------------------------------------------
# The statement walker (ps_walk candidates that were not equivalent)


@requirement("S-RULE-13")
def test_a_comment_between_an_expressions_redirections_is_skipped() -> None:
    """S-RULE-13: `'x' > a <# c #> 2> b`: both redirections are read; the comment between them is nothing."""
    clear_analysis_cache()
    analysis = analyse_powershell(r"'x' > C:\t\a <# c #> 2> C:\t\b")
    assert analysis.failed is None
    assert [(o.name, o.args) for o in analysis.operations] == [
        ("<redirect>", ("C:\\t\\a",)),
        ("<redirect>", ("C:\\t\\b",)),
    ]


@requirement("S-RULE-44")
def test_a_subexpression_inside_single_quotes_inside_double_quotes_still_runs() -> None:
    """S-RULE-44: in a recovered command, `"'$(x)'"` expands `$(x)` (the single quotes are text): not constant."""
    command = "Remove-Item $env:TEMP\\x \"'$(Get-Date)'\" ; }"
    assert args_of(command, "remove-item") == [("$env:TEMP\\x", None)]
