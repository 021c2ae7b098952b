"""Stop 28: PowerShell's argument quoting (S-RULE-44), Invoke-CimMethod's Create (S-RULE-45), cacls' display
(S-RULE-46), Join-Path's child paths (S-RULE-47), expand/replace writing (S-RULE-48), IO.Path folding (S-RULE-49),
PowerShell pipelines built in the script (S-RULE-50), relative registry paths and mapped drives (S-RULE-51)."""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.match import load_rules
from policy.rules.shell.dispatch import analyse_tool
from policy.rules.shell.ps_repair import repair
from tests._requirements import requirement

RULES = load_rules()


def _hit(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


def _ops(command: str) -> list[tuple[str, tuple[str | None, ...]]]:
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    assert analysis.failed is None
    return [(op.name, op.args) for op in analysis.operations]


def _targets(command: str) -> list[tuple[str, str | None]]:
    return [(e.kind.value, e.target) for e in judge_call("PowerShell", {"command": command}).effects]


# -- S-RULE-44 ----------------------------------------------------------------------------


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('cmd /c "dir "C:\\Program Files" /b"', None),
        ('cmd.exe /c ""C:\\Program Files\\Git\\bin\\git.exe" --version"', None),
        ('cmd /c "findstr /i "error" C:\\t\\log.txt"', None),
        ('cmd /c "rd /s /q "C:\\Windows\\System32""', ("protected-place-delete", "deny")),
        ('cmd /c "del /q "C:\\Windows\\System32\\drivers\\etc\\hosts""', ("protected-place-delete", "deny")),
        ('Remove-Item "C:\\Windows"\\System32 -Recurse', ("protected-place-delete", "deny")),
        (
            'Copy-Item C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User" Data\\Default\\Login Data" C:\\t\\x',
            ("credential-access", "deny"),
        ),
        (
            'Copy-Item C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\"User Data\\Default\\Login Data" C:\\t\\x',
            ("credential-access", "deny"),
        ),
        ("Remove-Item C:\\Program' Files\\Windows Defender\\MpCmdRun.exe'", ("protected-place-delete", "deny")),
        ('Get-ChildItem C:\\Program" Files"', None),
    ],
    ids=[
        "dir-quoted-inside",
        "program-quoted-inside",
        "findstr-quoted-inside",
        "rd-quoted-inside",
        "del-quoted-inside",
        "string-then-word",
        "quoted-blank-in-word",
        "quote-opens-mid-word",
        "single-quoted-blank-in-word",
        "listing-quoted-in-word",
    ],
)
def test_quoted_arguments_are_read_as_powershell_reads_them(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-44: the grammar's syntax error on a string glued to a word is no parse failure (an ordinary call
    passes); a quoted part of a bare word is one argument with it, so a credential store is still named."""
    assert _hit(command) == expected


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("command", "args"),
    [
        ('Write-Output "a"b', ("a", "b")),
        ("Write-Output 'a'b", ("a", "b")),
        ('Write-Output a"b c"d e', ("ab cd", "e")),
        ("Write-Output a'b c'd", ("ab cd",)),
        ("Write-Output a'it''s'b", ("ait'sb",)),
        ('Write-Output a"x `" y"b', ('ax " yb',)),
        ('Write-Output C:\\Win"dows"\\System32', ("C:\\Windows\\System32",)),
    ],
    ids=["string-then-word", "verbatim-then-word", "quoted-blank", "verbatim-blank", "doubled", "escaped", "no-blank"],
)
def test_a_word_with_a_quoted_part_is_one_argument_without_its_quotes(command: str, args: tuple[str, ...]) -> None:
    """S-RULE-44: `"a"b` is two arguments; `a"b c"d` is one, `ab cd`; quotes inside a bare word are removed."""
    assert _ops(command) == [("write-output", args)]


@requirement("S-RULE-44")
def test_the_repair_only_separates_a_string_that_starts_an_argument() -> None:
    """S-RULE-44: a blank goes after a string glued to a word; a member (`"a".Length`) or index is left alone."""
    fixed = repair('cmd /c "dir "C:\\x')
    assert fixed is not None and fixed.text == 'cmd /c "dir " C:\\x'
    assert repair('Write-Output "a".Length') is None
    assert repair('$x = "a"[0]') is None


# -- S-RULE-45 ----------------------------------------------------------------------------


@requirement("S-RULE-45")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='notepad.exe'}", None),
        (
            "Invoke-CimMethod -ClassName Win32_Process -MethodName Create "
            "-Arguments @{CommandLine='cmd /c rd /s /q C:\\Windows'}",
            ("protected-place-delete", "deny"),
        ),
        (
            "Invoke-CimMethod Win32_Process @{CommandLine='cmd /c rd /s /q C:\\Windows'} Create",
            ("protected-place-delete", "deny"),
        ),
        (
            "$a = @{ClassName='Win32_Process'; MethodName='Create'; "
            "Arguments=@{CommandLine='cmd /c rd /s /q C:\\Users'}}; Invoke-CimMethod @a",
            ("protected-place-delete", "deny"),
        ),
        (
            "Invoke-CimMethod -ClassName Win32_Process -MethodName Create "
            "-Arguments @{'CommandLine'='cmd /c net user eve x /add'}",
            ("account-change", "deny"),
        ),
        (
            "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine=$line}",
            ("dynamic-command", "ask"),
        ),
        ("Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments $h", ("dynamic-command", "ask")),
        (
            "Invoke-CimMethod -ClassName Win32_Process -MethodName $m -Arguments @{CommandLine='x'}",
            ("dynamic-command", "ask"),
        ),
        (
            "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CurrentDirectory='C:\\t'}",
            ("dynamic-command", "ask"),
        ),
        ("Get-CimInstance Win32_Process -Filter \"Name='notepad.exe'\" | Invoke-CimMethod -MethodName GetOwner", None),
    ],
    ids=[
        "notepad",
        "rd-by-name",
        "rd-by-position",
        "rd-splatted",
        "quoted-key",
        "line-variable",
        "table-variable",
        "method-variable",
        "no-command-line",
        "other-method",
    ],
)
def test_invoke_cimmethod_create_runs_its_command_line(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-45: the hashtable's CommandLine is judged as the program it runs; what is not constant asks."""
    assert _hit(command) == expected


@requirement("S-RULE-45")
def test_the_hashtable_entries_become_parameters() -> None:
    """S-RULE-45: each constant entry of `-Arguments` is recorded as `arguments.<key>` on the operation."""
    analysis = analyse_tool(
        "PowerShell",
        {"command": "Invoke-CimMethod Win32_Process -MethodName Create -Arguments @{CommandLine='calc.exe'}"},
    )
    assert analysis is not None
    cim = analysis.operations[0]
    assert ("arguments.commandline", "calc.exe") in cim.params
    assert cim.args == ("Win32_Process",)


# -- S-RULE-46 ----------------------------------------------------------------------------


@requirement("S-RULE-46")
@pytest.mark.parametrize(
    ("command", "effect"),
    [
        ("cacls C:\\Windows /t", "read"),
        ("cacls C:\\Windows\\System32 /t /m /l", "read"),
        ('cacls.exe "C:\\Program Files" /s', "read"),
        ("cacls C:\\Windows /e /g eve:F", "write"),
        ("cacls C:\\Windows /t /c", "write"),
        ("cacls C:\\Windows /T /E /P eve:N", "write"),
        ("cacls C:\\Windows /g eve:F", "write"),
        ("cacls C:\\Windows /e /r eve", "write"),
        ("cacls C:\\Windows /d eve", "write"),
        ("cacls C:\\Windows '/s:D:PAI(A;;FA;;;WD)'", "write"),
        ("cacls C:\\Windows $switch", "write"),
    ],
    ids=[
        "list",
        "list-mount",
        "sddl-shown",
        "edit",
        "continue",
        "replace",
        "grant",
        "revoke",
        "deny",
        "sddl-set",
        "unknown",
    ],
)
def test_cacls_writes_only_with_an_editing_switch(command: str, effect: str) -> None:
    """S-RULE-46: /E /G /R /P /D /C and /S:sddl change the ACL; /T /M /L and a bare /S only show it."""
    assert _targets(command) == [(effect, "C:\\Program Files" if "Program" in command else command.split()[1])]


@requirement("S-RULE-46")
def test_cacls_display_of_a_protected_place_passes_and_a_change_is_refused() -> None:
    """S-RULE-46: listing System32's ACLs is ordinary; granting on it is a protected-place write."""
    assert _hit("cacls C:\\Windows\\System32 /t") is None
    assert _hit("cmd /c cacls C:\\Windows\\System32 /t") is None
    assert _hit("cacls C:\\Windows\\System32 /e /g eve:F") == ("protected-place-write", "deny")


# -- S-RULE-47 ----------------------------------------------------------------------------


@requirement("S-RULE-47")
@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("Remove-Item (Join-Path C:\\Windows System32 drivers)", "C:\\Windows\\System32\\drivers"),
        (
            "Remove-Item (Join-Path -Path C:\\ -ChildPath Windows -AdditionalChildPath System32,config)",
            "C:\\Windows\\System32\\config",
        ),
        ("Remove-Item (Join-Path C:\\ Windows -AdditionalChildPath System32, config)", "C:\\Windows\\System32\\config"),
        ("Remove-Item (Join-Path -ChildPath drivers C:\\Windows System32 x)", "C:\\Windows\\drivers\\System32\\x"),
        (
            "Remove-Item (Join-Path C:\\Windows\\System32 \\drivers\\etc\\hosts)",
            "C:\\Windows\\System32\\drivers\\etc\\hosts",
        ),
        ("Remove-Item (Join-Path C:\\Windows\\ \\System32)", "C:\\Windows\\System32"),
        ("Remove-Item (Join-Path C: Windows)", "C:\\Windows"),
        ("Remove-Item (Join-Path C:\\Users\\me\\tmp x.txt)", "C:\\Users\\me\\tmp\\x.txt"),
    ],
    ids=[
        "positional-extra",
        "named-extra",
        "mixed",
        "child-named",
        "rooted-child",
        "both-separators",
        "drive",
        "plain",
    ],
)
def test_join_path_joins_every_child(command: str, target: str) -> None:
    """S-RULE-47: every additional child is joined, each by one separator, a rooted one appended."""
    assert ("delete", target) in _targets(command)


@requirement("S-RULE-47")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-Item (Join-Path C:\\Windows System32 drivers)", ("protected-place-delete", "deny")),
        ("Remove-Item (Join-Path C:\\Windows\\System32 \\drivers\\etc\\hosts)", ("protected-place-delete", "deny")),
        (
            "Remove-Item (Join-Path -Path C:\\ -ChildPath Windows -AdditionalChildPath System32,config)",
            ("protected-place-delete", "deny"),
        ),
        ("Remove-Item (Join-Path C:\\Users\\me\\tmp x.txt)", None),
        ("Remove-Item (Join-Path C:\\Users\\me\\tmp $name)", ("dynamic-command", "ask")),
    ],
    ids=["extra-children", "rooted-child", "named-extra", "ordinary", "unknown-child"],
)
def test_a_joined_path_is_judged_where_it_points(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-47: `Remove-Item (Join-Path …)` is judged on the joined path."""
    assert _hit(command) == expected


# -- S-RULE-48 ----------------------------------------------------------------------------


@requirement("S-RULE-48")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "expand C:\\t\\x.cab -F:* C:\\Windows\\System32",
            [("read", "C:\\t\\x.cab"), ("write", "C:\\Windows\\System32")],
        ),
        (
            "expand -r C:\\Windows\\System32\\x.dl_",
            [("read", "C:\\Windows\\System32\\x.dl_"), ("write", "C:\\Windows\\System32\\x.dl_")],
        ),
        ("expand -d C:\\t\\x.cab", [("read", "C:\\t\\x.cab")]),
        ("expand C:\\t\\x.cab", [("read", "C:\\t\\x.cab")]),
        (
            "replace C:\\t\\hosts C:\\Windows\\System32\\drivers\\etc",
            [("read", "C:\\t\\hosts"), ("write", "C:\\Windows\\System32\\drivers\\etc\\hosts")],
        ),
        ("replace C:\\t\\hosts", [("read", "C:\\t\\hosts"), ("write", "hosts")]),
        ("replace C:\\t\\hosts $to", [("read", "C:\\t\\hosts"), ("write", None)]),
    ],
    ids=[
        "expand-to",
        "expand-in-place",
        "expand-list",
        "expand-no-destination",
        "replace-into",
        "replace-here",
        "replace-unknown",
    ],
)
def test_expand_and_replace_write_their_destination(command: str, expected: list[tuple[str, str | None]]) -> None:
    """S-RULE-48: what expand unpacks and the file replace replaces are writes of the destination."""
    assert _targets(command) == expected


@requirement("S-RULE-48")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("expand C:\\t\\x.cab -F:* C:\\Windows\\System32", ("protected-place-write", "deny")),
        ("replace C:\\t\\hosts C:\\Windows\\System32\\drivers\\etc", ("protected-place-write", "deny")),
        (
            'cmd /c "cd /d C:\\Windows\\System32\\drivers\\etc & replace C:\\t\\hosts"',
            ("protected-place-write", "deny"),
        ),
        ("expand C:\\t\\x.cab -F:* C:\\t\\out", None),
        ("replace C:\\t\\a.txt C:\\t\\dest /s", None),
    ],
    ids=["expand-system32", "replace-hosts", "replace-in-current-folder", "expand-ordinary", "replace-ordinary"],
)
def test_expand_and_replace_into_a_protected_place_are_refused(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-48: writing System32 or the hosts file through expand or replace is a protected-place write."""
    assert _hit(command) == expected


# -- S-RULE-49 ----------------------------------------------------------------------------


@requirement("S-RULE-49")
@pytest.mark.parametrize(
    ("command", "target"),
    [
        (
            "[IO.Path]::Combine('C:\\Windows','System32','drivers','etc','hosts')",
            "C:\\Windows\\System32\\drivers\\etc\\hosts",
        ),
        ("[IO.Path]::Combine('C:\\Users\\me\\', 'Documents')", "C:\\Users\\me\\Documents"),
        ("[IO.Path]::Combine('C:\\t', '\\Windows')", "\\Windows"),
        ("[IO.Path]::Combine('C:\\t', 'D:\\x')", "D:\\x"),
        ("[IO.Path]::Join('C:\\Windows', '\\System32')", "C:\\Windows\\System32"),
        ("[System.IO.Path]::Combine('C:\\t', '', 'x.txt')", "C:\\t\\x.txt"),
    ],
    ids=["five-parts", "trailing-separator", "rooted-resets", "drive-resets", "join-never-resets", "empty-part"],
)
def test_io_path_folds_to_the_path_it_makes(command: str, target: str) -> None:
    """S-RULE-49: Combine and Join of constant parts fold as .NET makes the path."""
    assert ("delete", target) in _targets(f"Remove-Item ({command})")


@requirement("S-RULE-49")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "Remove-Item ([System.IO.Path]::Combine('C:\\Windows','System32','drivers','etc','hosts'))",
            ("protected-place-delete", "deny"),
        ),
        ("Remove-Item ([IO.Path]::Combine('C:\\Users\\me', 'Documents')) -Recurse", ("protected-place-delete", "deny")),
        ("Remove-Item ([IO.Path]::Combine('C:\\t', 'x.txt'))", None),
        ("Remove-Item ([IO.Path]::Combine('C:\\t', $name))", ("dynamic-command", "ask")),
    ],
    ids=["hosts", "documents", "ordinary", "unknown-part"],
)
def test_a_path_made_with_io_path_is_judged_where_it_points(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-49: the folded path is the target; an unknown part leaves it unknown (asks)."""
    assert _hit(command) == expected


# -- S-RULE-50 ----------------------------------------------------------------------------


@requirement("S-RULE-50")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "[PowerShell]::Create().AddScript('Remove-Item C:\\Users\\me\\Documents -Recurse').Invoke()",
            ("protected-place-delete", "deny"),
        ),
        (
            "$ps = [powershell]::Create(); $ps.AddScript('Stop-Computer -Force') | Out-Null; $ps.Invoke()",
            ("shutdown-restart", "deny"),
        ),
        ("[System.Management.Automation.PowerShell]::Create().AddScript($code).Invoke()", ("dynamic-command", "ask")),
        (
            "[PowerShell]::Create().AddCommand('Stop-Process').AddParameter('Name','lsass').Invoke()",
            ("dynamic-command", "ask"),
        ),
        ("[PowerShell]::Create().AddCommand('Stop-Computer').Invoke()", ("shutdown-restart", "deny")),
        ("[PowerShell]::Create().AddCommand($name).Invoke()", ("dynamic-command", "ask")),
        ("$x.AddScript('Remove-Item C:\\Users\\me\\Documents -Recurse')", ("protected-place-delete", "deny")),
        ("[PowerShell]::Create().AddScript('Get-Process').Invoke()", None),
        ("$p = [PowerShell]::Create(); $p.AddCommand('Get-Date'); $p.Invoke()", None),
    ],
    ids=[
        "script",
        "script-in-variable",
        "script-unknown",
        "command-with-parameters",
        "command",
        "command-unknown",
        "untyped-object",
        "ordinary-script",
        "ordinary-command",
    ],
)
def test_a_pipeline_built_in_the_script_runs_what_it_is_given(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-50: AddScript's text and AddCommand's command are judged; parameters added to it ask."""
    assert _hit(command) == expected


# -- S-RULE-51 ----------------------------------------------------------------------------


@requirement("S-RULE-51")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "cd HKLM:\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders; "
            "Set-ItemProperty WDigest -Name UseLogonCredential -Value 1",
            ("security-weakening", "deny"),
        ),
        (
            "Set-Location HKLM:\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest; "
            "Set-ItemProperty . -Name UseLogonCredential -Value 1",
            ("security-weakening", "deny"),
        ),
        (
            "Push-Location HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion; "
            "Set-ItemProperty Run -Name x -Value C:\\t\\x.exe",
            ("persistence-autostart", "ask"),
        ),
        (
            "cd HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run; "
            "New-ItemProperty . -Name x -Value C:\\t\\x.exe",
            ("persistence-autostart", "ask"),
        ),
        (
            "New-PSDrive -Name X -PSProvider Registry -Root HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion; "
            "Set-ItemProperty X:\\Run -Name x -Value C:\\t\\x.exe",
            ("persistence-autostart", "ask"),
        ),
        (
            "New-PSDrive -Name W -PSProvider FileSystem -Root C:\\Windows; "
            "Remove-Item W:\\System32\\drivers\\etc\\hosts",
            ("protected-place-delete", "deny"),
        ),
        (
            "New-PSDrive W FileSystem C:\\Users\\me; Remove-Item W:\\Documents -Recurse",
            ("protected-place-delete", "deny"),
        ),
        (
            "net use W: \\\\localhost\\C$\\Windows; Remove-Item W:\\System32\\drivers\\etc\\hosts",
            ("protected-place-delete", "deny"),
        ),
        ("cd HKCU:\\Software\\Contoso; Set-ItemProperty . -Name Theme -Value dark", None),
        ("New-PSDrive -Name P -PSProvider FileSystem -Root C:\\t\\proj; Remove-Item P:\\build\\out.txt", None),
        ("cd C:\\t; Remove-Item x.txt", None),
    ],
    ids=[
        "cd-key-then-child",
        "cd-key-then-dot",
        "push-location",
        "new-itemproperty-dot",
        "registry-drive",
        "file-drive",
        "file-drive-positional",
        "net-use",
        "ordinary-key",
        "ordinary-drive",
        "ordinary-folder",
    ],
)
def test_relative_registry_paths_and_mapped_drives_are_read_where_they_point(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-51: a relative target is read from the location moved to, a mapped drive from its root."""
    assert _hit(command) == expected


# -- S-RULE-52 ----------------------------------------------------------------------------


@requirement("S-RULE-52")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("(Get-Service WinDefend).Stop()", ("disable-defender", "deny")),
        ("$s = Get-Service Sysmon64; $s.Stop()", ("security-weakening", "deny")),
        ("Get-Service Sysmon64 | ForEach-Object { $_.Stop() }", ("security-weakening", "deny")),
        ('[System.ServiceProcess.ServiceController]::new("Sysmon64").Stop()', ("security-weakening", "deny")),
        ('(New-Object System.ServiceProcess.ServiceController "EventLog").Stop()', ("security-weakening", "deny")),
        ("(Get-Service wuauserv).Pause()", ("security-weakening", "deny")),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='Sysmon64'\" | Invoke-CimMethod -MethodName StopService",
            ("security-weakening", "deny"),
        ),
        (
            "Get-WmiObject Win32_Service -Filter \"Name='Sysmon64'\" | Invoke-WmiMethod -Name StopService",
            ("security-weakening", "deny"),
        ),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='Sysmon64'\" | "
            "Invoke-CimMethod -MethodName ChangeStartMode -Arguments @{StartMode='Disabled'}",
            ("security-weakening", "deny"),
        ),
        (
            "Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\" | "
            "Invoke-WmiMethod -Name ChangeStartMode -ArgumentList Disabled",
            ("disable-defender", "deny"),
        ),
        ("wmic service where name='Sysmon64' call stopservice", ("security-weakening", "deny")),
        ("wmic service where \"name='WinDefend'\" call changestartmode disabled", ("disable-defender", "deny")),
        ("wmic service where name='EventLog' delete", ("security-weakening", "deny")),
        ("(Get-Service Spooler).Stop()", None),
        ("$sw = [Diagnostics.Stopwatch]::StartNew(); $sw.Stop()", None),
        ("wmic service where name='Spooler' call stopservice", None),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='Sysmon64'\" | "
            "Invoke-CimMethod -MethodName ChangeStartMode -Arguments @{StartMode='Automatic'}",
            None,
        ),
        ("wmic service list brief", None),
    ],
    ids=[
        "defender-object",
        "object-in-variable",
        "foreach",
        "controller-new",
        "controller-new-object",
        "pause",
        "cim-stop",
        "wmi-stop",
        "cim-disable",
        "wmi-disable-defender",
        "wmic-stop",
        "wmic-disable-defender",
        "wmic-delete",
        "ordinary-service",
        "stopwatch",
        "wmic-ordinary",
        "cim-automatic",
        "wmic-list",
    ],
)
def test_a_service_stopped_through_its_object_or_wmi_is_judged_as_the_cmdlet(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-52: `.Stop()` of a service object and Win32_Service's methods are Stop-Service and Set-Service."""
    assert _hit(command) == expected


# -- S-RULE-53 ----------------------------------------------------------------------------


@requirement("S-RULE-53")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('Get-Content "$env:APPDATA\\GitHub CLI\\hosts.yml"', ("credential-access", "deny")),
        ("Get-Content ~\\.config\\gh\\hosts.yml", ("credential-access", "deny")),
        ("Get-Content ~\\AppData\\Roaming\\WinSCP.ini", ("credential-access", "deny")),
        ("Copy-Item ~\\AppData\\Roaming\\Slack\\Cookies C:\\t\\c", ("credential-access", "deny")),
        ("Copy-Item ~\\AppData\\Roaming\\Microsoft\\Teams\\Network\\Cookies C:\\t", ("credential-access", "deny")),
        ("Get-Content ~\\AppData\\Roaming\\discord\\Cookies", ("credential-access", "deny")),
        ("Get-Content $env:ProgramData\\ssh\\ssh_host_ed25519_key", ("credential-access", "deny")),
        ("Get-Content C:\\Windows\\Panther\\Unattend.xml", ("credential-access", "deny")),
        ("Get-Content C:\\Windows\\System32\\Sysprep\\Panther\\unattend.xml", ("credential-access", "deny")),
        ("Get-Content C:\\unattend.xml", ("credential-access", "deny")),
        ("type C:\\Sysprep\\sysprep.inf", ("credential-access", "deny")),
        ("Get-Content $env:ProgramData\\ssh\\ssh_host_rsa_key.pub", None),
        ("Get-ChildItem C:\\Windows\\Panther", None),
        ("Test-Path C:\\Windows\\Panther\\Unattend.xml", None),
        ("Get-Content ~\\AppData\\Roaming\\Slack\\logs\\app.log", None),
    ],
    ids=[
        "gh-appdata",
        "gh-config",
        "winscp",
        "slack-cookies",
        "teams-cookies",
        "discord-cookies",
        "ssh-host-key",
        "unattend",
        "sysprep-unattend",
        "root-unattend",
        "sysprep-inf",
        "host-public-key",
        "list-panther",
        "test-path",
        "slack-log",
    ],
)
def test_more_credential_stores(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-53: a token file, session cookies, host keys and setup answer files are credential stores."""
    assert _hit(command) == expected


# -- S-RULE-54 ----------------------------------------------------------------------------


@requirement("S-RULE-54")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('cmd /c "cmd.exe/c rd /s /q C:\\Users\\me"', ("protected-place-delete", "deny")),
        ('cmd /c "cmd/c rd /s /q C:\\Users\\me"', ("protected-place-delete", "deny")),
        ('cmd /c "cmd.exe/crd /s /q C:\\Users\\me"', ("protected-place-delete", "deny")),
        ('cmd /c "C:\\Windows\\System32\\cmd.exe/c rd /s /q C:\\Users\\me"', ("protected-place-delete", "deny")),
        ('cmd /c "powershell/c Remove-Item C:\\Users\\me\\Documents -Recurse"', ("protected-place-delete", "deny")),
        ('cmd /c "C:/Windows/System32/cmd.exe /c rd /s /q C:\\Users\\me"', ("protected-place-delete", "deny")),
        ('cmd /c "ping/n 1 localhost"', None),
        ('cmd /c "node scripts/build.js"', None),
    ],
    ids=["cmd-exe", "cmd", "switch-glued", "full-path", "powershell", "drive-path", "ping", "slash-in-argument"],
)
def test_a_program_name_ends_at_a_slash_in_cmd(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-54: cmd splits `cmd.exe/c …` into the program and its switches; a drive path stays whole."""
    assert _hit(command) == expected


@requirement("S-RULE-54")
def test_the_program_split_at_a_slash_gets_the_rest_as_its_arguments() -> None:
    """S-RULE-54: `ping/n 1 localhost` is ping with `/n 1 localhost`."""
    assert ("ping", ("/n", "1", "localhost")) in _ops('cmd /c "ping/n 1 localhost"')


# -- S-RULE-55 ----------------------------------------------------------------------------


@requirement("S-RULE-55")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "$x = [char[]]'stsoh\\cte\\srevird\\23metsyS\\swodniW\\:C'; [array]::Reverse($x); Remove-Item (-join $x)",
            ("dynamic-command", "ask"),
        ),
        ("$x = 'abc'.ToCharArray(); [Array]::Sort($x); Remove-Item (-join $x)", ("dynamic-command", "ask")),
        (
            "$l = [Collections.ArrayList]@('C:\\t\\a'); $l.Clear(); "
            "$l.Add('C:\\Windows\\System32\\drivers\\etc\\hosts'); Remove-Item $l",
            ("dynamic-command", "ask"),
        ),
        ("$a = @('C:\\t\\a'); $b = @('x'); $a.CopyTo($b, 0); Remove-Item $b", ("dynamic-command", "ask")),
        ("function f($p = (Remove-Item C:\\Users\\me\\Documents -Recurse)) {}; f", ("protected-place-delete", "deny")),
        ("function f($p = (Stop-Computer -Force)) { Get-Date }", ("shutdown-restart", "deny")),
        ("$paths = @('C:\\t\\a', 'C:\\t\\b'); $paths.Count; Remove-Item $paths", None),
        ("$paths = @('C:\\t\\a', 'C:\\t\\b'); [string]::Join(',', $paths); Remove-Item $paths", None),
        ("$s = 'C:\\t\\a'; $s.Replace('a', 'b') | Out-Null; Remove-Item $s", None),
        ("function f([string]$p = 'C:\\t', [switch]$Force) { Get-ChildItem $p }; f", None),
    ],
    ids=[
        "array-reverse",
        "array-sort",
        "list-cleared",
        "copied-into",
        "default-runs",
        "default-of-unused-function",
        "property-read",
        "pure-static",
        "string-method",
        "ordinary-defaults",
    ],
)
def test_values_changed_in_place_and_parameter_defaults(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-55: an array a method may change is no longer constant; a parameter's default value is walked."""
    assert _hit(command) == expected


# -- S-RULE-56 ----------------------------------------------------------------------------


@requirement("S-RULE-56")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "Import-Certificate -FilePath C:\\t\\evil.cer -CertStoreLocation Cert:\\LocalMachine\\Root",
            ("security-weakening", "deny"),
        ),
        (
            "Import-PfxCertificate C:\\t\\x.pfx -CertStoreLocation Cert:\\CurrentUser\\Root",
            ("security-weakening", "deny"),
        ),
        (
            "Import-Certificate C:\\t\\x.cer -CertStoreLocation Cert:\\LocalMachine\\TrustedPublisher",
            ("security-weakening", "deny"),
        ),
        ("Import-Certificate C:\\t\\x.cer -CertStoreLocation $store", ("security-weakening", "deny")),
        ("certutil -addstore root C:\\t\\evil.cer", ("security-weakening", "deny")),
        ("certutil -user -f -addstore Root C:\\t\\evil.cer", ("security-weakening", "deny")),
        ("certutil -addstore AuthRoot C:\\t\\evil.cer", ("security-weakening", "deny")),
        ("Enable-NetFirewallRule -DisplayGroup 'Remote Desktop'", ("security-weakening", "deny")),
        (
            "Set-NetFirewallRule -DisplayGroup 'Windows Remote Management' -Enabled True",
            ("security-weakening", "deny"),
        ),
        (
            'netsh advfirewall firewall set rule group="remote desktop" new enable=Yes',
            ("security-weakening", "deny"),
        ),
        ("Import-Certificate -FilePath C:\\t\\x.cer -CertStoreLocation Cert:\\CurrentUser\\My", None),
        ("certutil -addstore my C:\\t\\x.cer", None),
        ("Enable-NetFirewallRule -DisplayGroup 'Core Networking'", None),
        ("Disable-NetFirewallRule -DisplayGroup 'Remote Desktop'", None),
        ("Set-NetFirewallRule -DisplayGroup 'Remote Desktop' -Enabled False", None),
        ("Get-NetFirewallRule -DisplayGroup 'Remote Desktop'", None),
        ('netsh advfirewall firewall set rule group="Network Discovery" new enable=Yes', None),
    ],
    ids=[
        "import-root",
        "import-pfx-root",
        "import-trusted-publisher",
        "import-unknown-store",
        "certutil-root",
        "certutil-user-root",
        "certutil-authroot",
        "enable-rdp-rules",
        "enable-winrm-rules",
        "netsh-enable-rdp-rules",
        "import-my",
        "certutil-my",
        "enable-core-networking",
        "disable-rdp-rules",
        "set-rdp-rules-off",
        "list-rdp-rules",
        "netsh-network-discovery",
    ],
)
def test_trusted_certificates_and_remote_firewall_groups(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-56: a certificate made trusted, or remote-control firewall rules switched on, weaken the machine."""
    assert _hit(command) == expected


# -- S-RULE-57 ----------------------------------------------------------------------------


@requirement("S-RULE-57")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("New-SmbShare -Name c -Path C:\\ -FullAccess Everyone", ("network-change", "ask")),
        ("Set-SmbShare -Name data -FolderEnumerationMode Unrestricted -Force", ("network-change", "ask")),
        ("Grant-SmbShareAccess -Name data -AccountName Everyone -AccessRight Full", ("network-change", "ask")),
        ("net share c=C:\\ /grant:everyone,full", ("network-change", "ask")),
        ("powershell -version 2 -c Get-Date", ("security-weakening", "deny")),
        ("powershell.exe -v 2.0 -nop -c Get-Date", ("security-weakening", "deny")),
        ("Get-SmbShare", None),
        ("net share", None),
        ("net share data /delete", None),
        ("powershell -Version 5.1 -c Get-Date", None),
        ("powershell -NoProfile -c Get-Date", None),
    ],
    ids=[
        "new-share",
        "set-share",
        "grant-share",
        "net-share",
        "powershell-2",
        "powershell-2-abbreviated",
        "list-shares",
        "net-share-list",
        "net-share-delete",
        "powershell-5",
        "powershell",
    ],
)
def test_shares_ask_and_powershell_2_weakens(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-57: a new or widened share asks; PowerShell 2.0 started on purpose is a security weakening."""
    assert _hit(command) == expected


# -- S-RULE-58 ----------------------------------------------------------------------------

_OTM = "C:\\Users\\me\\AppData\\Roaming\\Microsoft\\Outlook\\VbaProject.OTM"


@requirement("S-RULE-58")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("FileSystem", {"mode": "write", "path": _OTM, "content": "x"}, ("persistence-autostart", "ask")),
        ("PowerShell", {"command": f"Copy-Item C:\\t\\x.otm '{_OTM}'"}, ("persistence-autostart", "ask")),
        ("FileSystem", {"mode": "read", "path": _OTM}, None),
        ("PowerShell", {"command": f"Get-Item '{_OTM}'"}, None),
    ],
    ids=["write", "copy-onto", "read", "get-item"],
)
def test_outlooks_macro_project_is_a_startup_place(
    tool: str, args: dict[str, object], expected: tuple[str, str] | None
) -> None:
    """S-RULE-58: what is written into Outlook's VbaProject.OTM runs when Outlook starts."""
    hit = RULES.match(tool, args)
    assert (None if hit is None else (hit.rule_id, hit.action)) == expected


# -- S-RULE-59 ----------------------------------------------------------------------------

_HOSTS = "C:\\Windows\\System32\\drivers\\etc\\hosts"


@requirement("S-RULE-59")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"$w = [IO.StreamWriter]::new('{_HOSTS}')", ("protected-place-write", "deny")),
        (f"[System.IO.StreamWriter]::new('{_HOSTS}', $true)", ("protected-place-write", "deny")),
        (f"New-Object IO.StreamWriter '{_HOSTS}'", ("protected-place-write", "deny")),
        # `('…')` glued to the type is its own argument, folded (S-RULE-77): the hosts file's write
        (f"$w = New-Object IO.StreamWriter('{_HOSTS}')", ("protected-place-write", "deny")),
        (
            '[IO.StreamReader]::new("$env:LOCALAPPDATA\\Google\\Chrome\\User Data\\Default\\Login Data")',
            ("credential-access", "deny"),
        ),
        ("New-Object System.IO.StreamReader 'C:\\Users\\me\\.aws\\credentials'", ("credential-access", "deny")),
        (
            "[System.IO.Compression.ZipFile]::ExtractToDirectory('C:\\t\\x.zip', 'C:\\Windows\\System32')",
            ("protected-place-write", "deny"),
        ),
        (
            "[IO.Compression.ZipFile]::CreateFromDirectory(\"$env:APPDATA\\Microsoft\\Protect\", 'C:\\t\\p.zip')",
            ("credential-access", "deny"),
        ),
        ("tar -xf C:\\t\\x.tar -C C:\\Windows\\System32", ("protected-place-write", "deny")),
        ("tar xf C:\\t\\x.tar -C C:\\Windows\\System32", ("protected-place-write", "deny")),
        ("tar -xvzf C:\\t\\x.tgz --directory=C:\\Windows\\System32", ("protected-place-write", "deny")),
        ("cd C:\\Windows\\System32; tar -xf C:\\t\\x.tar", ("protected-place-write", "deny")),
        ("$w = [IO.StreamWriter]::new('C:\\t\\log.txt')", None),
        ("$w = [IO.StreamWriter]::new($stream)", None),
        ("[IO.Compression.ZipFile]::ExtractToDirectory('C:\\t\\x.zip', 'C:\\t\\out')", None),
        ("tar -xf C:\\Users\\me\\Downloads\\x.tar.gz -C C:\\t", None),
        ("tar -tf C:\\t\\x.tar", None),
        ("tar -cf C:\\t\\src.tar C:\\Users\\me\\proj", None),
    ],
    ids=[
        "stream-writer",
        "stream-writer-append",
        "new-object-writer",
        "new-object-writer-glued",
        "stream-reader-login-data",
        "new-object-reader-aws",
        "zip-extract-system32",
        "zip-dpapi-keys",
        "tar-extract",
        "tar-old-style",
        "tar-directory",
        "tar-current-folder",
        "ordinary-writer",
        "writer-on-a-stream",
        "ordinary-zip",
        "ordinary-tar",
        "tar-list",
        "tar-create",
    ],
)
def test_stream_writers_zip_and_tar_write_where_they_point(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-59: StreamWriter/StreamReader, ZipFile and `tar -x` are writes and reads of their paths."""
    assert _hit(command) == expected


@requirement("S-RULE-57")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("logman stop EventLog-Security -ets", ("security-weakening", "deny")),
        ('logman delete "EventLog-System" -ets', ("security-weakening", "deny")),
        (
            "logman update trace EventLog-Application --p Microsoft-Windows-Kernel-Process -ets",
            ("security-weakening", "deny"),
        ),
        (
            'Remove-EtwTraceProvider -AutologgerName EventLog-Security -Guid "{54849625-5478-4994-A5BA-3E3B0328C30D}"',
            ("security-weakening", "deny"),
        ),
        ("Stop-EtwTraceSession -Name EventLog-System", ("security-weakening", "deny")),
        ("Remove-AutologgerConfig -Name SysmonDnsEtwSession", ("security-weakening", "deny")),
        ("logman query -ets", None),
        ("logman start mytrace -p Microsoft-Windows-TCPIP -ets", None),
        ("logman stop mytrace -ets", None),
        ("Stop-EtwTraceSession -Name MyTrace", None),
    ],
    ids=[
        "stop",
        "delete",
        "update",
        "remove-provider",
        "stop-cmdlet",
        "remove-autologger",
        "query",
        "start-own",
        "stop-own",
        "stop-own-cmdlet",
    ],
)
def test_stopping_an_event_log_trace_session_weakens_logging(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-57: an event-log or monitoring trace session stopped, deleted or changed is a security weakening."""
    assert _hit(command) == expected


@requirement("S-RULE-50")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "Get-WmiObject -List Win32_Process | % { $_.Create('cmd /c rd /s /q C:\\Users\\me') }",
            ("protected-place-delete", "deny"),
        ),
        (
            "(New-Object -ComObject MMC20.Application).Document.ActiveView."
            "ExecuteShellCommand('cmd',$null,'/c rd /s /q C:\\Users\\me','7')",
            ("protected-place-delete", "deny"),
        ),
        (
            "[Activator]::CreateInstance([Type]::GetTypeFromCLSID('9BA05972-F6A8-11CF-A442-00A0C90A8F39')).Item()."
            "Document.Application.ShellExecute('cmd','/c rd /s /q C:\\Users\\me','C:\\',$null,0)",
            ("protected-place-delete", "deny"),
        ),
        ("$x.ShellExecute('cmd', $arguments)", ("dynamic-command", "ask")),
        ("$x.ShellExecute('notepad.exe', 'C:\\t\\a.txt')", None),
        ("$x.ExecuteShellCommand('calc', $null, '', '7')", None),
        ("$d = New-Object IO.DirectoryInfo C:\\t\\x; $d.Create()", None),
    ],
    ids=["wmi-class-create", "mmc20", "shellwindows", "unknown-arguments", "notepad", "calc", "directory-create"],
)
def test_methods_that_start_programs_on_untyped_objects(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-50: `.Create`, `.ShellExecute` and `.ExecuteShellCommand` on an untyped object start what they name."""
    assert _hit(command) == expected


@requirement("S-RULE-44")
def test_a_property_with_a_quoted_value_is_one_argument() -> None:
    """S-RULE-44: `PROP="a b"` is one argument, `PROP=a b`, as PowerShell hands it to a program."""
    assert ("msiexec", ("/i", "x.msi", "TARGETDIR=C:\\Program Files\\x", "/qn")) in _ops(
        'msiexec /i x.msi TARGETDIR="C:\\Program Files\\x" /qn'
    )
