"""A password prompt a command shows the person (S-RULE-42), and a blank escaped in a bare word (S-RULE-43)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from policy.rules.shell.dispatch import analyse_tool
from tests._requirements import requirement

RULES = load_rules()


def _hit(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-42")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Get-Credential", ("credential-prompt-command", "ask")),
        ("$c = Get-Credential -UserName me; Enter-PSSession srv -Credential $c", ("credential-prompt-command", "ask")),
        ("& ('Get-'+'Credential') -Message 'Windows needs your password'", ("credential-prompt-command", "ask")),
        ("$n='Get-Credential'; & $n", ("credential-prompt-command", "ask")),
        (
            "$Host.UI.PromptForCredential('Windows Security','Enter your password','','')",
            ("credential-prompt-command", "ask"),
        ),
        ("[Windows.Forms.Form]::x; CredUIPromptForWindowsCredentialsW", ("credential-prompt-command", "ask")),
        ('Write-Output "Get-Credential is a cmdlet"', None),
        ("Get-Help Get-Credential", None),
        ("Get-Command Get-Credential", None),
        ("Get-CredentialManager", None),
        ("Get-Date", None),
    ],
    ids=[
        "bare",
        "then-used",
        "built-name",
        "name-in-variable",
        "host-ui",
        "credui-by-name",
        "printed",
        "help",
        "command-lookup",
        "longer-name",
        "unrelated",
    ],
)
def test_a_command_that_asks_the_person_for_a_password_asks(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-42: showing the person a password prompt whose answer the command receives is a person's call;
    naming the cmdlet without running it is not."""
    assert _hit(command) == expected


def _args_of(command: str) -> list[tuple[str, ...]]:
    return [op.args for op in analyse_tool("PowerShell", {"command": command}).operations]


@requirement("S-RULE-43")
@pytest.mark.parametrize(
    ("command", "args"),
    [
        (r"Remove-Item C:\Program` Files\x", ("C:\\Program Files\\x",)),
        ("Get-Item a`\tb", ("a\tb",)),
        (r"Get-Item C:\a` b` c", ("C:\\a b c",)),
        ("Write-Output a`` b", ("a`", "b")),
        ("Write-Output a`  b", ("a ", "b")),
        ("Write-Output a ` b", ("a", " b")),
    ],
    ids=["space", "tab", "two-escapes", "escaped-backtick", "then-a-real-blank", "leading-escape"],
)
def test_a_backtick_before_one_blank_keeps_the_blank_in_the_word(command: str, args: tuple[str, ...]) -> None:
    """S-RULE-43: an odd run of backticks escapes the one blank after it (one argument); an even run is a literal
    backtick, and a second blank separates as usual."""
    assert _args_of(command) == [args]


@requirement("S-RULE-43")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Remove-Item C:\Program` Files\Vendor -Recurse -Force", ("protected-place-delete", "deny")),
        (
            r"Set-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Control\Terminal` Server -Name fDenyTSConnections "
            "-Value 0",
            ("security-weakening", "deny"),
        ),
        (r"Get-ChildItem C:\Program` Files", None),
    ],
    ids=["delete-program-files", "switch-rdp-on", "list-program-files"],
)
def test_an_escaped_blank_names_the_place_it_spells(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-43: the joined word is judged as the path it names (Program Files, the Terminal Server key)."""
    assert _hit(command) == expected
