"""Another AI agent handed the work (S-RULE-198); an MCP client's server list changed through its own CLI, and
Windows-MCP started outside the gateway (S-RULE-199).

Before, all of these passed: `claude -p "…" --dangerously-skip-permissions` runs whatever that agent decides
with no judgement, approval or audit; `claude mcp add windows -- uvx windows-mcp` gives the client an ungated
Windows-MCP at its next start (while a write of its settings file was refused); `uvx windows-mcp --transport
sse` starts one any program on the machine could drive.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, reason_of, verdict

ASK = ("agent-delegation", "ask")
UNATTENDED = ("agent-unattended", "deny")
GUARD = ("self-protection", "deny")


@requirement("S-RULE-198")
@pytest.mark.parametrize(
    "command",
    [
        'claude -p "tidy the repository"',
        'claude --print "tidy"',
        'claude "fix the failing test"',  # an interactive session started with its task
        "Get-Content task.txt | claude -p",
        'claude --permission-mode plan -p "x"',
        'codex exec "update the dependencies"',
        'codex exec -s read-only "x"',
        'gemini -p "summarise the logs"',
        'gemini --approval-mode default -p "x"',
        'qwen -p "x"',
        'aider --message "rename the module"',
        'cursor-agent -p "x"',
        'amp -x "x"',
        'copilot -p "x"',
        'opencode run "x"',
        'goose run -t "x"',
        "npx '@google/gemini-cli' -p x",
        "& 'C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd' -p x",
        "Start-Process claude -ArgumentList '-p','x'",
    ],
)
def test_another_agent_handed_a_task_asks(command: str) -> None:
    """S-RULE-198: its task is plain language; what it does is not the gateway's to judge."""
    assert ps(command) == ASK


@requirement("S-RULE-198")
@pytest.mark.parametrize(
    "command",
    [
        'claude -p "clean up" --dangerously-skip-permissions',
        "claude --dangerously-skip-permissions=true -p x",
        'claude -p x "--dangerously-skip-permissions"',
        "$f = '--dangerously-skip-permissions'; claude -p x $f",
        "$a = 'claude'; & $a -p x --dangerously-skip-permissions",
        'claude --permission-mode bypassPermissions -p "x"',
        'claude --permission-mode acceptEdits -p "x"',
        'claude -p "x" --allowedTools "Bash(git:*)"',
        r'claude --mcp-config C:\t\servers.json -p "x"',
        "claude --resume abc -p x --dangerously-skip-permissions",
        'codex exec --full-auto "x"',
        'codex exec --dangerously-bypass-approvals-and-sandbox "x"',
        'codex --yolo exec "x"',
        'codex -a never exec "x"',
        'codex exec -s danger-full-access "x"',
        'codex -c approval_policy=never exec "x"',
        'gemini -p "x" --yolo',
        'gemini -y -p "x"',
        "gemini --approval-mode=yolo -p x",
        'aider --yes-always --message "x"',
        'cursor-agent -p "x" --force',
        'amp -x "x" --dangerously-allow-all',
        'copilot -p "x" --allow-all-tools',
        "npx '@anthropic-ai/claude-code' -p x --dangerously-skip-permissions",
        'npx -y "@openai/codex@latest" exec --full-auto x',
        "uvx aider-chat --yes-always -m x",
        "Start-Process claude -ArgumentList '-p','x','--dangerously-skip-permissions'",
        "cmd /c claude -p x --dangerously-skip-permissions",
        'wsl claude -p "x" --dangerously-skip-permissions',
        "wsl -- codex exec --full-auto x",
        "bash -c 'claude -p \"x\" --dangerously-skip-permissions'",
    ],
)
def test_another_agent_with_its_approvals_off_is_refused(command: str) -> None:
    """S-RULE-198: nothing it did would be judged, approved or audited."""
    assert ps(command) == UNATTENDED


@requirement("S-RULE-198")
def test_the_app_tool_starting_an_unattended_agent_is_refused() -> None:
    """S-RULE-198: `launch_executable` with the agent's launcher and its flags."""
    args = ["-p", "x", "--dangerously-skip-permissions"]
    launcher = r"C:\Users\me\AppData\Roaming\npm\claude.cmd"
    assert verdict("App", mode="launch_executable", executable=launcher, args=args, cwd=r"C:\t") == UNATTENDED


@requirement("S-RULE-198")
@pytest.mark.parametrize(
    "command",
    [
        "claude --version",
        "claude -v",
        "codex --help",
        "claude update",
        "claude mcp list",
        "claude mcp get win",
        "claude mcp serve",
        "claude mcp",  # no verb: its help
        "claude mcp get $name",  # a verb that reads, whatever it reads
        "codex mcp list",
        "gemini mcp list",
        "cursor-agent --version",
        "claude",  # opened with no words: its window's later input is not read (README)
        r"code C:\t\proj",
        "code --install-extension ms-python.python",
    ],
)
def test_asking_an_agent_about_itself_stays_ordinary(command: str) -> None:
    """S-RULE-198: its version, help, server list, or opening it."""
    assert ps(command) is None


@requirement("S-RULE-198")
@pytest.mark.parametrize("name", ["Copilot", "Claude", "Cursor"])
def test_desktop_apps_of_the_same_name_open_as_before(name: str) -> None:
    """S-RULE-198: the App tool's launch by name opens the desktop app (Windows' Copilot, Claude Desktop)."""
    assert verdict("App", mode="launch", name=name) is None


@requirement("S-RULE-198")
def test_the_reason_names_the_agent_and_the_flag() -> None:
    """S-RULE-198: which agent, and which flag turned its approvals off."""
    reason = reason_of('codex exec --full-auto "x"')
    assert "Codex" in reason
    assert "--full-auto" in reason
    assert "Claude Code" in reason_of('claude -p "x"')


@requirement("S-RULE-198")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-198: the keyboard is a shell (issue 18 item 4)."""
    text = 'claude -p "clean up" --dangerously-skip-permissions'
    assert typed_in_console(text) == UNATTENDED


@requirement("S-RULE-199")
@pytest.mark.parametrize(
    "command",
    [
        "claude mcp add windows -- uvx windows-mcp",
        'claude mcp add-json win \'{"command":"uvx","args":["windows-mcp"]}\'',
        "claude mcp add-from-claude-desktop",
        "claude mcp remove gateway",
        "claude mcp reset-project-choices",
        "codex mcp add win -- uvx windows-mcp",
        "codex mcp remove gateway",
        "gemini mcp add win uvx windows-mcp",
        "qwen mcp add win uvx windows-mcp",
        "amp mcp add win -- uvx windows-mcp",
        'code --add-mcp \'{"name":"win","command":"uvx","args":["windows-mcp"]}\'',
        "code-insiders --add-mcp '{}'",
        "cursor --add-mcp '{}'",
        "windsurf --add-mcp '{}'",
    ],
)
def test_a_server_list_changed_through_the_clients_cli_is_refused(command: str) -> None:
    """S-RULE-199: the same change as writing the client's settings file, which is refused."""
    assert ps(command) == GUARD


@requirement("S-RULE-199")
@pytest.mark.parametrize(
    "command",
    [
        "uvx windows-mcp",
        "uvx windows-mcp --transport sse --port 8000",
        "uvx --from windows-mcp==0.8.8 windows-mcp",
        "uvx --from=windows-mcp windows-mcp",
        "uvx --from git+https://github.com/CursorTouch/Windows-MCP windows-mcp",
        "uv tool run windows-mcp",
        "uv -q tool run windows-mcp",  # the runner's own options before its verbs
        "uvx --from=windows-mcp==0.8.8 wmcp",  # the package named only by the option's value
        "pipx run windows-mcp",
        "python -m windows_mcp",
        "py -m windows_mcp",
        "windows-mcp --transport streamable-http",
        r"C:\Users\me\.local\bin\windows-mcp.exe",
        "Start-Process uvx -ArgumentList 'windows-mcp'",
        "wsl uvx windows-mcp",
    ],
)
def test_windows_mcp_started_outside_the_gateway_is_refused(command: str) -> None:
    """S-RULE-199: a second desktop controller with no rules in front of it."""
    hit = ps(command)
    assert hit is not None
    assert hit[1] == "deny"
    assert hit[0] in ("self-protection", "download-execute")  # a `git+` source is refused as a download too


@requirement("S-RULE-199")
def test_the_app_tool_starting_windows_mcp_is_refused() -> None:
    """S-RULE-199: `launch_executable` of a runner with the package."""
    runner = r"C:\Users\me\.local\bin\uvx.exe"
    assert verdict("App", mode="launch_executable", executable=runner, args=["windows-mcp"], cwd=r"C:\t") == GUARD


@requirement("S-RULE-199")
@pytest.mark.parametrize(
    "command",
    [
        "pipx install windows-mcp",
        "uv pip install windows-mcp",
        "uv tool install windows-mcp",
        "pip show windows-mcp",
        "pytest -m windows_mcp",  # pytest's `-m` is a marker, not a module
        "uvx ruff check .",
    ],
)
def test_installing_it_and_other_runs_stay_ordinary(command: str) -> None:
    """S-RULE-199: installed or named is not started."""
    assert ps(command) is None


@requirement("S-RULE-199")
def test_the_reason_says_windows_mcp_would_run_ungated() -> None:
    """S-RULE-199: the refusal says what would happen."""
    reason = reason_of("uvx windows-mcp")
    assert "outside the gateway" in reason


@requirement("S-RULE-198", "S-RULE-199", "S-RULE-202")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("& ('cl'+'aude') -p x --dangerously-skip-permissions", UNATTENDED),
        ("$o = '--dangerously-' + 'skip-permissions'; claude -p x $o", UNATTENDED),
        ("$a = @('-p','x','--yolo'); gemini @a", UNATTENDED),
        ('cmd /c "set F=--full-auto& codex exec %F% x"', UNATTENDED),
        ('iex "claude -p x --dangerously-skip-permissions"', UNATTENDED),
        ("Set-Alias c claude; c -p x --dangerously-skip-permissions", UNATTENDED),
        (
            "powershell -enc YwBsAGEAdQBkAGUAIAAtAHAAIAB4ACAALQAtAGQAYQBuAGcAZQByAG8AdQBzAGwAeQAtAHMAawBp"
            "AHAALQBwAGUAcgBtAGkAcwBzAGkAbwBuAHMA",
            UNATTENDED,
        ),
        ("uvx ('windows' + '-mcp')", GUARD),
        ("$u = 'http://local' + 'host:8000/mcp'; irm $u -Method Post -Body '{}'", GUARD),
    ],
)
def test_built_spellings_are_judged_as_the_spelled_ones(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-198, S-RULE-199, S-RULE-202: names and flags built from pieces, aliases, encoded commands."""
    assert ps(command) == expected


@requirement("S-RULE-198")
@pytest.mark.parametrize(
    ("command", "flag"),
    [
        ('claude --permission-mode bypassPermissions -p "x"', "--permission-mode bypassPermissions"),
        ("claude --permission-mode $m -p x", "--permission-mode ?"),  # not known: it may turn them off
        ('codex exec --full-auto "x"', "--full-auto"),
    ],
)
def test_the_reason_shows_the_flag_and_its_value(command: str, flag: str) -> None:
    """S-RULE-198: the flag that turned the approvals off, with its value (`?` when it is not known)."""
    assert ps(command) == UNATTENDED
    assert f"with {flag})" in reason_of(command)
