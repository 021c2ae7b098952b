"""The effect catalogue's readers of switches, argument words and flags (S-RULE-18); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.effects_common import (
    Argv,
    argv_of,
    bind,
    display,
    effect,
    has_wildcard,
    is_on,
    is_registry_path,
    is_true,
    split_command_line,
    split_list,
    unquote,
)
from policy.rules.shell.ops import EffectKind, Operation
from tests._requirements import requirement


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("value", "true"),
    [
        ("yes", True),
        ("ON", True),
        ("'true'", True),  # quotes around a constant are not part of it
        (' "1" ', True),
        ("XonX", False),  # only quotes and blanks are stripped
        ("off", False),
        (None, False),
    ],
)
def test_an_argument_means_true_only_when_it_says_so(value: str | None, true: bool) -> None:
    """S-RULE-18: `$true`, `true`, `1`, `yes`, `on` in any case and quoting are true; unknown is not."""
    assert is_true(value) is true


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a,b c", ("a", "b", "c")),  # an array folded as `a,b` is two words
        ('"a,b" c', ("a,b", "c")),  # a quoted comma is part of the word
        ("comsvcs.dll,MiniDump 624", ("comsvcs.dll,MiniDump", "624")),  # rundll32's dll,entry stays one word
        ("COMSVCS.DLL,MiniDump", ("COMSVCS.DLL,MiniDump",)),
    ],
)
def test_argument_text_splits_into_words_keeping_dll_entry_points_whole(text: str, words: tuple[str, ...]) -> None:
    """S-RULE-18: blanks split, quotes group, an unquoted comma splits unless it follows `.dll`."""
    assert split_command_line(text) == words


@requirement("S-RULE-18")
def test_a_repeatable_flag_given_last_has_an_unknown_value() -> None:
    """S-RULE-18: `taskkill /im a /im` reads the last /im's value as unknown (None), not as a crash."""
    assert Argv(("/im", "a", "/im")).values("im") == ["a", None]
    assert Argv(("/im:x", "/fi", "y")).values("im", "fi") == ["x", "y"]


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("value", "wild"),
    [("notepad*", True), ("note?ad", True), ("[ab]c", True), ("notepad", False), (None, False)],
)
def test_a_name_is_a_wildcard_when_it_holds_a_powershell_wildcard_character(value: str | None, wild: bool) -> None:
    """S-RULE-18: `*`, `?` and `[` are PowerShell's wildcard characters; an unknown name is none."""
    assert has_wildcard(value) is wild


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("remove-item", "Remove-Item"),
        ("set-itemproperty", "Set-ItemProperty"),  # a known spelling
        ("get-foo-bar", "Get-Foo-Bar"),
        ("notepad", "notepad"),  # programs stay lower case
        ("io.file::delete", "io.file::delete"),
        ("7-zip.exe", "7-zip.exe"),
        ("hklm:-x", "hklm:-x"),
    ],
)
def test_a_command_is_shown_in_its_usual_spelling(name: str, shown: str) -> None:
    """S-RULE-18: cmdlets are shown Verb-Noun; programs, .NET calls and paths as they are."""
    assert display(name) == shown


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("bound", "on"),
    [
        ({"recurse": None}, True),  # not constant: on
        ({"recurse": "true"}, True),
        ({"recurse": "XfalseX"}, True),
        ({"recurse": "false"}, False),
        ({"recurse": "FALSE"}, False),
        ({"recurse": "'$false'"}, False),
        ({"recurse": "0"}, False),
        ({"recurse": "No"}, False),
        ({}, False),
    ],
)
def test_a_switch_is_on_unless_absent_or_given_a_false_value(bound: dict[str, str | None], on: bool) -> None:
    """S-RULE-18: -Recurse:$false, false, 0, no (any case, quoted) turn a switch off; anything else leaves it on."""
    assert is_on(bound, "recurse") is on


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("path", "registry"),
    [
        ("Microsoft.PowerShell.Core/Registry::HKEY_LOCAL_MACHINE", True),  # either separator
        ("HKLM:\\Software", True),
        ("hkey_current_user/x", True),
        ("C:\\Windows", False),
        (None, False),
    ],
)
def test_a_registry_provider_path_is_known_by_its_prefix(path: str | None, registry: bool) -> None:
    """S-RULE-18: `HKLM:`, `Registry::`, the provider-qualified form and `HKEY_…` name the registry."""
    assert is_registry_path(path) is registry


@requirement("S-RULE-18")
def test_a_cmd_builtin_takes_only_slash_flags() -> None:
    """S-RULE-18: for cmd built-ins (`dash_flags=False`) `-s` is an argument, `/s` a flag."""
    builtin = Argv(("-s", "x"), dash_flags=False)
    assert not builtin.flag("s") and builtin.positionals() == ["-s", "x"]
    assert Argv(("/s", "x"), dash_flags=False).flag("s")
    assert Argv(("-s", "x")).flag("s")


@requirement("S-RULE-18")
def test_a_parameter_named_twice_is_an_array_unknown_if_any_item_is() -> None:
    """S-RULE-18: `-Path a -Path b` binds "a,b"; with one item not constant the whole value is unknown."""
    op = Operation(shell="powershell", name="remove-item", params=(("path", "a"), ("path", None)))
    assert bind(op) == {"path": None}
    op = Operation(shell="powershell", name="remove-item", params=(("path", None), ("path", "b")))
    assert bind(op) == {"path": None}
    op = Operation(shell="powershell", name="remove-item", params=(("path", "a"), ("path", "b")))
    assert bind(op) == {"path": "a,b"}


@requirement("S-RULE-18")
def test_array_items_and_argv_words_lose_their_quotes() -> None:
    """S-RULE-18: `'a', "b"` is the items a and b; a quoted word is compared without its quotes."""
    assert split_list("'a', \"b\"") == ["a", "b"]
    assert Argv(("'Delete'", None, ' "X" ')).lowered() == ["delete", "x"]


@requirement("S-RULE-18")
def test_a_parsers_split_out_switches_read_as_flags_again() -> None:
    """S-RULE-18: `dir /a:h /s /q` reported as params reads the same as the words; cmd takes only `/` flags."""
    op = Operation(shell="cmd", name="dir", params=(("a", "h"), ("s", "TRUE"), ("q", None)), args=("C:\\",))
    assert argv_of(op) == Argv(("C:\\", "/a:h", "/s", "/q"), dash_flags=False)
    assert argv_of(Operation(shell="program", name="robocopy", args=("-mir",))) == Argv(("-mir",), dash_flags=True)


@requirement("S-RULE-18")
def test_an_effect_without_a_detail_has_an_empty_one_and_unquote_keeps_letters() -> None:
    """S-RULE-18: the reason shows no made-up detail; only quotes and blanks are stripped from a value."""
    assert effect(EffectKind.DELETE, "C:\\x").detail == ""
    assert unquote(" 'Xa' ") == "Xa"
