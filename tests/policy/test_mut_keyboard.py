"""What a Type, MultiEdit or Clipboard call puts in, exactly (S-RULE-12, S-RULE-18); found by mutation testing."""

from __future__ import annotations

from typing import Any

import pytest

from policy.rules.keyboard import TypedInput, typed_inputs
from policy.rules.shell.ops import Operation
from tests._requirements import requirement


@requirement("S-RULE-12")
@pytest.mark.parametrize(("label", "kept"), [(3, 3), (True, None), ("3", None), (None, None)])
def test_a_type_calls_label_is_kept_only_when_it_is_an_integer(label: object, kept: int | None) -> None:
    """S-RULE-12: Type's label is an integer; a bool or a string is no label (the text goes to the focus)."""
    assert typed_inputs("Type", {"text": "x", "label": label}) == [TypedInput(text="x", enter=False, label=kept)]


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ([[1, "dir\n"]], [TypedInput(text="dir\n", enter=True, label=1)]),  # a line break submits it
        ([[1, "dir"]], [TypedInput(text="dir", enter=False, label=1)]),
        ([["1", "dir"]], []),  # the label must be an integer
        ([[1, "dir", "extra"]], []),  # [label, text] pairs only
    ],
    ids=["break", "plain", "string-label", "triple"],
)
def test_multiedit_labels_are_integer_text_pairs_and_a_line_break_submits(
    labels: list[Any], expected: list[TypedInput]
) -> None:
    """S-RULE-12: MultiEdit `labels` items are [integer label, text]; a text with a line break runs in a console."""
    assert typed_inputs("MultiEdit", {"labels": labels}) == expected


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Clipboard", {"mode": " Set ", "text": "a\r"}, [TypedInput(text="a\r", enter=True, paste=True)]),
        ("Clipboard", {"mode": "set", "text": 5}, []),
        ("Clipboard", {"mode": "get"}, []),
        ("Notification", {"mode": "set", "text": "a"}, []),  # only Clipboard set fills the clipboard
    ],
    ids=["set", "not-text", "get", "other-tool"],
)
def test_only_a_clipboard_set_with_text_puts_text_on_the_clipboard(
    tool: str, args: dict[str, Any], expected: list[TypedInput]
) -> None:
    """S-RULE-12: Clipboard set (any case, spaced) with a string text is a later paste; nothing else is."""
    assert typed_inputs(tool, args) == expected


def _op(*params: tuple[str, str | None]) -> Operation:
    return Operation(shell="powershell", name="remove-item", params=params)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("params", "on"),
    [
        ((("recurse", "true"),), True),
        ((("recurse", None),), True),  # a value that did not fold counts as on
        ((("recurse", "False"),), False),
        ((("recurse", "$FALSE"),), False),
        ((("recurse", "0"),), False),
        ((("recurse", "true"), ("recurse", "$false")), False),  # the last one wins
        ((("force", "true"),), False),
        ((), False),
    ],
    ids=["true", "dynamic", "false", "$false", "zero", "last-wins", "other", "absent"],
)
def test_a_switch_is_on_unless_it_is_absent_or_given_false(
    params: tuple[tuple[str, str | None], ...], on: bool
) -> None:
    """S-RULE-18: -Recurse, -Recurse:$true or a non-constant value is on; :$false, false, 0 or absent is off."""
    assert _op(*params).switch("recurse") is on


@requirement("S-RULE-18")
def test_a_parameter_is_present_even_without_a_constant_value_and_absent_reads_none() -> None:
    """S-RULE-18: `has` sees a parameter given with a dynamic value; `param` of an absent one is None."""
    op = _op(("path", None), ("path", "C:\\x"))
    assert op.has("path") and not op.has("recurse")
    assert op.param("path") == "C:\\x" and op.param("recurse") is None
