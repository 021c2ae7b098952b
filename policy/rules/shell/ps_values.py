"""The values the PowerShell analyser folds expressions into (issue 18), and how they print.

Folding is partial: a value is either a constant the analyser is sure of, or `UNKNOWN`. Every
helper here returns `UNKNOWN` rather than guess; nothing raises on odd input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias, Union

from tree_sitter import Node

from policy.rules.shell.ops import Value
from policy.rules.shell.ps_tree import Source


class Unknown:
    """The one non-constant value (`UNKNOWN`): a variable never assigned, a command's output, …"""

    _instance: Unknown | None = None

    def __new__(cls) -> Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()


@dataclass(frozen=True, slots=True)
class Hashtable:
    """A constant `@{…}` literal: its keys (as written) and folded values, in source order."""

    entries: tuple[tuple[str, PSValue], ...]


@dataclass(frozen=True, slots=True)
class ScriptBlock:
    """A script block: a `{…}` of a parsed text (its node), or text handed to `[scriptblock]::Create`.

    `origin` is the `Source` of the tree `node` belongs to: a block re-walked later, from
    another text's walk, still reads its own text.
    """

    node: Node | None = None
    source: str | None = None
    origin: Source | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class ObjectRef:
    """An object the script created: `kind` is "com", "dotnet", "encoding" or "engine"; `name` lower case.

    `target`: what the object was made for, as written (None when not constant): for a `FileInfo` or
    `DirectoryInfo` (`FILE_OBJECT_TYPES`) the file or folder its methods act on (`ps_calls.file_object_call`),
    for an `X509Store` the certificate store it opens (`Root`, `My`).
    """

    kind: str
    name: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class TypeRef:
    """A type literal (`[IO.File]`), by its canonical lower-case full name."""

    name: str


@dataclass(frozen=True, slots=True)
class CommandRef:
    """What `Get-Command X` returns: the command's name, or None when X is a wildcard or not constant."""

    name: str | None
    pattern: str = ""


# `None` is PowerShell's `$null`; `bytes` come from `[Convert]::FromBase64String`.
PSValue: TypeAlias = Union[  # noqa: UP007 - a recursive alias needs the string form
    str, int, float, bool, None, bytes, tuple["PSValue", ...], Hashtable, ScriptBlock, ObjectRef, TypeRef,
    CommandRef, Unknown,
]  # fmt: skip


def is_known(value: PSValue) -> bool:
    """Whether `value` is constant all the way down (an array with one unknown element is not)."""
    if value is UNKNOWN:
        return False
    if isinstance(value, tuple):
        return all(is_known(v) for v in value)
    return True


def as_text(value: PSValue) -> str | None:
    """`value` converted to a string the way PowerShell's string expansion does, or None if unknown.

    Args:
        value: a folded value.

    Returns:
        The string, or None when the value is not constant or has no stable string form.
    """
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    if value is None:
        return ""
    if isinstance(value, tuple):
        # Arrays expand joined by $OFS, a single space by default.
        parts = [as_text(v) for v in value]
        return None if any(p is None for p in parts) else " ".join(p for p in parts if p is not None)
    if isinstance(value, TypeRef):
        return value.name
    return None


def as_value(value: PSValue) -> Value:
    """`value` as an `ops.Value` for an operation's argument: a switch-like bool is "true"/"false"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, ScriptBlock):
        return None
    return as_text(value)


def flatten(value: PSValue) -> tuple[PSValue, ...]:
    """The elements of an array (nested arrays flattened once, as native argument passing does)."""
    if not isinstance(value, tuple):
        return (value,)
    out: list[PSValue] = []
    for item in value:
        out.extend(item if isinstance(item, tuple) else (item,))
    return tuple(out)
