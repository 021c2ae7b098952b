"""Which protected place a canonical path or registry key is in (issue 18 item 3, issue 12 item 2).

`paths.py` turns a spelling into one canonical form, `place_table.py` lists the places; this
module matches the one against the other:

    place_of("c:\\windows\\system32\\hal.dll")                         → Place(category=SYSTEM, …)

Matching errs towards "it is the protected place": a glob (`Sys*`) or an 8.3 name (`PROGRA~1`)
in the target, or in a pattern, matches every place it could name.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from policy.rules.paths import candidate_paths
from policy.rules.place_table import FILE_PLACES, KEY_PLACES, Place, PlaceCategory, PlaceEntry

# The places not in the tables: their paths come with each call (`gateway_paths`), from the running gateway.
GATEWAY_PLACE = Place(id="gateway-state", category=PlaceCategory.GATEWAY_STATE, label="the gateway's own files")
# The Python environment the gateway runs in (S-SELF-13): changed, the next start runs what the agent wrote; read
# and run, it is any Python. Its folders travel in `gateway_paths` marked by `environment_path`.
ENVIRONMENT_PLACE = Place(
    id="gateway-environment",
    category=PlaceCategory.GATEWAY_ENVIRONMENT,
    label="the Python environment the gateway runs in",
)
_ENVIRONMENT_MARK = "\0environment:"  # never the start of a path


def environment_path(folder: str) -> str:
    """`folder` as a `gateway_paths` entry of the gateway's Python environment (`ENVIRONMENT_PLACE`)."""
    return _ENVIRONMENT_MARK + folder


# =======================================================================================
# Matching: a trie over components; globs and 8.3 names in either side match conservatively

_SHORT = re.compile(r"^([^~\\]{1,6})~(\d{1,6})(?:\.([^.\\]{0,3}))?$")
_GLOB_CHARS = frozenset("*?[")
_SHORT_NAME_BAD = re.compile(r"[ .]")
_DRIVE = re.compile(r"^([a-z]):")  # as paths.py spells a drive


def _is_glob(comp: str) -> bool:
    return not _GLOB_CHARS.isdisjoint(comp)


def _short_matches(short: re.Match[str], name: str) -> bool:
    """Whether an 8.3 name (`PROGRA~1`, `LOGIND~1.JSO`) could be the short name of `name`."""
    stem, _, ext = short.group(1), short.group(2), short.group(3)
    base, dot, long_ext = name.rpartition(".")
    if not dot:
        base, long_ext = name, ""
    squeezed = _SHORT_NAME_BAD.sub("", base.lstrip("."))
    if ext and not long_ext.replace(" ", "").startswith(ext):
        return False
    if squeezed.startswith(stem) or _SHORT_NAME_BAD.sub("", name).startswith(stem):
        return True
    # After a few collisions Windows keeps two characters and adds a hash (`PR5A1B~1`).
    return len(stem) == 6 and all(c in "0123456789abcdef" for c in stem[2:]) and squeezed.startswith(stem[:2])


def _fixed_ends(glob: str) -> tuple[str, str]:
    cut = [i for i, ch in enumerate(glob) if ch in _GLOB_CHARS]
    return glob[: cut[0]], glob[cut[-1] + 1 :] if not glob.endswith("]") else ""


def _could_match(target: str, pattern: str) -> bool:
    """Whether one target component could name the same thing as one pattern component."""
    if target == pattern or target == "*" or pattern == "*":
        return True
    t_short, p_short = _SHORT.match(target), _SHORT.match(pattern)
    t_glob, p_glob = _is_glob(target), _is_glob(pattern)
    if t_short and not p_glob:
        return _short_matches(t_short, pattern)
    if p_short and not t_glob:
        return _short_matches(p_short, target)
    if t_glob and p_glob or t_short or p_short:
        # Both sides vary: they can only overlap if their fixed ends agree (conservative).
        tp, ts = _fixed_ends(target) if t_glob else (target.split("~")[0], "")
        pp, ps = _fixed_ends(pattern) if p_glob else (pattern.split("~")[0], "")
        if t_short or p_short:  # an 8.3 stem has no spaces or dots: compare the long side squeezed
            tp, pp, ts, ps = _SHORT_NAME_BAD.sub("", tp), _SHORT_NAME_BAD.sub("", pp), "", ""
        return (tp.startswith(pp) or pp.startswith(tp)) and (ts.endswith(ps) or ps.endswith(ts))
    if t_glob:
        return fnmatch.fnmatchcase(pattern, target)
    return fnmatch.fnmatchcase(target, pattern)


@dataclass(frozen=True, slots=True)
class _Node:
    depth: int
    literal: Mapping[str, _Node]
    varying: tuple[tuple[str, _Node], ...]  # children whose pattern is a glob or an 8.3 name
    tree: tuple[Place, ...]
    exact: tuple[Place, ...]
    valued: tuple[tuple[frozenset[str], Place], ...]
    carve: bool
    below: tuple[Place, ...]  # every place strictly inside this node


@dataclass(slots=True)
class _Draft:
    """A trie node while the tables are read; frozen into `_Node` before anyone matches."""

    children: dict[str, _Draft] = field(default_factory=dict)
    tree: list[Place] = field(default_factory=list)
    exact: list[Place] = field(default_factory=list)
    valued: list[tuple[frozenset[str], Place]] = field(default_factory=list)
    carve: bool = False


def _build(entries: Iterable[PlaceEntry]) -> _Node:
    root = _Draft()
    for entry in entries:
        for pattern in entry.patterns:
            node = root
            for comp in pattern.split("\\"):
                node = node.children.setdefault(comp, _Draft())
            if entry.scope == "open":
                node.carve = True
            elif entry.values is not None:
                node.valued.append((entry.values, entry.place))
            elif entry.scope == "exact":
                node.exact.append(entry.place)
            else:
                node.tree.append(entry.place)
    return _freeze(root, 0)


def _freeze(draft: _Draft, depth: int) -> _Node:
    children = {k: _freeze(v, depth + 1) for k, v in draft.children.items()}
    below: list[Place] = []
    for child in children.values():
        for place in (*child.tree, *child.exact, *(p for _, p in child.valued), *child.below):
            if place not in below:
                below.append(place)
    varies = {k for k in children if _is_glob(k) or _SHORT.match(k)}
    return _Node(
        depth=depth,
        literal=MappingProxyType({k: n for k, n in children.items() if k not in varies}),
        varying=tuple((k, n) for k, n in children.items() if k in varies),
        tree=tuple(draft.tree),
        exact=tuple(draft.exact),
        valued=tuple(draft.valued),
        carve=draft.carve,
        below=tuple(below),
    )


_FILE_TRIE = _build(FILE_PLACES)
_KEY_TRIE = _build(KEY_PLACES)


def _value_matches(value_name: str | None, names: frozenset[str]) -> bool:
    if value_name is None:
        return True  # the whole key (or a value we could not name): every value in it
    v = value_name.lower()
    return any(_could_match(v, n) for n in names) if _is_glob(v) else v in names


def _walk(
    node: _Node,
    comps: Sequence[str],
    varies: Sequence[bool],
    value_name: str | None,
    inherited: tuple[tuple[int, Place], ...],
    out: list[tuple[int, Place]],
    inside: list[Place] | None,
) -> None:
    if node.carve:
        inherited = ()
    if node.tree:
        inherited = inherited + tuple((node.depth, p) for p in node.tree)
    depth = node.depth
    if depth == len(comps):
        out.extend((depth + 1, p) for names, p in node.valued if _value_matches(value_name, names))
        out.extend((depth, p) for p in node.exact)
        out.extend(inherited)
        if inside is not None:
            inside.extend(node.below)
        return
    comp = comps[depth]
    matched = False
    if varies[depth]:  # a glob or an 8.3 name in the target: every child it could name
        for key, child in node.literal.items():
            if _could_match(comp, key):
                matched = True
                _walk(child, comps, varies, value_name, inherited, out, inside)
    else:
        hit = node.literal.get(comp)
        if hit is not None:
            matched = True
            _walk(hit, comps, varies, value_name, inherited, out, inside)
    for pattern, child in node.varying:
        if _could_match(comp, pattern):
            matched = True
            _walk(child, comps, varies, value_name, inherited, out, inside)
    if not matched or varies[depth]:
        # A glob or an 8.3 name may also name a folder with no place of its own (`Windows\te*` is
        # `Temp`, carved out, but also `Test`): the places around it hold for that one.
        out.extend(inherited)


def _varies(comps: Sequence[str]) -> list[bool]:
    return [not _GLOB_CHARS.isdisjoint(c) or ("~" in c and _SHORT.match(c) is not None) for c in comps]


_ONE_CHAR_CLASS = re.compile(r"\[([^\]!^])\]")


def _one_name(comp: str) -> str:
    """`comp` with each one-character class written as its character (`tem[p]` is the name `temp`;
    `te[m]*` the glob `tem*`, which names the same folders)."""
    return _ONE_CHAR_CLASS.sub(lambda m: m.group(1), comp) if "[" in comp else comp


def _ordered(found: list[tuple[int, Place]]) -> tuple[Place, ...]:
    out: list[Place] = []
    for _, place in sorted(found, key=lambda pair: -pair[0]):
        if place not in out:
            out.append(place)
    return tuple(out)


def _path_comps(canonical: str) -> list[str]:
    comps = [c for c in canonical.split("\\") if c]
    return ["//", *comps] if canonical.startswith("\\\\") else comps  # `//`: no component is spelled so


@lru_cache(maxsize=32)
def _gateway_trie(gateway_paths: tuple[str, ...]) -> _Node | None:
    """The gateway's own paths as a trie (cached: the same few paths come with every call); an entry marked by
    `environment_path` is the environment it runs in, every other its own files."""
    patterns: list[str] = []
    environment: list[str] = []
    for entry in gateway_paths:
        marked = entry.startswith(_ENVIRONMENT_MARK)
        path = entry.removeprefix(_ENVIRONMENT_MARK)
        for reading in candidate_paths(path):
            comps = _path_comps(reading)
            # The standard environment does not know the user's name (winenv.USER_PLACEHOLDER),
            # so `$env:LOCALAPPDATA\…` must reach the real profile: any profile counts.
            if len(comps) > 2 and _DRIVE.fullmatch(comps[0]) and comps[1] == "users":
                comps[2] = "*"
            if len(comps) > 1:  # a whole drive is no state dir; never make every path the gateway's
                (environment if marked else patterns).append("\\".join(comps))
    entries = [PlaceEntry(GATEWAY_PLACE, tuple(patterns), "tree", None)] if patterns else []
    entries += [PlaceEntry(ENVIRONMENT_PLACE, tuple(environment), "tree", None)] if environment else []
    return _build(entries) if entries else None


@lru_cache(maxsize=4096)
def _lookup(canonical: str, gateway_paths: tuple[str, ...]) -> tuple[tuple[Place, ...], tuple[Place, ...]]:
    """(places the path is in, places inside it); cached, as scripts name the same paths often."""
    comps = [_one_name(c) for c in _path_comps(canonical)]
    varies = _varies(comps)
    found: list[tuple[int, Place]] = []
    inside: list[Place] = []
    _walk(_FILE_TRIE, comps, varies, None, (), found, inside)
    trie = _gateway_trie(gateway_paths) if gateway_paths else None
    if trie is not None:
        _walk(trie, comps, varies, None, (), found, inside)
        for own in (GATEWAY_PLACE, ENVIRONMENT_PLACE):
            if any(p is own for _, p in found):
                found.append((10_000, own))  # the guard itself outranks any place it sits in
    return _ordered(found), tuple(dict.fromkeys(inside))


def places_around(canonical: str, *, gateway_paths: Sequence[str] = ()) -> tuple[tuple[Place, ...], tuple[Place, ...]]:
    """`places_of` and `places_inside` at once (one walk of the table).

    Args:
        canonical: a path from `canonical_path`/`candidate_paths`.
        gateway_paths: the gateway's own files and folders (see `places_of`).

    Returns:
        (the places the path is in, most specific first; the places inside it).
    """
    return _lookup(canonical, tuple(gateway_paths))


def places_of(canonical: str, *, gateway_paths: Sequence[str] = ()) -> tuple[Place, ...]:
    """Every protected place a canonical path is in, the most specific first.

    Args:
        canonical: a path from `canonical_path`/`candidate_paths` (wildcards and 8.3 names
            in it match every place they could name).
        gateway_paths: the gateway's own files and folders (state dir, config, audit, STOP):
            the path equal to or inside one of them is in the `gateway-state` place.

    Returns:
        The places; empty when the path is in none.
    """
    return _lookup(canonical, tuple(gateway_paths))[0]


def places_inside(canonical: str, *, gateway_paths: Sequence[str] = ()) -> tuple[Place, ...]:
    """Every protected place inside a canonical path (not the path itself): what a delete or move of
    a folder takes along.

    Args:
        canonical: a path from `canonical_path`/`candidate_paths`.
        gateway_paths: the gateway's own files and folders (see `places_of`).

    Returns:
        The places, without duplicates; empty when the folder holds none.
    """
    return _lookup(canonical, tuple(gateway_paths))[1]


# Each file place's own names (the last component of its patterns), and whether a file of any name is in it.
_NAMES: Mapping[Place, tuple[tuple[str, ...], bool]] = MappingProxyType(
    {
        entry.place: (tuple(p.rsplit("\\", 1)[-1] for p in entry.patterns), entry.scope == "tree")
        for entry in FILE_PLACES
        if entry.scope != "open"
    }
)


def could_be_named(place: Place, name: str) -> bool:
    """Whether a file or folder called `name` (a listing's `-Filter`, maybe a glob) could be `place` or be in it.

    An exact place is a file or folder of known names (`id_rsa`, `Groups.xml`); a tree place is a folder whose
    files may have any name, so any glob may pick one of them (`*.key` the GnuPG keys), while a plain name is
    taken for the folder's own. A place not in the file table (the gateway's own) counts. Case-insensitive.
    """
    own, tree = _NAMES.get(place, ((), True))
    lowered = name.lower()
    if not own or (tree and _is_glob(lowered)):
        return True
    return any(_could_match(lowered, pattern) for pattern in own)


def place_of(canonical: str, *, gateway_paths: Sequence[str] = ()) -> Place | None:
    """The most specific protected place a canonical path is in, or None.

    Args:
        canonical: a path from `canonical_path`.
        gateway_paths: the gateway's own files and folders (see `places_of`).

    Returns:
        The place, or None.
    """
    found = places_of(canonical, gateway_paths=gateway_paths)
    return found[0] if found else None


def _key_match_form(key: str) -> list[str]:
    """Components of a canonical key as the place table spells it (current user, no Wow6432Node)."""
    comps = key.split("\\")
    if comps[0] == "hku" and len(comps) > 1:  # another user's hive (or .DEFAULT) is a user hive
        sid = comps[1]
        comps = ["hkcu", "software", "classes", *comps[2:]] if sid.endswith("_classes") else ["hkcu", *comps[2:]]
    return [c for c in comps if c != "wow6432node"]


def key_places(canonical: str, value_name: str | None = None) -> tuple[Place, ...]:
    """Every protected place a canonical registry key (and value) is in, the most specific first.

    Args:
        canonical: a key from `canonical_key`.
        value_name: the value the call touches, if known; places that protect only some
            values of a key (`AppInit_DLLs`, `AutoRun`) need it, and None counts as every value.

    Returns:
        The places; empty when the key is in none.
    """
    found: list[tuple[int, Place]] = []
    comps = _key_match_form(canonical)
    _walk(_KEY_TRIE, comps, _varies(comps), value_name, (), found, None)
    return _ordered(found)


def key_places_inside(canonical: str) -> tuple[Place, ...]:
    """Every protected place under a canonical registry key (not the key itself): what a recursive read of
    it (`reg query /s`, `reg export`, `Get-ChildItem -Recurse`) reads along (S-RULE-107).

    Args:
        canonical: a key from `canonical_key`.

    Returns:
        The places, without duplicates; empty when the key holds none.
    """
    comps = _key_match_form(canonical)
    found: list[tuple[int, Place]] = []
    inside: list[Place] = []
    _walk(_KEY_TRIE, comps, _varies(comps), None, (), found, inside)
    return tuple(dict.fromkeys(inside))


def key_place(canonical: str, value_name: str | None = None) -> Place | None:
    """The most specific protected place a canonical registry key is in, or None (see `key_places`)."""
    found = key_places(canonical, value_name)
    return found[0] if found else None
