"""Shared readers for the effect catalogue (issue 18): PowerShell parameter binding, program argv, targets.

The analysers hand over `Operation`s whose values are raw strings as written (or None when
not constant). These helpers read them the way the shell would: PowerShell binds named
parameters first and fills the remaining positional slots in order; a program reads its own
`/flag`, `-flag`, `/flag:value` and `flag=value` words. Nothing here canonicalises a target
(`places.py` does); it only picks out which word is the target.
"""

from __future__ import annotations

import fnmatch
import functools
import ntpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from policy.rules.shell_names import PARAMETER_ALIASES as COMMAND_PARAMETER_ALIASES
from policy.rules.shell_names import canonical_parameter

Effects: TypeAlias = tuple[Effect, ...]
Handler: TypeAlias = Callable[[Operation], Effects]
Bound: TypeAlias = dict[str, Value]

# Parameter aliases shared by the cmdlets that have the parameter (the provider cmdlets' -LiteralPath, the
# remoting cmdlets' -ComputerName, -ArgumentList's `-Args`). A cmdlet's own aliases are its own
# (`shell_names.PARAMETER_ALIASES`) and come first: `Start-Process -PSPath x` is -FilePath, not -LiteralPath.
PARAMETER_ALIASES: Mapping[str, str] = {
    "lp": "literalpath",
    "pspath": "literalpath",
    "fullname": "literalpath",
    "cn": "computername",
    "args": "argumentlist",
}


# Display spellings for details (`Remove-Item -Recurse`); other names are title-cased per word.
_DISPLAY_NAMES = (
    "Set-ItemProperty", "New-ItemProperty", "Remove-ItemProperty", "Rename-ItemProperty", "Clear-ItemProperty",
    "Copy-ItemProperty", "Move-ItemProperty", "Get-ItemProperty", "Get-ItemPropertyValue", "Get-ChildItem",
    "Set-MpPreference", "Add-MpPreference", "Set-NetFirewallProfile", "New-NetFirewallRule", "Set-NetFirewallRule",
    "Set-ExecutionPolicy", "New-LocalUser", "Set-LocalUser", "Add-LocalGroupMember", "Remove-LocalGroupMember",
    "Enable-LocalUser", "Disable-LocalUser", "Remove-LocalUser", "Rename-LocalUser", "New-LocalGroup",
    "Remove-LocalGroup", "Register-ScheduledTask", "New-ScheduledTask", "New-ScheduledTaskAction",
    "New-ScheduledTaskTrigger", "Set-ScheduledTask", "Set-WmiInstance", "New-CimInstance", "Remove-CimInstance",
    "Remove-WmiObject", "Invoke-CimMethod", "Invoke-WmiMethod", "Get-CimInstance", "Get-WmiObject",
    "Clear-EventLog", "Remove-EventLog", "Limit-EventLog", "Invoke-WebRequest", "Invoke-RestMethod",
    "Start-BitsTransfer", "Invoke-Expression", "Out-Minidump", "Invoke-Mimikatz", "Format-Volume",
    "Clear-Disk", "Initialize-Disk", "Remove-Partition", "Disable-ComputerRestore", "New-ADUser",
    "Add-ADGroupMember", "Set-ADAccountPassword", "Set-ADUser", "Enable-ADAccount", "Disable-ScheduledTask",
    "Enable-ScheduledTask", "Unregister-ScheduledTask", "Get-ScheduledTask", "Start-ScheduledTask",
    "Stop-ScheduledTask", "Register-ScheduledJob", "Set-ScheduledJob", "Add-JobTrigger", "Set-JobTrigger",
)  # fmt: skip
_DISPLAY = {name.lower(): name for name in _DISPLAY_NAMES}


def display(name: str) -> str:
    """How a command is spelled in a reason: `remove-item` → `Remove-Item`; programs stay lower case."""
    if name in _DISPLAY:
        return _DISPLAY[name]
    if "-" in name and "." not in name and ":" not in name:
        return "-".join(part.capitalize() for part in name.split("-"))
    return name


# The `extra` of an effect that reaches everything under its target: a recursive delete or read of a folder
# or key, a copy or archive of a folder (`Copy-Item ~\.ssh … -Recurse`), and an archive unpacked into a
# folder (it may hold a file for any path under it, S-RULE-115): the places inside count
# (`judge.resolve_target`).
RECURSIVE: tuple[tuple[str, str], ...] = (("recursive", "true"),)
# Another machine's `host:path` or `user@host:path`, as scp, pscp, sftp and rsync name it, or `rsync://host/…` (a
# drive letter is one character: `C:\\x` is local). One pattern for the Windows programs and the Linux shells.
REMOTE_SPEC = re.compile(r"^(?:rsync://[^/]+|(?:[^@\\/\s]+@)?[^:\\/\s@]{2,}:)")
# The `extra` key of a recursive read that reaches only the files a name pattern picks (a recursive listing's
# `-Filter`, S-RULE-155): the places inside count only where a file of that name could be (`places.could_be_named`).
NAMED = "named"
# The target of an UPLOAD of the clipboard's text (`Get-Clipboard | irm … -Method Post`, S-RULE-136): no file, so
# `judge.resolve_target` shows it as words, never as a path under some folder.
CLIPBOARD = "<clipboard>"
# The target of an UPLOAD that forwards a mailbox's mail from now on (`New-InboxRule -ForwardTo`, S-RULE-203): no
# file, so `judge.resolve_target` shows it as words.
MAILBOX = "<mailbox>"
# A write that changes a file's attributes, times or permissions, not its content (`(Get-Item X).Attributes = …`):
# done to each file of a listing it is not the tree's content overwritten (`effects_values.every_file`, S-RULE-134).
METADATA: tuple[tuple[str, str], ...] = (("metadata", "true"),)
# The `extra` of a write that changes who may open a file or folder (`icacls /deny`, `Set-Acl`, `takeown`): on a
# user's own folders it can lock the person out (judge row `permission-change`, S-RULE-181).
PERMISSIONS: tuple[tuple[str, str], ...] = (("permissions", "true"),)
# The `extra` of a write that takes a file's Mark of the Web away (`Unblock-File`, the `Zone.Identifier` stream removed
# or rewritten, S-RULE-196): SmartScreen, Office's Protected View and the execution policy then treat a downloaded file
# as made here, and it runs or opens with no warning (judge row `mark-of-the-web`).
ZONE_MARK: tuple[tuple[str, str], ...] = (("zone_mark", "removed"),)
# The stream Windows writes that mark into (`x.exe:Zone.Identifier`, `…:Zone.Identifier:$DATA`), named in a path.
ZONE_STREAM = re.compile(r":\s*zone\.identifier\s*(?::\s*\$data\s*)?[\"']?\s*\Z", re.IGNORECASE)


def names_zone_stream(pattern: Value) -> bool:
    """Whether a `-Stream` value may name the `Zone.Identifier` stream: that name, a wildcard that matches it
    (`*`, `Zone*`), or a value not known (None); PowerShell matches stream names without case."""
    if pattern is None:
        return True
    return any(name is None or fnmatch.fnmatchcase("zone.identifier", name.lower()) for name in split_list(pattern))


# The `extra` key naming the command line a persistence entry runs later (a task's action, a service's binary,
# an `at` job): `command.later_hits` judges it now (S-RULE-116).
RUNS_LATER = "runs_later"
# The `extra` key naming a command line something runs later with nobody asked (a package's install script, run
# by every `npm install` there, S-RULE-208): judged now like RUNS_LATER, and what would ask then asks now.
RUNS_UNASKED = "runs_unasked"
# The `extra` of a write that makes a script from content the gateway did not read (`effects_scripts`).
UNREAD_SCRIPT: tuple[tuple[str, str], ...] = (("unread_script", "true"),)
# The `extra` of the write `landed` adds: items a copy or move puts into a folder (S-RULE-147).
LANDED: tuple[tuple[str, str], ...] = (("landed", "true"),)


def landed(source: Value, destination: Value, detail: str, *, tree: bool, contents: bool = False) -> Effects:
    """Where a copy or move puts its item when the destination is a folder: `<destination>\\<source's name>`.

    `Copy-Item C:\\t\\authorized_keys ~\\.ssh` writes `~\\.ssh\\authorized_keys`, not `~\\.ssh`; whether the
    destination is a folder is known only when the call runs, so the caller keeps its write of the
    destination itself (a copy to a new name) and adds this one (S-RULE-147). Items whose names are not
    known land as a pattern: a wildcard's own (`C:\\t\\*.ps1` → `<destination>\\*.ps1`), or `*` for piped
    items (`source` None) and a folder's contents (`contents`: robocopy, xcopy).

    Args:
        source: the item copied or moved, as written (None: not known).
        destination: the destination as written (None: not known; nothing is added).
        detail: the short phrase for the reason.
        tree: the item may be a folder copied or moved whole: the write reaches everything below it.
        contents: the source is a folder whose items are copied, not the folder itself.

    Returns:
        The one WRITE, or nothing when the destination is not known.
    """
    folder = unquote(destination)
    if not folder:
        return ()
    name = "*"
    if source is not None and not contents:
        last = re.split(r"[\\/]", unquote(source).rstrip("\\/"))[-1]
        name = "*" if last in ("", ".", "..") or last.endswith(":") else last
    base = re.split(r"[\\/]", folder.rstrip("\\/"))[-1]
    if name != "*" and base.lower() == name.lower():
        return ()  # `Copy-Item C:\t\a.txt D:\a.txt`: the destination is the item's own new name
    target = folder.rstrip("\\/") + "\\" + name  # `C:\` → `C:\name`, `\` → `\name`
    extra = (*RECURSIVE, *LANDED) if tree else LANDED
    return (effect(EffectKind.WRITE, target, detail, extra=extra),)


def link_made(path: Value, link_target: Value, detail: str, *, folder: bool) -> Effect:
    """The WRITE of a link made at `path` that leads to `link_target` (the judge weighs where it leads).

    A link to a folder (a junction, a directory symbolic link) made where a protected folder belongs replaces
    everything below it with what the target holds — items nobody can name, as a copy of that folder would put
    there: with `folder`, the write reaches below `path` (`New-Item -ItemType Junction ~\\.ssh -Target C:\\t`,
    S-RULE-148). A hard link is one file.
    """
    extra = (("link_target", link_target or ""), *((*RECURSIVE, *LANDED) if folder else ()))
    return effect(EffectKind.WRITE, path, detail, extra=extra)


def effect(
    kind: EffectKind,
    target: Value = None,
    detail: str = "",
    *,
    value_name: str | None = None,
    data: str | None = None,
    extra: tuple[tuple[str, str], ...] = (),
) -> Effect:
    """One `Effect` (a shorter spelling for the tables below).

    Args:
        kind: what happens.
        target: the raw target, or None when unknown.
        detail: the short phrase for the reason.
        value_name: registry value name, if any.
        data: registry data, if any.
        extra: further facts as (key, value) pairs.

    Returns:
        The effect.
    """
    return Effect(kind=kind, target=target, detail=detail, value_name=value_name, data=data, extra=extra)


def bind(op: Operation, positional: tuple[str, ...] = ()) -> Bound:
    """PowerShell's binding of `op`: named parameters, then positional args into the free slots.

    Args:
        op: a cmdlet operation.
        positional: the cmdlet's positional parameters in position order (`("path", "destination")`).

    Returns:
        Canonical parameter name → value (None: given but not constant). Positional args left
        over after the slots are dropped. A prefix the analyser left unexpanded (`-rec`) is
        expanded as PowerShell would (`canonical_parameter`); a parameter given more than once
        is an array, its items joined with `,`.
    """
    bound: Bound = {}
    own = COMMAND_PARAMETER_ALIASES.get(op.name, {})
    for key, value in op.params:
        if key in own:
            name = own[key]
        elif key in PARAMETER_ALIASES:
            name = PARAMETER_ALIASES[key]
        else:
            name = canonical_parameter(op.name, key)  # the cmdlet's aliases, then a prefix of its parameters
        if name in bound:
            # PowerShell refuses a parameter named twice, so a repeat is an array the analyser
            # spread out (`-ArgumentList '/c','rd /s C:\x'`): keep every item, `a,b` as folded.
            earlier = bound[name]
            bound[name] = None if earlier is None or value is None else f"{earlier},{value}"
        else:
            bound[name] = value
    free = [slot for slot in positional if slot not in bound]
    for slot, value in zip(free, op.args, strict=False):
        bound[slot] = value
    return bound


def is_on(bound: Bound, name: str) -> bool:
    """Whether switch `name` is on in `bound` (a non-constant value counts as on)."""
    if name not in bound:
        return False
    value = bound[name]
    return value is None or value.strip().strip("'\"").lower() not in ("false", "$false", "0", "no")


def is_true(value: Value) -> bool:
    """Whether a constant argument value means true (`$true`, `true`, `1`); None (unknown) is not."""
    return value is not None and value.strip().strip("'\"").lower() in ("true", "$true", "1", "yes", "on")


def split_list(value: Value) -> list[Value]:
    """A PowerShell array argument (`a,b` as folded) as its items; None stays one unknown item."""
    if value is None:
        return [None]
    items = [v.strip().strip("'\"").strip() for v in value.split(",")]
    return [v for v in items if v] or [value]


def targets(bound: Bound, *names: str) -> list[Value]:
    """Every target given under any of `names` (arrays split), in order; empty when none is given."""
    found: list[Value] = []
    for name in names:
        if name in bound:
            found.extend(split_list(bound[name]))
    return found


def first(bound: Bound, *names: str) -> Value:
    """The first value given under one of `names`, or None."""
    for name in names:
        if name in bound:
            return bound[name]
    return None


def unquote(value: Value) -> str:
    """A value without surrounding quotes and blanks, "" for None (for comparisons only, not targets)."""
    return "" if value is None else value.strip().strip("'\"").strip()


def strip_pair(value: Value) -> str:
    """A value without one pair of matching quotes around it (`"name='x'"` → `name='x'`); unlike `unquote`,
    a quote that closes a quoted part inside (`name='x'`) stays. "" for None."""
    text = "" if value is None else value.strip()
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else text


def lower(value: Value) -> str:
    """`unquote` in lower case."""
    return unquote(value).lower()


def has_wildcard(value: Value) -> bool:
    """Whether a name holds a PowerShell wildcard (`*`, `?`, `[`)."""
    return value is not None and bool(re.search(r"[*?\[]", value))


def matches_everything(value: Value) -> bool:
    """Whether a name pattern is nothing but wildcards (`*`, `*.*`, `?*`): every process, every file."""
    text = unquote(value)
    return bool(text) and re.fullmatch(r"[*?.]+", text) is not None and "*" in text


# ---------------------------------------------------------------------------------------
# Programs: names and argv words


@functools.lru_cache(maxsize=2048)
def program_stem(name: Value) -> str:
    """A program's canonical name from a path or name: `C:\\X\\TaskKill.EXE` → `taskkill`."""
    # cmd drops `^` (its escape) before it looks a name up: `c^md` runs cmd.
    base = ntpath.basename(lower(name).replace("/", "\\").replace("^", ""))
    stem, dot, ext = base.rpartition(".")
    return stem if dot and ext in ("exe", "com", "bat", "cmd") else base


def python_module(words: Sequence[Value]) -> tuple[str, tuple[Value, ...]] | None:
    """`python -m pip install x`: the module run (lower case) and its words; None without `-m`."""
    for index, word in enumerate(words):
        text = lower(word)
        if text == "-m" and index + 1 < len(words) and words[index + 1] is not None:
            return lower(words[index + 1]), tuple(words[index + 2 :])
        if text.startswith("-m") and len(text) > 2:  # `-mpip`
            return text[2:], tuple(words[index + 1 :])
    return None


_FLAG = re.compile(r"^[/-]{1,2}([^:=\s]+)(?:[:=](.*))?$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Argv:
    """A program's words after its name (None: a word that is not constant)."""

    words: tuple[Value, ...]
    dash_flags: bool = True  # `-x` is a flag (programs); cmd built-ins take only `/x`

    def _flag(self, word: Value) -> tuple[str, str | None] | None:
        if word is None:
            return None
        text = word.strip()
        if not text or (text[0] == "-" and not self.dash_flags) or text[0] not in "/-":
            return None
        match = _FLAG.match(text)
        if match is None:
            return None
        return match.group(1).lower(), match.group(2)

    def flag(self, *names: str) -> bool:
        """Whether any of the flags `names` (no dash, lower case) is present in any spelling."""
        return any(f is not None and f[0] in names for f in map(self._flag, self.words))

    def flag_names(self) -> list[str]:
        """The name of every flag present (no dash, lower case), in order."""
        return [f[0] for f in map(self._flag, self.words) if f is not None]

    def value(self, *names: str) -> Value:
        """The value of flag `name`: `/name:v`, `/name=v`, or the next word; None if absent or unknown."""
        for index, word in enumerate(self.words):
            found = self._flag(word)
            if found is None or found[0] not in names:
                continue
            if found[1] is not None:
                return found[1]
            return self.words[index + 1] if index + 1 < len(self.words) else None
        return None

    def values(self, *names: str) -> list[Value]:
        """Every value of a repeatable flag (`taskkill /im a /im b`)."""
        out: list[Value] = []
        for index, word in enumerate(self.words):
            found = self._flag(word)
            if found is None or found[0] not in names:
                continue
            if found[1] is not None:
                out.append(found[1])
            elif index + 1 < len(self.words):
                out.append(self.words[index + 1])
            else:
                out.append(None)
        return out

    def positionals(self, takes_value: Iterable[str] = ()) -> list[Value]:
        """Words that are not flags nor the value of a flag in `takes_value`."""
        valued = frozenset(takes_value)
        out: list[Value] = []
        skip = False
        for word in self.words:
            if skip:
                skip = False
                continue
            found = self._flag(word)
            if found is None:
                out.append(word)
            elif found[0] in valued and found[1] is None:
                skip = True
        return out

    def lowered(self) -> list[str]:
        """Every constant word in lower case (for verb and keyword checks)."""
        return [w.strip().strip("'\"").lower() for w in self.words if w is not None]

    def text(self) -> str:
        """The constant words joined, lower case (for substring checks)."""
        return " ".join(self.lowered())


def argv_of(op: Operation) -> Argv:
    """The argv of a program or cmd built-in: its positional words, plus any flags the parser split out.

    Args:
        op: a program or cmd operation.

    Returns:
        Its `Argv`; a parser that reports `/s` as the parameter ("s", "true") and one that
        leaves it in `args` read the same.
    """
    words: list[Value] = list(op.args)
    for key, value in op.params:
        if value is None or value.lower() == "true":
            words.append("/" + key)
        else:
            words.append(f"/{key}:{value}")
    return Argv(tuple(words), dash_flags=op.shell != "cmd")


# A quoted word, or a bare one that a quoted part may continue, blanks and all (`--dir="C:\x\User Data"` is one
# word, as Windows splits it: a quote switches quoting on and off anywhere in a word; an unclosed one runs to the end).
_WORD = re.compile(r'"([^"]*)"|\'([^\']*)\'|((?:[^\s"]|"[^"]*(?:"|$))+)')


def split_command_line(text: Value) -> tuple[Value, ...]:
    """Split an argument string (`Start-Process -ArgumentList`, App `args`) into words.

    Args:
        text: the folded argument text, or None.

    Returns:
        The words (quotes removed); `(None,)` when the text is not constant.
    """
    if text is None:
        return (None,)
    words: list[Value] = []
    for match in _WORD.finditer(text):
        word = next(g for g in match.groups() if g is not None)
        if match.group(3) is not None and '"' in word:
            word = word.replace('"', "")
        # An array folded as `a,b` is two words, but `comsvcs.dll,MiniDump` stays one.
        if "," in word and not re.search(r"\.dll,", word, re.IGNORECASE) and match.group(3) is not None:
            words.extend(w for w in word.split(",") if w)
        else:
            words.append(word)
    return tuple(words)


# ---------------------------------------------------------------------------------------
# Places named by prefix (not canonicalised: only which provider a path lives in)

_REGISTRY_PREFIX = re.compile(
    r"^(?:microsoft\.powershell\.core\\registry::|registry::|hklm:|hkcu:|hkcr:|hku:|hkcc:"
    r"|hkey_(?:local_machine|current_user|classes_root|users|current_config)(?:[\\/]|$))",
    re.IGNORECASE,
)
_SESSION_PROVIDER = re.compile(r"^(?:env|variable|function|alias):", re.IGNORECASE)


def is_registry_path(path: Value) -> bool:
    """Whether a PowerShell provider path is in the registry (`HKLM:\\…`, `Registry::…`, `HKEY_…`)."""
    return path is not None and _REGISTRY_PREFIX.match(unquote(path).replace("/", "\\")) is not None


def is_session_path(path: Value) -> bool:
    """Whether a provider path lives only in this PowerShell session (`env:`, `variable:`, `function:`, `alias:`)."""
    return path is not None and _SESSION_PROVIDER.match(unquote(path)) is not None


def dedupe(effects: Iterable[Effect]) -> Effects:
    """The effects once each, in first-seen order."""
    return tuple(dict.fromkeys(effects))
