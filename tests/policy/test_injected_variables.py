"""Code that holds an environment variable's value (S-RULE-219).

PowerShell fills `$env:P` into a native program's arguments, and cmd fills `%P%` into its line before it reads it:
when that program runs its arguments as code (`powershell -c $env:P`, `cmd /c echo %P%`, `wsl $env:P`,
`$shell.Exec($env:P)`), the variable's value is code. An earlier, approved `setx P …` (or anything the gateway does
not see) can have stored a whole command there, so code holding a variable nobody can read here is not constant:
it asks. A variable the same script set is read for what it holds, in cmd too: `$env:P = 'x & rd /s /q C:\\x';
cmd /c echo %P%` deletes, and is judged as the delete.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.winenv import MACHINE_DEFINED, injected_variable, unknown_variable
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, reason_of

ASKED = ("dynamic-command", "ask")
DELETE = ("protected-place-delete", "deny")


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    "command",
    [
        r"powershell -c $env:P",
        r"powershell -Command $env:P",
        r"powershell -NoProfile $env:P",  # the first positional argument is command text
        r'pwsh -c "$env:P"',
        r'powershell -c "Write-Output $env:P"',  # the value may end the Write-Output and start another command
        r"powershell -c ${env:P}",
        r"cmd /c $env:P",
        r"cmd /c echo $env:P",
        r'Start-Process cmd -ArgumentList "/c $env:P"',
        r'Start-Process powershell -ArgumentList "-c $env:P"',
        r"Start-Process powershell -ArgumentList '-NoP','-W','Hidden','-C',$env:P",
        r'[Diagnostics.Process]::Start("powershell", "-c $env:P")',
        r'(New-Object -ComObject Shell.Application).ShellExecute("powershell", "-c $env:P")',
        r"$s = New-Object -ComObject WScript.Shell; $s.Exec($env:P)",
        r'$s = New-Object -ComObject WScript.Shell; $s.Run("cmd /c $env:P")',
        r'$s = New-Object -ComObject WScript.Shell; $s.Run("$env:TOOLS\run.exe --all")',  # a whole line from a value
        r"([wmiclass]'Win32_Process').Create($env:P)",
        r"Invoke-WmiMethod Win32_Process Create $env:P",
        r"Invoke-CimMethod Win32_Process -MethodName Create -Arguments @{CommandLine = $env:P}",
        r"bash -c $env:P",
        r"wsl $env:P",
        r"wsl -e sh -c $env:P",
        r"$n = 'P'; powershell -c $env:P",  # a PowerShell variable of the same name is not the environment's
    ],
)
def test_code_that_holds_a_variable_powershell_fills_in_asks(command: str) -> None:
    """S-RULE-219: every starter PowerShell hands a command line or script text, each interpreter that runs it."""
    assert ps(command) == ASKED


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    "command",
    [
        r"cmd /c echo %P%",
        r'cmd /c "echo %P% > C:\t\out.txt"',
        r"cmd /c type %P%\notes.txt",  # a read too: the value may hold `& rd /s /q C:\`
        r"cmd /c set X=%P%",
        r"cmd /c echo %P:~0,4%",
        r"cmd /c powershell -c %P%",
        r'cmd /c "set Q=1&& echo %Q% %P%"',
    ],
)
def test_a_cmd_line_that_holds_a_variable_nobody_set_asks(command: str) -> None:
    """S-RULE-219: cmd replaces `%P%` before it splits the line into commands, so the value is part of the line."""
    assert ps(command) == ASKED


@requirement("S-RULE-219")
def test_the_reason_names_the_variable_and_why() -> None:
    """S-RULE-219: the person asked sees which variable, and that its value runs as code."""
    assert "powershell runs command text holding $env:P, an environment variable with no standard value" in reason_of(
        "powershell -c $env:P"
    )
    assert "the line holds %P%, a variable with no standard value that cmd replaces before it reads the line" in (
        reason_of("cmd /c echo %P%")
    )


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"$env:P = 'x & rd /s /q C:\Windows\System32'; cmd /c echo %P%", ("protected-place-delete", "deny")),
        (r"$env:P = 'rd /s /q C:\Windows\System32'; cmd /c %P%", ("protected-place-delete", "deny")),
        (
            r"$env:P = 'Remove-Item -Recurse -Force C:\Windows'; cmd /c powershell -c %P%",
            ("protected-place-delete", "deny"),
        ),
        (r"Set-Item env:P 'del /q C:\Windows\System32\hal.dll'; cmd /c %P%", ("protected-place-delete", "deny")),
        (
            r"$env:P = 'Remove-Item -Recurse -Force C:\Windows'; powershell -c $env:P",
            ("protected-place-delete", "deny"),
        ),
        (r"Set-Item env:P 'C:\Windows\System32'; cmd /c del %P%\hal.dll", ("protected-place-delete", "deny")),
        (r"New-Item -Path Env:\P -Value 'C:\Windows'; Remove-Item $env:P -Recurse", ("protected-place-delete", "deny")),
        (r"Set-Item env:P 'C:\t'; Remove-Item $env:P\old.log", None),  # known now: no longer a path nobody can name
        (r"[Environment]::SetEnvironmentVariable('P', 'x & rd /s /q C:\Windows\System32'); cmd /c echo %P%", DELETE),
        (
            r"[Environment]::SetEnvironmentVariable('P', 'C:\Windows\System32', 'Process'); Remove-Item $env:P\hal.dll",
            DELETE,
        ),
        (r"[Environment]::SetEnvironmentVariable('P', 'C:\t'); Remove-Item $env:P\old.log", None),
        (
            r"[Environment]::SetEnvironmentVariable('P', 'C:\t', $scope); Remove-Item $env:P\old.log",
            ("environment-change", "ask"),
        ),
        (r"$env:P = Get-Content C:\t\cmd.txt -Raw; cmd /c echo %P%", ASKED),  # set, to a value nobody can read
    ],
)
def test_a_variable_the_script_set_is_what_the_programs_it_starts_see(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-219: the environment a script sets (`$env:P =`, the `env:` drive, `SetEnvironmentVariable` for this
    process) is its programs' environment: cmd expands the value it was given; one set to a value nobody can read, or
    in a scope not known, asks."""
    assert ps(command) == expected


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    "command",
    [
        r"powershell -c '$env:P'",  # as written: the inner PowerShell reads the variable, and only prints it
        r"cmd /c 'echo $env:P'",  # cmd does not expand PowerShell's spelling
        r"$s = New-Object -ComObject WScript.Shell; $s.Run('$env:P')",  # as written: no value filled in
        r'powershell -NoProfile -Command "Get-ChildItem $env:USERPROFILE"',  # a standard variable
        r'powershell -c "Write-Output $env:PATH"',  # one every machine defines
        r"cmd /c echo %PATH% %DATE% %USERPROFILE%",
        r"$env:P = 'Get-Date'; powershell -c $env:P",
        r"$env:P = 'hello'; cmd /c echo %P%",
        r"cmd /c for %i in (*.txt) do @echo %i",
        r'Get-Content "$env:P\notes.txt"',  # PowerShell's own read: no text is run (S-RULE-122)
        r'& "$env:JAVA_HOME\bin\java.exe" -version',  # a program by its path: its arguments are no code
        r"Start-Process notepad $env:TEMP\x.txt",
    ],
)
def test_printing_standard_variables_and_a_known_value_pass(command: str) -> None:
    """S-RULE-219: a variable passed as written, a standard or machine-defined one, or one the script set."""
    assert ps(command) != ASKED


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    ("scenario", "text", "expected"),
    [
        ("console-powershell", "powershell -c $env:P", ASKED),
        ("console-powershell", "cmd /c echo %P%", ASKED),
        ("console-cmd", "echo %P%", ASKED),
        ("console-powershell", r"$env:P='x & rd /s /q C:\Windows\System32'; cmd /c echo %P%", "deny"),
        ("console-powershell", "echo $env:P", None),
        ("console-cmd", "echo %PATH%", None),
    ],
)
def test_typed_into_a_console_it_is_judged_alike(scenario: str, text: str, expected: object) -> None:
    """S-RULE-219: the keyboard is a shell: the same line typed into a console with Enter."""
    verdict = typed_in_console(text, scenario)
    assert (verdict[1] if verdict is not None and expected == "deny" else verdict) == expected


@requirement("S-RULE-219")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Set-Content C:\Users\me\run.ps1 $env:PAYLOAD", ("unread-script", "ask")),
        (r'Set-Content -Path C:\Users\me\run.ps1 -Value "$env:PAYLOAD"', ("unread-script", "ask")),
        (r"Add-Content C:\Users\me\run.bat ${env:PAYLOAD}", ("unread-script", "ask")),
        (r"Out-File -FilePath C:\Users\me\run.ps1 -InputObject $env:PAYLOAD", ("unread-script", "ask")),
        (r"[IO.File]::WriteAllText('C:\Users\me\run.ps1', $env:PAYLOAD)", ("unread-script", "ask")),
        (r"Set-Content C:\Users\me\.vscode\tasks.json $env:PAYLOAD", ("persistence-autostart", "ask")),
        # a document, a script that reads the variable when it runs, a standard value, a value the script set
        (r"Set-Content C:\Users\me\notes.txt $env:PAYLOAD", None),
        (r"Set-Content C:\Users\me\run.ps1 'Write-Host $env:BUILD'", None),
        (r"Set-Content C:\Users\me\run.ps1 $env:USERNAME", None),
        (r"$env:PAYLOAD = 'Get-Date'; Set-Content C:\Users\me\run.ps1 $env:PAYLOAD", None),
    ],
)
def test_a_script_written_from_a_variable_nobody_can_read_is_unread(command: str, expected: object) -> None:
    """S-RULE-219: `Set-Content run.ps1 $env:P` writes P's value, not its name: a script nobody read (S-RULE-114)."""
    assert ps(command) == expected


@requirement("S-RULE-219")
def test_what_counts_as_a_variable_nobody_can_read() -> None:
    """S-RULE-219: standard and machine-defined names, and those the script set, are known; `for` words are no
    variable; the first unknown one is named as written."""
    assert injected_variable("x $env:P y") == "$env:P"
    assert injected_variable("x ${env:P} y") == "${env:P}"
    assert unknown_variable("powershell", "x $env:P y", known={"P"}) is None
    assert injected_variable("$env:TEMP $env:Path $env:PSModulePath") is None
    assert unknown_variable("cmd", r"%TEMP:a=b:c%\x") is None  # the name is what comes before the first colon
    assert "PATH" in MACHINE_DEFINED and "P" not in MACHINE_DEFINED
    assert analyse_cmd("echo %P%").dynamic
    assert analyse_cmd("echo %PATH% %TEMP% %DATE%").dynamic == ()
    assert analyse_cmd("for %i in (*.txt) do @echo %i").dynamic == ()
    assert analyse_cmd("echo %P%", env={"P": "hello"}).dynamic == ()
