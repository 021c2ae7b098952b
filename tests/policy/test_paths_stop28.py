"""Two spellings that escaped protection, found by mutation testing (S-RULE-17, S-SELF-05)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from policy.rules.paths import canonical_path
from tests._requirements import requirement

AD = "Application Data\\"


@requirement("S-RULE-17")
@pytest.mark.parametrize("repeats", [1, 4, 5, 9])
def test_application_data_loops_back_any_number_of_times(repeats: int) -> None:
    """S-RULE-17: `C:\\ProgramData\\Application Data` is a junction to ProgramData itself, so Windows follows
    any number of them; five or more once left the common Startup folder unprotected."""
    path = "C:\\ProgramData\\" + AD * repeats + "Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.bat"
    assert canonical_path(path) == "c:\\programdata\\microsoft\\windows\\start menu\\programs\\startup\\x.bat"
    hit = load_rules().match("FileSystem", {"mode": "write", "path": path, "content": "calc"})
    assert hit is not None and hit.rule_id == "persistence-autostart"


@requirement("S-RULE-17", "S-SELF-05")
@pytest.mark.parametrize(
    "path",
    [
        "\\\\localhost\\admin$\\..\\System32\\drivers\\etc\\hosts",
        "\\\\127.0.0.1\\ADMIN$\\..\\..\\System32\\drivers\\etc\\hosts",
        "\\\\localhost\\admin$\\System32\\..\\System32\\drivers\\etc\\hosts",
    ],
)
def test_dot_dot_stops_at_the_admin_share_root(path: str) -> None:
    """S-RULE-17: Windows stops `..` at a share's root, and ADMIN$ is C:\\Windows: `..` right after it stays there
    (it once climbed to C:\\ and left the hosts file unprotected)."""
    assert canonical_path(path) == "c:\\windows\\system32\\drivers\\etc\\hosts"
    hit = load_rules().match("FileSystem", {"mode": "write", "path": path, "content": "1.2.3.4 bank"})
    assert hit is not None and hit.rule_id == "protected-place-write"
