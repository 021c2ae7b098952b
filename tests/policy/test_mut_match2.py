"""The views rules read and the needles that prefilter them, in more detail (S-RULE-08, -09, -21, -24); found by
mutation testing.

A class escape (`\\S`) in a custom pattern is normal form wherever it stands; a command of exactly
`MAX_COMMAND_CHARS` is still inspected; a PowerShell call without a command has no view; a tool the
built-ins do not read is viewed as `key=value` of all its arguments; custom rules read the command as
written (printed text included), not the rendered operations; a pattern compiled with `re.VERBOSE` has
the needles the regex reads; among needle groups of equal length the one with fewer strings is the
stronger; `exempted_by` reports an exempted regex rule.
"""

from __future__ import annotations

import base64
import re

import pytest

from policy.rules.builtin import MAX_COMMAND_CHARS
from policy.rules.match import load_rules, normal_form_problem, required_literals, tool_views
from tests._requirements import requirement


# First in the file, in this order: a scan that stops moving over the pattern never returns, and the tests below load
# custom rules, which scan their patterns too.
@requirement("S-RULE-08")
@pytest.mark.parametrize("pattern", [r"\S", r"\S+x", r"x\S+"], ids=["escape-only", "escape-first", "escape-second"])
def test_a_character_class_escape_is_normal_form_wherever_it_stands(pattern: str) -> None:
    """S-RULE-08: `\\S` is a class, not an upper-case letter, at the start, after a letter or before one; the letter
    after an escape is read with it, once."""
    assert normal_form_problem(pattern) is None


@requirement("S-RULE-21")
def test_a_command_of_exactly_the_limit_is_inspected() -> None:
    """S-RULE-21: only a command *over* MAX_COMMAND_CHARS is `uninspectable-command`; one of exactly that length
    is read, and its view is the command (custom rules search it)."""
    command = "Write-Output '" + "a" * (MAX_COMMAND_CHARS - 15) + "'"
    assert len(command) == MAX_COMMAND_CHARS
    assert tool_views("PowerShell", {"command": command}) == ("write-output " + "a" * (MAX_COMMAND_CHARS - 15),)
    assert load_rules().match("PowerShell", {"command": command}) is None
    hit = load_rules().match("PowerShell", {"command": command + " "})
    assert hit is not None and (hit.rule_id, hit.action) == ("uninspectable-command", "deny")


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("tool", "args", "views"),
    [
        ("PowerShell", {}, ()),
        ("Clipboard", {"mode": "set", "text": "Rd /S C:\\x"}, ("mode=set text=rd /s c:/x",)),
    ],
    ids=["powershell-without-command", "tool-the-builtins-do-not-read"],
)
def test_the_views_of_a_call(tool: str, args: dict[str, object], views: tuple[str, ...]) -> None:
    """S-RULE-08: no command, no text to search; any other tool is `key=value` of every argument, folded."""
    assert tool_views(tool, args) == views


@requirement("S-RULE-08")
def test_a_custom_rule_on_a_tool_the_builtins_do_not_read_hits() -> None:
    """S-RULE-08: `tools = ["Clipboard"]` and a pattern over its `key=value` view."""
    rules = load_rules(custom=[{"id": "clip-rd", "pattern": "text=rd /s", "risk": "data-loss", "reason": "No."}])
    assert rules.match("Clipboard", {"mode": "set", "text": "rd /s /q C:\\x"}) is None  # default tools
    rules = load_rules(
        custom=[
            {"id": "clip-rd", "pattern": "text=rd /s", "risk": "data-loss", "reason": "No.", "tools": ["Clipboard"]}
        ]
    )
    hit = rules.match("Clipboard", {"mode": "set", "text": "rd /s /q C:\\x"})
    assert hit is not None and (hit.rule_id, hit.action) == ("clip-rd", "deny")


@requirement("S-RULE-08")
def test_a_custom_rule_reads_the_command_as_written() -> None:
    """S-RULE-08: a custom pattern is written against the command as spelled; a name only printed still hits it
    (the built-in patterns, which read the resolved operations, do not see printed text)."""
    rules = load_rules(custom=[{"id": "prod-db", "pattern": "prod-db", "risk": "data-loss", "reason": "No prod."}])
    hit = rules.match("PowerShell", {"command": "Write-Output prod-db"})
    assert hit is not None and (hit.rule_id, hit.action, hit.reason) == ("prod-db", "deny", "No prod.")


@requirement("S-RULE-24")
@pytest.mark.parametrize(
    ("pattern", "needles"),
    [
        (re.compile("rm -rf  # verbose: blanks are not literals", re.VERBOSE), (("rm-rf",),)),
        (re.compile("(?:xy|zw)-(?:pq|rs|tu)"), (("xy", "zw"), ("pq", "rs", "tu"), ("-",))),
    ],
    ids=["verbose-flag", "fewer-strings-first"],
)
def test_needles_are_read_as_the_regex_reads_the_pattern(
    pattern: re.Pattern[str], needles: tuple[tuple[str, ...], ...]
) -> None:
    """S-RULE-24: a pattern compiled with `re.VERBOSE` matches `rm-rf`, so its needle is `rm-rf`, not `rm -rf`;
    of two groups whose shortest needle is as long, the one with fewer strings (a stronger filter) comes first."""
    assert required_literals(pattern) == needles
    if pattern.flags & re.VERBOSE:
        assert pattern.search("rm-rf c:/x")


@requirement("S-RULE-09")
def test_an_exempted_regex_rule_is_reported_for_the_audit() -> None:
    """S-RULE-09: `allow_rules = ["encoded-command"]` lets an encoded command through, and says it did."""
    encoded = base64.b64encode("Get-Date".encode("utf-16le")).decode()
    rules = load_rules(allow_rules=["encoded-command"])
    args = {"command": f"powershell -EncodedCommand {encoded}"}
    assert rules.match("PowerShell", args) is None
    assert rules.exempted_by("PowerShell", args) == ("encoded-command",)
