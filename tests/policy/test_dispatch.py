"""policy/rules/shell/dispatch.py: the command a program is given reaches the right analyser (S-RULE-03)."""

from __future__ import annotations

import base64

import pytest

from policy.rules.shell.dispatch import analyse_program, analyse_tool, decode_encoded_command
from policy.rules.shell.ops import Analysis, Operation, Value
from tests._requirements import requirement


def b64(command: str) -> str:
    """What `powershell -EncodedCommand` expects, built the documented way."""
    return base64.b64encode(command.encode("utf-16-le")).decode("ascii")


def find(analysis: Analysis, shell: str, name: str) -> list[Operation]:
    """The operations of `analysis` with this shell and name."""
    return [o for o in analysis.operations if o.shell == shell and o.name == name]


def rd_of(analysis: Analysis) -> Operation:
    """The one cmd `rd` operation of `analysis`."""
    (found,) = find(analysis, "cmd", "rd")
    return found


# --- cmd ------------------------------------------------------------------------------


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("cmd", ['/c "r^d /s /q C:\\x"']),
        ("cmd", ["/c", "rd", "/s", "/q", "C:\\x"]),
        ("cmd.exe", ["/C", "rd /s /q C:\\x"]),
        ('"C:\\Windows\\System32\\cmd.EXE"', ["/k rd /s /q C:\\x"]),
        ("cmd", ["/r rd /s /q C:\\x"]),
        ("cmd", ['/c"rd /s /q C:\\x"']),
        ("cmd", ["/crd /s /q C:\\x"]),
        ("cmd", ["/q /d /c rd /s /q C:\\x"]),
        ("cmd", ["/q/c rd /s /q C:\\x"]),
        ("cmd", ['/s /c ""rd" /s /q C:\\x"']),
        ("cmd", ["/v:on /c set x=rd&& !x! /s /q C:\\x"]),
    ],
)
def test_cmd_switches_lead_to_the_command(program: str, argv: list[Value]) -> None:
    """S-RULE-03: /c, /k, /r (any case, glued or after other switches) hand the rest to the cmd analyser."""
    operation = rd_of(analyse_program(program, argv))
    assert operation.args == ("C:\\x",)
    assert operation.switch("s")


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("argv", "program", "args"),
    [
        # two quotes, a blank between, no special character: cmd keeps them (a quoted program path)
        (['/c "C:\\Program Files\\x.exe"'], "x", ()),
        # otherwise the first and the last quote go
        (['/c ""C:\\Program Files\\x.exe" a b"'], "x", ("a", "b")),
        (['/c "net user bob /add"'], "net", ("user", "bob", "/add")),
    ],
)
def test_cmd_strips_the_outer_quotes_by_its_documented_rule(argv: list[Value], program: str, args: tuple[str]) -> None:
    """S-RULE-03: `cmd /?`'s quote rule decides what the inner command line is."""
    (found,) = find(analyse_program("cmd", argv), "program", program)
    assert found.args == args


@requirement("S-RULE-03", "S-RULE-16")
def test_cmd_v_off_keeps_bangs_literal() -> None:
    """S-RULE-03: `/v:off` turns delayed expansion off, so `!x!` stays a (harmless) literal name."""
    analysis = analyse_program("cmd", ["/v:off /c set x=rd&& !x! /s /q C:\\x"])
    assert find(analysis, "cmd", "rd") == []
    assert find(analysis, "program", "!x!")


@requirement("S-RULE-03", "S-RULE-16")
def test_cmd_with_a_non_constant_command_is_dynamic() -> None:
    """S-RULE-03: `cmd /c <unknown>` asks: the command text is not constant."""
    analysis = analyse_program("cmd", ["/c", None])
    assert analysis.dynamic


# --- PowerShell -----------------------------------------------------------------------

ENCODED_SPELLINGS = [
    "-e",
    "-E",
    "-ec",
    "-en",
    "-enc",
    "-enco",
    "-EncodedC",
    "-encodedcommand",
    "/e",
    "/enc",
    "\u2013enc",
]
COMMAND_SPELLINGS = ["-c", "-C", "-co", "-com", "-comm", "-comma", "-comman", "-Command", "/c", "/command"]


def powershell_ops(analysis: Analysis) -> list[str]:
    """The cmdlet names the PowerShell analyser resolved."""
    return [o.name for o in analysis.operations if o.shell == "powershell"]


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize("switch", ENCODED_SPELLINGS)
def test_every_encoded_command_abbreviation_is_decoded(switch: str) -> None:
    """S-RULE-03: -EncodedCommand in every accepted abbreviation is decoded and analysed one level deeper."""
    analysis = analyse_program("powershell", ["-NoProfile", switch, b64("Remove-Item C:\\x -Recurse")], 1)
    (own,) = find(analysis, "program", "powershell")
    assert own.has("encodedcommand")
    assert "remove-item" in powershell_ops(analysis)
    assert all(o.depth >= 1 for o in analysis.operations if o.shell == "powershell")


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize("switch", COMMAND_SPELLINGS)
def test_every_command_abbreviation_is_read(switch: str) -> None:
    """S-RULE-03: -Command in every accepted prefix: the rest of the line is the script."""
    analysis = analyse_program("powershell.exe", ["-ExecutionPolicy", "Bypass", switch, "Remove-Item", "C:\\x"])
    (own,) = find(analysis, "program", "powershell")
    assert own.param("executionpolicy") == "Bypass"
    assert own.param("command") == "Remove-Item C:\\x"
    assert "remove-item" in powershell_ops(analysis)


@requirement("S-RULE-03", "S-RULE-16")
def test_powershell_first_positional_argument_starts_the_command() -> None:
    """S-RULE-03: for powershell.exe the first non-switch argument and the rest are the command."""
    analysis = analyse_program("powershell", ["-nop", "Remove-Item", "C:\\x"])
    assert find(analysis, "program", "powershell")[0].param("command") == "Remove-Item C:\\x"
    assert "remove-item" in powershell_ops(analysis)


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("program", "argv", "path"),
    [
        ("pwsh", ["script.ps1", "a"], "script.ps1"),
        ("powershell", ["-File", "C:\\x\\run.ps1"], "C:\\x\\run.ps1"),
        ("powershell", ["-f", "run.ps1"], "run.ps1"),
        ("pwsh", ["-nop", "-File:run.ps1"], "run.ps1"),
    ],
)
def test_a_script_file_is_a_file_parameter(program: str, argv: list[Value], path: str) -> None:
    """S-RULE-03: -File (and pwsh's first positional argument) names a script the effect rules judge."""
    (own,) = find(analyse_program(program, argv), "program", program)
    assert own.param("file") == path


@requirement("S-RULE-03", "S-RULE-16")
def test_a_single_argument_string_is_split_like_a_command_line() -> None:
    """S-RULE-03: Start-Process -ArgumentList 'a b c' semantics: one string is the whole command line."""
    analysis = analyse_program("powershell", ["-NoProfile -Command Remove-Item C:\\x"])
    (own,) = find(analysis, "program", "powershell")
    assert own.switch("noprofile")
    assert own.param("command") == "Remove-Item C:\\x"


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize("payload", ["!!!!", "abc", "A"])
def test_invalid_base64_fails(payload: str) -> None:
    """S-RULE-03: a payload that is not base64 of UTF-16LE is a failure (the text rules take over)."""
    analysis = analyse_program("powershell", ["-enc", payload])
    assert analysis.failed is not None
    assert "EncodedCommand" in analysis.failed


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("argv", "words"),
    [(["-c", None], "not constant"), (["-"], "standard input"), (["-Command", "-"], "standard input")],
)
def test_powershell_text_that_cannot_be_known_is_dynamic(argv: list[Value], words: str) -> None:
    """S-RULE-03: a command from a non-constant value or from stdin asks a person."""
    analysis = analyse_program("powershell", argv)
    assert any(words in s for s in analysis.dynamic)


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (b64("Get-Date"), "Get-Date"),
        (" " + b64("Get-Date") + "\n", "Get-Date"),
        (b64("Get-Date")[:-2], None),  # Convert.FromBase64String requires the padding
        ("!!!!", None),
        ("", None),
    ],
)
def test_encoded_payloads_decode_as_utf16le(payload: str, expected: str | None) -> None:
    """S-RULE-03: base64 of UTF-16LE, white space ignored and padding required as .NET does."""
    assert decode_encoded_command(payload) == expected


# --- nesting --------------------------------------------------------------------------


@requirement("S-RULE-03", "S-RULE-16")
def test_nested_interpreters_chain_one_level_each() -> None:
    """S-RULE-03: cmd /c powershell -c "cmd /c rd …" resolves rd, each interpreter one level deeper."""
    analysis = analyse_program("cmd", ['/c powershell -c "cmd /c rd /s /q C:\\x"'], 1)
    rd = rd_of(analysis)
    powershell = find(analysis, "program", "powershell")
    inner_cmd = find(analysis, "program", "cmd")
    assert rd.args == ("C:\\x",)
    assert powershell and inner_cmd
    assert min(o.depth for o in powershell) < min(o.depth for o in inner_cmd) < rd.depth


@requirement("S-RULE-03", "S-RULE-16")
def test_powershell_tool_reaches_cmd_inside() -> None:
    """S-RULE-03: the PowerShell tool's command is parsed, and a cmd inside it reaches the cmd analyser."""
    analysis = analyse_tool("PowerShell", {"command": "cmd /c rd /s /q C:\\x"})
    assert analysis is not None
    assert rd_of(analysis).args == ("C:\\x",)


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("runas", ["/user:admin", "cmd /c rd /s /q C:\\x"]),
        ("wt", ["-p", "Command Prompt", "cmd", "/c", "rd", "/s", "/q", "C:\\x"]),
        ("wt", ["new-tab", "--title", "x", "cmd", "/c", "rd /s /q C:\\x"]),
        ("conhost", ["--headless", "cmd.exe", "/c", "rd /s /q C:\\x"]),
        ("start", ["/b", "cmd", "/c", "rd /s /q C:\\x"]),
    ],
)
def test_wrappers_unwrap_to_the_program_they_start(program: str, argv: list[Value]) -> None:
    """S-RULE-03: conhost, runas, wt and start are looked through to the program they run."""
    analysis = analyse_program(program, argv)
    assert find(analysis, "program", "cmd")
    assert rd_of(analysis).args == ("C:\\x",)


@requirement("S-RULE-03", "S-RULE-16")
def test_other_programs_add_nothing() -> None:
    """S-RULE-03: a program that runs no given command adds no operation (the caller has its own)."""
    assert analyse_program("notepad.exe", ["x.txt"]) == Analysis()


@requirement("S-RULE-11", "S-RULE-16")
def test_too_deep_nesting_fails() -> None:
    """S-RULE-11: a chain deeper than the bound is a failure, not a silent pass."""
    line = "cmd /c " * 12 + "rd /s /q C:\\x"
    analysis = analyse_program("cmd", [line[len("cmd ") :]])
    assert analysis.failed is not None
    assert "too deeply nested" in analysis.failed


# --- tools ----------------------------------------------------------------------------


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    "args",
    [
        {"mode": "launch_executable", "executable": "C:\\Windows\\System32\\cmd.exe", "args": ["/c", "rd /s /q C:\\x"]},
        {"mode": "launch_executable", "executable": "cmd.exe", "args": '["/c", "rd", "/s", "/q", "C:\\\\x"]'},
        {"executable": "cmd", "args": "/c rd /s /q C:\\x"},  # mode defaults to launch
        {"mode": "launch", "name": "Command Prompt", "args": ["/c rd /s /q C:\\x"]},
    ],
)
def test_app_launch_is_the_program_and_what_it_runs(args: dict[str, object]) -> None:
    """S-RULE-03: App launch emits the program's operation and looks inside an interpreter."""
    analysis = analyse_tool("App", args)
    assert analysis is not None
    (own,) = [o for o in find(analysis, "program", "cmd") if o.depth == 0]
    assert (own.args[0] or "").split()[0] == "/c"  # a list item is one argument; cmd re-reads its own line
    assert rd_of(analysis).args == ("C:\\x",)


@requirement("S-RULE-03", "S-RULE-16")
def test_app_launch_of_a_plain_program_keeps_its_argv() -> None:
    """S-RULE-03: App args given as one string are split like a command line."""
    analysis = analyse_tool(
        "App", {"mode": "launch_executable", "executable": "C:\\x\\net.exe", "args": "user bob /add"}
    )
    assert analysis is not None
    assert [(o.name, o.args) for o in analysis.operations] == [("net", ("user", "bob", "/add"))]


@requirement("S-RULE-03", "S-RULE-16")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("App", {"mode": "resize", "name": "cmd"}),
        ("App", {"mode": "switch", "name": "cmd"}),
        ("Process", {"mode": "kill", "name": "cmd"}),
        ("Type", {"text": "rd /s /q C:\\x"}),
    ],
)
def test_tools_without_a_command_give_none(tool: str, args: dict[str, object]) -> None:
    """S-RULE-03: only PowerShell and App launches carry a command to analyse."""
    assert analyse_tool(tool, args) is None


# --- proxy starters: programs that start what they are given (stop 24) ------------------


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("forfiles", ["/p", "C:\\Windows", "/m", "notepad.exe", "/c", "cmd /c rd /s /q C:\\x"]),
        ("forfiles.exe", ["/P", "C:\\Windows", "/C", "cmd /c rd /s /q C:\\x"]),
        ("C:\\Windows\\System32\\forfiles.exe", ["/c:cmd /c rd /s /q C:\\x"]),
        ("pcalua", ["-a", "cmd.exe", "-c", "/c rd /s /q C:\\x"]),
        ("rundll32", ["shell32.dll,ShellExec_RunDLL", "cmd.exe", "/c", "rd", "/s", "/q", "C:\\x"]),
        ("rundll32.exe", ["C:\\Windows\\System32\\SHELL32.dll,", "ShellExec_RunDLLA", "cmd", "/c rd /s /q C:\\x"]),
        ("rundll32", ["zipfldr.dll,RouteTheCall", "cmd.exe", "/c rd /s /q C:\\x"]),
        ("wmic", ["process", "call", "create", "cmd /c rd /s /q C:\\x"]),
        ("wmic.exe", ["/node:localhost", "PROCESS", "CALL", "CREATE", "cmd /c rd /s /q C:\\x"]),
        ("explorer.exe", ["cmd.exe", "/c rd /s /q C:\\x"]),
    ],
)
def test_a_proxy_starter_hands_on_what_it_starts(program: str, argv: list[Value]) -> None:
    """S-RULE-25: forfiles /c, pcalua -a, rundll32 ShellExec_RunDLL, wmic process call create, explorer X."""
    operation = rd_of(analyse_program(program, argv))
    assert operation.args == ("C:\\x",)
    assert operation.switch("s")


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("forfiles", ["/p", "C:\\logs", "/m", "*.txt", "/d", "-30"]),
        ("pcalua", ["-d", "C:\\x"]),
        ("rundll32", ["user32.dll,LockWorkStation"]),
        ("rundll32", ["shell32.dll,Control_RunDLL", "desk.cpl"]),
        ("wmic", ["process", "list", "brief"]),
        ("wmic", ["process", "call"]),
        ("explorer.exe", ["/select,", "C:\\Users\\me\\notes.txt"]),
    ],
)
def test_a_starter_without_a_command_starts_nothing(program: str, argv: list[Value]) -> None:
    """S-RULE-25: only the switch that names a command hands anything on: listing files or processes does not."""
    assert not any(o.depth > 0 for o in analyse_program(program, argv).operations)
    assert not find(analyse_program(program, argv), "cmd", "rd")


@requirement("S-RULE-25")
def test_a_starter_given_a_command_that_is_not_constant_is_dynamic() -> None:
    """S-RULE-25: `forfiles /c $x` cannot be judged: it asks (the dynamic path), never passes silently."""
    assert analyse_program("forfiles", ["/p", "C:\\x", "/c", None]).dynamic
    assert analyse_program("wmic", ["process", "call", "create", None]).dynamic


# --- code in another language, given on the command line (stop 24) ---------------------


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("python", ["-c", "import shutil; shutil.rmtree('C:/Users')"]),
        ("C:\\Python312\\python.exe", ["-c", "print(1)"]),
        ("py", ["-3", "-c", "import os"]),
        ("python3", ['-c"print(1)"']),
        ("python", ["-Bc", "print(1)"]),
        ("python", ["-X", "utf8", "-c", "import os"]),
        ("pythonw", ["-c", "x"]),
        ("node", ["-e", "require('fs').rmSync('C:/Users', {recursive: true})"]),
        ("node", ["--eval=1"]),
        ("node", ["-pe", "1"]),
        ("node", ["-r", "dotenv/config", "-e", "1"]),
        ("perl", ["-e", "system('x')"]),
        ("perl", ["-lne", "print", "x.txt"]),
        ("ruby", ["-ne", "puts 1", "x"]),
        ("php", ["-r", "unlink('x');"]),
        ("deno", ["eval", "Deno.remove('C:/Users', {recursive: true})"]),
        ("python", [None]),
    ],
)
def test_code_given_to_another_language_on_its_command_line_is_dynamic(program: str, argv: list[Value]) -> None:
    """S-RULE-25: the gateway cannot read Python or JavaScript: inline code asks, like `iex $x`."""
    assert analyse_program(program, argv).dynamic


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("python", ["-m", "pip", "list"]),
        ("python", ["-m", "http.server", "-c", "x"]),
        ("python", ["C:\\Users\\me\\app\\main.py", "-c", "config.ini"]),
        ("python", ["-u", "script.py", "-c", "1"]),
        ("python", ["-X", "utf8", "script.py"]),
        ("python", ["--version"]),
        ("node", ["server.js", "-e", "production"]),
        ("perl", ["script.pl"]),
    ],
)
def test_a_script_or_module_run_by_name_is_not_inline_code(program: str, argv: list[Value]) -> None:
    """S-RULE-25: `-c` after the script belongs to the script; a module or a script by path stays ordinary."""
    assert not analyse_program(program, argv).dynamic


@requirement("S-RULE-25")
def test_a_delayed_variable_holding_a_whole_command_is_split_like_cmd_splits_it() -> None:
    """S-RULE-25: `!x!` = `rd /s /q C:\\x` runs rd with its arguments (it was once read as one program name)."""
    operation = rd_of(analyse_program("cmd", ['/v:on /c "set x=rd /s /q C:\\x&& !x!"']))
    assert operation.args == ("C:\\x",)
    assert operation.switch("s")


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    [
        "& $env:SOMETHING C:\\Users -Recurse -Force",  # set by the script, it has a value (S-RULE-105)
        '& "$env:SOMETHING" /c rd /s /q C:\\Users',
        "cmd /c $x",
    ],
)
def test_a_program_named_by_a_variable_without_a_known_value_is_dynamic(command: str) -> None:
    """S-RULE-25: `& $env:X` once ran as a harmless "program" called `$env:x`; it asks now."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and analysis.dynamic


@requirement("S-RULE-25")
@pytest.mark.parametrize("command", ["& $env:ComSpec /c dir", "& notepad.exe C:\\x.txt", "git status"])
def test_a_program_with_a_known_name_is_not_dynamic(command: str) -> None:
    """S-RULE-25: `$env:ComSpec` has a standard value (cmd); a constant program is not dynamic."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and not analysis.dynamic


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    [
        "Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList 'cmd /c rd /s /q C:\\x'",
        "Invoke-WmiMethod Win32_Process Create 'cmd /c rd /s /q C:\\x'",
        "Invoke-WmiMethod -Class root\\cimv2:Win32_Process -Name create -ArgumentList 'cmd.exe /c rd /s /q C:\\x'",
    ],
)
def test_wmi_process_create_is_read_through_to_its_command_line(command: str) -> None:
    """S-RULE-25: WMI's Win32_Process.Create starts a command line: it is analysed like `cmd /c`."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    assert rd_of(analysis).args == ("C:\\x",)


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    [
        "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine=$c}",
        "Get-CimClass Win32_Process | Invoke-CimMethod -MethodName Create -Arguments @{CommandLine='x'}",
        "Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList $line",
    ],
)
def test_a_process_create_that_cannot_be_read_is_dynamic(command: str) -> None:
    """S-RULE-25: a Create whose class or command line is not constant asks; it never passes silently."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and analysis.dynamic


@requirement("S-RULE-25")
def test_other_wmi_methods_start_nothing() -> None:
    """S-RULE-25: `Invoke-WmiMethod Win32_Share Create` or a Terminate is not a process creation."""
    for command in (
        "Invoke-WmiMethod -Class Win32_Share -Name Create -ArgumentList 'C:\\data', 'data', 0",
        "Invoke-WmiMethod -Class Win32_Process -Name GetOwner",
    ):
        analysis = analyse_tool("PowerShell", {"command": command})
        assert analysis is not None and not analysis.dynamic and not find(analysis, "cmd", "rd")


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    [
        "Add-Type -TypeDefinition 'public class X { public static void Go() { } }'; [X]::Go()",
        "Add-Type 'public class X { }'",
        "Add-Type -MemberDefinition '[DllImport(\"kernel32\")] public static extern int X();' -Name K -Namespace W",
        "[Reflection.Assembly]::Load([Convert]::FromBase64String('TVqQAAMAAAAEAAAA'))",
    ],
)
def test_code_compiled_or_loaded_from_bytes_is_dynamic(command: str) -> None:
    """S-RULE-25: C# compiled on the spot or an assembly from bytes is code the gateway cannot read: it asks."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and analysis.dynamic


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command", ["Add-Type -AssemblyName System.Windows.Forms", "Add-Type -AssemblyName PresentationFramework"]
)
def test_loading_a_framework_assembly_by_name_is_not(command: str) -> None:
    """S-RULE-25: `Add-Type -AssemblyName` loads a known library, no new code: ordinary."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and not analysis.dynamic


@requirement("S-RULE-25")
def test_a_command_line_run_by_an_untyped_object_is_read_through() -> None:
    """S-RULE-25: WScript.Shell made by `[Activator]::CreateInstance` is still read: `.Run('cmd /c …')`."""
    command = (
        "$o = [Activator]::CreateInstance([Type]::GetTypeFromProgID('WScript.Shell')); $o.Run('cmd /c rd /s /q C:\\x')"
    )
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    assert rd_of(analysis).args == ("C:\\x",)


# --- a script written by the call, run or not (stop 24) ------------------------------------


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    "command",
    [
        "Set-Content $env:TEMP\\x.bat 'rd /s /q C:\\x'; & $env:TEMP\\x.bat",
        "Set-Content -Path C:\\t\\x.cmd -Value 'rd /s /q C:\\x'; Start-Process C:\\t\\x.cmd",
        "New-Item C:\\t\\x.bat -Value 'rd /s /q C:\\x'; C:\\t\\x.bat",
        "Set-Content C:\\t\\x.bat 'rd /s /q C:\\x'; cmd /c C:\\t\\x.bat",
        "Set-Content C:\\t\\later.bat 'rd /s /q C:\\x'",
        "[IO.File]::WriteAllText('C:\\t\\x.bat', 'rd /s /q C:\\x')",
    ],
)
def test_a_batch_file_written_by_the_command_is_read_as_cmd(command: str) -> None:
    """S-RULE-28: `Set-Content x.bat 'rd …'; & x.bat` deletes; so would the next call that runs it."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    assert rd_of(analysis).args == ("C:\\x",)


@requirement("S-RULE-28")
def test_a_powershell_script_written_by_the_command_is_read_as_powershell() -> None:
    """S-RULE-28: the .ps1's text is analysed; its Remove-Item is an operation of the call."""
    analysis = analyse_tool(
        "PowerShell", {"command": "Set-Content C:\\t\\x.ps1 'Remove-Item C:\\x -Recurse'; & C:\\t\\x.ps1"}
    )
    assert analysis is not None and find(analysis, "powershell", "remove-item")


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    "command",
    [
        "Set-Content C:\\t\\x.ps1 $code; & C:\\t\\x.ps1",
        "Set-Content C:\\t\\x.vbs 'WScript.Echo 1'; wscript C:\\t\\x.vbs",
    ],
)
def test_a_script_that_cannot_be_read_and_is_run_is_dynamic(command: str) -> None:
    """S-RULE-28: unknown content, or a language the gateway does not read, run in the same call: it asks."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None and analysis.dynamic


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    ("args", "judged"),
    [
        ({"mode": "write", "path": "C:\\t\\x.bat", "content": "rd /s /q C:\\x"}, True),
        ({"mode": "write", "path": "C:\\t\\X.CMD. ", "content": "rd /s /q C:\\x"}, True),
        ({"mode": "write", "path": "C:\\t\\x.ps1", "content": "Remove-Item C:\\x -Recurse"}, True),
        ({"mode": "write", "path": "C:\\t\\notes.md", "content": "rd /s /q C:\\x"}, False),
        ({"mode": "read", "path": "C:\\t\\x.bat"}, False),
    ],
)
def test_filesystem_writes_a_script_judged_as_the_script_it_is(args: dict[str, object], judged: bool) -> None:
    """S-RULE-28: FileSystem `write` of a .bat/.cmd/.ps1 is analysed; a document or a read is not."""
    analysis = analyse_tool("FileSystem", args)
    assert (analysis is not None and bool(analysis.operations)) is judged


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    "command",
    [
        'cmd /c "echo rd /s /q C:\\x > %TEMP%\\x.bat && %TEMP%\\x.bat"',
        'cmd /c "echo rd /s /q C:\\x > %TEMP%\\later.bat"',
        "echo rd /s /q C:\\x > $env:TEMP\\x.bat; & $env:TEMP\\x.bat",
    ],
)
def test_a_batch_file_echoed_into_place_is_read_as_cmd(command: str) -> None:
    """S-RULE-28: `echo rd … > x.bat` (cmd's or PowerShell's echo) writes a script: its text is judged (PowerShell's
    echo writes each word on a line of its own; the one-line reading its author meant is judged too, S-RULE-129)."""
    analysis = analyse_tool("PowerShell", {"command": command})
    assert analysis is not None
    assert ("C:\\x",) in [op.args for op in find(analysis, "cmd", "rd")]


@requirement("S-RULE-28")
def test_a_redirect_of_unknown_text_into_a_script_that_is_run_is_dynamic() -> None:
    """S-RULE-28: `'…' > x.bat; & x.bat`: the text is not an echo the gateway can read, and it runs: ask."""
    analysis = analyse_tool("PowerShell", {"command": "'rd /s /q C:\\x' > C:\\t\\x.bat; & C:\\t\\x.bat"})
    assert analysis is not None and analysis.dynamic
    plain = analyse_tool("PowerShell", {"command": "Get-Process > C:\\t\\procs.txt"})
    assert plain is not None and not plain.dynamic


@requirement("S-RULE-16")
def test_an_app_list_argument_with_blanks_stays_one_argument() -> None:
    """S-RULE-16: a list item is one argument (a path with blanks stays whole); only a plain string is a line."""
    login_data = "C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data"
    listed = analyse_tool("App", {"mode": "launch_executable", "executable": "sqlite3.exe", "args": [login_data]})
    assert listed is not None and listed.operations[0].args == (login_data,)
    line = analyse_tool("App", {"mode": "launch_executable", "executable": "x.exe", "args": "a b"})
    assert line is not None and line.operations[0].args == ("a", "b")
