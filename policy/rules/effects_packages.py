"""Package managers told to fetch from an address someone named (issue 18, S-RULE-166).

Installing a package runs its code: pip builds a source package by running its `setup.py`, npm runs a
package's install scripts, `npx`/`uvx` run the package they fetch, an MSIX or App Installer file installs
an app, a winget manifest names its own installer. From the manager's own public registry, by name, that
is everyday work (`pip install requests`, `npx create-vite`): ordinary. From an address the command names
instead (a URL, a `git+` repository, another machine's share, npm's `user/repo` GitHub shorthand) or
from a source registered for later installs (`--index-url`, `npm config set registry`, `choco source
add`, `Register-PSRepository -SourceLocation`), it downloads code nobody reviewed and runs it, as
`msiexec /i http://…` does: `DOWNLOAD_EXECUTE` (judge row `download-execute`), the address its target.

Which words say where code comes from depends on the manager: an installer's every word up to `--`
(`pip install x -i URL`); a runner's words up to the package it runs, since what follows is that
package's own arguments (`npx serve https://example.com` names no source); a manager that also runs
programs or scripts (`dotnet app.dll`, `bun run x.ts`, `cargo run`) only in its install verbs. A URL whose
host is the manager's own registry (`--index-url https://pypi.org/simple`) is where names come from
anyway. A config file that names sources, written by other means (`pip.ini`, `.condarc`), is a place of its own
(`package-sources`, S-RULE-186); a project's own (a repository's `.npmrc`, a virtual environment's `pip.ini`, a
requirements file's `--index-url`) is judged by what it says when it is written (`effects_project_sources`,
S-RULE-211). What is not read: a lock file's content, a package name that only resembles a popular one
(typosquatting).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from policy.rules.effects_common import (
    RUNS_LATER,
    Argv,
    Effects,
    Handler,
    argv_of,
    bind,
    effect,
    lower,
    program_stem,
    unquote,
)
from policy.rules.effects_remote_control import remote_control
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind

# A URL, a VCS requirement (`git+https://…`), a scp-style git remote, anywhere in a word (`--index-url=…`,
# `name @ https://…`, `-s"https://…"`).
_ADDRESS = re.compile(
    r"(?:(?:git|hg|svn|bzr)\+)?(?:https?|ftp|sftp|ssh|git|file)://[^\s'\",;]+|git@[\w.-]+:[^\s'\",;]+", re.IGNORECASE
)
# Another machine's share, a whole word or an option's value (`--source=\\host\pkgs`).
_SHARE = re.compile(r"(?:^|=)((?:\\\\|//)[^\\/\s]+[\\/][^\s'\"]*)")
# npm's hosted-git shortcuts, and its `user/repo` GitHub shorthand (a name with one `/`, not a scope or a path).
_HOSTED = re.compile(r"^(?:github|gitlab|bitbucket|gist):\S+", re.IGNORECASE)
_GITHUB_SHORTHAND = re.compile(r"^[a-z0-9][\w.-]*/[\w.-]+(?:#\S*)?$", re.IGNORECASE)

# The public registries plain names come from, by the family of managers that reads them.
_OWN_REGISTRIES: Mapping[str, frozenset[str]] = {
    "python": frozenset({"pypi.org", "files.pythonhosted.org", "pypi.python.org"}),
    "node": frozenset({"registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com"}),
    "deno": frozenset({"deno.land", "jsr.io"}),
    "choco": frozenset({"community.chocolatey.org", "chocolatey.org"}),
    "nuget": frozenset({"api.nuget.org", "www.nuget.org", "nuget.org"}),
    "powershell": frozenset(
        {"www.powershellgallery.com", "powershellgallery.com", "api.nuget.org", "www.nuget.org", "nuget.org"}
    ),
    "ruby": frozenset({"rubygems.org", "index.rubygems.org"}),
    "cargo": frozenset({"crates.io", "index.crates.io", "static.crates.io"}),
    "conda": frozenset({"conda.anaconda.org", "repo.anaconda.com"}),
    "winget": frozenset({"cdn.winget.microsoft.com"}),
    "none": frozenset(),
}


@dataclass(frozen=True, slots=True)
class _Manager:
    """How one package manager's words are read.

    Attributes:
        family: whose public registry its plain names come from (`_OWN_REGISTRIES`).
        installs: the verbs whose every word (up to `--`) may name a source; None: every verb not in `runs`.
        runs: verbs followed by a package or script it runs with arguments of its own (words up to it).
        runner: the program itself runs a package (`npx`, `uvx`): its words up to the package.
        shorthand: npm's `user/repo` and `github:` names fetch from GitHub.
        valued: its options that take a value (the value is not the package).
    """

    family: str
    installs: frozenset[str] | None = None
    runs: frozenset[str] = frozenset()
    runner: bool = False
    shorthand: bool = False
    valued: frozenset[str] = frozenset()


_NPM_VALUED = frozenset(
    {"registry", "prefix", "cache", "userconfig", "globalconfig", "w", "workspace", "tag", "otp", "c", "call",
     "p", "package", "dir", "filter", "cwd", "omit", "include", "save-prefix", "loglevel", "script-shell"}
)  # fmt: skip
_UV_VALUED = frozenset(
    {"from", "with", "with-requirements", "with-editable", "python", "p", "index", "index-url", "extra-index-url",
     "default-index", "find-links", "f", "directory", "project", "cache-dir", "config-file"}
)  # fmt: skip
_NPM_INSTALLS = frozenset(
    {"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "update",
     "up", "upgrade", "ci", "config", "set", "c", "link", "global"}
)  # fmt: skip
_PYTHON = _Manager("python")
_NPM = _Manager(
    "node", installs=_NPM_INSTALLS, runs=frozenset({"exec", "x", "dlx"}), shorthand=True, valued=_NPM_VALUED
)

MANAGERS: Mapping[str, _Manager] = {
    **dict.fromkeys(("pip", "pip3", *(f"pip3.{minor}" for minor in range(6, 16))), _PYTHON),
    "pipx": _Manager("python", runs=frozenset({"run"}), valued=_UV_VALUED | {"spec", "pip-args"}),
    "uv": _Manager("python", runs=frozenset({"run", "tool run"}), valued=_UV_VALUED),
    "uvx": _Manager("python", runner=True, valued=_UV_VALUED),
    **dict.fromkeys(("npm", "pnpm", "yarn"), _NPM),
    **dict.fromkeys(("npx", "pnpx", "bunx"), _Manager("node", runner=True, shorthand=True, valued=_NPM_VALUED)),
    "bun": _Manager(
        "node",
        installs=frozenset({"add", "a", "install", "i", "update", "link"}),
        runs=frozenset({"x"}),
        shorthand=True,
    ),
    "deno": _Manager("deno", installs=frozenset({"add", "cache"}), runs=frozenset({"run", "x", "install", "compile"})),
    **dict.fromkeys(("choco", "cinst", "chocolatey"), _Manager("choco")),
    "scoop": _Manager("none"),
    "winget": _Manager("winget"),
    "dotnet": _Manager("nuget", installs=frozenset({"tool", "add", "restore", "nuget", "new", "workload"})),
    "gem": _Manager("ruby"),
    "cargo": _Manager("cargo", installs=frozenset({"install", "add"})),
    **dict.fromkeys(
        ("conda", "mamba", "micromamba"),
        _Manager("conda", installs=frozenset({"install", "create", "update", "upgrade", "config", "env"})),
    ),
}
_APP_MANAGERS = frozenset({"winget", "choco", "cinst", "chocolatey", "scoop"})  # they install desktop programs
PYTHON_MANAGERS = frozenset({"pip", "pip3", "pipx", "uv"})  # run as modules too: `python -m pip install …`


def _flag(word: str) -> str | None:
    """The name of an option word (`--index-url=x` → `index-url`), or None for a plain word."""
    if len(word) < 2 or word[0] != "-" or word == "--":
        return None
    return word.lstrip("-").split("=", 1)[0].lower()


def _source_words(manager: _Manager, words: Sequence[Value]) -> tuple[list[Value], list[str]]:
    """The words that may name where code comes from, and the packages named by shorthand-capable positions."""
    items = list(words)
    if "--" in items:
        items = items[: items.index("--")]
    if manager.runner:
        return _up_to_package(manager, items)
    verb_at = _first_positional(manager, items, 0)
    if verb_at is None:
        return items, []
    verb = lower(items[verb_at])
    if verb == "tool" and verb_at + 1 < len(items) and lower(items[verb_at + 1]) == "run":  # `uv tool run`
        verb, verb_at = "tool run", verb_at + 1
    if verb in manager.runs:
        before, packages = _up_to_package(manager, items[verb_at + 1 :])
        return items[: verb_at + 1] + before, packages
    if manager.installs is None or verb in manager.installs:
        rest = items[verb_at + 1 :]
        positionals = [unquote(w) for i, w in enumerate(rest) if w is not None and _is_positional(manager, rest, i)]
        return items, positionals
    if manager.runs and manager.family == "deno" and verb not in manager.installs:
        return _up_to_package(manager, items[verb_at:])  # `deno https://…/x.ts`: run is the default verb
    return items[:verb_at], []  # `dotnet app.dll https://…`: what it runs gets the rest


def _is_positional(manager: _Manager, words: Sequence[Value], index: int) -> bool:
    word = words[index]
    if word is None or _flag(unquote(word)) is not None:
        return False
    if index == 0:
        return True
    before = words[index - 1]
    name = _flag(unquote(before)) if before is not None else None
    return not (name is not None and "=" not in unquote(before or "") and name in manager.valued)


def _first_positional(manager: _Manager, words: Sequence[Value], start: int) -> int | None:
    for index in range(start, len(words)):
        if _is_positional(manager, words, index):
            return index
    return None


def _up_to_package(manager: _Manager, words: list[Value]) -> tuple[list[Value], list[str]]:
    at = _first_positional(manager, words, 0)
    before = words if at is None else words[: at + 1]
    # `npx -p user/repo cmd`: a package named by option is fetched as the positional one is.
    packages = [
        unquote(value)
        for index, value in enumerate(before[1:], 1)
        if value is not None and _flag(unquote(before[index - 1] or "")) in ("p", "package")
    ]
    packages += [
        unquote(v.split("=", 1)[1]) for v in before if v is not None and _flag(unquote(v)) == "package" and "=" in v
    ]
    if at is not None and words[at] is not None:
        packages.append(unquote(words[at]))
    return before, packages


def foreign_addresses(text: str, family: str) -> list[str]:
    """The addresses in `text` that are not the public registry of `family` (`_OWN_REGISTRIES`) nor a local file,
    in the order written: where a manager of that family would fetch code nobody reviewed."""
    own = _OWN_REGISTRIES[family]
    return [a for a in _addresses(text) if not _local_file(a) and _host(a) not in own]


def _addresses(word: str) -> list[str]:
    found = [m.group(0) for m in _ADDRESS.finditer(word)]
    found += [m.group(1) for m in _SHARE.finditer(word)]
    return found


def _local_file(address: str) -> bool:
    """A `file:` URL of this machine (`file:///C:/wheels/x.whl`): no download."""
    return address.lower().startswith("file:") and _host(address) in (None, "localhost")


def _host(address: str) -> str | None:
    """The host a URL names, lower case (`git+https://…` too); None for a share, an scp-style remote or a bad URL."""
    try:
        return urlsplit(address).hostname if "://" in address else None
    except ValueError:  # `https://[::1/x`: an address Python cannot split names no registry of ours
        return None


def package_sources(name: str, words: Sequence[Value]) -> Effects:
    """What a package manager's words fetch and run from an address the command names (module docstring).

    Args:
        name: the manager's program stem (`pip`, `npx`, `choco`, …); any other name gives nothing.
        words: its arguments (None: a word that is not constant).

    Returns:
        One `DOWNLOAD_EXECUTE` per address that is not the manager's own registry, in the order written.
    """
    manager = MANAGERS.get(name)
    if manager is None:
        return ()
    scanned, packages = _source_words(manager, words)
    own = _OWN_REGISTRIES[manager.family]
    out: list[Effect] = []
    for word in scanned:
        if word is None:
            continue
        for address in _addresses(unquote(word)):
            if not _local_file(address) and _host(address) not in own:
                out.append(effect(K.DOWNLOAD_EXECUTE, address, f"{name} fetching from {address}"))
    if manager.shorthand:
        for package in packages:
            if _HOSTED.match(package) or _GITHUB_SHORTHAND.match(package):
                out.append(effect(K.DOWNLOAD_EXECUTE, package, f"{name} fetching {package} from GitHub"))
    verb_at = _first_positional(manager, words, 0)
    if name in _APP_MANAGERS and verb_at is not None and lower(words[verb_at]) in ("install", "add"):
        # `winget install AnyDesk.AnyDesk`: a remote-control program installed by name (S-RULE-169).
        out += remote_control(packages, f"{name} installing a remote-control program")
    out += _node_program_settings(name, words)
    if name == "winget":
        manifests = Argv(tuple(words)).values("m", "manifest")
        # A manifest names its own installer's address, outside the community repository's review.
        out += [effect(K.DOWNLOAD_EXECUTE, m, "winget install from a manifest") for m in manifests]
    return tuple(out)


# npm, pnpm and yarn settings whose value is a program or code they run later (S-RULE-186): `script-shell` runs
# every package script (`npm install` runs them), `node-options` (`--require x.js`) every node they start,
# `init-module` at `npm init`, yarn's `yarnPath` is run as yarn itself.
_NODE_PROGRAM_SETTINGS = frozenset({"script-shell", "shell", "node-options", "init-module", "editor"})
_NODE_PROGRAM_SETTINGS |= {"yarn-path", "yarnpath", "browser"}


def _node_program_settings(name: str, words: Sequence[Value]) -> Effects:
    """`npm config set script-shell C:\\t\\x.exe`, `npm set key=value`, `yarn config set yarnPath x.js`."""
    if name not in ("npm", "pnpm", "yarn"):
        return ()
    positional = [w for w in words if w is None or not w.startswith("-")]
    texts = [lower(w) for w in positional]
    if texts[:2] == ["config", "set"]:
        rest = positional[2:]
    elif texts[:1] == ["set"]:
        rest = positional[1:]
    else:
        return ()
    if not rest:
        return ()
    key, _, value = (rest[0] or "").partition("=")
    if rest[0] is None or lower(key) in _NODE_PROGRAM_SETTINGS:
        shown = value or (rest[1] if len(rest) > 1 else None)
        extra = ((RUNS_LATER, shown),) if shown and lower(key) != "node-options" else ()
        return (effect(K.PERSISTENCE, key or None, f"{name} config set {key}", data=shown, extra=extra),)
    return ()


def _program(op: Operation) -> Effects:
    return package_sources(program_stem(op.name), argv_of(op).words)  # `npm.cmd`: npm's own launcher on Windows


def _cmdlet_sources(detail: str, *parameters: str) -> Handler:
    """A cmdlet whose parameters name a package or a source (`Add-AppxPackage -Path https://…`)."""

    def handler(op: Operation) -> Effects:
        bound = bind(op, parameters[:1])
        out: list[Effect] = []
        own = _OWN_REGISTRIES["powershell"]
        for parameter in parameters:
            value = bound.get(parameter)
            for address in _addresses(unquote(value)) if value is not None else ():
                if not _local_file(address) and _host(address) not in own:
                    out.append(effect(K.DOWNLOAD_EXECUTE, address, f"{detail} from {address}"))
        return tuple(out)

    return handler


_APPX = _cmdlet_sources("Add-AppxPackage", "path", "appinstallerfile", "dependencypath", "relatedpackages")
PACKAGE_CMDLETS: Mapping[str, Handler] = {
    "add-appxpackage": _APPX,
    "add-apppackage": _APPX,
    "add-appxprovisionedpackage": _cmdlet_sources("Add-AppxProvisionedPackage", "packagepath", "folderpath"),
    "install-package": _cmdlet_sources("Install-Package", "name", "source"),
    **dict.fromkeys(
        ("register-psrepository", "set-psrepository"),
        _cmdlet_sources("a PowerShell repository", "sourcelocation", "scriptsourcelocation"),
    ),
    **dict.fromkeys(
        ("register-packagesource", "set-packagesource"), _cmdlet_sources("a package source", "location", "newlocation")
    ),
    **dict.fromkeys(
        ("register-psresourcerepository", "set-psresourcerepository"), _cmdlet_sources("a PSResource repository", "uri")
    ),
}
PACKAGE_PROGRAMS: Mapping[str, Handler] = dict.fromkeys(
    (name for name in MANAGERS if name not in ("deno", "bun")), _program
)  # deno and bun are interpreters too (effects_process `_interpreter` asks `package_sources` for them)

# `ms-appinstaller:?source=https://…` installs the App Installer file it names (a malware route Microsoft turned
# off by default in 2023; a policy or a registry value turns it back on).
_APPINSTALLER_URI = re.compile(r"^ms-appinstaller:.*?\bsource=([^&\s'\"]+)", re.IGNORECASE)


def appinstaller_uri(target: Value) -> Effects:
    """The App Installer URI started as a program or opened (`start ms-appinstaller:?source=…`), else nothing."""
    match = _APPINSTALLER_URI.match(unquote(target))
    if match is None:
        return ()
    return (effect(K.DOWNLOAD_EXECUTE, match.group(1), "ms-appinstaller: URI"),)
