"""The effect rules (issue 18 items 3, 5, 7): what an operation does, to which place, decides.

The shell analysers and the structured tools turn a call into `Effect`s (ops.py); this table
judges each one by its kind and by the protected place (places.py) or process (processes.py)
its target is in, so `Remove-Item`, `[IO.File]::Delete`, `del`, FileSystem `delete` and
`move` meet the same rule. One row is one (effects × places × condition) → verdict; several
rows may share an id. `judge` returns the first deny in table order, else the first ask
(S-RULE-07), so among denies the most specific row comes first.

Reasons say what is wrong in plain words and name the place; the remedy ends the reason
("… Instead, …") and never points at harm: it suggests only reading (`Get-ChildItem`,
`Get-Process`, `reg query`) or asking the user — never a weaker form of the same act
(a kill without force still kills; deleting files one by one still deletes them). Every
command a remedy suggests is in backticks, so tests can check it.

An analyser that knows which specific built-in rule an effect belongs to may say so in
`Effect.extra` as `("rule", "<id>")`: a row lists the ids it may be reported as (`hints`) —
`disable-defender` for a SECURITY_WEAKENING from `Set-MpPreference` — and a PERSISTENCE
effect hinted `persistence-hijack` is denied as a hijack. A hint can make a verdict stricter
or more precise, never weaker.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

from policy.decision import RuleHit
from policy.rules.effects_agents import AGENT, UNATTENDED, UNGATED_UPSTREAM
from policy.rules.effects_common import (
    CLIPBOARD,
    LANDED,
    MAILBOX,
    NAMED,
    PERMISSIONS,
    RECURSIVE,
    UNREAD_SCRIPT,
    ZONE_MARK,
    ZONE_STREAM,
)
from policy.rules.effects_consoles import CONSOLE
from policy.rules.effects_editor import AGENT_APPROVALS
from policy.rules.effects_git import DISCARDS
from policy.rules.effects_network import LOCAL_MCP
from policy.rules.effects_remote_control import REMOTE_CONTROL
from policy.rules.effects_security import SERVICES_NOT_KNOWN, TASKS_NOT_KNOWN
from policy.rules.paths import candidate_paths, canonical_key, is_remote
from policy.rules.place_table import Place, PlaceCategory
from policy.rules.places import could_be_named, key_places, key_places_inside, places_around
from policy.rules.processes import canonical_process, is_protected_process, kills_everything
from policy.rules.shell.ops import Effect, EffectKind

K = EffectKind
P = PlaceCategory

# Effects whose target is a file (or a folder); a registry key in their target is judged as a key.
PATH_EFFECTS = frozenset(
    {K.DELETE, K.DELETE_RECURSIVE, K.MOVE, K.WRITE, K.READ, K.EXECUTE, K.CREDENTIAL_ACCESS, K.UPLOAD}
)
KEY_EFFECTS = frozenset({K.REGISTRY_SET, K.REGISTRY_DELETE})
PROCESS_EFFECTS = frozenset({K.KILL, K.KILL_FORCED, K.KILL_ALL})
# A delete or move of a folder takes everything inside along: places inside it count too.
_TAKES_CONTENTS = frozenset({K.DELETE, K.DELETE_RECURSIVE, K.MOVE})
_DELETES = frozenset({K.DELETE, K.DELETE_RECURSIVE, K.REGISTRY_DELETE})
GATEWAY_SETTING_PREFIX = "winmcp_gateway_"  # the gateway's own environment variables (issue 12 item 1)
_MAX_SHOWN = 120
_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class Target:
    """An effect's target, resolved once for every row.

    Attributes:
        shown: the target as a reason names it (canonical when it could be made so).
        key: the canonical registry key, when the target is one.
        places: every protected place the target is in, the most specific first.
        inside: for a delete or move of a folder (or a recursive read), the places inside it.
        categories: the categories of `places`.
        inside_categories: the categories of `inside`.
        linked: for a link being made, the places its target path is in or holds.
        linked_categories: the categories of `linked`.
        emptied_categories: for a path whose last part is a wildcard (`Documents\\*`), the categories
            of the places the folder it empties is itself (not those the folder is in).
    """

    shown: str
    key: str | None = None
    places: tuple[Place, ...] = ()
    inside: tuple[Place, ...] = ()
    categories: frozenset[PlaceCategory] = frozenset()
    inside_categories: frozenset[PlaceCategory] = frozenset()
    linked: tuple[Place, ...] = ()
    linked_categories: frozenset[PlaceCategory] = frozenset()
    emptied_categories: frozenset[PlaceCategory] = frozenset()


Condition: TypeAlias = Callable[[Effect, Target], bool]


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectRule:
    """One row of the effect table.

    Attributes:
        id: the rule id cited in refusals and the audit (`allow_rules` names it).
        category: what kind of harm the row is about (`destruction`, `persistence`, …).
        effects: the effect kinds the row judges.
        places: the place categories the target must be in, or None for any target.
        verdict: "deny" refuses; "ask" needs a person's approval.
        risk: the risk class, as in the built-in table (`data-loss`, `security-weakening`, …).
        reason: what is wrong; `{label}` (the place), `{target}`, `{detail}` and `{value}` are filled in.
        remedy: what to do instead: reading or asking only, commands in backticks.
        condition: a further test on the effect and its resolved target, if any.
        hints: specific rule ids an analyser may report this row as (see the module docstring).
        contents: the places inside a deleted or moved folder count too (the folder takes them along).
        unpacked_into: with `contents`, so do the places inside a folder an archive is unpacked into
            (S-RULE-115; any other row leaves that to `unpack-over-protected`).
        links: for a link made to another path (junction, symlink, hard link, `subst`: `extra`
            "link_target"), the categories of the places that path is in or holds; the row needs one.
    """

    id: str
    category: str
    effects: frozenset[EffectKind]
    places: frozenset[PlaceCategory] | None
    verdict: Literal["deny", "ask"]
    risk: str
    reason: str
    remedy: str
    condition: Condition | None = None
    hints: frozenset[str] = frozenset()
    contents: bool = False
    links: frozenset[PlaceCategory] | None = None
    unpacked_into: bool = False


# ---------------------------------------------------------------------------------------
# Conditions


# What a detail of the analysers names (effects_system.WEAKENED, "backups"/"boot") → the
# specific built-in rule id the text rules report for the same act.
_DETAIL_IDS: Mapping[EffectKind, Mapping[str, str]] = MappingProxyType(
    {
        K.SECURITY_WEAKENING: MappingProxyType(
            {
                "defender": "disable-defender",
                "firewall": "disable-firewall",
                "uac": "disable-uac",
                "execution-policy": "weaken-execution-policy",
            }
        ),
        K.DISK_DESTROY: MappingProxyType({"backups": "delete-backups", "boot": "delete-backups"}),
    }
)


# What a protected place is (place_table ids) → the specific built-in rule id a change to it is
# reported as, so a Registry set of `EnableLUA` says `disable-uac` as `Set-ItemProperty` does.
_DEFENDER_SERVICES = ("windefend", "wdnissvc", "wdfilter", "wdboot", "wdnisdrv", "sense")
PLACE_RULE_IDS: Mapping[str, str] = MappingProxyType(
    {
        "uac-key": "disable-uac",
        "defender-key": "disable-defender",
        **{f"{s}-service": "disable-defender" for s in _DEFENDER_SERVICES},
        "firewall-key": "disable-firewall",
        "mpssvc-service": "disable-firewall",
        "bfe-service": "disable-firewall",
        "execution-policy-key": "weaken-execution-policy",
    }
)


def _hint(effect: Effect) -> str | None:
    """The specific rule id the analyser names (`extra` "rule"), or its detail implies."""
    named = dict(effect.extra).get("rule")
    if named is not None:
        return named
    return _DETAIL_IDS.get(effect.kind, {}).get(effect.detail.strip().lower())


def _place_hint(rule: EffectRule, target: Target) -> str | None:
    """The specific rule id the most specific place of the row's kind implies (`PLACE_RULE_IDS`)."""
    if rule.places is None:
        return None
    place = next((p for p in target.places if p.category in rule.places), None)
    return None if place is None else PLACE_RULE_IDS.get(place.id)


def _names_gateway_setting(effect: Effect, target: Target) -> bool:
    """A persistent variable of the gateway's (`WINMCP_GATEWAY_*`), or a pattern that can name one
    (S-RULE-84): `W*`, `*_CONFIG`, `[vw]INMCP_GATEWAY_X` can; `?ATH` cannot (four letters)."""
    name = effect.value_name
    if name is None:  # a delete without a value name removes the whole key, the gateway's values too
        return effect.kind in _DELETES
    return can_match_prefix(name.strip().lower(), GATEWAY_SETTING_PREFIX)


_ANY = frozenset[str]()  # a `?`: any one character
_STAR = None  # a `*` (a literal `*`, escaped with a backtick, is the string)
_Token: TypeAlias = str | frozenset[str] | None  # `*`, one literal character, or a `[…]` set (`_ANY`: `?`)


def _wildcard_tokens(pattern: str) -> list[_Token]:
    """A PowerShell wildcard pattern as tokens: `*`, `?`, `[abc]`/`[a-c]` and literal characters (a backtick
    escapes the next one). A `[` without its `]` is read as any character (PowerShell refuses the pattern)."""
    tokens: list[_Token] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "`" and i + 1 < len(pattern):
            tokens.append(pattern[i + 1])
            i += 2
            continue
        if c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                tokens.append(_ANY)
                i += 1
                continue
            body, chars = pattern[i + 1 : end], set[str]()
            j = 0
            while j < len(body):
                if j + 2 < len(body) and body[j + 1] == "-":
                    chars.update(chr(o) for o in range(ord(body[j]), ord(body[j + 2]) + 1))
                    j += 3
                else:
                    chars.add(body[j])
                    j += 1
            tokens.append(frozenset(chars))
            i = end + 1
            continue
        tokens.append(_STAR if c == "*" else _ANY if c == "?" else c)
        i += 1
    return tokens


def can_match_prefix(pattern: str, prefix: str) -> bool:
    """Whether the wildcard `pattern` matches some name that starts with `prefix` (both lower case): the
    pattern read over the prefix character by character, any part left then matching some suffix.

    Args:
        pattern: a name or PowerShell wildcard pattern, lower case.
        prefix: a literal prefix, lower case.

    Returns:
        True when a name beginning with `prefix` matches `pattern`.
    """
    tokens = _wildcard_tokens(pattern)

    def closure(states: set[int]) -> set[int]:
        more = {i + 1 for i in states if i < len(tokens) and tokens[i] is _STAR}
        return states if more <= states else closure(states | more)

    states = closure({0})
    for ch in prefix:
        moved: set[int] = set()
        for i in states:
            if i == len(tokens):
                continue
            token = tokens[i]
            if token is _STAR:
                moved.add(i)
            elif token is _ANY or ch in (
                {t.lower() for t in token} if isinstance(token, frozenset) else {token.lower()}
            ):
                moved.add(i + 1)
        states = closure(moved)
        if not states:
            return False
    return True


# Variables that decide which code a Python program loads at its start, the gateway's included. With
# `PYTHONPYCACHEPREFIX` Python reads its compiled modules from that folder: a planted `.pyc` whose stamp matches
# the source is loaded instead of the source (S-SELF-15).
PYTHON_LOADER_SETTINGS = frozenset(
    {"pythonpath", "pythonhome", "pythonuserbase", "pythonplatlibdir", "pythonexecutable", "pythonsafepath"}
    | {"pythonpycacheprefix"}
)


def _names_python_loader(effect: Effect, target: Target) -> bool:
    """A persistent `PYTHONPATH`-like variable (`PYTHON_LOADER_SETTINGS`), by name or by a pattern that
    could name one."""
    name = effect.value_name
    if name is None:
        return False
    return any(fnmatch.fnmatchcase(setting, name.strip().lower()) for setting in PYTHON_LOADER_SETTINGS)


# Variables that load code into programs other people start (S-RULE-79): `windir`/`SystemRoot` in the user's
# environment redirect elevated tasks that expand them (a known UAC bypass), the CLR profiler and .NET
# startup-hook variables load a DLL into every .NET program, and the runtimes' option variables
# (`NODE_OPTIONS=--require x.js`, `JAVA_TOOL_OPTIONS=-javaagent:…`, `PERL5OPT`, `RUBYOPT`) load a file
# into every program of that runtime.
LOADER_HIJACK_SETTINGS = frozenset(
    {"windir", "systemroot", "comspec", "cor_enable_profiling", "cor_profiler", "cor_profiler_path"}
    | {"cor_profiler_path_32", "cor_profiler_path_64", "coreclr_enable_profiling", "coreclr_profiler"}
    | {"coreclr_profiler_path", "coreclr_profiler_path_32", "coreclr_profiler_path_64", "dotnet_startup_hooks"}
    | {"node_options", "java_tool_options", "_java_options", "jdk_java_options", "perl5opt", "rubyopt"}
)


def _names_loader_hijack(effect: Effect, target: Target) -> bool:
    """A persistent variable that loads code into other programs (`LOADER_HIJACK_SETTINGS`), by name or by
    a pattern that could name one."""
    name = effect.value_name
    if name is None:
        return False
    return any(fnmatch.fnmatchcase(setting, name.strip().lower()) for setting in LOADER_HIJACK_SETTINGS)


_GIT_HOOK = re.compile(r"(?:^|[\\/])\.git[\\/]hooks[\\/][^\\/]+$")


def _git_hook(effect: Effect, target: Target) -> bool:
    """A file in a repository's `.git\\hooks` folder but a `.sample` (git runs hooks by name)."""
    return bool(_GIT_HOOK.search(target.shown)) and not target.shown.lower().endswith(".sample")


# git's settings files: the user's, the XDG one, the system's (Git for Windows, both places), a repository's.
_GIT_CONFIG_FILE = re.compile(
    r"(?:^|[\\/])(?:\.gitconfig|\.git[\\/]config(?:\.worktree)?|\.config[\\/]git[\\/]config"
    r"|git[\\/](?:mingw64[\\/])?etc[\\/]gitconfig|programdata[\\/]git[\\/]config)$",
    re.IGNORECASE,
)


def _git_setting(effect: Effect, target: Target) -> bool:
    """A git setting that names a program git starts later (`effects_files._git`)."""
    return effect.detail.startswith("git ")


def _git_config_file(effect: Effect, target: Target) -> bool:
    """A write of one of git's settings files, where a setting can name a program git starts later."""
    return bool(_GIT_CONFIG_FILE.search(target.shown))


def _is_key(effect: Effect, target: Target) -> bool:
    return target.key is not None


def _machine_hive(effect: Effect, target: Target) -> bool:
    return target.key is not None and target.key.split("\\", 1)[0] in ("hklm", "hku")


# Keys whose wholesale deletion wrecks a profile, below the depth cut-off of one component.
BROAD_KEYS = frozenset(
    {"software\\microsoft", "software\\classes", "software\\policies", "software\\wow6432node"}
    | {"software\\microsoft\\windows", "software\\microsoft\\windows\\currentversion"}
    | {"software\\microsoft\\windows nt", "software\\microsoft\\windows nt\\currentversion"}
)


def _top_key(effect: Effect, target: Target) -> bool:
    """A whole top-level or broad key, or something that is no registry key at all."""
    if effect.kind is K.REGISTRY_DELETE and target.key is None:
        return effect.target is not None
    if target.key is None or effect.value_name is not None:
        return False
    comps = target.key.split("\\")[1:]
    for i, comp in enumerate(comps):
        if "*" in comp or "?" in comp:  # `HKCU:\Software\*` deletes every key beside it
            comps = comps[:i]
            break
    return len(comps) <= 1 or "\\".join(comps) in BROAD_KEYS


def _protected_process(effect: Effect, target: Target) -> bool:
    return effect.target is not None and is_protected_process(effect.target)


def _every_process(effect: Effect, target: Target) -> bool:
    return effect.target is not None and kills_everything(effect.target)


def _desktop_shell(effect: Effect, target: Target) -> bool:
    return effect.target is not None and canonical_process(effect.target) == "explorer"


def _hinted_hijack(effect: Effect, target: Target) -> bool:
    return _hint(effect) == "persistence-hijack"


# File classes whose open command runs the file itself as a program or script (S-RULE-143).
RUNNING_CLASSES = frozenset(
    {"exefile", "batfile", "cmdfile", "comfile", "scrfile", "piffile", "vbsfile", "vbefile", "jsfile", "jsefile"}
    | {"wsffile", "wshfile", "htafile", "mscfile", "cplfile", "inffile", "regfile", "msifile", "lnkfile"}
)
_CLASSES_EXTENSION = re.compile(r"hk(?:lm|cu|u\\[^\\]+)\\software\\classes\\\.[^\\]+")


def _runs_files_as_programs(effect: Effect, target: Target) -> bool:
    """`assoc .txt=exefile`, or the same default value written to `…\\Software\\Classes\\.txt` by any tool: every
    `.txt` file now runs as a program when opened (S-RULE-143). Any other class (a text editor's) is the user's."""
    if target.key is None or effect.data is None or (effect.value_name or "") not in ("", "(default)", "@"):
        return False
    return _CLASSES_EXTENSION.fullmatch(target.key) is not None and effect.data.strip("'\" ").lower() in RUNNING_CLASSES


def _key_tree(effect: Effect, target: Target) -> bool:
    """A registry key deleted with everything below it (not one value of it)."""
    return target.key is not None and effect.value_name is None and RECURSIVE[0] in effect.extra


def _every_file(effect: Effect, target: Target) -> bool:
    return effect.target is not None and dict(effect.extra).get("every_file") == "true"


def _empties_user_folder(effect: Effect, target: Target) -> bool:
    # `Remove-Item ~\Documents\*`: the folder is an exact place (its items are not), but every item at once is.
    return P.USER_DATA in target.emptied_categories


# The cmdlets whose `-Path` wildcard writes every matching file, replacing what it held (S-RULE-78).
_WILDCARD_OVERWRITERS = frozenset({"Set-Content", "Clear-Content"})


def _overwrites_user_folder(effect: Effect, target: Target) -> bool:
    # `Clear-Content ~\Documents\*.docx` empties every document at once, as a delete of them would.
    return effect.detail in _WILDCARD_OVERWRITERS and _empties_user_folder(effect, target)


def _names_what_it_weakens(effect: Effect, target: Target) -> bool:
    # A stop of services, or a removal of scheduled tasks, the gateway cannot name is asked about as a target that
    # is not constant.
    return effect.detail not in (SERVICES_NOT_KNOWN, TASKS_NOT_KNOWN)


def _discards_changes(effect: Effect, target: Target) -> bool:
    # A git command that overwrites the uncommitted changes of many files (S-RULE-83).
    return DISCARDS in effect.extra


def _from_another_machine(effect: Effect, target: Target) -> bool:
    return is_remote(effect.target)


def _unpacks_over_places(effect: Effect, target: Target) -> bool:
    return dict(effect.extra).get("recursive") == "true" and bool(target.inside) and LANDED[0] not in effect.extra


def _marked(key: str) -> Condition:
    """An effect an analyser marked with `key` in its extra (a console opened, a remote-control program)."""

    def condition(effect: Effect, target: Target) -> bool:
        return any(k == key for k, _ in effect.extra)

    return condition


def _strips_zone_mark(effect: Effect, target: Target) -> bool:
    """Marked so by its analyser (`Unblock-File`, `-Stream Zone.Identifier`), or a path that names the stream (not
    the name a copy of such a path would take inside a folder: reading a file's mark copies it, it removes nothing)."""
    if ZONE_MARK[0] in effect.extra:
        return True
    return effect.target is not None and LANDED[0] not in effect.extra and bool(ZONE_STREAM.search(effect.target))


def _copies_over_places(effect: Effect, target: Target) -> bool:
    return dict(effect.extra).get("recursive") == "true" and bool(target.inside) and LANDED[0] in effect.extra


def _unread_script(effect: Effect, target: Target) -> bool:
    return effect.extra == UNREAD_SCRIPT


def _not(condition: Condition) -> Condition:
    return lambda effect, target: not condition(effect, target)


# ---------------------------------------------------------------------------------------
# The table

# Every change; an upload reads (a credential store sent is judged with the reads, below).
# (an external delete has no local target; a drive locked is judged by its own row, whatever the drive)
_ALL_BUT_READ = frozenset(EffectKind) - {K.READ, K.UPLOAD, K.EXTERNAL_DELETE, K.DISK_LOCK}
_FILE_DESTROY = frozenset({K.DELETE, K.DELETE_RECURSIVE, K.MOVE})
_PLACE_DELETE_REASON = (
    "Deleting or moving {label} ({target}) can break Windows or destroy the user's data, and cannot be undone."
)
_KEY_CHANGE = frozenset({K.REGISTRY_SET, K.REGISTRY_DELETE, K.DELETE, K.DELETE_RECURSIVE})
_KEY_DELETE = frozenset({K.REGISTRY_DELETE, K.DELETE, K.DELETE_RECURSIVE})
_KILLS = frozenset({K.KILL, K.KILL_FORCED})
_ASK_USER = "ask the user to do this themselves"
_SP = "self-protection"
_USE_THE_GATEWAY = "use the tools here, which already reach Windows-MCP through the gateway."
_SHOW_THE_CHANGE = "read it with `Get-Content`, show the user the change you want, and " + _ASK_USER + "."


def _guard(**fields: Any) -> EffectRule:
    """A row of the guard itself (`self-protection`): refused, never exempted (S-RULE-10)."""
    return EffectRule(id=_SP, category=_SP, verdict="deny", risk=_SP, **fields)


EFFECT_RULES: tuple[EffectRule, ...] = (
    # --- the guard itself (S-RULE-10): never exempted
    _guard(
        effects=_ALL_BUT_READ,
        places=frozenset({P.GATEWAY_STATE}),
        reason="The call would change {label} ({target}): the gateway's state directory, config, audit log "
        "and STOP file are off limits to the agent, so it cannot lift its own guard.",
        remedy="work on other paths; to check the gateway, ask the user to run `winmcp-gateway doctor`.",
        contents=True,
        unpacked_into=True,
    ),
    # The Python environment the gateway runs in (S-SELF-13): its venv's dependencies, launcher and `pyvenv.cfg`, the
    # interpreter's standard library. Changed, the next start runs what the agent wrote inside the guard; reading it
    # and running its Python stay any program's.
    _guard(
        effects=frozenset({K.WRITE, K.DELETE, K.DELETE_RECURSIVE, K.MOVE}),
        places=frozenset({P.GATEWAY_ENVIRONMENT}),
        reason="The call would change {label} ({target}): its packages and interpreter are the code the gateway "
        "runs, so the next start would run what the agent wrote inside the guard.",
        remedy="work in a virtual environment of your own (`python -m venv C:\\work\\venv`), or ask the user to "
        "update the gateway's.",
        contents=True,
        unpacked_into=True,
    ),
    # Windows-MCP started outside the gateway (S-RULE-199): a second desktop controller nothing stands in front of.
    _guard(
        effects=frozenset({K.EXECUTE}),
        places=None,
        reason="The call would start Windows-MCP outside the gateway ({detail}): a second desktop controller with "
        "no rules, approvals or audit in front of it, which any program on this machine could drive; the agent "
        "may not lift its own guard.",
        remedy=_USE_THE_GATEWAY,
        condition=_marked(UNGATED_UPSTREAM),
    ),
    # An MCP server on this machine called directly (S-RULE-202): if it is Windows-MCP served over HTTP, every tool
    # call would go around the gateway.
    _guard(
        effects=frozenset({K.EXECUTE}),
        places=None,
        reason="The call would talk to an MCP server on this machine directly ({target}): if it is Windows-MCP, its "
        "tools would run around the gateway, with no rules, approvals or audit; the agent may not lift its own guard.",
        remedy=_USE_THE_GATEWAY,
        condition=_marked(LOCAL_MCP),
    ),
    _guard(
        effects=frozenset({K.WRITE}),
        places=None,
        reason="The call would make a link ({target}) to {label}: through it, later calls would reach the "
        "gateway's state, config, audit log or STOP file under a name the guard does not know.",
        remedy="work on other paths; to check the gateway, ask the user to run `winmcp-gateway doctor`.",
        links=frozenset({P.GATEWAY_STATE, P.GATEWAY_ENVIRONMENT}),
    ),
    _guard(
        effects=_ALL_BUT_READ,
        places=frozenset({P.SHELL_PROFILE}),
        reason="The call would change {label} ({target}), which runs at every PowerShell start and could "
        "change the gateway's settings behind its back.",
        remedy="read it with `Get-Content` and " + _ASK_USER + ".",
    ),
    _guard(
        effects=_KEY_CHANGE,
        places=frozenset({P.ENVIRONMENT_KEY}),
        reason="The call would change the gateway's own settings ({value} in {label}): WINMCP_GATEWAY_* "
        "variables configure the gateway at its next start and are off limits to the agent.",
        remedy="read the current values with `Get-ChildItem Env:` and ask the user to change settings.",
        condition=_names_gateway_setting,
    ),
    _guard(
        effects=_KEY_CHANGE,
        places=frozenset({P.ENVIRONMENT_KEY}),
        reason="The call would change {value} in {label}: that variable decides which code every Python program "
        "loads, the gateway included, at its next start, so it is off limits to the agent.",
        remedy="read the current values with `Get-ChildItem Env:` and ask the user to change settings.",
        condition=_names_python_loader,
    ),
    EffectRule(
        id="persistence-hijack",
        category="persistence",
        effects=frozenset({K.REGISTRY_SET}),  # removing one (an override undone) is environment-change
        places=frozenset({P.ENVIRONMENT_KEY}),
        verdict="deny",
        risk="persistence",
        reason="The call would set {value} in {label}: that variable makes other programs load code when they "
        "start (a profiler DLL, a startup hook, a runtime option, or the Windows folder elevated tasks run "
        "from), a hidden way to run code with their rights. Never done through this tool.",
        remedy="read the current values with `Get-ChildItem Env:` and ask the user.",
        condition=_names_loader_hijack,
    ),
    # --- logs and protected places (before the secrets: the plainer reason for a whole folder)
    EffectRule(
        id="log-clear",
        category="log-tampering",
        effects=frozenset({K.LOG_CLEAR}),
        places=None,
        verdict="deny",
        risk="log-tampering",
        reason="Clearing or disabling event logs ({detail}) destroys the record of what happened on this machine.",
        remedy="read the events with `Get-WinEvent`, and ask the user if a log must be cleared.",
    ),
    EffectRule(
        id="log-clear",
        category="log-tampering",
        effects=frozenset({K.WRITE}),
        places=frozenset({P.EVENT_LOG}),
        verdict="deny",
        risk="log-tampering",
        reason="This overwrites {label} ({target}), the record of what happened on this machine.",
        remedy="read the events with `Get-WinEvent`, and ask the user if a log must be cleared.",
    ),
    EffectRule(
        id="protected-place-delete",
        category="destruction",
        effects=_FILE_DESTROY,
        places=frozenset({P.SYSTEM, P.BOOT, P.PROGRAM_FILES, P.HOSTS, P.USER_DATA, P.EVENT_LOG}),
        verdict="deny",
        risk="data-loss",
        reason=_PLACE_DELETE_REASON,
        remedy="list it with `Get-ChildItem` and " + _ASK_USER + ".",
        contents=True,
    ),
    EffectRule(  # the same refusal; listing a credential hive would read it, so the remedy only asks whether it exists
        id="protected-place-delete",
        category="destruction",
        effects=_FILE_DESTROY,
        places=frozenset({P.CREDENTIAL_HIVE}),
        verdict="deny",
        risk="data-loss",
        reason=_PLACE_DELETE_REASON,
        remedy="`Test-Path` tells whether it exists without reading it; " + _ASK_USER + ".",
        contents=True,
    ),
    # --- secrets
    EffectRule(
        id="credential-access",
        category="credential-access",
        effects=frozenset({K.CREDENTIAL_ACCESS}),
        places=None,
        verdict="deny",
        risk="credential-theft",
        reason="This dumps or exports stored secrets ({detail}): passwords, hashes or keys would leave the "
        "protection of Windows.",
        remedy="list the accounts with `Get-LocalUser` if that is what you need, and " + _ASK_USER + ".",
    ),
    EffectRule(
        id="credential-access",
        category="credential-access",
        effects=frozenset({K.READ, K.MOVE, K.WRITE, K.EXECUTE, K.REGISTRY_SET, K.DELETE, K.UPLOAD}),
        places=frozenset({P.CREDENTIAL_STORE, P.CREDENTIAL_HIVE}),
        verdict="deny",
        risk="credential-theft",
        reason="This reads, copies, changes or deletes {label} ({target}), which holds saved passwords, cookies "
        "or keys.",
        remedy="`Test-Path` tells whether it exists without reading it; " + _ASK_USER + ".",
        contents=True,
    ),
    # --- security settings
    EffectRule(  # the system clock (S-RULE-215): what it weakens is the gateway's own time, and the audit's
        id="security-weakening",
        category="security-weakening",
        effects=frozenset({K.SECURITY_WEAKENING}),
        places=None,
        verdict="deny",
        risk="security-weakening",
        reason="This sets the system clock: the gateway dates observations, approvals and its audit by it (set "
        "back, an approval granted for minutes would last longer), and sign-ins and certificates are checked "
        "against it. Never done through the agent.",
        remedy="read the time with `Get-Date`, and ask the user to set the clock (Settings, Time & language).",
        condition=lambda effect, target: effect.detail == "system-clock",
    ),
    EffectRule(
        id="security-weakening",
        category="security-weakening",
        effects=frozenset({K.SECURITY_WEAKENING}),
        places=None,
        verdict="deny",
        risk="security-weakening",
        reason="This weakens a machine-wide security setting ({detail}): Defender, the firewall, UAC, the "
        "execution policy and audit settings protect the whole machine. Never done through the agent.",
        remedy="check the current state with `Get-MpComputerStatus`, `Get-NetFirewallProfile` or "
        "`Get-ExecutionPolicy -List`, and ask the user to change it.",
        hints=frozenset({"disable-defender", "disable-firewall", "disable-uac", "weaken-execution-policy"}),
        condition=_names_what_it_weakens,
    ),
    # hijack points first: a value such as LSA's `Notification Packages` sits in a security key too
    EffectRule(
        id="persistence-hijack",
        category="persistence",
        effects=frozenset({K.REGISTRY_SET}),
        places=frozenset({P.HIJACK_KEY}),
        verdict="deny",
        risk="persistence",
        reason="This writes {label} ({target}), a hijack point that makes Windows run code behind the user's "
        "back. Never done through the agent.",
        remedy="read it with `Get-ItemProperty` and " + _ASK_USER + ".",
    ),
    EffectRule(
        id="persistence-hijack",
        category="persistence",
        effects=frozenset({K.WRITE}),
        places=frozenset({P.HIJACK_FILE}),
        verdict="deny",
        risk="persistence",
        reason="This replaces {label} ({target}): swapped for another program (cmd.exe), it gives anyone at "
        "the logon screen a SYSTEM shell. Never done through the agent.",
        remedy="compare it with `Get-FileHash` if you suspect tampering, and " + _ASK_USER + ".",
    ),
    EffectRule(
        id="security-weakening",
        category="security-weakening",
        effects=_KEY_CHANGE,
        places=frozenset({P.WDIGEST_LSA_KEY, P.SECURITY_TOOL_KEY, P.UAC_KEY}),
        verdict="deny",
        risk="security-weakening",
        reason="This changes {label} ({target}), a security setting of the whole machine. Never done through "
        "the agent.",
        remedy="read it with `Get-ItemProperty` and ask the user to make the change.",
        condition=_is_key,
        hints=frozenset({"disable-defender", "disable-firewall", "disable-uac", "weaken-execution-policy"}),
    ),
    # --- hidden ways to run code
    EffectRule(
        id="persistence-hijack",
        category="persistence",
        effects=frozenset({K.REGISTRY_SET}),
        places=None,
        verdict="deny",
        risk="persistence",
        reason="This makes every file of a type run as a program when it is opened ({target} set to a class "
        "that runs its file): a document the user opens would start code. Never done through the agent.",
        remedy="read the association with `cmd /c assoc` and " + _ASK_USER + ".",
        condition=_runs_files_as_programs,
    ),
    EffectRule(
        id="persistence-hijack",
        category="persistence",
        effects=frozenset({K.PERSISTENCE}),
        places=None,
        verdict="deny",
        risk="persistence",
        reason="This installs a hidden way to run code ({detail}) behind the user's back. Never done through "
        "the agent.",
        remedy=_ASK_USER + ".",
        condition=_hinted_hijack,
    ),
    # --- accounts
    EffectRule(
        id="account-change",
        category="account",
        effects=frozenset({K.ACCOUNT_CHANGE}),
        places=None,
        verdict="deny",
        risk="privilege-escalation",
        reason="This creates, changes or removes a user account, a group membership or a privilege "
        "({detail}). Account changes are never made through the agent.",
        remedy="list accounts with `Get-LocalUser` and group members with `Get-LocalGroupMember`, and "
        + _ASK_USER
        + ".",
    ),
    EffectRule(
        id="account-change",
        category="account",
        effects=frozenset({K.WRITE, K.MOVE, K.DELETE, K.DELETE_RECURSIVE}),
        places=frozenset({P.REMOTE_LOGIN}),
        verdict="deny",
        risk="privilege-escalation",
        reason="This changes {label} ({target}), which decides who may log in to this machine from elsewhere: "
        "a key added there is a door that stays open. Account changes are never made through the agent.",
        remedy="read it with `Get-Content` if you need to know who may log in, and " + _ASK_USER + ".",
    ),
    EffectRule(  # `echo 'me ALL=(ALL) NOPASSWD:ALL' > /etc/sudoers.d/me` inside WSL (S-RULE-192)
        id="account-change",
        category="account",
        effects=frozenset({K.WRITE, K.MOVE, K.DELETE, K.DELETE_RECURSIVE}),
        places=frozenset({P.ACCOUNTS}),
        verdict="deny",
        risk="privilege-escalation",
        reason="This changes {label} ({target}): a line added there makes an account, or lets one act as root "
        "without a password. Account changes are never made through the agent.",
        remedy="read it with `Get-Content` if you need to know the accounts, and " + _ASK_USER + ".",
    ),
    # --- processes
    EffectRule(
        id="kill-all",
        category="process",
        effects=frozenset({K.KILL_ALL}),
        places=None,
        verdict="deny",
        risk="system-crash",
        reason="This would end every process ({detail}), Windows' own among them.",
        remedy="list the processes with `Get-Process` and ask the user which one should end.",
    ),
    EffectRule(
        id="kill-all",
        category="process",
        effects=_KILLS,
        places=None,
        verdict="deny",
        risk="system-crash",
        reason="A kill by the name pattern {target} would end every process, Windows' own among them.",
        remedy="list the processes with `Get-Process` and ask the user which one should end.",
        condition=_every_process,
    ),
    EffectRule(
        id="kill-critical-process",
        category="process",
        effects=_KILLS,
        places=None,
        verdict="deny",
        risk="system-crash",
        reason="Ending {target} — a critical Windows process, a security tool, or Windows-MCP and the gateway "
        "themselves — crashes or weakens the system, with or without force.",
        remedy="look at it with `Get-Process` and, if something misbehaves, ask the user.",
        condition=_protected_process,
    ),
    # --- disks, downloaded code, power
    EffectRule(
        id="format-disk",
        category="disk",
        effects=frozenset({K.DISK_DESTROY}),
        places=None,
        verdict="deny",
        risk="disk-destruction",
        reason="This formats, wipes or repartitions a disk, or destroys backups or boot recovery ({detail}): "
        "the data cannot be recovered.",
        remedy="look at the disks with `Get-Volume` or `Get-Disk`, and " + _ASK_USER + ".",
        hints=frozenset({"delete-backups"}),
    ),
    # A drive encrypted, locked or given a new key (S-RULE-179): with a key the person does not hold, every file on
    # it is gone (ShrinkLocker ransomware); turning BitLocker on is also everyday security work: a person decides.
    EffectRule(
        id="disk-encryption",
        category="disk",
        effects=frozenset({K.DISK_LOCK}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="This encrypts or locks a drive, or gives it a new key ({detail}): if the person does not hold that "
        "key, everything on the drive is unreadable for good; a person must approve it.",
        remedy="show the drive's state with `Get-BitLockerVolume` or `manage-bde -status` and " + _ASK_USER + ".",
    ),
    EffectRule(
        id="download-execute",
        category="code-execution",
        effects=frozenset({K.DOWNLOAD_EXECUTE}),
        places=None,
        verdict="deny",
        risk="code-execution",
        reason="This downloads code and runs it ({detail}): content nobody has reviewed would run on the machine.",
        remedy="show the user the address and what it would run, and let them review and run it themselves.",
    ),
    # --- protected places
    EffectRule(
        id="protected-place-write",
        category="tampering",
        effects=frozenset({K.WRITE}),
        places=frozenset({P.SYSTEM, P.BOOT, P.PROGRAM_FILES, P.HOSTS}),
        verdict="deny",
        risk="tampering",
        reason="Writing into {label} ({target}) changes how Windows or installed programs work (a tampering pattern).",
        remedy="read it with `Get-Content` or list it with `Get-ChildItem`; keep your own files in the "
        "user's Documents folder.",
    ),
    EffectRule(
        id="protected-place-write",
        category="tampering",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="deny",
        risk="tampering",
        reason="The call would make a link ({target}) to {label}: through it, later calls would reach a "
        "protected place under a name the rules do not know.",
        remedy="use the real path, which the rules can judge: list it with `Get-ChildItem`.",
        links=frozenset(
            {P.SYSTEM, P.BOOT, P.PROGRAM_FILES, P.HOSTS, P.STARTUP, P.CREDENTIAL_STORE, P.CREDENTIAL_HIVE}
            | {P.EVENT_LOG, P.SHELL_PROFILE}
        ),
    ),
    # --- registry deletes (as in the built-in table)
    EffectRule(
        id="registry-delete-machine-hive",
        category="registry",
        effects=_KEY_DELETE,
        places=None,
        verdict="deny",
        risk="registry-destruction",
        reason="Deleting from a machine-wide registry hive ({target}) can break Windows for every user and "
        "cannot be undone.",
        remedy="read the key with `Get-ItemProperty` or `reg query`, and ask the user to make this change.",
        condition=_machine_hive,
    ),
    EffectRule(
        id="registry-delete-top-key",
        category="registry",
        effects=_KEY_DELETE,
        places=None,
        verdict="deny",
        risk="registry-destruction",
        reason="Deleting {target} removes a whole top-level registry key with everything below it (or it is "
        "not a registry key at all).",
        remedy="read the key with `Get-ChildItem` or `reg query`, and ask the user to make this change.",
        condition=_top_key,
    ),
    EffectRule(  # `reg delete HKCU\Software\X /f`, `DeleteSubKeyTree`, Registry's key delete (S-RULE-191)
        id="recursive-delete",
        category="destruction",
        effects=frozenset({K.REGISTRY_DELETE}),
        places=None,
        verdict="deny",
        risk="data-loss",
        reason="Deleting the registry key {target} removes every key and value below it irreversibly, as a "
        "recursive delete of a folder does.",
        remedy="read the key with `reg query` or `Get-ChildItem`, and ask the user to delete it.",
        condition=_key_tree,
    ),
    EffectRule(
        id="recursive-delete",
        category="destruction",
        effects=frozenset({K.DELETE_RECURSIVE}),
        places=None,
        verdict="deny",
        risk="data-loss",
        reason="Recursive delete ({target}) can destroy a whole directory tree irreversibly.",
        remedy="list what is there with `Get-ChildItem -Recurse` and ask the user to delete it.",
    ),
    EffectRule(  # `Get-ChildItem -Recurse | % { Set-Content $_.FullName x }`: every file rewritten is every file lost
        id="recursive-delete",
        category="destruction",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="deny",
        risk="data-loss",
        reason="Overwriting every file of a directory tree ({target}) destroys what they held as surely as "
        "deleting them.",
        remedy="list what is there with `Get-ChildItem -Recurse` and ask the user which files to change.",
        condition=_every_file,
    ),
    EffectRule(
        id="shutdown-restart",
        category="power",
        effects=frozenset({K.POWER}),
        places=None,
        verdict="deny",
        risk="availability",
        reason="Shutting down, restarting or logging off ({detail}) ends the user's session and loses unsaved work.",
        remedy=_ASK_USER + ".",
    ),
    # --- asks: what a person may well want to allow once
    EffectRule(
        id="wildcard-delete",
        category="destruction",
        effects=frozenset({K.DELETE, K.MOVE}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="A wildcard ({target}) names every matching item of a user's own folder at once; deleting or "
        "moving them all is a person's call.",
        remedy="list what is there with `Get-ChildItem` and ask the user which items to remove.",
        condition=_empties_user_folder,
    ),
    EffectRule(
        id="wildcard-delete",
        category="destruction",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="A wildcard ({target}) names every matching file of a user's own folder at once; replacing or "
        "clearing what they all hold is a person's call.",
        remedy="list what is there with `Get-ChildItem` and ask the user which files to change.",
        condition=_overwrites_user_folder,
    ),
    EffectRule(  # `git reset --hard`, `git checkout .`: the changes never committed are gone (S-RULE-83)
        id="wildcard-delete",
        category="destruction",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="This throws away every uncommitted change below {target} ({detail}): git keeps no copy of work "
        "that was never committed; a person must approve it.",
        remedy="show what would be lost with `git status` and `git diff`, and ask the user.",
        condition=_discards_changes,
    ),
    # An archive's files land anywhere under the folder it is unpacked into (S-RULE-115): a folder that holds a
    # protected place could get a Startup program, a PowerShell profile or a replaced system file, unread.
    EffectRule(
        id="unpack-over-protected",
        category="tampering",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="tampering",
        reason="This unpacks an archive into {target}, {label}: any file the archive holds could land there, "
        "unread, and replace what is there; a person must approve it.",
        remedy="unpack it into a new, empty folder (for example under Downloads) and look at what it holds.",
        condition=_unpacks_over_places,
        contents=True,
    ),
    # A folder copied or moved whole into a folder that holds a protected place lands over it by its name, and
    # items nobody can name (a wildcard's, a listing's, a folder's contents) may be any of them (S-RULE-147).
    EffectRule(
        id="copy-over-protected",
        category="tampering",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="tampering",
        reason="This puts items the gateway cannot name ({detail}) into {target}, {label}: a file or folder of "
        "the same name there would be replaced, unread; a person must approve it.",
        remedy="copy the files by name, or into a new, empty folder, and look at what they are.",
        condition=_copies_over_places,
        contents=True,
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.WRITE}),
        places=frozenset({P.STARTUP}),
        verdict="ask",
        risk="persistence",
        reason="This puts a program into {label} ({target}), so it starts automatically; a person must approve it.",
        remedy="list what already starts with `Get-CimInstance Win32_StartupCommand`.",
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="persistence",
        reason="This writes a git hook ({target}): git runs it at the next commit, checkout or push in that "
        "repository; a person must approve it.",
        remedy="list the hooks with `Get-ChildItem .git\\hooks`.",
        condition=_git_hook,
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.REGISTRY_SET}),
        places=frozenset({P.AUTOSTART_KEY, P.SERVICE_KEY}),
        verdict="ask",
        risk="persistence",
        reason="This registers a program to start automatically ({label}: {target}); a person must approve it.",
        remedy="list what already starts with `Get-CimInstance Win32_StartupCommand` or `Get-Service`.",
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.PERSISTENCE}),
        places=None,
        verdict="ask",
        risk="persistence",
        reason="This sets a git setting that names a program ({detail}): git starts it later, at a fetch, a "
        "status or a commit, with the user's rights; a person must approve it.",
        remedy="show git's settings with `git config --list --show-origin`.",
        condition=_git_setting,
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="persistence",
        reason="This writes git's settings ({target}): a setting there can name a program git starts later "
        "(`core.sshCommand`, `core.fsmonitor`, an alias with `!`); a person must approve it.",
        remedy="show git's settings with `git config --list --show-origin`.",
        condition=_git_config_file,
    ),
    EffectRule(
        id="persistence-autostart",
        category="persistence",
        effects=frozenset({K.PERSISTENCE}),
        places=None,
        verdict="ask",
        risk="persistence",
        reason="This makes a program start automatically ({detail}: a scheduled task, a service or similar); "
        "a person must approve it.",
        remedy="list what is already registered with `Get-ScheduledTask` or `Get-Service`.",
    ),
    EffectRule(
        id="environment-change",
        category="configuration",
        effects=_KEY_CHANGE,
        places=frozenset({P.ENVIRONMENT_KEY}),
        verdict="ask",
        risk="persistence",
        reason="This changes a persistent environment variable ({value} in {label}) that every program started "
        "later inherits; a person must approve it.",
        remedy="read the current values with `Get-ChildItem Env:`.",
        condition=_not(_names_gateway_setting),
    ),
    EffectRule(
        id="remote-code",
        category="code-execution",
        effects=frozenset({K.EXECUTE}),
        places=None,
        verdict="ask",
        risk="code-execution",
        reason="This runs a program, script or DLL from another machine ({target}): code nobody has reviewed "
        "here would run with the user's rights; a person must approve it.",
        remedy="tell the user what it would run from where, and let them run it themselves.",
        condition=_from_another_machine,
    ),
    EffectRule(
        id="unread-script",
        category="code-execution",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="ask",
        risk="code-execution",
        reason="This makes the script {target} from content the gateway did not read ({detail}): a later call "
        "could run it, and nothing would have judged what it does; a person must approve it.",
        remedy="write the script with its text spelled out as a constant (FileSystem `write`), so it is judged as it "
        "is written; to see a file's text first, use FileSystem `read`.",
        condition=_unread_script,
    ),
    EffectRule(
        id="upload-file",
        category="exfiltration",
        effects=frozenset({K.UPLOAD}),
        places=None,
        verdict="ask",
        risk="data-exfiltration",
        reason="This sends {target} off this machine ({detail}); what leaves the machine is a person's call.",
        remedy="tell the user which file would go where, and let them send it themselves.",
    ),
    EffectRule(
        id="network-change",
        category="network",
        effects=frozenset({K.NETWORK_CHANGE}),
        places=None,
        verdict="ask",
        risk="network-tampering",
        reason="This changes how the machine reaches the network ({detail}): it could cut the machine off or "
        "send its traffic through another server; a person must approve it.",
        remedy="look at the settings with `Get-NetAdapter`, `Get-DnsClientServerAddress` or `Get-NetRoute`.",
    ),
    EffectRule(
        id="network-change",
        category="network",
        effects=_KEY_CHANGE,
        places=frozenset({P.NETWORK_KEY}),
        verdict="ask",
        risk="network-tampering",
        reason="This changes {label} ({value} in {target}): the machine's web traffic could go through another "
        "server; a person must approve it.",
        remedy="read the current values with `reg query` on the key.",
    ),
    EffectRule(
        id="device-change",
        category="availability",
        effects=frozenset({K.DEVICE_CHANGE}),
        places=None,
        verdict="ask",
        risk="availability",
        reason="This disables or removes a device or its driver ({detail}): the keyboard, the screen or a "
        "disk could stop working, and stay off after a restart; a person must approve it.",
        remedy="list the devices with `Get-PnpDevice` and tell the user which one you would change.",
    ),
    EffectRule(
        id="kill-desktop-shell",
        category="process",
        effects=_KILLS,
        places=None,
        verdict="ask",
        risk="availability",
        reason="Ending explorer.exe removes the taskbar and desktop the agent works in; a person must approve it.",
        remedy="look at it with `Get-Process -Name explorer`.",
        condition=_desktop_shell,
    ),
    EffectRule(
        id="force-kill",
        category="process",
        effects=frozenset({K.KILL_FORCED}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="Force-killing {target} discards its unsaved work; a person must approve it.",
        remedy="look at it with `Get-Process` first, and ask the user to close it themselves if it holds unsaved work.",
    ),
    # --- MCP clients' server lists (S-RULE-111): last, so a delete of a folder that holds one (a profile,
    # System32 with the system profile) keeps the reason of the place it is.
    _guard(
        effects=_ALL_BUT_READ,
        places=frozenset({P.MCP_CLIENT_CONFIG}),
        reason="The call would change {label} ({target}): an edited server list could start Windows-MCP "
        "without the gateway in front of it at the client's next start, so it is off limits to the agent.",
        remedy=_SHOW_THE_CHANGE,
        contents=True,
        unpacked_into=True,
    ),
    EffectRule(
        id=_SP,
        category=_SP,
        effects=_ALL_BUT_READ,
        places=frozenset({P.EDITOR_SETTINGS}),
        verdict="ask",
        risk=_SP,
        reason="The call would change {label} ({target}): most changes there are a font or a theme, but an "
        "edited server list could start Windows-MCP without the gateway in front of it, so a person decides.",
        remedy=_SHOW_THE_CHANGE,
        contents=True,
    ),
    # Who may open a user's own folder changed (S-RULE-181): a deny, or inheritance cut, locks the person out of their
    # profile or documents (Windows cannot load a profile it may not read); a grant opens them to every account.
    EffectRule(
        id="permission-change",
        category="tampering",
        effects=frozenset({K.WRITE}),
        places=frozenset({P.USER_DATA}),
        verdict="ask",
        risk="availability",
        reason="This changes who may open {label} ({target}, {detail}): a deny or cut inheritance can lock the person "
        "out of it (a profile Windows cannot read does not load), and a grant opens it to other accounts; a person "
        "must approve it.",
        remedy="show the current permissions with `Get-Acl <path>`, and " + _ASK_USER + ".",
        condition=_marked(PERMISSIONS[0][0]),
    ),
    # A downloaded file's Mark of the Web taken away (S-RULE-196): SmartScreen, Office's Protected View and the
    # execution policy read the `Zone.Identifier` stream, so without it a program from the internet runs unwarned.
    EffectRule(
        id="mark-of-the-web",
        category="security-weakening",
        effects=frozenset({K.WRITE, K.DELETE, K.DELETE_RECURSIVE, K.MOVE}),
        places=None,
        verdict="ask",
        risk="security-weakening",
        reason="This takes the Mark of the Web off {target} ({detail}): Windows then runs or opens a file "
        "downloaded from the internet as if it were made here, without the SmartScreen or Protected View "
        "warning; a person must approve it.",
        remedy="show where the file came from with `Get-Content <file> -Stream Zone.Identifier`, and "
        + _ASK_USER
        + ".",
        condition=_strips_zone_mark,
    ),
    # A console whose clicks turn protections off or add persistence the command rules would refuse (S-RULE-154):
    # the last row, so a more specific verdict on the same call (a console file from a share) stands first.
    EffectRule(
        id="admin-console",
        category="security-weakening",
        effects=frozenset({K.EXECUTE}),
        places=None,
        verdict="ask",
        risk="security-weakening",
        reason="This opens {console} ({target}): its clicks and toggles change settings, services, tasks, keys or "
        "saved credentials that the command rules guard, and the gateway does not judge clicks there; a person "
        "must approve opening it.",
        remedy="make the change with a PowerShell command the gateway can judge, or ask the user to open it.",
        condition=_marked(CONSOLE),
    ),
    # Data deleted outside this machine's files (S-RULE-177): a cloud's, a cluster's, a repository host's, a
    # database's, a container engine's volumes. Nothing here can restore it; it may be the person's intent: ask.
    EffectRule(
        id="external-delete",
        category="data-loss",
        effects=frozenset({K.EXTERNAL_DELETE}),
        places=None,
        verdict="ask",
        risk="data-loss",
        reason="This deletes data that lives outside this machine's files ({detail}): a cloud account's, a "
        "cluster's, a repository host's, a database's or a container's, which nothing here can bring back; a "
        "person must approve it.",
        remedy="list what it would delete (the tool's `list`/`get`/`show` command, or `--dry-run`) and ask the user.",
    ),
    # Another AI agent handed a task (S-RULE-198): what it does goes through its own tools, never the gateway's
    # judgement or audit. With its own approvals off nobody is asked about any of it: the guard taken away.
    EffectRule(
        id="agent-unattended",
        category="security-weakening",
        effects=frozenset({K.EXECUTE}),
        places=None,
        verdict="deny",
        risk="security-weakening",
        reason="This starts another AI agent with its own approvals turned off ({detail}): every command, edit and "
        "download it makes would run without the gateway's rules, without a person's approval and outside the "
        "audit. Never done through the agent.",
        remedy="do the work step by step with the tools here, or ask the user to run that agent themselves.",
        condition=_marked(UNATTENDED),
    ),
    EffectRule(
        id="agent-approvals-off",
        category="security-weakening",
        effects=frozenset({K.WRITE}),
        places=None,
        verdict="deny",
        risk="security-weakening",
        reason="This turns an AI agent's own approvals off ({detail}, in {target}): its next session would run "
        "commands and edits with nobody asked, outside the gateway's rules and audit. Never done through the agent.",
        remedy="leave the setting as it is, or ask the user to change it themselves.",
        condition=_marked(AGENT_APPROVALS),
    ),
    EffectRule(
        id="agent-delegation",
        category="security-weakening",
        effects=frozenset({K.EXECUTE}),
        places=None,
        verdict="ask",
        risk="security-weakening",
        reason="This hands a task to another AI agent ({detail}): its task is plain language the rules cannot "
        "read, and what it runs goes through its own tools, not through the gateway or its audit; a person must "
        "approve it.",
        remedy="do the work step by step with the tools here, or ask the user to run that agent themselves.",
        condition=_marked(AGENT),
    ),
    # A remote-control program installed or started (S-RULE-169): a support scam's first step, ransomware's way
    # back in, and an everyday tool too: a person decides. Last, so a share's or a download's verdict stands first.
    EffectRule(
        id="remote-control",
        category="security-weakening",
        effects=frozenset({K.EXECUTE}),
        places=None,
        verdict="ask",
        risk="security-weakening",
        reason="This installs or starts a remote-control program ({detail}): whoever holds its other end could see "
        "and drive this desktop, and the gateway judges none of their clicks; a person must approve it.",
        remedy="ask the user to install or start it themselves if they want a remote session.",
        condition=_marked(REMOTE_CONTROL),
    ),
)
_ROWS_BY_KIND: Mapping[EffectKind, tuple[tuple[int, EffectRule], ...]] = MappingProxyType(
    {kind: tuple((i, r) for i, r in enumerate(EFFECT_RULES) if kind in r.effects) for kind in EffectKind}
)


# ---------------------------------------------------------------------------------------
# Judging


def _shorten(text: str) -> str:
    t = " ".join(text.split())
    return t if len(t) <= _MAX_SHOWN else t[: _MAX_SHOWN - 1] + "…"


# A path that does not depend on the current folder: a drive, a share, home, a variable.
_ANCHORED = re.compile(r"[a-z]:|[\\/]{2}|~|\$|%", re.IGNORECASE)


def resolve_target(effect: Effect, *, gateway_paths: Sequence[str] = ()) -> Target:
    """Canonicalise an effect's target and find the protected places it is in (and holds).

    A path is read every plausible way (`places.candidate_paths`: a relative path from the
    Desktop and from home, 8.3 names as written) and the places of all readings count.

    Args:
        effect: the effect.
        gateway_paths: the gateway's own files and folders (see `places.places_of`).

    Returns:
        The resolved target (no places when the target is None, is no path or key, or is in none).
    """
    raw = effect.target
    if raw is None:
        return Target(shown="(not known)")
    if raw == CLIPBOARD:
        return Target(shown="the clipboard's text")
    if raw == MAILBOX:
        return Target(shown="the mailbox's mail from now on")
    kind = effect.kind
    if kind in PROCESS_EFFECTS:
        return Target(shown=_shorten(canonical_process(raw) or raw))
    key = canonical_key(raw) if kind in KEY_EFFECTS or kind in PATH_EFFECTS else None
    if key is not None:
        places = key_places(key, effect.value_name)
        # A recursive read of a key reads every key under it, and their values (S-RULE-107).
        below = key_places_inside(key) if kind is K.READ and dict(effect.extra).get("recursive") == "true" else ()
        return Target(
            shown=_shorten(key),
            key=key,
            places=places,
            categories=frozenset(p.category for p in places),
            inside=below,
            inside_categories=frozenset(p.category for p in below),
        )
    if kind not in PATH_EFFECTS:
        return Target(shown=_shorten(raw))
    extra = dict(effect.extra)
    readings = candidate_paths(raw)
    # A recursive read reads, and an archive unpacked into a folder may write, everything under the target; a
    # relative folder to unpack into is a new one or the current one, which the gateway does not know.
    recursive = extra.get("recursive") == "true"
    unpacked = kind is K.WRITE and recursive and _ANCHORED.match(raw.strip("'\" ")) is not None
    # A folder sent off the machine (`scp -r ~\.ssh host:`, `aws s3 sync C:\Users\me s3://x`) sends what is in
    # it, or nothing at all (S-RULE-194): the places inside a folder it names count, as a recursive read's do.
    # A relative one (`scp -r . host:`, git's `.`) is left as before: the folder it is in is not known here.
    sent = kind is K.UPLOAD and _ANCHORED.match(raw.strip("'\" ")) is not None
    takes_contents = kind in _TAKES_CONTENTS or sent or (kind is K.READ and recursive) or unpacked
    found, inside, emptied = _places(readings, gateway_paths, takes_contents)
    named = extra.get(NAMED)
    if named:  # only the files a recursive listing's filter picks are read (S-RULE-155)
        inside = tuple(p for p in inside if could_be_named(p, named))
    link_target = extra.get("link_target")
    linked: tuple[Place, ...] = ()
    if link_target:  # a link leads every later spelling of its own path to this one: judge where it leads
        held, holding, _ = _places(candidate_paths(link_target), gateway_paths, True)
        linked = tuple(dict.fromkeys(held + holding))
    return Target(
        shown=_shorten(readings[0] if readings else raw),
        places=found,
        inside=inside,
        categories=frozenset(p.category for p in found),
        inside_categories=frozenset(p.category for p in inside),
        linked=linked,
        linked_categories=frozenset(p.category for p in linked),
        emptied_categories=frozenset(p.category for p in emptied),
    )


def _places(
    readings: Iterable[str], gateway_paths: Sequence[str], contents: bool
) -> tuple[tuple[Place, ...], tuple[Place, ...], tuple[Place, ...]]:
    """(The places the readings are in, the places inside them, the places a wildcard's folder is exactly.)"""
    found: dict[Place, None] = {}
    inside: dict[Place, None] = {}
    emptied: dict[Place, None] = {}
    for reading in readings:
        of, holds = places_around(reading, gateway_paths=gateway_paths)
        parent, _, last = reading.rpartition("\\")
        if parent and not _GLOB.isdisjoint(last):
            # `System32\*` is every item of System32: name the folder itself first, not the deepest
            # place the glob could reach (`drivers`) — but count only the places the items are in.
            holder = places_around(parent, gateway_paths=gateway_paths)[0]
            of = tuple(p for p in holder if p in of) + tuple(p for p in of if p not in holder)
            emptied.update(dict.fromkeys(p for p in holder if p not in of))
        found.update(dict.fromkeys(of))
        if contents:
            inside.update(dict.fromkeys(holds))
    return tuple(found), tuple(inside), tuple(emptied)


def _label(rule: EffectRule, target: Target) -> str:
    if rule.links is not None:
        return next((p.label for p in target.linked if p.category in rule.links), "this target")
    if rule.places is None and rule.contents:  # any place inside counts: name the first (S-RULE-115)
        return next((f"a folder that holds {p.label}" for p in target.inside), "this target")
    if rule.places is None:
        return next((p.label for p in target.places), "this target")
    label = next((p.label for p in target.places if p.category in rule.places), None)
    if label is None and rule.contents:
        holder = "a key" if target.key is not None else "a folder"
        label = next((f"{holder} that holds {p.label}" for p in target.inside if p.category in rule.places), None)
    return label or "this target"


def _hit(rule: EffectRule, effect: Effect, target: Target) -> RuleHit:
    fields = {
        "label": _label(rule, target),
        "target": target.shown,
        "detail": _shorten(effect.detail) or effect.kind.value,
        "value": _shorten(effect.value_name) if effect.value_name else "the key's values",
        "console": dict(effect.extra).get(CONSOLE, "a console"),
    }
    hint = _hint(effect) or _place_hint(rule, target)
    rule_id = hint if hint is not None and hint in rule.hints else rule.id
    return RuleHit(
        rule_id=rule_id,
        action=rule.verdict,
        risk=rule.risk,
        reason=f"{rule.reason.format_map(fields)} Instead, {rule.remedy}",
    )


def _applies(rule: EffectRule, effect: Effect, target: Target) -> bool:
    if rule.places is not None and rule.places.isdisjoint(target.categories):
        held = (
            rule.contents
            and (effect.kind is not K.WRITE or rule.unpacked_into)
            and not rule.places.isdisjoint(target.inside_categories)
        )
        if not held:
            return False
    if rule.links is not None and rule.links.isdisjoint(target.linked_categories):
        return False
    return rule.condition is None or rule.condition(effect, target)


def _judge(effect: Effect, gateway_paths: Sequence[str]) -> tuple[int, RuleHit] | None:
    rows = _ROWS_BY_KIND.get(effect.kind, ())
    if not rows:
        return None
    target = resolve_target(effect, gateway_paths=gateway_paths)
    ask: tuple[int, EffectRule] | None = None
    for index, rule in rows:
        if not _applies(rule, effect, target):
            continue
        if rule.verdict == "deny":
            return index, _hit(rule, effect, target)
        if ask is None:
            ask = (index, rule)
    return None if ask is None else (ask[0], _hit(ask[1], effect, target))


def judge(effect: Effect, *, gateway_paths: Sequence[str] = ()) -> RuleHit | None:
    """The effect table's verdict on one effect: the first deny in table order, else the first ask.

    Args:
        effect: what an operation does, to which target.
        gateway_paths: the gateway's own files and folders (state dir, config, audit, STOP),
            absolute as the gateway resolved them at start-up.

    Returns:
        The hit (rule id, deny or ask, risk, reason ending in the remedy), or None.
    """
    found = _judge(effect, gateway_paths)
    return None if found is None else found[1]


def judge_all(effects: Iterable[Effect], *, gateway_paths: Sequence[str] = ()) -> RuleHit | None:
    """The verdict on several effects (one call's): the deny of the earliest row, else the earliest ask.

    Args:
        effects: the effects of one call, in order.
        gateway_paths: the gateway's own files and folders.

    Returns:
        The hit, or None when no effect hits a row. Among equal rows the first effect wins.
    """
    best_deny: tuple[int, RuleHit] | None = None
    best_ask: tuple[int, RuleHit] | None = None
    for effect in effects:
        found = _judge(effect, gateway_paths)
        if found is None:
            continue
        if found[1].action == "deny":
            if best_deny is None or found[0] < best_deny[0]:
                best_deny = found
        elif best_ask is None or found[0] < best_ask[0]:
            best_ask = found
    chosen = best_deny or best_ask
    return None if chosen is None else chosen[1]
