"""App `launch` by a name Windows-MCP finds by fuzzy match (S-RULE-64).

Windows-MCP 0.8.8 looks the name up in the Start menu with fuzzywuzzy's `extractOne` (WRatio, cut-off
70): `Comand Promt` starts the Command Prompt. The rules score names the same way against the shells'
Start-menu names and a set of common apps; a name whose best match is a shell is refused like `cmd`.
"""

from __future__ import annotations

import pytest

from policy.rules.args import _COMMON_APPS, fuzzy_shell
from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


def verdict(name: str) -> tuple[str, str] | None:
    hit = RULES.match("App", {"mode": "launch", "name": name})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-64")
@pytest.mark.parametrize(
    "name",
    ["Comand Prompt", "command promt", "Powershel", "windows powershel", "Terminl", "ubuntu 22.04", "cmd prompt",
     "power shell", "Anaconda", "python", "Git-Bash"],
)  # fmt: skip
def test_a_misspelt_shell_name_is_refused_like_the_shell(name: str) -> None:
    """S-RULE-64: the name upstream's fuzzy lookup would resolve to a shell is `app-launch-interpreter`."""
    assert fuzzy_shell(name)
    assert verdict(name) == ("app-launch-interpreter", "deny")


@requirement("S-RULE-64")
@pytest.mark.parametrize("name", [*_COMMON_APPS, "Code", "notepd", "calc", "Chrome", "Windws Security"])
def test_an_ordinary_app_or_its_misspelling_launches(name: str) -> None:
    """S-RULE-64: a name closer to an ordinary app than to any shell is that app (Windows Security is not
    the Windows Subsystem for Linux, Teams is not Terminal); an administration console (S-RULE-154) or a
    remote-control program (Quick Assist, S-RULE-169) among them asks, never as a shell."""
    assert not fuzzy_shell(name)
    assert verdict(name) in (None, ("admin-console", "ask"), ("remote-control", "ask"))
