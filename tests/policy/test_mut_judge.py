"""The effect table's reasons and tie-breaks, in detail (S-RULE-07, -10, -19); found by mutation testing.

A reason names what the analyser said the act was (or the effect's kind when it said nothing), the
registry value it touches (or "the key's values" for a whole key), and the target cut to 120 characters
with its white space folded. A wildcard value name in the Environment key is the gateway's own setting
when the text before its first wildcard could start `WINMCP_GATEWAY_`; a `?` in a registry key cuts it
like `*` does. Among several effects hitting the same row, the first effect names the refusal. A path
ending in a wildcard is in the places its items are in (`System32\\config\\*` holds the SAM hive), not
only in its folder's.
"""

from __future__ import annotations

import pytest

from policy.rules.judge import judge, judge_all
from policy.rules.match import load_rules
from policy.rules.shell.ops import Effect, EffectKind
from tests._requirements import requirement

K = EffectKind
_ENV = "HKCU\\Environment"
_USER_ENV = "the user's persistent environment variables"
_RECURSIVE = (
    "Recursive delete ({}) can destroy a whole directory tree irreversibly. "
    "Instead, list what is there with `Get-ChildItem -Recurse` and ask the user to delete it."
)
_OWN_SETTING = (
    "The call would change the gateway's own settings ({} in " + _USER_ENV + "): WINMCP_GATEWAY_* variables "
    "configure the gateway at its next start and are off limits to the agent. Instead, read the current values "
    "with `Get-ChildItem Env:` and ask the user to change settings."
)
_ENV_CHANGE = (
    "This changes a persistent environment variable ({} in " + _USER_ENV + ") that every program started "
    "later inherits; a person must approve it. Instead, read the current values with `Get-ChildItem Env:`."
)


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("detail", "shown"),
    [("Stop-Computer", "Stop-Computer"), ("", "power")],
    ids=["analyser-detail", "no-detail-names-the-kind"],
)
def test_a_reason_names_the_act_as_the_analyser_described_it(detail: str, shown: str) -> None:
    """S-RULE-19: `{detail}` is the analyser's phrase; an effect without one is named by its kind."""
    hit = judge(Effect(K.POWER, "this computer", detail))
    assert hit is not None and hit.rule_id == "shutdown-restart" and hit.action == "deny"
    assert hit.reason == (
        f"Shutting down, restarting or logging off ({shown}) ends the user's session and loses unsaved work. "
        "Instead, ask the user to do this themselves."
    )


@requirement("S-RULE-10", "S-RULE-19")
@pytest.mark.parametrize(
    ("effect", "rule_id", "reason"),
    [
        (
            Effect(K.REGISTRY_SET, _ENV, "Set-ItemProperty", value_name="JAVA_HOME", data="C:\\jdk"),
            "environment-change",
            _ENV_CHANGE.format("JAVA_HOME"),
        ),
        (Effect(K.REGISTRY_DELETE, _ENV, "Remove-Item"), "self-protection", _OWN_SETTING.format("the key's values")),
    ],
    ids=["one-value", "whole-key"],
)
def test_a_reason_names_the_registry_value_or_the_whole_key(effect: Effect, rule_id: str, reason: str) -> None:
    """S-RULE-19: `{value}` is the value name the call touches; deleting the whole key touches all its values
    (the gateway's WINMCP_GATEWAY_* among them, so it is self-protection)."""
    hit = judge(effect)
    assert hit is not None and (hit.rule_id, hit.reason) == (rule_id, reason)


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    ("name", "rule_id", "reason"),
    [
        ("*", "self-protection", _OWN_SETTING.format("*")),
        ("WINMCP*ENFORCE*", "self-protection", _OWN_SETTING.format("WINMCP*ENFORCE*")),
        ("WINMCP_GATEWAY_E*", "self-protection", _OWN_SETTING.format("WINMCP_GATEWAY_E*")),
        ("Path*", "environment-change", _ENV_CHANGE.format("Path*")),
    ],
    ids=["every-value", "wildcards-inside-the-name", "prefix-longer-than-the-gateway-s", "another-variable"],
)
def test_a_wildcard_value_name_is_the_gateway_s_when_it_can_match_its_variables(
    name: str, rule_id: str, reason: str
) -> None:
    """S-RULE-10: `Remove-ItemProperty HKCU:\\Environment -Name <glob>` removes every value the glob matches;
    the text before the glob's first wildcard decides (`*` matches WINMCP_GATEWAY_ENFORCE, `WINMCP*ENFORCE*`
    does too, `Path*` cannot)."""
    hit = judge(Effect(K.REGISTRY_DELETE, _ENV, "Remove-ItemProperty", value_name=name))
    assert hit is not None and (hit.rule_id, hit.reason) == (rule_id, reason)


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("D:\\Old Data\\x", "d:\\old data\\x"),
        ("D:\\" + "a" * 117, "d:\\" + "a" * 117),  # 120 characters: shown whole
        ("D:\\" + "a" * 118, "d:\\" + "a" * 116 + "…"),  # 121: cut to 119 and an ellipsis
    ],
    ids=["space-kept", "120-whole", "121-cut"],
)
def test_a_target_is_shown_up_to_120_characters(path: str, shown: str) -> None:
    """S-RULE-19: the reason shows the canonical target with single spaces, at most 120 characters."""
    hit = judge(Effect(K.DELETE_RECURSIVE, path, "Remove-Item -Recurse"))
    assert hit is not None and hit.reason == _RECURSIVE.format(shown)


@requirement("S-RULE-05", "S-RULE-19")
def test_a_question_mark_in_a_key_deletes_every_key_it_matches() -> None:
    """S-RULE-19: `Remove-Item HKCU:\\Software\\Vendo?\\App` reaches every `Software\\<5 letters>\\App`: like
    `*`, a `?` makes the key as broad as the part before it (here the whole of `HKCU\\Software`)."""
    hit = judge(Effect(K.REGISTRY_DELETE, "HKCU:\\Software\\Vendo?\\App", "Remove-Item"))
    assert hit is not None and (hit.rule_id, hit.action) == ("registry-delete-top-key", "deny")
    assert judge(Effect(K.REGISTRY_DELETE, "HKCU:\\Software\\Vendor\\App", "Remove-Item")) is None


@requirement("S-RULE-07", "S-RULE-19")
@pytest.mark.parametrize(
    ("effects", "rule_id", "start"),
    [
        (
            [Effect(K.DELETE_RECURSIVE, "D:\\old", "rd /s"), Effect(K.DELETE_RECURSIVE, "D:\\new", "rd /s")],
            "recursive-delete",
            "Recursive delete (d:\\old)",
        ),
        (
            [Effect(K.KILL_FORCED, "notepad.exe", "taskkill /f"), Effect(K.KILL_FORCED, "calc.exe", "taskkill /f")],
            "force-kill",
            "Force-killing notepad ",
        ),
    ],
    ids=["two-denies", "two-asks"],
)
def test_among_effects_hitting_the_same_row_the_first_names_the_refusal(
    effects: list[Effect], rule_id: str, start: str
) -> None:
    """S-RULE-07: the earliest row wins, and among equal rows the first effect of the call."""
    hit = judge_all(effects)
    assert hit is not None and hit.rule_id == rule_id and hit.reason.startswith(start)


@requirement("S-RULE-07", "S-RULE-19")
def test_a_command_deleting_two_trees_is_refused_naming_the_first() -> None:
    """S-RULE-07: the refusal the model reads names the first tree it asked to delete."""
    hit = load_rules().match("PowerShell", {"command": "Remove-Item -Recurse D:\\old; Remove-Item -Recurse D:\\new"})
    assert hit is not None and (hit.rule_id, hit.action, hit.reason) == (
        "recursive-delete",
        "deny",
        _RECURSIVE.format("d:\\old"),
    )


@requirement("S-RULE-19", "S-RULE-20")
@pytest.mark.parametrize(
    ("command", "rule_id", "start"),
    [
        (
            "Get-Content C:\\Windows\\System32\\config\\*",
            "credential-access",
            "This reads, copies, changes or deletes the SAM, SECURITY or SYSTEM registry hive (password hashes) ",
        ),
        (
            "Copy-Item 'C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\*' D:\\x",
            "credential-access",
            "This reads, copies, changes or deletes Google Chrome's saved passwords and cookies ",
        ),
        (
            "Set-Content C:\\Windows\\System32\\* x",
            "persistence-hijack",
            "This replaces an accessibility program Windows runs at the logon screen ",
        ),
    ],
    ids=["read-every-hive", "copy-browser-passwords", "overwrite-sethc"],
)
def test_a_wildcard_reaches_the_places_its_items_are_in_not_only_its_folder(
    command: str, rule_id: str, start: str
) -> None:
    """S-RULE-19: `System32\\config\\*` names the SAM hive among its items, `Default\\*` Chrome's `Login Data`,
    `System32\\*` `sethc.exe`: the places the items are in count, besides those of the folder they are in."""
    hit = load_rules().match("PowerShell", {"command": command})
    assert hit is not None and (hit.rule_id, hit.action) == (rule_id, "deny") and hit.reason.startswith(start)


@requirement("S-RULE-14", "S-RULE-19")
@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("Remove-Item -Recurse $x", _RECURSIVE.format("(not known)")),
        (
            "Remove-Item HKLM:\\Software\\Vendor",
            "Deleting from a machine-wide registry hive (hklm\\software\\vendor) can break Windows for every user and "
            "cannot be undone. Instead, read the key with `Get-ItemProperty` or `reg query`, and ask the user to make "
            "this change.",
        ),
    ],
    ids=["target-not-known", "registry-key-canonical"],
)
def test_a_refusal_names_its_target_canonically_or_says_it_is_not_known(command: str, reason: str) -> None:
    """S-RULE-19: a recursive delete of a variable is refused saying its target is not known; a key is named in
    its canonical spelling (`hklm\\...`, the provider's `:` gone)."""
    hit = load_rules().match("PowerShell", {"command": command})
    assert hit is not None and (hit.action, hit.reason) == ("deny", reason)
