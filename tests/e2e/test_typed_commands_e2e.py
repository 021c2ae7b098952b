"""The keyboard is a shell, end to end on the simulator (issue 18 item 4; S-RULE-14, S-FLOW-14).

Text typed (Type, MultiEdit) or pasted (Clipboard set, then Ctrl+V / Shift+Insert) into a place
that runs what it is given — a console, the Run box, Task Manager's "Create new task", an Explorer
or browser address bar — is judged as a command: a dangerous one is refused, with and without
Enter, and the simulator's event log shows nothing typed; the same text into Notepad, and ordinary
commands into a console, go through. A UAC prompt always asks a person.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gateway.observe.parse import parse_result
from policy.observation import Capture
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

BROWSER_ADDRESS_BAR = [850, 62]  # the simulator's Edge address bar: a label, never printed (FORMATS §5.5)


async def snapshot_focus(rig: Any) -> list[int]:
    """Take a Snapshot; the point of the focused element it shows (where Type's `loc` aims)."""
    capture = parse_result("Snapshot", await rig.call("Snapshot", {}))
    assert isinstance(capture, Capture)
    focused = [e.point for e in capture.elements if "focused" in e.flags and e.point is not None]
    return list(focused[0]) if focused else BROWSER_ADDRESS_BAR


DANGEROUS = "Remove-Item -Recurse -Force C:\\data"
COMMAND_PLACES = ["console-powershell", "console-cmd", "windows-terminal", "run-box", "taskmgr-run", "explorer-address"]
TYPED: list[tuple[str, dict[str, Any]]] = [
    ("Type", {"text": DANGEROUS, "press_enter": True}),
    ("Type", {"text": DANGEROUS}),  # no Enter yet: a later Enter runs it
    ("Type", {"text": DANGEROUS + "\n"}),
    ("Type", {"text": "cmd /c rd /s /q C:\\Windows\\System32", "press_enter": True}),
    (
        "Type",
        {
            "text": "powershell -enc " + "UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAAQwA6AFwAeAA=",
            "press_enter": True,
        },
    ),
]


@requirement("S-FLOW-14")
@pytest.mark.parametrize("scenario", COMMAND_PLACES)
@pytest.mark.parametrize(("tool", "args"), TYPED, ids=["enter", "no-enter", "newline", "cmd", "encoded"])
async def test_dangerous_text_typed_where_it_runs_is_refused_and_nothing_is_typed(
    tmp_path: Path, scenario: str, tool: str, args: dict[str, Any]
) -> None:
    """S-FLOW-14: typed into a console, the Run box or an address bar, a dangerous command is refused."""
    async with gateway_rig(tmp_path, scenario=scenario) as rig:
        loc = await snapshot_focus(rig)
        text = first_text(await rig.call(tool, {**args, "loc": loc}))
        assert text.startswith(("DENIED COMMAND_RULE", "DENIED APPROVAL_REQUIRED")), text[:300]
        assert "typed into" in text
        assert rig.side_effects() == [], "refused typing reached the simulated desktop"


@requirement("S-FLOW-14")
@pytest.mark.parametrize(
    ("scenario", "args"),
    [
        ("notepad", {"text": DANGEROUS, "press_enter": True}),  # a document: text, not a command
        ("console-powershell", {"text": "Get-ChildItem C:\\Users", "press_enter": True}),
        ("console-cmd", {"text": "dir C:\\Windows\\System32", "press_enter": True}),
        ("run-box", {"text": "notepad", "press_enter": True}),
        ("explorer-address", {"text": "C:\\Users\\Public\\Documents", "press_enter": True}),
        ("browser-address", {"text": "https://example.com/docs", "press_enter": True}),
    ],
)
async def test_ordinary_typing_goes_through(tmp_path: Path, scenario: str, args: dict[str, Any]) -> None:
    """S-FLOW-14: the same text into Notepad, and ordinary commands where they run, are typed."""
    async with gateway_rig(tmp_path, scenario=scenario) as rig:
        loc = await snapshot_focus(rig)
        result = await rig.call("Type", {**args, "loc": loc})
        assert not first_text(result).startswith("DENIED"), first_text(result)[:300]
        assert [e["kind"] for e in rig.side_effects()] == ["type"]


@requirement("S-FLOW-14")
async def test_a_dangerous_paste_into_a_console_is_refused_and_an_unknown_one_asks(tmp_path: Path) -> None:
    """S-FLOW-14: Clipboard set then Ctrl+V into a console is judged; a clipboard the gateway cannot know asks."""
    async with gateway_rig(tmp_path, scenario="console-powershell") as rig:
        await rig.call("Snapshot", {})
        assert not first_text(await rig.call("Clipboard", {"mode": "set", "text": DANGEROUS})).startswith("DENIED")
        await rig.call("Snapshot", {})
        for chord in ("ctrl+v", "Shift+Insert"):
            text = first_text(await rig.call("Shortcut", {"shortcut": chord}))
            assert text.startswith("DENIED COMMAND_RULE") and "recursive-delete" in text, text[:300]
        await rig.call("PowerShell", {"command": "Get-Date"})  # may have changed the clipboard
        await rig.call("Snapshot", {})
        text = first_text(await rig.call("Shortcut", {"shortcut": "ctrl+v"}))
        assert text.startswith("DENIED APPROVAL_REQUIRED") and "unknown-paste" in text, text[:300]
        assert [e for e in rig.side_effects() if e["kind"] == "shortcut"] == []


@requirement("S-FLOW-14")
async def test_typing_into_a_uac_prompt_asks_a_person(tmp_path: Path) -> None:
    """S-FLOW-14: a UAC or Windows Security prompt is always a person's call."""
    async with gateway_rig(tmp_path, scenario="uac-prompt") as rig:
        loc = await snapshot_focus(rig)
        text = first_text(await rig.call("Type", {"text": "hunter2", "press_enter": True, "loc": loc}))
        assert text.startswith("DENIED APPROVAL_REQUIRED") and "credential-prompt" in text, text[:300]
        assert rig.side_effects() == []


@requirement("S-RULE-103")
async def test_code_typed_into_a_python_prompt_asks_and_nothing_is_typed(tmp_path: Path) -> None:
    """S-RULE-103: through `serve`, Python typed into a Python prompt asks a person; nothing reaches the desktop."""
    async with gateway_rig(tmp_path, scenario="python-repl") as rig:
        loc = await snapshot_focus(rig)
        code = "import shutil; shutil.rmtree('C:/Users')"
        text = first_text(await rig.call("Type", {"text": code, "press_enter": True, "loc": loc}))
        assert text.startswith("DENIED APPROVAL_REQUIRED") and "interpreter" in text, text[:300]
        assert rig.side_effects() == [], "refused typing reached the simulated desktop"


@requirement("S-RULE-108")
async def test_a_command_typed_into_a_remote_desktop_session_is_refused_and_nothing_is_typed(tmp_path: Path) -> None:
    """S-RULE-108: through `serve`, a delete typed into a Remote Desktop window is judged as a console's would be
    (it may reach a shell on that machine) and refused; nothing reaches the desktop. Plain text passes."""
    async with gateway_rig(tmp_path, scenario="remote-desktop") as rig:
        await rig.call("Snapshot", {})
        loc = [800, 500]  # inside the session's window: no control of its own is listed there
        text = first_text(await rig.call("Type", {"text": DANGEROUS, "press_enter": True, "loc": loc}))
        assert text.startswith("DENIED") and "remote or virtual machine" in text, text[:300]
        assert rig.side_effects() == [], "refused typing reached the simulated desktop"
        await rig.call("Snapshot", {})
        text = first_text(await rig.call("Type", {"text": "quarterly report", "loc": loc}))
        assert not text.startswith("DENIED"), text[:300]
        assert [e["kind"] for e in rig.side_effects()] == ["type"]


@requirement("S-RULE-139")
async def test_an_editors_run_key_asks_and_nothing_is_pressed(tmp_path: Path) -> None:
    """S-RULE-139: through `serve`, F5 in Visual Studio Code (it runs the open file, which the agent may have typed
    there as plain text) asks a person; nothing reaches the desktop. Saving the file (Ctrl+S) goes through."""
    async with gateway_rig(tmp_path, scenario="vscode-terminal") as rig:
        await rig.call("Snapshot", {})
        text = first_text(await rig.call("Shortcut", {"shortcut": "f5"}))
        assert text.startswith("DENIED APPROVAL_REQUIRED") and "runs the open document" in text, text[:300]
        assert rig.side_effects() == [], "a refused run key reached the simulated desktop"
        await rig.call("Snapshot", {})
        text = first_text(await rig.call("Shortcut", {"shortcut": "ctrl+s"}))
        assert not text.startswith("DENIED"), text[:300]
        assert len(rig.side_effects()) == 1, rig.side_effects()


@requirement("S-RULE-146")
async def test_a_line_continued_in_the_next_call_is_judged_whole(tmp_path: Path) -> None:
    """S-RULE-146: through `serve`, `Remove-Item `` (its ask exempted by the person's config, so it is typed and
    entered: PowerShell waits with `>>`) and then `C:\\Users -Recurse -Force` + Enter in a later call is the delete
    of C:\\Users; it is refused and only the first line reached the console."""
    async with gateway_rig(
        tmp_path, scenario="console-powershell", config={"allow_rules": ["dynamic-command", "unparsed-command"]}
    ) as rig:
        loc = await snapshot_focus(rig)
        text = first_text(await rig.call("Type", {"text": "Remove-Item `", "press_enter": True, "loc": loc}))
        assert not text.startswith("DENIED"), text[:300]
        assert [e["kind"] for e in rig.side_effects()] == ["type"]
        await rig.call("Snapshot", {})
        text = first_text(
            await rig.call("Type", {"text": "C:\\Users -Recurse -Force", "press_enter": True, "loc": loc})
        )
        assert text.startswith("DENIED") and "protected-place-delete" in text, text[:300]
        assert [e["kind"] for e in rig.side_effects()] == ["type"], "the continued line reached the console"
