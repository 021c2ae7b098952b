"""The argument readers and predicates of the built-in rules (S-RULE-05, S-RULE-01); found by mutation
testing.

Each expectation is written from policy/rules/args.py's docstrings: `registry_key` accepts the
PowerShell drive form, `HKEY_…` names and `Registry::` prefixes (also the provider-qualified one);
`registry_value_rule` builds a Registry `set` predicate on key, value name and data; a Process kill is
judged by the name with or without `.exe`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from policy.rules.args import (
    app_arguments,
    app_command_line,
    app_interpreter,
    executable_basename,
    fs_recursive_delete,
    fs_startup_write,
    kill_critical,
    kill_explorer,
    machine_hive_delete,
    mode_of,
    only_for,
    registry_autostart,
    registry_defender,
    registry_hijack,
    registry_key,
    registry_value_rule,
    shortcut_launcher,
    top_key_delete,
    truthy,
    value_text,
)
from tests._requirements import requirement

UAC = "HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System"


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("Microsoft.PowerShell.Core\\Registry::HKEY_LOCAL_MACHINE\\Software\\X", ("hklm", "software/x")),
        ("Registry::HKEY_CURRENT_USER\\Software\\X", ("hkcu", "software/x")),
        ("'HKLM:\\Software\\X'", ("hklm", "software/x")),  # quoted as in a command
        ('"HKCU:\\Environment"', ("hkcu", "environment")),
        ("Software\\X", ("", "software/x")),  # no hive: the whole path is the rest
        (None, ("", "")),
        ("", ("", "")),
    ],
    ids=["provider-qualified", "registry-prefix", "single-quoted", "double-quoted", "no-hive", "none", "empty"],
)
def test_a_registry_path_is_read_in_every_spelling_upstream_accepts(
    path: str | None, expected: tuple[str, str]
) -> None:
    """S-RULE-05: `Microsoft.PowerShell.Core\\Registry::HKEY_…`, `Registry::`, quotes: one (hive, rest)."""
    assert registry_key(path) == expected


def _uac_off() -> Callable[[str, Mapping[str, object]], bool]:
    # Built in each test, not at import: the predicate is what registry_value_rule returns now.
    return registry_value_rule(
        r"currentversion/policies/system$", frozenset({"enablelua", "consentpromptbehavioradmin"}), frozenset({"0"})
    )


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("tool", "args", "hit"),
    [
        ("Registry", {"mode": "set", "path": UAC, "name": "EnableLUA", "value": 0}, True),
        ("Registry", {"mode": "SET", "path": UAC, "name": "ConsentPromptBehaviorAdmin", "value": "0"}, True),
        ("Registry", {"mode": "set", "path": UAC, "name": "EnableLUA", "value": 1}, False),  # data not listed
        ("Registry", {"mode": "set", "path": UAC, "name": "Other", "value": 0}, False),  # value name not listed
        ("Registry", {"mode": "set", "path": "HKLM:\\Software\\X", "name": "EnableLUA", "value": 0}, False),
        ("Registry", {"mode": "delete", "path": UAC, "name": "EnableLUA"}, False),  # not a set
        ("Registry", {"mode": "get", "path": UAC, "name": "EnableLUA", "value": 0}, False),
        ("PowerShell", {"mode": "set", "path": UAC, "name": "EnableLUA", "value": 0}, False),  # another tool
    ],
    ids=["hit", "other-name-in-list", "other-data", "other-name", "other-key", "delete", "get", "other-tool"],
)
def test_a_registry_value_rule_hits_a_set_of_a_listed_value_to_listed_data_in_its_key(
    tool: str, args: dict[str, object], hit: bool
) -> None:
    """S-RULE-05: Registry set of `EnableLUA` to 0 under Policies\\System hits; any other part differing does not."""
    assert _uac_off()(tool, args) is hit


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("name", "hit"),
    [("lsass", True), ("lsass.exe", True), ("LSASS.EXE", True), ("notepad.exe", False), ("lsass.exe.bak", False)],
    ids=["bare", "exe", "upper", "other", "not-exe"],
)
def test_killing_a_critical_process_is_read_with_or_without_its_exe(name: str, hit: bool) -> None:
    """S-RULE-05: Process kill `lsass` and `lsass.exe` are the same critical process."""
    assert kill_critical("Process", {"mode": "kill", "name": name}) is hit


@requirement("S-RULE-05")
def test_killing_explorer_is_read_with_or_without_its_exe() -> None:
    """S-RULE-05: Process kill `explorer.exe` is explorer; `explorer2.exe` is not."""
    assert kill_explorer("Process", {"mode": "kill", "name": "Explorer.exe"})
    assert kill_explorer("Process", {"mode": "kill", "name": "explorer"})
    assert not kill_explorer("Process", {"mode": "kill", "name": "explorer2.exe"})


@requirement("S-RULE-05")
def test_a_registry_path_without_a_hive_is_still_judged_by_its_keys() -> None:
    """S-RULE-05: a set of `Software\\…\\CurrentVersion\\Run` without a hive is an autostart; its delete is refused."""
    run = "Software\\Microsoft\\Windows\\CurrentVersion\\Run"
    assert registry_autostart("Registry", {"mode": "set", "path": run, "name": "x", "value": "C:\\x.exe"})
    assert top_key_delete("Registry", {"mode": "delete", "path": "Software\\X"})


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("executable", "expected"),
    [
        ('"C:\\Tools\\Setup.BAT"', ("setup", "bat")),  # quoted as in a command line
        ("C:/Windows/System32/Cmd.EXE", ("cmd", "exe")),
        ("notepad", ("notepad", "")),
        ("C:\\Tools\\my.tool.exe", ("my.tool", "exe")),  # the extension is after the last dot
        (None, ("", "")),
    ],
    ids=["quoted", "slashes", "no-extension", "two-dots", "none"],
)
def test_an_app_executable_is_read_as_its_file_name(executable: str | None, expected: tuple[str, str]) -> None:
    """S-RULE-05: `"C:\\Tools\\Setup.BAT"` is the script `setup.bat`, quotes and folder dropped."""
    assert executable_basename(executable) == expected


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["/c", "dir"], ["/c", "dir"]),
        ('["/c", "dir"]', ["/c", "dir"]),  # a JSON string, as upstream accepts it
        ("/c dir", ["/c dir"]),  # not JSON: one argument
        (5, ["5"]),
        (None, []),
    ],
    ids=["list", "json", "text", "number", "none"],
)
def test_app_args_are_read_as_upstream_takes_them(value: object, expected: list[str]) -> None:
    """S-RULE-05: App `args` is a list or a JSON string of one; anything else is one argument, null none."""
    assert app_arguments(value) == expected


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("args", "hit"),
    [
        ({"mode": "kill", "pid": 4}, True),  # System
        ({"mode": "kill", "pid": "0"}, True),  # the idle process
        ({"mode": "kill", "pid": " 4 "}, True),
        ({"mode": "kill", "pid": 8}, False),
        ({"mode": "kill", "pid": False}, False),  # a boolean is no pid (False == 0)
        ({"mode": "list", "pid": 4}, False),
        ({"mode": "list", "name": "lsass"}, False),
    ],
    ids=["pid-4", "pid-0-text", "pid-4-spaces", "pid-8", "pid-false", "list-pid", "list-name"],
)
def test_killing_pid_0_or_4_is_killing_a_critical_process(args: dict[str, object], hit: bool) -> None:
    """S-RULE-05: Process kill by pid 0 or 4 (as a number or text) is critical; listing is not a kill."""
    assert kill_critical("Process", args) is hit


WIN_NT = "HKLM:\\Software\\Microsoft\\Windows NT\\CurrentVersion"
SHUTDOWN = "C:\\Windows\\System32\\shutdown.exe"
HKLM_RUN = "HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"
STARTUP = "C:\\Users\\me\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup"


def _set(path: str, name: str = "x", value: object = "1") -> dict[str, object]:
    return {"mode": "set", "path": path, "name": name, "value": value}


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("check", "args", "hit"),
    [
        (machine_hive_delete, {"mode": "delete", "path": "HKLM:\\Software\\X", "name": "v"}, True),
        (machine_hive_delete, {"mode": "delete", "path": "HKEY_USERS\\S-1-5-21\\X"}, True),
        (machine_hive_delete, {"mode": "delete", "path": "HKCU:\\Software\\X"}, False),
        (machine_hive_delete, _set("HKLM:\\Software\\X"), False),
        (top_key_delete, {"mode": "delete", "path": "HKCU:\\Software"}, True),
        (top_key_delete, {"mode": "delete", "path": "HKCU:\\Software\\Microsoft\\Windows"}, True),
        (top_key_delete, {"mode": "delete", "path": "HKCU:\\Software\\X\\Y"}, False),
        (top_key_delete, {"mode": "delete", "path": "HKCU:\\Software", "name": "v"}, False),
        (registry_autostart, _set(HKLM_RUN), True),
        (registry_autostart, _set("HKCU:\\Software\\Wow6432Node\\Microsoft\\Windows\\CurrentVersion\\RunOnce"), True),
        (registry_autostart, _set("HKLM:\\SYSTEM\\CurrentControlSet\\Services\\evil"), True),
        (registry_autostart, _set(HKLM_RUN + "\\Sub"), False),
        (registry_autostart, {"mode": "delete", "path": HKLM_RUN, "name": "x"}, False),
        (registry_hijack, _set(WIN_NT + "\\Winlogon", "Shell"), True),
        (
            registry_hijack,
            _set(WIN_NT + "\\Windows", "AppInit_DLLs"),
            True,
        ),
        (registry_hijack, _set(WIN_NT + "\\Windows", "Device"), False),
        (registry_hijack, _set("HKCU:\\Software\\Microsoft\\Command Processor", "AutoRun"), True),
        (registry_hijack, _set("HKCU:\\Software\\Microsoft\\Command Processor", "CompletionChar"), False),
        (registry_hijack, _set("HKCU:\\Environment", "UserInitMprLogonScript"), True),
        (registry_hijack, _set("HKCU:\\Environment", "Path"), False),
        (registry_defender, _set("HKLM:\\Software\\Microsoft\\Windows Defender\\Exclusions\\Paths", "C:\\x", 0), True),
        (registry_defender, _set("HKLM:\\Software\\Policies\\Microsoft\\Windows Defender", "DisableAntiSpyware"), True),
        (registry_defender, _set("HKLM:\\Software\\Microsoft\\Windows Defender", "DisableX", "true"), True),
        (registry_defender, _set("HKLM:\\Software\\Microsoft\\Windows Defender", "DisableX", 0), False),
        (registry_defender, _set("HKLM:\\Software\\Microsoft\\Windows Defender", "Other", 1), False),
        (registry_defender, _set("HKLM:\\Software\\X", "DisableX", 1), False),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_each_registry_predicate_hits_exactly_its_own_calls(
    check: Callable[[str, dict[str, object]], bool], args: dict[str, object], hit: bool
) -> None:
    """S-RULE-05: machine-hive and top-key deletes, autostart, hijack and Defender sets, by their arguments."""
    assert check("Registry", args) is hit


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("check", "args", "hit"),
    [
        (fs_recursive_delete, {"mode": "delete", "path": "C:\\x", "recursive": True}, True),
        (fs_recursive_delete, {"mode": "Delete", "path": "C:\\x", "recursive": "yes"}, True),
        (fs_recursive_delete, {"mode": "delete", "path": "C:\\x"}, False),
        (fs_recursive_delete, {"mode": "delete", "path": "C:\\x", "recursive": "false"}, False),
        (fs_recursive_delete, {"mode": "list", "path": "C:\\x", "recursive": True}, False),
        (fs_startup_write, {"mode": "write", "path": STARTUP + "\\x.bat"}, True),
        (fs_startup_write, {"mode": "copy", "path": "C:\\x.bat", "destination": STARTUP}, True),
        (fs_startup_write, {"mode": "move", "path": "C:\\x.bat", "destination": STARTUP + "\\x.bat"}, True),
        (fs_startup_write, {"mode": "write", "path": "shell:startup\\x.bat"}, True),
        (fs_startup_write, {"mode": "copy", "path": STARTUP + "\\x.bat", "destination": "C:\\x.bat"}, False),
        (fs_startup_write, {"mode": "read", "path": STARTUP + "\\x.bat"}, False),
        (fs_startup_write, {"mode": "write", "path": STARTUP + "x\\x.bat"}, False),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_each_filesystem_predicate_hits_exactly_its_own_calls(
    check: Callable[[str, dict[str, object]], bool], args: dict[str, object], hit: bool
) -> None:
    """S-RULE-05: FileSystem delete with `recursive`, and write/copy/move into a Startup folder."""
    assert check("FileSystem", args) is hit


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("args", "hit"),
    [
        ({"mode": "launch_executable", "executable": "C:\\Windows\\System32\\cmd.exe"}, True),
        ({"mode": "launch_executable", "executable": "D:\\x\\run.BAT"}, True),  # a script file
        ({"mode": "launch_executable", "executable": "C:\\Windows\\notepad.exe"}, False),
        ({"mode": "launch", "name": "Windows PowerShell"}, True),
        ({"name": "Command Prompt"}, True),  # launch is the default mode
        ({"mode": "launch", "name": "Notepad"}, False),
        ({"mode": "resize", "name": "Windows PowerShell"}, False),
        ({"mode": "launch_executable", "executable": "  ", "name": "cmd"}, True),
    ],
    ids=["cmd", "bat", "notepad", "ps-name", "default-mode", "notepad-name", "resize", "blank-exe"],
)
def test_app_interpreter_hits_shells_interpreters_and_scripts(args: dict[str, object], hit: bool) -> None:
    """S-RULE-05: App launching cmd, a .bat, or "Windows PowerShell" by name; not Notepad, not a resize."""
    assert app_interpreter("App", args) is hit


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), ("TRUE", True), (" yes ", True), ("on", True), ("1", True), (1, True), (0.5, True)]
    + [(False, False), ("false", False), ("no", False), ("0", False), (0, False), (None, False), ([1], False)],
    ids=[f"case{i}" for i in range(14)],
)
def test_truthy_reads_booleans_and_their_spellings(value: object, expected: bool) -> None:
    """S-RULE-05: `recursive`/`force` as booleans, "true"/"1"/"yes"/"on", or a non-zero number."""
    assert truthy(value) is expected


@requirement("S-RULE-01")
def test_a_predicate_for_one_tool_never_reads_another_tools_arguments() -> None:
    """S-RULE-01: `only_for("Process", kill_critical)` hits the Process kill of lsass and nothing else."""
    check = only_for("Process", kill_critical)
    assert check("Process", {"mode": "kill", "name": "lsass"})
    assert not check("PowerShell", {"mode": "kill", "name": "lsass"})
    uac = only_for("Registry", _uac_off())  # the check is handed the tool's name too
    assert uac("Registry", {"mode": "set", "path": UAC, "name": "EnableLUA", "value": 0})


@requirement("S-RULE-05")
def test_mode_of_folds_the_mode_and_falls_back_to_the_default() -> None:
    """S-RULE-05: `mode` is read folded; a missing or null mode is the tool's default."""
    assert mode_of({"mode": " Launch_Executable "}) == "launch_executable"
    assert mode_of({}, "launch") == "launch"
    assert mode_of({"mode": None}, "launch") == "launch"
    assert mode_of({}) == ""


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("shortcut", "hit"),
    [("win+r", True), ("Windows + R", True), ("super+x", True), ("r+lwin", True), ("ctrl+r", False), ("win", False)],
    ids=["win-r", "spaced", "super-x", "reversed", "ctrl-r", "win-alone"],
)
def test_the_run_box_and_power_user_menu_chords_are_launchers(shortcut: str, hit: bool) -> None:
    """S-RULE-12: Win+R and Win+X in any spelling of the Windows key open a place that runs commands."""
    assert shortcut_launcher("Shortcut", {"shortcut": shortcut}) is hit


@requirement("S-RULE-05")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            {
                "mode": "launch_executable",
                "executable": "C:\\Windows\\System32\\shutdown.exe",
                "args": ["/s", "/t", "0"],
            },
            "shutdown.exe /s /t 0",
        ),
        (
            {"mode": "launch_executable", "executable": "C:\\x\\tool", "args": ["C:\\My Files\\a.txt"]},
            'tool "C:\\My Files\\a.txt"',
        ),
        ({"executable": "notepad.exe"}, "notepad.exe"),
        ({"mode": "resize", "executable": "notepad.exe"}, ""),
        ({"mode": "launch_executable", "executable": None}, ""),
    ],
    ids=["shutdown", "spaces-quoted", "default-mode", "resize", "no-executable"],
)
def test_an_app_launch_reads_as_one_command_line(args: dict[str, object], line: str) -> None:
    """S-RULE-05: only the executable's file name, then its arguments, those with spaces quoted."""
    assert app_command_line(args) == line


@requirement("S-RULE-05")
def test_a_value_reads_as_text() -> None:
    """S-RULE-05: booleans as `true`/`false`, lists joined with spaces, anything else as str()."""
    assert (value_text(True), value_text(False), value_text(["a", 1]), value_text(7)) == ("true", "false", "a 1", "7")
