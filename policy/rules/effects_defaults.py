"""`$PSDefaultParameterValues`: defaults a script sets change what its later commands do (S-RULE-85).

`$PSDefaultParameterValues['Remove-Item:Recurse'] = $true; Remove-Item C:\\x` deletes the whole tree, though
the `Remove-Item` it runs names no `-Recurse`. The analyser's operations carry only what is written, so this
pass reads the script's constant writes of the variable (`$X['Cmdlet:Param'] = value`, `$X.Add('…', value)`,
`$X.'…' = value`, `$X = @{ '…' = value; … }`) and gives every command the key names the default it did not
set itself; PowerShell's own wildcards in the command part (`*:Force`) match as PowerShell matches them.
Any other mention of the variable — set through `Set-Variable`, a reference kept in another variable, a
key or value that is not constant, a script block as the value — is a change the gateway does not follow:
the script asks (`dynamic-command`). Reads (a key, `.Clear()`, `.Remove(…)`, the variable alone) pass.

A default is applied to every command of the script, earlier ones too (the analyser's operations carry no
position): stricter than PowerShell, never looser. A value default for a command that already has a
positional argument, which PowerShell may bind to that parameter instead, is read both ways.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Sequence

from policy.rules.shell.ops import Analysis, Operation, Value
from policy.rules.shell_names import canonical_parameter

NAME = "psdefaultparametervalues"
_MENTION = re.compile(NAME, re.IGNORECASE)
_VAR = r"\$(?:\{(?:(?:global|script|local|private):)?" + NAME + r"\}|(?:(?:global|script|local|private):)?" + NAME
_VAR += r"(?![\w:]))"
_VALUE = r"""(?P<value>\$true\b|\$false\b|[-+]?\d+(?:\.\d+)?\b|'[^']*'|"[^"`$]*")"""
_ASSIGN = r"=(?![=])"


def _key(tag: str = "") -> str:
    """A constant key in quotes (no `$` expansion, no escapes), its text in group `key<tag>`."""
    return rf"""(?P<q{tag}>['"])(?P<key{tag}>[^'"`$]*)(?P=q{tag})"""


# A constant write of one default: by index, by `.Add`, by member name.
_ONE = re.compile(
    rf"{_VAR}\s*(?:\[\s*{_key()}\s*\]\s*{_ASSIGN}|\.\s*add\s*\(\s*{_key('2')}\s*,|\.\s*{_key('3')}\s*{_ASSIGN})"
    rf"\s*{_VALUE}",
    re.IGNORECASE,
)
_ADD_CLOSE = re.compile(r"\s*\)", re.IGNORECASE)
# The whole table replaced by a hashtable literal of constant entries.
_ENTRY = _key() + r"\s*=\s*" + _VALUE
_WHOLE = re.compile(_VAR + r"\s*" + _ASSIGN + r"\s*@\{(?P<body>(?:\s*" + _ENTRY + r"\s*;?)*)\s*\}", re.IGNORECASE)
_ENTRY_RE = re.compile(_ENTRY, re.IGNORECASE)
# Reads: one key, the count, a removal, or the variable alone as a statement (shown).
_READ = re.compile(
    _VAR
    + r"(?:\s*\[\s*"
    + _key()
    + r"\s*\](?!\s*[-+*/%]?=)(?!\s*\.)|\.\s*(?:clear\s*\(\s*\)|count\b(?!\s*=)|containskey\s*\(|remove\s*\())",
    re.IGNORECASE,
)
_ALONE = re.compile(r"(?:^|(?<=[;\n{]))\s*" + _VAR + r"\s*(?=$|[;\n}])", re.IGNORECASE)
# Commands whose arguments are only printed, or handed to another process (read there as its own script).
_PRINTERS = frozenset(
    {"write-output", "write-host", "write-verbose", "write-debug", "write-warning", "write-information"}
    | {"write-error", "out-host", "out-default", "get-help"}
)
_NOT_THIS_SESSION = _PRINTERS | {"start-process"}
_CODE_RUNNERS = ("invoke-expression",)
_VARIABLE_COMMANDS = frozenset({"get-variable", "set-variable", "new-variable"})
_OFF = frozenset({"false", "$false", "0", "no", ""})


@dataclasses.dataclass(frozen=True, slots=True)
class _Defaults:
    """What a script's code says about the variable: the defaults it sets, and what it does not read."""

    values: tuple[tuple[str, str, Value], ...] = ()  # (command pattern, parameter, value)
    unread: tuple[str, ...] = ()


def _value(written: str) -> Value:
    """A default's value as the operation carries it; a quoted falsy word is a switch PowerShell turns on."""
    low = written.lower()
    if low in ("$true", "$false"):
        return low[1:]
    if written[:1] in "'\"":
        inner = written[1:-1]
        return None if inner.strip().lower() in _OFF else inner
    return written


def _setting(key: str, value: str) -> tuple[str, str, Value] | None:
    command, colon, parameter = key.rpartition(":")
    if not colon or not parameter.strip():
        return None  # `Disabled`, or a key PowerShell ignores
    return command.strip().lower(), parameter.strip().lower(), _value(value)


def _read_code(code: str, shown: int = 0) -> _Defaults:
    """The defaults one piece of code sets, and whether it mentions the variable otherwise than in a constant
    write, a read, or the `shown` times it is text a command only prints."""
    mentions = len(_MENTION.findall(code.replace("`", ""))) - shown
    if not mentions:
        return _Defaults()
    values: list[tuple[str, str, Value]] = []
    understood = 0
    for match in _ONE.finditer(code):
        if match.group("key2") is not None and not _ADD_CLOSE.match(code, match.end()):
            continue  # `.Add('k', 'v' + …)`: a value that goes on
        key = match.group("key") or match.group("key2") or match.group("key3") or ""
        found = _setting(key, match.group("value"))
        values += [found] if found is not None else []
        understood += 1
    for match in _WHOLE.finditer(code):
        for entry in _ENTRY_RE.finditer(match.group("body")):
            found = _setting(entry.group("key"), entry.group("value"))
            values += [found] if found is not None else []
        understood += 1
    understood += len(_READ.findall(code)) + len(_ALONE.findall(code))
    unread = (
        ()
        if understood >= mentions
        else ("the script changes $PSDefaultParameterValues in a way the gateway does not read",)
    )
    return _Defaults(values=tuple(values), unread=unread)


def _names_variable(op: Operation, value: str) -> bool:
    text = value.replace("`", "").lower()
    if _MENTION.search(text):
        return True
    name = text.removeprefix("variable:").lstrip("\\/")
    wild = any(c in name for c in "*?[")
    return wild and (op.name in _VARIABLE_COMMANDS or text.startswith("variable:")) and fnmatch.fnmatchcase(NAME, name)


def _code_of(ops: Sequence[Operation]) -> tuple[list[str], list[str]]:
    """Code the script runs in this session (`iex '…'`), and commands that name the variable otherwise."""
    code: list[str] = []
    other: list[str] = []
    for op in ops:
        values = [v for v in (*op.args, *(v for _, v in op.params)) if v is not None]
        if op.shell == "powershell" and op.name in _CODE_RUNNERS:
            code += values
        elif op.shell in ("powershell", "dotnet", "com") and op.name not in _NOT_THIS_SESSION:
            if op.shell == "dotnet" and op.name.endswith("scriptblock::create"):
                code += values
            elif any(_names_variable(op, v) for v in values):
                other.append(f"'{op.text}' reaches $PSDefaultParameterValues, which the gateway does not follow")
    return code, other


def _applies(pattern: str, op: Operation) -> bool:
    return op.shell == "powershell" and fnmatch.fnmatchcase(op.name, pattern)


def _with_defaults(op: Operation, values: Sequence[tuple[str, str, Value]]) -> tuple[Operation, ...]:
    """`op` as PowerShell runs it with the defaults: a switch default added; a value default for a command
    that has a positional argument (PowerShell may bind that to the same parameter instead) read both ways."""
    switches = list(op.params)
    valued: list[tuple[str, Value]] = []
    for pattern, written, value in values:
        parameter = canonical_parameter(op.name, written)
        if not _applies(pattern, op) or op.has(parameter):
            continue  # given on the command: PowerShell uses it
        if value in ("true", "false") or not op.args:
            switches.append((parameter, value))
        else:
            valued.append((parameter, value))
    if len(switches) == len(op.params) and not valued:
        return (op,)
    plain = dataclasses.replace(op, params=tuple(switches))
    return (plain, dataclasses.replace(op, params=(*switches, *valued))) if valued else (plain,)


def _named_by_a_value(ops: Sequence[Operation]) -> bool:
    """Whether an operation's folded value names the variable or the Variable: drive, or a command sets
    variables: one search over all values joined (a hot path: every PowerShell call passes here)."""
    if any(op.name in _VARIABLE_COMMANDS for op in ops):
        return True
    joined = "\0".join(v for op in ops for v in (*op.args, *(x for _, x in op.params)) if v is not None)
    return _MENTION.search(joined.replace("`", "")) is not None or "variable:" in joined.lower()


def with_default_parameters(text: str, analysis: Analysis) -> Analysis:
    """`analysis` of the PowerShell script `text` with the defaults it sets in `$PSDefaultParameterValues`
    given to its commands, and a change of them it does not read as dynamic (module docstring).

    Args:
        text: the script as PowerShell reads it.
        analysis: the analyser's reading of it.

    Returns:
        The same analysis when the script leaves the variable alone; else its operations with the defaults
        placed, and one dynamic sentence per change the gateway cannot follow.
    """
    if not _MENTION.search(text.replace("`", "")) and not _named_by_a_value(analysis.operations):
        return analysis
    code, unread = _code_of(analysis.operations)
    values: list[tuple[str, str, Value]] = []
    shown = 0
    for op in analysis.operations:  # `Write-Output 'PSDefaultParameterValues'`: an inert literal, printed
        for value in (*op.args, *(x for _, x in op.params)) if op.name in _PRINTERS else ():
            if value is not None and "$" not in value and _MENTION.search(value):
                literal = next((q + value + q for q in "'\"" if q + value + q in text), None)
                shown += 0 if literal is None else len(_MENTION.findall(value))
    for piece, printed in ((text, shown), *((c, 0) for c in code)):
        read = _read_code(piece, printed)
        values += read.values
        unread += read.unread
    ops = [variant for op in analysis.operations for variant in _with_defaults(op, values)]
    if not values and not unread:
        return analysis
    return dataclasses.replace(analysis, operations=tuple(ops), dynamic=(*analysis.dynamic, *unread))
