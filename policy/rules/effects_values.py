"""Values one command hands another in the same analysis (issue 18): nested calls, listed items, the current folder.

The analyser reports a value it could not fold as None and the command that made it as an
operation of its own: `Copy-Item x ([Environment]::GetFolderPath('Startup'))` is a GetFolderPath
call and a Copy-Item whose destination is None. `fed_effects` puts the two back together where
the maker's result is known:

1. nested calls — an operation whose text holds another's (`(Get-Process lsass).Id`,
   `(Join-Path $d $s)`, `([Environment]::GetFolderPath('System'))`, `(Get-Item X).Delete()`):
   its one unknown slot, or the object it is called on, is that value;
2. listed items — `Get-ChildItem X | ForEach-Object { [IO.File]::Delete($_.FullName) }` and
   `foreach ($f in Get-ChildItem X) { … $f.FullName … }`: the unknown target is every item of X
   (`X\\*`, or `X\\<filter>`), recursively when the listing is;
3. the current folder — after `Set-Location X` or `cd /d X`, a relative target is read from X too.

Where the link is certain (the maker's text nested in the user's, `$_` in a ForEach-Object fed by
the listing) the value replaces the unknown; where it is a guess (a `foreach` statement, which
the analyser does not report; text built around the value) the guessed effect is added and the
unknown one kept, so a guess can only make a verdict stricter.
"""

from __future__ import annotations

import fnmatch
import ntpath
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from policy.rules.effects_common import (
    METADATA,
    NAMED,
    RECURSIVE,
    Bound,
    Effects,
    bind,
    dedupe,
    effect,
    first,
    has_wildcard,
    is_on,
    is_registry_path,
    targets,
    unquote,
)
from policy.rules.effects_dispatch import effects_of
from policy.rules.paths import special_folder
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from policy.rules.shell.winenv import unknown_variable

K = EffectKind

_PATH_KINDS = frozenset({K.DELETE, K.DELETE_RECURSIVE, K.MOVE, K.WRITE, K.READ, K.EXECUTE})
_KILL_KINDS = frozenset({K.KILL, K.KILL_FORCED})
_LISTINGS = frozenset({"get-childitem", "get-item", "resolve-path", "convert-path"})
_PS_CWD = frozenset({"set-location", "push-location"})
_CMD_CWD = frozenset({"cd", "chdir", "pushd"})
# How far back a nested maker is looked for: makers come right before their user.
_LOOK_BACK = 16
_PIPE_ITEM = re.compile(r"\$(?:_|psitem)\b", re.IGNORECASE)
# A loop variable's file properties (`$f.FullName`) or a file method on it (`$f.Delete()`).
_LOOP_ITEM = re.compile(r"\$(?!_\b)\w+\.(?:fullname|pspath|path|name|directoryname|delete|moveto|copyto)\b", re.I)
_FOLDER_ENUM = re.compile(r"specialfolder\]\s*::\s*(\w+)", re.IGNORECASE)
_ABSOLUTE = re.compile(r"^(?:[a-z]:|[\\/]|~|\$|%|[a-z][\w.]*::|[a-z]{2,}:)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Made:
    """What a maker operation stands for.

    Attributes:
        paths: the path(s) its result names (as written, not canonicalised).
        processes: the process names (or `pid:N`) its result names.
        recursive: the paths are the items of a recursive listing.
    """

    paths: tuple[str, ...] = ()
    processes: tuple[str, ...] = ()
    recursive: bool = False


def listing_filter(bound: Bound) -> str | None:
    """The one name pattern a Get-ChildItem keeps (`-Filter`, else `-Include`); None without one, or for a
    list or a path, which name no single item pattern."""
    pattern = unquote(first(bound, "filter") or first(bound, "include"))
    return pattern if pattern and "," not in pattern and "\\" not in pattern else None


def _items(op: Operation) -> Made | None:
    """What `$_` stands for when `op` feeds a loop: every item a listing lists, or the item itself."""
    if op.shell != "powershell" or op.name not in _LISTINGS:
        return None
    bound = bind(op, ("path", "filter"))
    paths = [p for p in targets(bound, "path", "literalpath") if p is not None]
    if not paths:
        return None
    if op.name != "get-childitem":
        return Made(paths=tuple(paths))
    pattern = listing_filter(bound) or "*"
    items = tuple(ntpath.join(p, pattern) for p in paths)
    return Made(paths=items, recursive=is_on(bound, "recurse") or "depth" in bound)


def filtered_items(op: Operation) -> tuple[str, ...] | None:
    """What `Get-ChildItem X -Filter p` hands down a pipe when no X can be one of them: `X\\p`.

    A listing returns a folder's children, or a file itself; with a filter, a path whose own name
    the filter rejects (`~\\Downloads` for `*.tmp`) can only be a folder whose matching items are listed.
    None without a filter, or when a path is a pattern or its name matches (then it may be a file).
    """
    if op.shell != "powershell" or op.name != "get-childitem":
        return None
    bound = bind(op, ("path", "filter"))
    pattern = listing_filter(bound)
    paths = targets(bound, "path", "literalpath")
    if pattern is None or not paths:
        return None
    items: list[str] = []
    for path in paths:
        if path is None or has_wildcard(path):
            return None
        folder = unquote(path).rstrip("\\/")
        if fnmatch.fnmatchcase(ntpath.basename(folder).lower(), pattern.lower()):
            return None
        items.append(folder + "\\" + pattern)
    return tuple(items)


def made_by(op: Operation) -> Made | None:
    """The value a maker operation's result stands for, when it is known.

    Args:
        op: an operation from the analysis.

    Returns:
        The paths or processes (`Get-Item X` → X, `Join-Path a b` → a\\b, `Get-Process n` → n,
        `[Environment]::GetFolderPath('Startup')` → the Startup folder), or None.
    """
    if op.shell == "dotnet" and op.name == "system.environment::getfolderpath":
        name = op.args[0] if op.args else None
        if name is None:
            enum = _FOLDER_ENUM.search(op.text)
            name = enum.group(1) if enum else None
        folder = special_folder(name) if name is not None else None
        return Made(paths=(folder,)) if folder is not None else None
    if op.shell != "powershell":
        return None
    if op.name == "join-path":
        return _joined(op)
    if op.name == "get-process":
        bound = bind(op, ("name",))
        names = [n for n in targets(bound, "name") if n is not None]
        ids = [f"pid:{unquote(i)}" for i in targets(bound, "id") if i is not None]
        return Made(processes=tuple(names + ids)) if names or ids else None
    if op.name == "get-childitem":
        return _items(op)
    if op.name in _LISTINGS:
        paths = [p for p in targets(bind(op, ("path",)), "path", "literalpath") if p is not None]
        return Made(paths=tuple(paths)) if paths else None
    return None


_JOIN_SLOTS = ("path", "childpath")


def _joined(op: Operation) -> Made | None:
    """`Join-Path`'s result (S-RULE-47): the path, the child path, then every additional child path —
    `-AdditionalChildPath a,b` or the positional words left after the first two (PowerShell 7 takes
    the remaining arguments) — each joined by one separator: a child written rooted (`\\drivers`) is
    still appended, never a new root as `ntpath.join` would make it."""
    bound = bind(op, _JOIN_SLOTS)
    named = bind(op)
    rest = op.args[sum(1 for slot in _JOIN_SLOTS if slot not in named) :]
    parts = [first(bound, "path"), first(bound, "childpath"), *targets(bound, "additionalchildpath"), *rest]
    if "path" not in bound or "childpath" not in bound or None in parts:
        return None
    joined = unquote(parts[0])
    for part in parts[1:]:
        joined = joined.rstrip("\\/") + "\\" + unquote(part).lstrip("\\/")
    return Made(paths=(joined,))


# ---------------------------------------------------------------------------------------
# Filling the unknown


def _unknown_slots(op: Operation) -> list[tuple[str, int]]:
    slots = [("param", i) for i, (_, v) in enumerate(op.params) if v is None]
    return slots + [("arg", i) for i, v in enumerate(op.args) if v is None]


def _filled(op: Operation, slot: tuple[str, int], value: str) -> Operation:
    where, index = slot
    if where == "param":
        params = list(op.params)
        params[index] = (params[index][0], value)
        return replace(op, params=tuple(params))
    args = list(op.args)
    args[index] = value
    return replace(op, args=tuple(args))


def _killed(op: Operation, slot: tuple[str, int], made: Made) -> Operation:
    """`Stop-Process -Id (Get-Process lsass).Id`: the slot names the processes `Get-Process` found."""
    where, index = slot
    named = tuple(("id", p[4:]) if p.startswith("pid:") else ("name", p) for p in made.processes)
    params = tuple(kv for i, kv in enumerate(op.params) if not (where == "param" and i == index))
    args = tuple(a for i, a in enumerate(op.args) if not (where == "arg" and i == index))
    return replace(op, params=params + named, args=args)


def _upgraded(found: Effects, made: Made) -> Effects:
    # What is done to each item of a recursive listing is done to the whole tree: a delete of each
    # is a recursive delete, a write to each overwrites every file (`every_file`, judged like one).
    if not made.recursive:
        return found
    return tuple(
        effect(K.DELETE_RECURSIVE, e.target, e.detail, extra=e.extra)
        if e.kind is K.DELETE
        else every_file(e, made.paths)
        for e in found
    ) + tuple(_tree_read(e) for e in found if e.kind is K.READ and e.target in made.paths)


def _tree_read(e: Effect) -> Effect:
    """A read of each item of a recursive listing (`folder\\pattern`) as the read of the folder's tree, of the files
    the pattern picks (S-RULE-155): a credential store anywhere below counts."""
    folder, pattern = ntpath.split(e.target or "")
    extra = RECURSIVE if pattern in ("*", "") else (*RECURSIVE, (NAMED, pattern))
    return effect(K.READ, folder, e.detail, extra=extra)


def every_file(e: Effect, items: Collection[Value]) -> Effect:
    """A write done to each file of a recursive listing, marked so the judge sees the whole tree rewritten.

    Only a write to the listed items themselves (`items`: the listing as the operation was handed it)
    counts: a copy of each file to one folder (`% { Copy-Item $_.FullName D:\\backup }`) writes the
    folder, not the tree. An append (`Add-Content`) and a change of attributes or times (`METADATA`) lose nothing
    and stay what they were.
    """
    if e.kind is not K.WRITE or e.detail.lower() == "add-content" or e.target not in items or METADATA[0] in e.extra:
        return e
    return effect(K.WRITE, e.target, e.detail, extra=(*e.extra, ("every_file", "true")))


def _with_value(op: Operation, own: Effects, made: Made) -> Effects | None:
    """`op`'s effects with its one unknown slot (or the object it is called on) set to `made`."""
    slots = _unknown_slots(op)
    if len(slots) > 1:
        return None
    if made.processes:
        if op.name != "stop-process" or not slots:
            return None
        return effects_of(_killed(op, slots[0], made))
    out: list[Effect] = []
    for path in made.paths:
        if slots:
            out += effects_of(_filled(op, slots[0], path))
        else:  # the receiver: `(Get-Item X).Delete($true)`
            out += [replace(e, target=path) if e.target is None and e.kind in _PATH_KINDS else e for e in own]
    return _upgraded(tuple(out), made) if out else None


def _exactly_nested(inner: str, outer: str) -> bool:
    """Whether `inner` is a whole parenthesised argument (or the object called or whose member is set) in `outer`."""
    pattern = (
        r"\(\s*" + re.escape(inner) + r"\s*\)(?:\.(?:fullname|pspath|path|id|processname))?"
        r"(?=$|[\s);,]|\.\w+\(|\.\w+\s*=(?!=))"
    )
    return re.search(pattern, outer, re.IGNORECASE) is not None


# Static members the analyser leaves unfolded (they make no operation): their text → the value.
_TEXT_MAKERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\[(?:system\.)?environment\]\s*::\s*systemdirectory\b", re.I), "%SYSTEMROOT%\\System32"),
    (re.compile(r"\[(?:system\.)?environment\]\s*::\s*getenvironmentvariable\(\s*'(\w+)'\s*\)", re.I), "%{0}%"),
)


def _text_makers(op: Operation) -> list[tuple[Made, bool]]:
    found: list[tuple[Made, bool]] = []
    if "::" not in op.text:
        return found
    for pattern, value in _TEXT_MAKERS:
        for match in pattern.finditer(op.text):
            made = Made(paths=(value.format(*match.groups()),))
            found.append((made, _exactly_nested(match.group(0), op.text)))
    return found


def _nested_makers(ops: Sequence[Operation], index: int) -> list[tuple[Made, bool]]:
    op = ops[index]
    found: list[tuple[Made, bool]] = _text_makers(op)
    for earlier in reversed(ops[max(0, index - _LOOK_BACK) : index]):
        text = earlier.text.strip()
        if not text or text == op.text or earlier.depth != op.depth or text not in op.text:
            continue
        made = made_by(earlier)
        if made is not None:
            found.append((made, _exactly_nested(text, op.text)))
    return found


def _loop_source(ops: Sequence[Operation], index: int) -> Made | None:
    """What `$_` is in `ops[index]`, when it runs inside a ForEach-Object fed by a listing."""
    op = ops[index]
    if not _PIPE_ITEM.search(op.text):
        return None
    for later in ops[index + 1 : index + 1 + _LOOK_BACK]:
        if later.name != "foreach-object" or op.text not in later.text or later.input_from is None:
            continue
        source = _pipe_source(ops, ops.index(later))
        return _items(source) if source is not None else None
    return None


def _pipe_source(ops: Sequence[Operation], index: int) -> Operation | None:
    wanted, position = ops[index].input_from, index
    while wanted:
        position = next((k for k in range(position - 1, -1, -1) if ops[k].name == wanted), -1)
        if position < 0:
            return None
        if ops[position].name not in ("where-object", "sort-object", "select-object"):
            return ops[position]
        wanted = ops[position].input_from
    return None


def _guessed_listing(ops: Sequence[Operation], index: int) -> Made | None:
    """A `foreach ($f in Get-ChildItem X) { … $f.FullName … }` the analyser reports as its parts."""
    op = ops[index]
    if not _LOOP_ITEM.search(op.text):
        return None
    for earlier in reversed(ops[max(0, index - _LOOK_BACK) : index]):
        made = _items(earlier) if earlier.name in _LISTINGS else None
        if made is not None and earlier.text not in op.text:
            return made
    return None


def _unknown(own: Effects) -> bool:
    return any(e.target is None and (e.kind in _PATH_KINDS or e.kind in _KILL_KINDS) for e in own)


def fed_effects(ops: Sequence[Operation], index: int, own: Effects) -> Effects:
    """`ops[index]`'s effects with what other operations of the analysis hand it filled in (module docstring).

    Args:
        ops: the operations of one analysis, in source order.
        index: which one.
        own: its effects as `effects_of` (or the pipeline refinements) found them.

    Returns:
        The effects: unknown targets replaced where the link is certain, guessed ones added
        beside the unknown where it is not; `own` unchanged when nothing is known.
    """
    if not _unknown(own):
        return own
    op = ops[index]
    looped = _loop_source(ops, index)
    if looped is not None:
        return _with_value(op, own, looped) or own
    for made, exact in _nested_makers(ops, index):
        found = _with_value(op, own, made if exact else _inside(made))
        if found is not None:
            return found if exact else dedupe((*own, *found))
    guessed = _guessed_listing(ops, index)
    if guessed is not None:
        found = _with_value(op, own, guessed)
        if found is not None:
            return dedupe((*own, *found))
    return own


def _inside(made: Made) -> Made:
    """A value built around a maker's result (`(GetFolderPath('Desktop') + '\\x')`): somewhere inside it."""
    return replace(made, paths=tuple(ntpath.join(p, "*") for p in made.paths))


# ---------------------------------------------------------------------------------------
# The current folder


# The current folder after a `Set-Location` to a value that is not constant (`cd $x`, or `popd` typed into a
# console): a relative path changed there has a target nobody can name (S-RULE-120).
UNKNOWN_CWD = "\0unknown folder"
_CHANGES = frozenset({K.DELETE, K.DELETE_RECURSIVE, K.MOVE, K.WRITE})


def _cwd_of(op: Operation, cwd: str | None) -> str | None:
    if op.shell == "powershell" and op.name in _PS_CWD:
        path = first(bind(op, ("path",)), "path", "literalpath")
    elif op.shell == "cmd" and op.name in _CMD_CWD:
        words = [a for a in op.args if a is None or not a.startswith("/")]
        path = words[0] if words else None
    else:
        return cwd
    if path is None or unknown_variable(op.shell, path) is not None:
        return UNKNOWN_CWD  # somewhere unknown: relative targets can no longer be placed (S-RULE-122 too)
    text = unquote(path)
    if _ABSOLUTE.match(text):
        return text
    if cwd == UNKNOWN_CWD:
        return UNKNOWN_CWD
    return ntpath.join(cwd, text) if cwd is not None else None


def _relative(target: Value) -> bool:
    return target is not None and bool(unquote(target)) and not _ABSOLUTE.match(unquote(target))


def placed_in(folder: str, found: Effects) -> Effects:
    """The effects on relative paths read from `folder`, the working folder a program was started in (App
    `launch_executable` with `cwd`, S-RULE-150): `curl -O …` there writes `folder\\<name>`. Only the moved ones.
    """
    return tuple(
        replace(e, target=ntpath.join(folder, unquote(e.target)))
        for e in found
        if e.kind in _PATH_KINDS and e.kind is not K.EXECUTE and _relative(e.target)
    )


def _drive_of(op: Operation) -> tuple[str, str] | None:
    """The drive a command maps (S-RULE-51): `New-PSDrive -Name W -PSProvider … -Root X` and `net use W: X`,
    as (`w`, X); None for any other command or a name or root that is not constant."""
    if op.shell == "powershell" and op.name == "new-psdrive":
        bound = bind(op, ("name", "psprovider", "root"))
        name, root = first(bound, "name"), first(bound, "root")
    elif op.name == "net" and len(op.args) >= 3 and (op.args[0] or "").lower() == "use":
        name, root = (op.args[1] or "").rstrip(":"), op.args[2]
    else:
        return None
    if name is None or root is None or not unquote(name) or not unquote(root):
        return None
    return unquote(name).rstrip(":").lower(), unquote(root)


def _on_drive(target: str, drives: dict[str, str]) -> str | None:
    text = unquote(target)
    drive, colon, rest = text.partition(":")
    if not colon or drive.lower() not in drives:
        return None
    root = drives[drive.lower()]
    return root.rstrip("\\/") + "\\" + rest.lstrip("\\/") if rest.strip("\\/") else root


def _reread(op: Operation, found: Effects, moved: dict[str, str]) -> Effects:
    """`op` judged again with each target word in `moved` replaced (a path read from the current location or a
    mapped drive): a registry location makes `Set-ItemProperty WDigest …` a registry change, not a file
    property (S-RULE-51). Where no word of `op` is such a target, the targets of its effects are moved."""
    swap = {unquote(old): new for old, new in moved.items()}

    def moved_word(word: Value) -> Value:
        return swap.get(unquote(word), word) if word is not None else None

    again = replace(
        op,
        args=tuple(moved_word(a) for a in op.args),
        params=tuple((k, moved_word(v)) for k, v in op.params),
    )
    if again != op:
        return tuple(e for e in effects_of(again) if e.target is None or e.target not in moved)
    return tuple(replace(e, target=moved[e.target]) for e in found if e.target in moved)


def in_folder(ops: Sequence[Operation], effects_per_op: Sequence[Effects]) -> Effects:
    """The effects on relative targets read from the folder (or registry key) an earlier `Set-Location`/`cd`
    moved to, and on targets on a drive an earlier `New-PSDrive`/`net use` mapped, read from its root.

    Args:
        ops: the operations of one analysis, in source order.
        effects_per_op: each operation's effects, in the same order.

    Returns:
        Extra effects (the first readings stay too: a `cd` that fails leaves the old folder).
    """
    out: list[Effect] = []
    cwd: str | None = None
    drives: dict[str, str] = {}
    for op, found in zip(ops, effects_per_op, strict=False):
        moved: dict[str, str] = {}
        for e in found:
            if e.kind not in _PATH_KINDS or e.target is None:
                continue
            mapped = _on_drive(e.target, drives) if drives else None
            if mapped is not None:
                moved[e.target] = mapped
            elif cwd == UNKNOWN_CWD and _relative(e.target):
                if e.kind in _CHANGES:
                    out.append(replace(e, target=None))  # changed somewhere unknown: asked (dynamic)
            elif cwd is not None and _relative(e.target):
                joined = ntpath.join(cwd, unquote(e.target))
                moved[e.target] = ntpath.normpath(joined) if is_registry_path(cwd) else joined
        if moved:
            out += _reread(op, found, moved)
        cwd = _cwd_of(op, cwd)
        drive = _drive_of(op)
        if drive is not None:
            drives[drive[0]] = drive[1]
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Variables with no standard value


# An environment variable the standard environment does not define may hold any path: an earlier call can set it
# for every later process (`setx P C:\Windows\System32`, the Registry tool on HKCU\Environment), so a change
# through it (`del %P%\hal.dll`, `Remove-Item "$env:P\hal.dll"`) has a target nobody can name (S-RULE-122).
UNKNOWN_VARIABLE = "unknown variable"
# A process named through such a variable may be any process, lsass among them (`Stop-Process -Name $env:P`).
_THROUGH_VARIABLES = _CHANGES | _KILL_KINDS


def through_unknown_variables(ops: Sequence[Operation], effects_per_op: Sequence[Effects]) -> Effects:
    """A change of a path, or a kill of a process, named through an environment variable with no standard value,
    as one of a target that is not constant (asked: `dynamic-command`), naming the variable (S-RULE-122).

    Args:
        ops: the operations of one analysis, in source order.
        effects_per_op: each operation's effects, in the same order.

    Returns:
        One effect with no target per such change.
    """
    out: list[Effect] = []
    for op, found in zip(ops, effects_per_op, strict=False):
        for e in found:
            if e.kind not in _THROUGH_VARIABLES or e.target is None or ("%" not in e.target and "$" not in e.target):
                continue
            variable = unknown_variable(op.shell, e.target)
            if variable is not None:
                out.append(replace(e, target=None, extra=(*e.extra, (UNKNOWN_VARIABLE, variable))))
    return tuple(out)
