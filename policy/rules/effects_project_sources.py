"""A project's own package settings, judged by what they say when they are written (S-RULE-211).

Package managers read settings that live beside the project, not only the user's: npm, pnpm and yarn the
`.npmrc` (and yarn's `.yarnrc`, `.yarnrc.yml`) of the project's folder, bun its `bunfig.toml`, uv a
`uv.toml` and `pyproject.toml`'s `[tool.uv]` tables (poetry and pdm their `source` tables), pip a virtual
environment's `pip.ini`/`pip.conf` and a requirements file's `--index-url` lines, cargo the `.cargo\\config.toml`
of any folder above it, NuGet every `NuGet.Config` above the project, conda an environment's `.condarc`; and
pnpm runs a project's `.pnpmfile.cjs` as code at every install. The next ordinary install there (`npm install`,
`uv sync`, `pip install -r requirements.txt`) then fetches code from where the file says, or runs what it names,
with nobody asked: what `npm config set registry …` (S-RULE-166) and a write of the user's own settings file
(S-RULE-186) do for every project.

A write of one is a `PERSISTENCE` effect (judge row `persistence-autostart`, ask) when its content names an
address other than that manager's own public registry (`foreign_addresses`), sets a program npm or yarn runs
(`script-shell`, `node-options`, a `yarnPath` outside the project's `.yarn\\releases`), is pnpm's hook file, or
was not read (a copy, a move, text the analyser cannot fold). The content is read as its program reads it: TOML
by its grammar (escapes decoded), XML's entities, YAML's escapes, pip's option prefixes. Content that names only
the public registry, or none (`save-exact=true`, `requests==2.32.3`), is ordinary. Not read: a lock file; a
package named by an address (`pkg @ https://…` in a requirements file or dependency list, `[tool.uv.sources]`:
pinning one package to a git commit is everyday work); cargo's `runner`/`linker` (they run at `cargo build`,
which the person asks for).
"""

from __future__ import annotations

import html
import json
import re
import tomllib
from dataclasses import dataclass

from policy.rules.effects_common import RUNS_LATER, Effects, effect
from policy.rules.effects_packages import foreign_addresses
from policy.rules.shell.ops import Effect, EffectKind, Value

__all__ = ["is_project_sources_file", "project_sources"]

K = EffectKind
_END = r"[\s.]*[\"']?$"  # trailing dots and blanks (Windows drops them), a closing quote
_START = r"(?:^[\"']?|[\\/])"


@dataclass(frozen=True, slots=True)
class _Kind:
    """One kind of settings file: its name, whose registry it reads, how it is shown, and how its text is read."""

    name: re.Pattern[str]
    family: str
    label: str
    reader: str  # "ini" (`key = value`), "yarn" (`key "value"`), "yaml", "toml", "pyproject" (its source tables),
    # "urls" (every address), "requirements" (pip's option lines), "values" (XML `value="…"`), "code" (run at install)


def _kind(name: str, family: str, label: str, reader: str) -> _Kind:
    return _Kind(re.compile(_START + name + _END, re.IGNORECASE), family, label, reader)


_KINDS = (
    _kind(r"\.npmrc", "node", "a project's .npmrc", "ini"),
    _kind(r"\.yarnrc", "node", "a project's .yarnrc", "yarn"),
    _kind(r"\.yarnrc\.yml", "node", "a project's .yarnrc.yml", "yaml"),
    _kind(r"bunfig\.toml", "node", "a project's bunfig.toml", "toml"),
    _kind(r"\.pnpmfile\.c?js", "node", "a project's .pnpmfile.cjs (code pnpm runs at every install)", "code"),
    _kind(r"uv\.toml", "python", "a project's uv.toml", "toml"),
    _kind(r"pyproject\.toml", "python", "a project's pyproject.toml", "pyproject"),
    _kind(r"pip\.(?:ini|conf)", "python", "a virtual environment's pip settings", "urls"),
    _kind(
        r"(?:[^\\/]*(?:requirements|constraints)[^\\/]*|requirements[\\/]+[^\\/]+)\.(?:txt|in)",
        "python",
        "a requirements file",
        "requirements",
    ),
    _kind(r"nuget\.config", "nuget", "a project's NuGet.Config", "values"),
    _kind(r"\.cargo[\\/]+config(?:\.toml)?", "cargo", "a project's .cargo\\config.toml", "toml"),
    _kind(r"\.condarc", "conda", "an environment's .condarc", "urls"),
)

# npm's and yarn's settings whose value is a program or code they run (as S-RULE-186 reads `npm config set`).
_PROGRAM_KEYS = frozenset({"script-shell", "shell", "node-options", "init-module", "yarn-path", "yarnpath"})
_INI_LINE = re.compile(r"^\s*([^=;#\s][^=]*?)\s*=\s*(.*?)\s*$", re.MULTILINE)
_YARN_LINE = re.compile(r"^\s*\"?([^\"\s#][^\"\s]*)\"?\s+\"?([^\"\n]*?)\"?\s*$", re.MULTILINE)
# Yarn's own release in the project (`yarnPath: .yarn/releases/yarn-4.1.0.cjs`, what `yarn set version` writes) is
# the project's code, as a package script's `node build.js` is; a yarn kept anywhere else replaces yarn itself.
_YAML_PROGRAM = re.compile(r"^\s*(yarnPath)\s*:\s*+[\"']?+([^\"'\n]*)", re.MULTILINE)
_OWN_YARN = re.compile(r"(?:\.[\\/])?\.yarn[\\/]+releases[\\/]+[^\\/]+")
# pip's options in a requirements file that name where every package of the file comes from; pip's option parser
# takes a long option by any prefix that names only it (`--extra-index`), a short one glued to its value (`-ihttp…`).
_INDEX_OPTIONS = ("--index-url", "--extra-index-url", "--find-links")
_OTHER_OPTIONS: tuple[str, ...] = ("--no-index", "--constraint", "--requirement", "--editable", "--no-binary")
_OTHER_OPTIONS += ("--only-binary", "--prefer-binary", "--require-hashes", "--pre", "--trusted-host", "--use-feature")
_OTHER_OPTIONS += ("--hash", "--global-option", "--config-settings")
_OPTION_LINE = re.compile(r"^\s*(-[if]|--[\w-]+)(?:\s*=\s*|\s+|(?<=-[if]))(\S+)", re.MULTILINE | re.IGNORECASE)
# YAML's and TOML's escapes in quoted text (`"http\x3a//…"`, `"\u0068ttp://…"`): read as the program reads them.
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")
_XML_VALUE = re.compile(r"\bvalue\s*=\s*[\"']([^\"']*)[\"']", re.IGNORECASE)
# `pyproject.toml`'s tables that say where packages come from: uv's settings and indexes, poetry's and pdm's sources.
_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_SOURCE_TABLES = re.compile(r"tool\.uv(?:\.index|\.pip)?|tool\.poetry\.source|tool\.pdm\.source", re.IGNORECASE)


def _kind_of(path: Value) -> _Kind | None:
    if not path:
        return None
    return next((k for k in _KINDS if k.name.search(path)), None)


def is_project_sources_file(path: Value) -> bool:
    """Whether `path` names a package manager's settings file of a project (module docstring), any case."""
    return _kind_of(path) is not None


def project_sources(path: Value, content: Value, *, read: bool = True) -> Effects:
    """What a write of `content` to `path` sets up for the next install: one `PERSISTENCE` per address or program it
    names, one for pnpm's hook file, one when the content was not read (`read=False`, or `content` None); nothing for
    another file or for settings that name only the manager's own registry."""
    kind = _kind_of(path)
    if kind is None:
        return ()
    if not read or content is None:
        detail = f"{kind.label} written with content the gateway did not read (it may name another package source)"
        return (effect(K.PERSISTENCE, path, detail),)
    if kind.reader == "code":
        return (effect(K.PERSISTENCE, path, kind.label),)
    found: list[Effect] = []
    for address in dict.fromkeys(foreign_addresses(_source_text(kind.reader, content), kind.family)):
        detail = f"{kind.label} naming another package source ({address}): the next install there fetches from it"
        found.append(effect(K.PERSISTENCE, path, detail))
    for key, value in _programs(kind.reader, content):
        detail = f"{kind.label} setting {key} (a program run at every install)"
        # What runs is judged now, as `npm config set` has it read (S-RULE-186); `node-options` holds options, not one.
        later = value and key.lower() != "node-options"
        found.append(effect(K.PERSISTENCE, path, detail, extra=((RUNS_LATER, value),) if later else ()))
    return tuple(found)


def _source_text(reader: str, content: str) -> str:
    """The part of a settings text that names sources (addresses in it are judged), by how the file is read."""
    if reader == "ini":
        return "\n".join(v for k, v in _INI_LINE.findall(content) if _registry_key(k))
    if reader == "yarn":
        return "\n".join(v for k, v in _YARN_LINE.findall(content) if _registry_key(k))
    if reader == "requirements":
        return "\n".join(_index_options(content))
    if reader == "values":
        return "\n".join(html.unescape(v) for v in _XML_VALUE.findall(content))  # `&#58;` is a `:` to NuGet
    if reader in ("toml", "pyproject"):
        try:
            data = tomllib.loads(content)
        except (tomllib.TOMLDecodeError, RecursionError):  # a fragment (`Add-Content`), a broken or absurdly deep file
            lines = _lines_in_source_tables(content) if reader == "pyproject" else content.splitlines()
            return _unescape("\n".join(lines))
        return json.dumps(_pyproject_sources(data) if reader == "pyproject" else data, ensure_ascii=False)
    return _unescape(content)  # "urls", "yaml": every address the file holds is where it fetches


def _registry_key(key: str) -> bool:
    """`registry`, a scope's `@corp:registry`; not an address's auth line (`//host/:_authToken`)."""
    key = key.strip().strip("\"'").lower()
    return key == "registry" or (key.endswith(":registry") and not key.startswith("//"))


def _index_options(content: str) -> list[str]:
    """The values of a requirements file's `-i`/`--index-url`, `--extra-index-url`, `-f`/`--find-links` lines."""
    values = []
    for option, value in _OPTION_LINE.findall(content):
        name = option.lower()
        named = [o for o in (*_INDEX_OPTIONS, *_OTHER_OPTIONS) if o.startswith(name)] if len(name) > 2 else []
        if name in ("-i", "-f") or name in _INDEX_OPTIONS or (len(named) == 1 and named[0] in _INDEX_OPTIONS):
            values.append(value)
    return values


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2) or m.group(3), 16)), text) if "\\" in text else text


def _pyproject_sources(data: dict[str, object]) -> list[object]:
    """`pyproject.toml`'s settings of where packages come from: `[tool.uv]` but its `sources` and dependency lists,
    `[[tool.poetry.source]]`, `[[tool.pdm.source]]`."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return []
    picked: list[object] = []
    uv = tool.get("uv")
    if isinstance(uv, dict):
        picked.append({k: v for k, v in uv.items() if k != "sources" and "dependencies" not in k})
    for name in ("poetry", "pdm"):
        section = tool.get(name)
        if isinstance(section, dict):
            picked.append(section.get("source"))
    return picked


def _lines_in_source_tables(content: str) -> list[str]:
    inside, lines = False, []
    for line in content.splitlines():
        table = _TABLE.match(line)
        if table is not None:
            inside = _SOURCE_TABLES.fullmatch(table.group(1)) is not None
        elif inside:
            lines.append(line)
    return lines


def _programs(reader: str, content: str) -> list[tuple[str, str]]:
    """The program settings npm or yarn run from this file, as (key, value); value empty where none is shown."""
    if reader == "ini":
        return [
            (k.strip(), v.strip("\"'")) for k, v in _INI_LINE.findall(content) if k.strip().lower() in _PROGRAM_KEYS
        ]
    if reader == "yarn":
        return [(k, v) for k, v in _YARN_LINE.findall(content) if k.lower() in _PROGRAM_KEYS]
    if reader == "yaml":
        paths = ((m.group(1), m.group(2).strip()) for m in _YAML_PROGRAM.finditer(content))
        return [(k, v) for k, v in paths if ".." in v or _OWN_YARN.fullmatch(v) is None]
    return []
