"""Effects, operations and layers the gateway reads from single commands; found by mutation testing.

Each test pins one behaviour a random sample of surviving mutants of policy/ showed untested: what a
command deletes, kills, writes or starts (its effects), what the cmd.exe and PowerShell analysers say a
line runs (its operations), and the layers the text rules see. Expectations are written from what the
commands do on Windows (cmd.exe, Windows PowerShell 5.1 and the tools' own documented switches).
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.effects_common import effect
from policy.rules.normalize import expand, normalise
from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.dispatch import analyse_program, analyse_tool
from policy.rules.shell.ops import Analysis, Effect, EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind

OpRow = tuple[str, str, tuple[tuple[str, str | None], ...], tuple[str | None, ...], int]


def _ops(analysis: Analysis) -> list[OpRow]:
    return [(o.shell, o.name, o.params, o.args, o.depth) for o in analysis.operations]


def _ps(command: str) -> Analysis:
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    return analysis


# ---------------------------------------------------------------------------------------
# Effects of whole commands


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"Remove-Item -Path C:\Temp\x.txt, HKCU:\Software\Contoso",
            (
                effect(K.DELETE, r"C:\Temp\x.txt", "Remove-Item"),
                effect(K.REGISTRY_DELETE, r"HKCU:\Software\Contoso", "Remove-Item (registry key)"),
            ),
            id="remove-item-file-then-key-deletes-both",
        ),
        pytest.param(
            r"Set-Content C:\Temp\notes.txt hello",
            (effect(K.WRITE, r"C:\Temp\notes.txt", "Set-Content"),),
            id="set-content-writes-its-file",
        ),
        pytest.param(
            r"bitsadmin /transfer job /upload http://files.contoso.com/in/report.csv C:\Temp\report.csv",
            (
                effect(
                    K.DOWNLOAD_EXECUTE,
                    "http://files.contoso.com/in/report.csv",
                    "bitsadmin /transfer (LOLBin download)",
                ),
                effect(K.WRITE, r"C:\Temp\report.csv", "bitsadmin download"),
                effect(K.UPLOAD, r"C:\Temp\report.csv", "bitsadmin /upload"),
            ),
            id="bitsadmin-upload-is-an-upload-of-the-local-file",
        ),
        pytest.param("route -f", (effect(K.NETWORK_CHANGE, None, "route -f"),), id="route-f-clears-routes"),
        pytest.param(
            r"$p = Get-Process -Name notepad; $p.Kill(); Get-Process -Name calc",
            (effect(K.KILL_FORCED, "notepad", ".Kill() of Get-Process"),),
            # `.Kill()` acts on the processes fetched before it, not on a later Get-Process.
            id="kill-of-the-earlier-get-process",
        ),
        pytest.param(
            r"Get-CimInstance Win32_Process -Filter \"Name='notepad.exe'\" | Invoke-CimMethod -MethodName Terminate",
            (effect(K.KILL_FORCED, "notepad.exe", "Win32_Process terminate"),),
            id="cim-terminate-kills-the-selected-process",
        ),
        pytest.param(
            "Get-WmiObject Win32_NTEventlogFile | Invoke-WmiMethod -Name ClearEventlog",
            (effect(K.LOG_CLEAR, None, "Win32_NTEventlogFile ClearEventlog"),),
            id="wmi-cleareventlog-clears-logs",
        ),
        pytest.param(
            "(Get-WmiObject Win32_NTEventlogFile -Filter \"LogFileName='Security'\").ClearEventlog()",
            (effect(K.LOG_CLEAR, None, "Win32_NTEventlogFile.ClearEventlog"),),
            id="cleareventlog-method-without-arguments",
        ),
        pytest.param(
            'rundll32.exe \'vbscript:"\\..\\mshtml,RunHTMLApplication "+String(CreateObject("WScript.Shell")'
            '.Run("calc.exe"),0)\'',
            (effect(K.DOWNLOAD_EXECUTE, None, "rundll32 javascript:"),),
            # vbscript: runs script text like javascript: does; it is reported as that, not as mshtml.dll
            id="rundll32-vbscript-is-script",
        ),
        pytest.param(
            "rundll32.exe url.dll,OpenURL",
            (effect(K.DOWNLOAD_EXECUTE, None, "rundll32 url.dll"),),
            # the only word is the dll and its entry point: no address is given, so none is named
            id="rundll32-openurl-without-address",
        ),
        pytest.param(
            "dism /online /enable-feature /featurename:SMB1Protocol",
            (effect(K.SECURITY_WEAKENING, None, "smb1", extra=(("command", "dism /enable-feature SMB1Protocol"),)),),
            id="dism-enable-smb1",
        ),
        pytest.param(
            r"& 'C:\Program Files\Windows Defender\MpCmdRun.exe' -Scan -ScanType 1",
            # started by its path (S-RULE-164), and nothing weakened
            (effect(K.EXECUTE, r"C:\Program Files\Windows Defender\MpCmdRun.exe", "started from its path"),),
            id="mpcmdrun-scan-weakens-nothing",
        ),
        pytest.param(
            "Add-LocalGroupMember -Group Administrators -Member bob",
            (effect(K.ACCOUNT_CHANGE, "Administrators", "Add-LocalGroupMember", extra=(("member", "bob"),)),),
            id="add-localgroupmember-names-the-member",
        ),
        pytest.param(
            'dsmod user "CN=Bob,OU=Staff,DC=corp,DC=local" -disabled yes',
            (effect(K.ACCOUNT_CHANGE, "CN=Bob,OU=Staff,DC=corp,DC=local", "dsmod user"),),
            id="dsmod-user-changes-the-account",
        ),
        pytest.param(
            r"secedit /import /db C:\Temp\sec.sdb /cfg C:\Temp\weak.inf",
            (effect(K.ACCOUNT_CHANGE, None, "secedit /configure (security policy)"),),
            id="secedit-import-changes-policy",
        ),
        pytest.param(
            r"secedit /export /cfg C:\Temp\secpol.inf",
            (effect(K.WRITE, r"C:\Temp\secpol.inf", "secedit /export"),),
            id="secedit-export-writes-the-cfg-file",
        ),
        pytest.param(
            r"shutdown /r /m \\FILESERVER01 /t 0",
            (effect(K.POWER, r"\\FILESERVER01", "shutdown /r"),),
            id="shutdown-m-names-the-remote-machine",
        ),
        pytest.param(
            'vaultcmd /deletecreds:"Windows Credentials" /credtype:"Windows Domain Password Credential" '
            '/identity:"fs01\\bob"',
            (effect(K.ACCOUNT_CHANGE, None, "vaultcmd /addcreds"),),
            id="vaultcmd-deletecreds-changes-credentials",
        ),
        pytest.param(
            r"$w = New-Object IO.StreamWriter('C:\Temp\out.txt')",
            (effect(K.WRITE, r"C:\Temp\out.txt", "New-Object io.streamwriter"),),
            id="new-object-streamwriter-writes-its-file",
        ),
        pytest.param(
            "wevtutil sl Security /ms:65536",
            (effect(K.LOG_CLEAR, "Security", "wevtutil sl /ms (log shrunk)"),),
            id="wevtutil-ms-shrinks-the-log",
        ),
    ],
)
def test_a_command_has_the_effects_windows_gives_it(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: each command's effects, with kind, target and the detail a refusal quotes."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(r"reg query HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run /se '#'", id="reg-query-se"),
    ],
)
def test_a_switch_value_is_not_a_key(command: str) -> None:
    """S-RULE-18: `reg query … /se <char>` reads one key; the separator is the switch's value, not a key."""
    assert _effects(command) == (effect(K.READ, r"HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run", "reg query"),)


@requirement("S-RULE-18")
def test_regedit_export_of_everything_reads_the_whole_registry() -> None:
    """S-RULE-18: `regedit /e file` without a key exports the whole registry into the file."""
    assert _effects(r"regedit /e C:\Temp\all.reg") == (
        effect(K.READ, "hklm", "regedit export", extra=(("recursive", "true"),)),
        effect(K.WRITE, r"C:\Temp\all.reg", "regedit export"),
    )


@requirement("S-RULE-18")
def test_a_registry_setvalue_names_its_own_key_not_an_earlier_one() -> None:
    """S-RULE-18: `[Registry]::SetValue` names its full key; a key opened earlier in a variable is not its base."""
    command = (
        r"$k = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\Contoso'); "
        r"[Microsoft.Win32.Registry]::SetValue('HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run', "
        r"'Updater', 'C:\Users\Public\u.exe')"
    )
    assert _effects(command) == (
        effect(
            K.REGISTRY_SET,
            r"HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run",
            "[Registry]::SetValue",
            value_name="Updater",
            data=r"C:\Users\Public\u.exe",
        ),
    )


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(r"net use Z: \\srv\tools; Set-Location Z:\; setup.exe", id="net-use"),
        pytest.param(
            r"New-PSDrive -Name Z -PSProvider FileSystem -Root \\srv\tools -Persist; cd Z:\; setup.exe", id="psdrive"
        ),
    ],
)
def test_a_program_started_in_a_mapped_share_runs_from_another_machine(command: str) -> None:
    """S-RULE-18: a drive mapped to a share in the same command is another machine's folder."""
    started = [e for e in _effects(command) if e.detail == "started in another machine's folder"]
    assert [e.kind for e in started] == [K.EXECUTE]


@requirement("S-SELF-10")
def test_self_protection_reason_quotes_a_long_process_name_to_80_characters() -> None:
    """S-SELF-10: the refusal quotes the process as written, cut to its first 80 characters."""
    target = r"C:\Users\alice\AppData\Local\Packages\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\python"
    hits = judge_call("PowerShell", {"command": f"Stop-Process -Name '{target}'"}, own_processes=("python",)).hits
    reasons = [h.reason for h in hits if h.rule_id == "self-protection"]
    assert len(reasons) == 1
    assert f"ending {target[:80]!r} would end the gateway itself" in reasons[0]


# ---------------------------------------------------------------------------------------
# Text layers


@requirement("S-RULE-03")
def test_sc_exe_with_a_machine_name_is_the_service_program() -> None:
    """S-RULE-03: `sc.exe \\\\host stop X` is the service-control program, whatever follows the name."""
    assert normalise(r"sc.exe \\fileserver stop WinDefend").startswith("sc.exe ")


@requirement("S-RULE-03")
def test_sh_c_layer_is_its_command() -> None:
    """S-RULE-03: `sh -c "…"` is read as the command it runs, like `bash -c`."""
    assert expand('sh -c "rm -rf /mnt/c/Users"') == ['sh -c "rm -rf /mnt/c/users"', "remove-item -rf /mnt/c/users"]


# ---------------------------------------------------------------------------------------
# What the analysers say a line runs


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            r"if exist C:\Temp\x.txt (echo yes) else del C:\Temp\y.txt",
            [("cmd", "echo", (), ("yes",), 0), ("cmd", "del", (), (r"C:\Temp\y.txt",), 0)],
            id="else-without-parentheses",
        ),
        pytest.param(
            r'set "X=C:\Temp\old',
            [("cmd", "set", (), ("X", r"C:\Temp\old"), 0)],
            # cmd drops the opening quote; with no closing one the value runs to the end of the line
            id="set-with-an-unclosed-quote",
        ),
        pytest.param(
            r"start /DC:\Tools setup.exe",
            [("cmd", "start", (("d", r"C:\Tools"),), ("setup.exe",), 0), ("program", "setup", (), (), 1)],
            id="start-d-glued-folder",
        ),
        pytest.param(
            r"\\srv\tools\setup.exe /quiet",
            [
                ("program", "<run>", (), (r"\\srv\tools\setup.exe",), 0),
                ("program", "setup", (), ("/quiet",), 0),
            ],
            id="program-from-a-share-same-depth",
        ),
    ],
)
def test_cmd_line_operations(line: str, expected: list[OpRow]) -> None:
    """S-RULE-15: what one cmd.exe line runs, at which depth."""
    assert _ops(analyse_cmd(line)) == expected


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"cmd /c start notepad.exe",
            [
                ("program", "cmd", (), ("/c", "start", "notepad.exe"), 0),
                ("cmd", "start", (), ("notepad.exe",), 1),
                ("program", "notepad", (), (), 2),
            ],
            id="start-inside-cmd-is-one-level-deeper",
        ),
        pytest.param(
            r"[PowerShell]::Create().AddScript('Remove-Item C:\Temp\x -Recurse').Invoke()",
            [
                ("dotnet", "system.management.automation.powershell::create", (), (), 0),
                ("powershell", "remove-item", (("recurse", "true"),), (r"C:\Temp\x",), 1),
            ],
            id="powershell-create-runs-its-script",
        ),
        pytest.param(
            r"$ExecutionContext.InvokeCommand.InvokeScript('Remove-Item C:\Temp\x')",
            [("powershell", "remove-item", (), (r"C:\Temp\x",), 1)],
            id="invokecommand-invokescript",
        ),
        pytest.param(
            r"$c = $ExecutionContext.InvokeCommand.GetCmdlet('Remove-Item'); & $c C:\Temp\x",
            [("powershell", "remove-item", (), (r"C:\Temp\x",), 0)],
            id="getcmdlet-names-the-cmdlet",
        ),
        pytest.param(
            r"foreach ($f in 'C:\Temp\a','C:\Temp\b') { Remove-Item $f }",
            [
                ("powershell", "remove-item", (), (r"C:\Temp\a",), 0),
                ("powershell", "remove-item", (), (r"C:\Temp\b",), 0),
            ],
            id="foreach-body-runs-for-each-item",
        ),
        pytest.param(
            r"Copy-Item $env:TEMP\x -Destination:C:\Backup",
            [("powershell", "copy-item", (("destination", r"C:\Backup"),), (r"$env:TEMP\x",), 0)],
            # the parameter name ends at its first colon; the value may hold colons of its own
            id="recovered-command-colon-value",
        ),
        pytest.param(
            r"rundll32.exe shell32.dll, ShellExec_RunDLL cmd.exe /c del C:\Temp\x",
            [
                (
                    "program",
                    "rundll32",
                    (),
                    ("shell32.dll,", "ShellExec_RunDLL", "cmd.exe", "/c", "del", r"C:\Temp\x"),
                    0,
                ),
                ("program", "cmd", (), ("/c", "del", r"C:\Temp\x"), 1),
                ("cmd", "del", (), (r"C:\Temp\x",), 2),
            ],
            id="rundll32-shellexec-with-a-blank-after-the-comma",
        ),
        pytest.param(
            r"rundll32.exe 'shell32.dll, ShellExec_RunDLL' cmd.exe /c del C:\Temp\x",
            [
                ("program", "rundll32", (), ("shell32.dll, ShellExec_RunDLL", "cmd.exe", "/c", "del", r"C:\Temp\x"), 0),
                ("program", "cmd", (), ("/c", "del", r"C:\Temp\x"), 1),
                ("cmd", "del", (), (r"C:\Temp\x",), 2),
            ],
            # quoted, the blank stays inside the dll,entry word: blanks there are still not part of the names
            id="rundll32-shellexec-quoted-with-a-blank",
        ),
    ],
)
def test_powershell_operations(command: str, expected: list[OpRow]) -> None:
    """S-RULE-15: what one PowerShell command runs, nested commands one level deeper."""
    assert _ops(_ps(command)) == expected


@requirement("S-RULE-15")
def test_python_m_takes_the_next_word_as_the_module() -> None:
    """S-RULE-15: `python -m -c …` names a module called `-c` (Python fails to find it): no inline code runs."""
    assert analyse_program("python", ["-m", "-c", "print(1)"], 0) == Analysis()


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r'gci $env:TEMP\x "C:\Temp\y"',
            [("powershell", "get-childitem", (), (r"$env:TEMP\x", r"C:\Temp\y"), 0)],
            # two words a blank separates are two arguments, not an array; the quotes are not part of it
            id="recovered-command-two-arguments",
        ),
        pytest.param(
            r"$c = 'Microsoft.PowerShell.Management\Remove-Item'; & $c C:\Temp\x",
            [("powershell", "remove-item", (), (r"C:\Temp\x",), 0)],
            id="module-qualified-name-in-a-variable",
        ),
    ],
)
def test_powershell_operations_more(command: str, expected: list[OpRow]) -> None:
    """S-RULE-15: commands the grammar breaks or names through a variable still name what they run."""
    assert _ops(_ps(command)) == expected


@requirement("S-RULE-15")
def test_start_read_as_a_program_keeps_its_depth() -> None:
    """S-RULE-15: `start` met as a program at depth 2 is a cmd line at that depth; what it starts is one deeper."""
    assert _ops(analyse_program("start", ["notepad.exe"], 2)) == [
        ("cmd", "start", (), ("notepad.exe",), 2),
        ("program", "notepad", (), (), 3),
    ]


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("command", "dynamic"),
    [
        pytest.param(r"conhost.exe $prog", ("a wrapper starts a program whose name is not constant",), id="conhost"),
        pytest.param(
            r"Invoke-WmiMethod Win32_Share -Name Create -ArgumentList 'C:\Temp', 'tmp', 0",
            (),
            # Win32_Share.Create makes a share; it starts no process
            id="another-class-create-is-not-a-process",
        ),
    ],
)
def test_what_the_analyser_cannot_read(command: str, dynamic: tuple[str, ...]) -> None:
    """S-RULE-15: the sentence a command the analyser cannot follow gives, and none for one it can."""
    assert _ps(command).dynamic == dynamic


def _nested_iex(levels: int) -> str:
    command = r"Remove-Item C:\Temp\x"
    for _ in range(levels):
        command = "iex '" + command.replace("'", "''") + "'"
    return command


@requirement("S-RULE-11")
@pytest.mark.parametrize(("levels", "failed"), [(8, None), (9, "too deeply nested")])
def test_nested_iex_is_followed_to_eight_levels(levels: int, failed: str | None) -> None:
    """S-RULE-11: text run by `iex` is followed eight levels deep; a ninth level is refused as too deep."""
    assert _ps(_nested_iex(levels)).failed == failed


@requirement("S-RULE-11")
@pytest.mark.parametrize(("calls", "capped"), [(64, False), (65, True)])
def test_function_calls_are_followed_up_to_the_cap(calls: int, capped: bool) -> None:
    """S-RULE-11: a function is re-walked at each of up to 64 calls; the 65th says the analysis stopped."""
    command = r"function f { Remove-Item C:\Temp\x }; " + "; ".join(["f"] * calls)
    expected = ("too many nested invocations of script blocks and functions to follow",) if capped else ()
    assert _ps(command).dynamic == expected
