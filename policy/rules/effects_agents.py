"""Another AI agent handed the work, an MCP client's server list changed by its own CLI, and Windows-MCP
started outside the gateway (S-RULE-198, S-RULE-199).

The gateway judges what its client's agent does through Windows-MCP. Three calls take the work out of its
sight while looking ordinary:

1. **Another agent started** (`claude -p "…"`, `codex exec "…"`, `gemini -p`, `aider --message`, `cursor-agent
   -p`, `amp -x`, `copilot -p`, `opencode run`, `goose run`): its task is plain language the rules cannot read,
   and what it then runs — commands, edits, downloads — goes through its own tools, never through the gateway,
   and is in no audit of ours. An `EXECUTE` marked `AGENT` (judge row `agent-delegation`, ask). Started with its
   own approvals off (`--dangerously-skip-permissions`, `--yolo`, `--full-auto`, `--yes-always`, pre-allowed
   tools, a server list of its own), nobody is asked about anything it does: marked `UNATTENDED` as well (row
   `agent-unattended`, deny). Asking it for its version, its help or its server list stays ordinary.
2. **A server list changed through the client's CLI** (`claude mcp add windows -- uvx windows-mcp`, `codex mcp
   add`, `gemini mcp remove`, `code --add-mcp '{…}'`): the same change as a write of the client's settings file,
   which is refused (`mcp-client-config`), so it is that write (`WRITE` of the file the CLI rewrites).
3. **Windows-MCP started outside the gateway** (`uvx windows-mcp`, `pipx run windows-mcp`, `uv tool run`,
   `python -m windows_mcp`, the `windows-mcp` command itself): a second Windows-MCP that no gateway stands in
   front of; over HTTP, any program on the machine (the agent's own `Invoke-RestMethod` included) could drive
   the desktop through it. An `EXECUTE` marked `UNGATED_UPSTREAM` (row `self-protection`, deny).

What cannot be known: an agent opened with no words and then given its task by typing into its window (the
text reads as PowerShell there), an agent the table does not name, one started by a script the gateway does
not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from policy.rules.effects_common import Argv, Effects, argv_of, effect, lower, program_stem, python_module, unquote
from policy.rules.shell.ops import EffectKind, Operation

__all__ = ["AGENT", "UNATTENDED", "UNGATED_UPSTREAM", "agent_effects"]

K = EffectKind

AGENT = "agent"  # an `extra` key: the agent program a call hands work to
UNATTENDED = "unattended"  # an `extra` key: that agent's own approvals are off (the flag that turns them off)
UNGATED_UPSTREAM = "ungated-upstream"  # an `extra` key: Windows-MCP started where no gateway stands in front of it

# Words that only ask an agent about itself: `claude --version`, `codex mcp list`, `gemini --help`.
_ASKING = frozenset({"version", "v", "help", "h"})
_INFORMATION_VERBS = frozenset({"list", "get", "ls", "show", "status", "login", "logout", "doctor", "help"})
_INFORMATION_VERBS |= {"update", "upgrade", "version", "completion"}


@dataclass(frozen=True, slots=True)
class _Agent:
    """One agent CLI: its name in reasons, the flags that turn its approvals off, and its MCP settings file."""

    name: str
    unattended: frozenset[str]  # flags (no dash, lower case) that turn its approvals off
    unattended_values: Mapping[str, frozenset[str]]  # a flag whose value turns them off (`--approval-mode yolo`)
    config: str | None  # the file its `mcp add`/`mcp remove` rewrites
    mcp_verbs: frozenset[str] = frozenset({"add", "add-json", "add-from-claude-desktop", "remove", "rm", "import"})


_NONE: Mapping[str, frozenset[str]] = {}
_GEMINI_VALUES = {"approval-mode": frozenset({"yolo", "auto_edit", "auto-edit"})}
_GEMINI_OFF = frozenset({"yolo", "y", "allowed-tools"})
_AGENTS: Mapping[str, _Agent] = {
    "claude": _Agent(
        "Claude Code",
        frozenset({"dangerously-skip-permissions", "allow-dangerously-skip-permissions", "allowedtools"})
        | {"allowed-tools", "mcp-config"},
        {"permission-mode": frozenset({"bypasspermissions", "acceptedits", "dontask"})},
        r"~\.claude.json",
        frozenset({"add", "add-json", "add-from-claude-desktop", "remove", "reset-project-choices"}),
    ),
    "codex": _Agent(
        "Codex",
        frozenset({"full-auto", "dangerously-bypass-approvals-and-sandbox", "yolo"}),
        {
            "sandbox": frozenset({"danger-full-access", "workspace-write"}),
            "s": frozenset({"danger-full-access", "workspace-write"}),
            "ask-for-approval": frozenset({"never", "on-failure"}),
            "a": frozenset({"never", "on-failure"}),
            "c": frozenset({"approval_policy=never", 'approval_policy="never"', "sandbox_mode=danger-full-access"}),
        },
        r"~\.codex\config.toml",
    ),
    "gemini": _Agent("Gemini CLI", _GEMINI_OFF, _GEMINI_VALUES, r"~\.gemini\settings.json"),
    "qwen": _Agent("Qwen Code", _GEMINI_OFF, _GEMINI_VALUES, r"~\.qwen\settings.json"),
    "aider": _Agent("aider", frozenset({"yes-always", "yes"}), _NONE, None),
    "cursor-agent": _Agent("Cursor's agent", frozenset({"force", "f"}), _NONE, None),
    "amp": _Agent("Amp", frozenset({"dangerously-allow-all"}), _NONE, r"~\.config\amp\settings.json"),
    "copilot": _Agent("GitHub Copilot CLI", frozenset({"allow-all-tools", "allow-tool"}), _NONE, None),
    "opencode": _Agent("opencode", frozenset(), _NONE, r"~\.config\opencode\opencode.json"),
    "goose": _Agent("Goose", frozenset(), _NONE, None),
}
# VS Code and its forks add a server to the user's `mcp.json` from the command line (`code --add-mcp '{…}'`).
_EDITORS: Mapping[str, str] = {
    "code": "Code",
    "code-insiders": "Code - Insiders",
    "cursor": "Cursor",
    "windsurf": "Windsurf",
    "codium": "VSCodium",
}
_WINDOWS_MCP = re.compile(r"^windows[-_.]mcp(?:$|[=<>~!@\[;])", re.IGNORECASE)
_RUNNERS = frozenset({"uvx", "pipx", "uv"})
# Programs whose names PowerShell reads as a cmdlet's (verb-noun): no cmdlet has them, so a program on the PATH runs.
_DASHED_PROGRAMS = frozenset({"windows-mcp", "cursor-agent", "code-insiders"})
# An agent run from its package, without installing it (`npx @anthropic-ai/claude-code -p …`, `uvx aider-chat`).
_PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx", "uvx"})
_AGENT_PACKAGES: Mapping[str, str] = {
    "@anthropic-ai/claude-code": "claude",
    "@openai/codex": "codex",
    "@google/gemini-cli": "gemini",
    "@qwen-code/qwen-code": "qwen",
    "@sourcegraph/amp": "amp",
    "@github/copilot": "copilot",
    "opencode-ai": "opencode",
    "aider-chat": "aider",
}
_VERSION = re.compile(r"(?<=.)@[^/@]*$|==.*$")  # `@openai/codex@latest`, `aider-chat==0.80`
_PYTHON = re.compile(r"^(?:python(?:w|3(?:\.\d+)?)?|pyw?)$")


def agent_effects(op: Operation) -> Effects:
    """What a program operation hands another agent, changes in an MCP client's server list, or starts as an
    ungated Windows-MCP (module docstring); `()` for any other program."""
    # A program (cmd's built-ins are none of these), or one PowerShell reads as a cmdlet's name.
    if op.shell != "program" and not (op.shell == "powershell" and op.name in _DASHED_PROGRAMS):
        return ()
    stem = program_stem(op.name)
    argv = argv_of(op)
    if _WINDOWS_MCP.match(stem) or _runs_windows_mcp(stem, argv):
        detail = f"{stem} starting Windows-MCP outside the gateway"
        return (effect(K.EXECUTE, "windows-mcp", detail, extra=((UNGATED_UPSTREAM, stem),)),)
    if stem in _EDITORS:
        if not argv.flag("add-mcp"):
            return ()
        config = rf"~\appdata\roaming\{_EDITORS[stem]}\user\mcp.json"
        return (effect(K.WRITE, config, f"{stem} --add-mcp"),)
    run = _run_from_package(stem, argv)
    if run is not None:
        stem, argv = run
    agent = _AGENTS.get(stem)
    if agent is None or not argv.words or _only_asks(argv):
        # Started with no words it is only opened (and `Claude`, `Copilot` are also desktop apps the App tool
        # opens by name): a task typed into its window later cannot be read (module docstring).
        return ()
    words = [lower(w) for w in argv.positionals()]
    if agent.config is not None and words[:1] == ["mcp"]:
        verb = words[1] if len(words) > 1 else ""
        if verb in agent.mcp_verbs or (argv.words and None in argv.words[:2]):
            return (effect(K.WRITE, agent.config, f"{stem} mcp {verb}".rstrip()),)
        return ()  # `claude mcp list`, `codex mcp get x`, `claude mcp serve`
    if words[:1] and words[0] in _INFORMATION_VERBS:
        return ()
    extra: tuple[tuple[str, str], ...] = ((AGENT, agent.name),)
    off = _approvals_off(agent, argv)
    if off is not None:
        extra += ((UNATTENDED, off),)
    return (effect(K.EXECUTE, stem, f"{agent.name} given a task" + (f" with {off}" if off else ""), extra=extra),)


def _run_from_package(runner: str, argv: Argv) -> tuple[str, Argv] | None:
    """`npx -y @openai/codex@latest exec …`: the agent a package runner starts, and the words it is handed."""
    if runner not in _PACKAGE_RUNNERS:
        return None
    for index, word in enumerate(argv.words):
        text = lower(unquote(word))
        if not text or text.startswith("-"):
            continue  # the runner's own options (`-y`, `--yes`); a valued one's value is not an agent's name
        stem = _AGENT_PACKAGES.get(_VERSION.sub("", text))
        return None if stem is None else (stem, Argv(argv.words[index + 1 :]))
    return None


def _only_asks(argv: Argv) -> bool:
    """`claude --version`, `codex --help`: nothing but a question about the program itself."""
    flags = argv.flag_names()
    return bool(flags) and not argv.positionals() and all(f in _ASKING for f in flags)


def _approvals_off(agent: _Agent, argv: Argv) -> str | None:
    """The flag (as `--name` or `--name value`) that turns the agent's own approvals off, or None."""
    for name in argv.flag_names():
        if name in agent.unattended:
            return f"--{name}"
        allowed = agent.unattended_values.get(name)
        if allowed is not None:
            value = argv.value(name)
            if value is None or unquote(value).lower() in allowed:
                return f"--{name} {unquote(value) if value is not None else '?'}"
    return None


def _runs_windows_mcp(stem: str, argv: Argv) -> bool:
    """`uvx windows-mcp`, `uvx --from windows-mcp==0.8 windows-mcp`, `pipx run windows-mcp`, `uv tool run
    windows-mcp`, `python -m windows_mcp`: a word of the runner's names the package (or a word not known)."""
    if stem in _RUNNERS:
        words = [unquote(w) for w in argv.words if w is not None]
        verbs = [w.lower() for w in words if not w.startswith("-")][:2]  # `uv -q tool run`: past the options
        if stem != "uvx" and "run" not in verbs:
            return False  # `pipx install windows-mcp`, `uv pip install …`: installed, not started
        # the package as a word, or as an option's value (`--from=windows-mcp==0.8.8`)
        values = [w.split("=", 1)[1] if w.startswith("-") and "=" in w else w for w in words]
        return any(_WINDOWS_MCP.match(v) for v in values)
    if _PYTHON.match(stem):
        module = python_module(argv.words)
        return module is not None and _WINDOWS_MCP.match(module[0]) is not None
    return False
