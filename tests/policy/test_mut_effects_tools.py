"""Structured tool calls as effects, with the phrase a refusal quotes (S-RULE-18); found by mutation testing.

Each expectation is written from policy/rules/effects_tools.py's docstring: upstream's real argument
names and modes (FileSystem `read/write/copy/move/delete/list/search/info`, Registry
`get/set/delete/list`, Process `kill`, App `launch`/`launch_executable`), compared as whole effects:
kind, target, the detail a reason shows, and the value name, data and extra facts it carries.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import LANDED, RECURSIVE, effect
from policy.rules.effects_dispatch import MAX_STARTED_DEPTH
from policy.rules.effects_tools import tool_effects
from policy.rules.shell.ops import Effect, EffectKind
from tests._requirements import requirement

K = EffectKind
TREE_INTO = (*RECURSIVE, *LANDED)
A, B = "C:\\a", "C:\\b"
KEY = "HKCU:\\Software\\X"


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"mode": "delete", "path": A}, (effect(K.DELETE, A, "FileSystem delete"),)),
        ({"mode": "delete", "path": A, "recursive": "false"}, (effect(K.DELETE, A, "FileSystem delete"),)),
        (
            {"mode": "delete", "path": A, "recursive": True},
            (effect(K.DELETE_RECURSIVE, A, "FileSystem delete recursive"),),
        ),
        (
            {"mode": " Move ", "path": A, "destination": B},
            (
                effect(K.MOVE, A, "FileSystem move"),
                effect(K.WRITE, B, "FileSystem move destination"),
                effect(K.WRITE, B + "\\a", "FileSystem move into a folder", extra=TREE_INTO),  # S-RULE-147
            ),
        ),
        (
            {"mode": "copy", "path": A, "destination": B},
            (
                effect(K.READ, A, "FileSystem copy", extra=(("recursive", "true"),)),  # a folder's tree (S-RULE-159)
                effect(K.WRITE, B, "FileSystem copy destination"),
                effect(K.WRITE, B + "\\a", "FileSystem copy into a folder", extra=TREE_INTO),
            ),
        ),
        ({"mode": "write", "path": A}, (effect(K.WRITE, A, "FileSystem write"),)),
        ({"mode": "create", "path": A}, (effect(K.WRITE, A, "FileSystem write"),)),
        ({"mode": "append", "path": A}, (effect(K.WRITE, A, "FileSystem write (append)"),)),
        ({"mode": "write", "path": A, "append": True}, (effect(K.WRITE, A, "FileSystem write (append)"),)),
        ({"mode": "read", "path": A}, (effect(K.READ, A, "FileSystem read"),)),
        ({"mode": "list", "path": A}, (effect(K.READ, A, "FileSystem list"),)),
        ({"mode": "search", "path": A}, (effect(K.READ, A, "FileSystem search"),)),
        ({"mode": "INFO", "path": 7}, (effect(K.READ, "7", "FileSystem info"),)),
        ({"mode": True, "path": A}, ()),
        ({"path": A}, ()),
    ],
)
def test_filesystem_modes_become_whole_effects(args: dict[str, object], expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: FileSystem delete/move/copy/write/append/read/list/search/info by `mode`, `path`, `destination`."""
    assert tool_effects("FileSystem", args) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            {"mode": "set", "path": KEY, "name": "v", "value": 5, "type": "DWord"},
            (effect(K.REGISTRY_SET, KEY, "Registry set", value_name="v", data="5", extra=(("type", "DWord"),)),),
        ),
        (
            {"mode": "set", "path": KEY, "name": "v", "value": True},
            (effect(K.REGISTRY_SET, KEY, "Registry set", value_name="v", data="true"),),
        ),
        (
            {"mode": "set", "path": KEY, "name": "v", "value": "x", "type": ""},
            (effect(K.REGISTRY_SET, KEY, "Registry set", value_name="v", data="x"),),
        ),
        (
            {"mode": "delete", "path": KEY, "name": "v"},
            (effect(K.REGISTRY_DELETE, KEY, "Registry delete value", value_name="v"),),
        ),
        (
            {"mode": "delete", "path": KEY},
            (effect(K.REGISTRY_DELETE, KEY, "Registry delete key (recursive)", extra=(("recursive", "true"),)),),
        ),
        ({"mode": "get", "path": KEY, "name": "v"}, (effect(K.READ, KEY, "Registry get", value_name="v"),)),
        ({"mode": "list", "path": KEY}, (effect(K.READ, KEY, "Registry list"),)),
        ({"mode": "export", "path": KEY}, ()),
    ],
)
def test_registry_modes_become_whole_effects(args: dict[str, object], expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: Registry set/delete/get/list with the value name, data and type they carry."""
    assert tool_effects("Registry", args) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"mode": "kill", "name": "x"}, (effect(K.KILL, "x", "Process kill"),)),
        (
            {"mode": "kill", "name": "x", "pid": 12, "force": True},
            (effect(K.KILL_FORCED, "x", "Process kill force"), effect(K.KILL_FORCED, "pid:12", "Process kill force")),
        ),
        ({"mode": "KILL", "pid": " 12 "}, (effect(K.KILL, "pid:12", "Process kill"),)),
        ({"mode": "kill", "pid": True}, (effect(K.KILL, None, "Process kill"),)),  # a boolean is no pid
        ({"mode": "kill"}, (effect(K.KILL, None, "Process kill"),)),
        ({"mode": "kill", "name": "*"}, (effect(K.KILL_ALL, None, "Process kill (every process)"),)),
        (
            {"mode": "kill", "name": "*.*", "force": "true"},
            (effect(K.KILL_ALL, None, "Process kill force (every process)"),),
        ),
        ({"mode": "list", "name": "x"}, ()),
        ({"name": "x"}, ()),
    ],
)
def test_process_kill_becomes_whole_effects(args: dict[str, object], expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: Process kill by `name` and `pid`, forced or not; a name of wildcards alone kills everything."""
    assert tool_effects("Process", args) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"mode": "launch", "name": "notepad"}, (effect(K.EXECUTE, "notepad", "App launch"),)),
        ({"name": "notepad"}, (effect(K.EXECUTE, "notepad", "App launch"),)),  # launch is the default
        ({"mode": None, "name": "notepad"}, (effect(K.EXECUTE, "notepad", "App launch"),)),
        (
            {"mode": "launch_executable", "executable": "x.exe", "args": ["a", "b"], "cwd": "C:\\w"},
            (effect(K.EXECUTE, "x.exe", "App launch_executable", extra=(("args", "a b"), ("cwd", "C:\\w"))),),
        ),
        (
            {"mode": "launch_executable", "executable": "x.exe", "cwd": "C:\\w"},
            (effect(K.EXECUTE, "x.exe", "App launch_executable", extra=(("cwd", "C:\\w"),)),),
        ),
        (
            {"mode": "launch_executable", "executable": "x.exe", "args": [], "cwd": ""},
            (effect(K.EXECUTE, "x.exe", "App launch_executable"),),
        ),
        (
            {"mode": "launch_executable", "executable": "C:\\Tools\\x.exe", "args": '["--v", "-q"]'},
            (effect(K.EXECUTE, "C:\\Tools\\x.exe", "App launch_executable", extra=(("args", "--v -q"),)),),
        ),
        ({"mode": "resize", "name": "notepad"}, ()),
        ({"mode": "switch", "name": "notepad"}, ()),
    ],
)
def test_app_launches_become_whole_effects(args: dict[str, object], expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: App launch (by `name`) and launch_executable (with its `args` and `cwd`) execute."""
    assert tool_effects("App", args) == expected


@requirement("S-RULE-18")
def test_app_launch_executable_adds_what_the_started_program_does() -> None:
    """S-RULE-18: launching taskkill.exe with `/f /im lsass.exe` is also a forced kill of lsass."""
    found = tool_effects(
        "App", {"mode": "launch_executable", "executable": "taskkill.exe", "args": ["/f", "/im", "lsass.exe"]}
    )
    assert found == (
        effect(K.EXECUTE, "taskkill.exe", "App launch_executable", extra=(("args", "/f /im lsass.exe"),)),
        effect(K.KILL_FORCED, "lsass.exe", "taskkill /f"),
    )


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    ("tool", "args"),
    [("Process", ["kill"]), ("FileSystem", None), ("Click", {"mode": "delete", "path": "C:\\a"})],
)
def test_a_call_that_is_not_a_mapping_or_not_one_of_the_four_tools_has_no_effects(tool: str, args: object) -> None:
    """S-RULE-11: arguments that are not an object, or a tool without a table here, give ()."""
    assert tool_effects(tool, args) == ()  # type: ignore[arg-type]


@requirement("S-RULE-18")
def test_a_registry_value_given_as_a_boolean_is_written_as_upstream_writes_it() -> None:
    """S-RULE-18: Registry set `value: false` carries the data "false", `true` carries "true"."""
    for value, data in ((False, "false"), (True, "true")):
        found = tool_effects("Registry", {"mode": "set", "path": KEY, "name": "v", "value": value})
        assert found == (effect(K.REGISTRY_SET, KEY, "Registry set", value_name="v", data=data),)


@requirement("S-RULE-16")
def test_app_launch_executable_is_the_outermost_command_for_the_depth_bound() -> None:
    """S-RULE-16: App launching cmd.exe counts as depth 0: MAX_STARTED_DEPTH nested `cmd /c` are read through."""
    words = ["/c", "cmd"] * (MAX_STARTED_DEPTH - 1) + ["/c", "del", "C:\\x"]
    found = tool_effects("App", {"mode": "launch_executable", "executable": "cmd.exe", "args": words})
    assert effect(K.DELETE, "C:\\x", "del") in found
