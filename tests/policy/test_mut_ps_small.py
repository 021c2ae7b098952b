"""The small helpers of the PowerShell analyser, pinned one by one (issue 12: the mutants they left alive).

`ps_values` (how a folded value prints), `ps_operators` (PowerShell's operators and string methods on folded
values), `ps_text` (escapes, expansion, `-f`, `-replace`, command lines) and `ps_tree` (the grammar, the text a node
stands for, assigned variables, argument words). Expectations are what PowerShell and .NET do, or what the helper's
docstring promises where the gateway is stricter than PowerShell (it answers UNKNOWN or None rather than guess, and
bounds what it allocates); a few tests follow a helper's result through to the verdict a command gets.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from tree_sitter import Node

from policy.rules.shell.ps_operators import (
    MAX_STRING,
    apply_operator,
    char,
    integer,
    real,
    string_method,
    string_static,
)
from policy.rules.shell.ps_text import (
    expand_text,
    here_body,
    net_format,
    ps_replace,
    ps_split,
    split_program,
    split_words,
    unescape,
    verbatim,
)
from policy.rules.shell.ps_tree import (
    ERROR_ID,
    LANGUAGE,
    PARSER,
    WRAPPER_IDS,
    Source,
    assigned_variables,
    by_kind,
    field_id,
    first_error,
    kind_id,
    kind_ids,
    new_parser,
    parse_text,
    prepare,
    prepare_text,
    skip_wrappers,
    source_of,
    split_arguments,
    text_of,
    unwrap,
    variable_key,
)
from policy.rules.shell.ps_values import (
    UNKNOWN,
    CommandRef,
    Hashtable,
    ObjectRef,
    ScriptBlock,
    TypeRef,
    as_text,
    as_value,
    flatten,
    is_known,
)
from tests._requirements import requirement
from tests.policy.verdicts import args_of, ps

# ---------------------------------------------------------------------------------------
# ps_values: what is constant, and how a value prints


@requirement("S-RULE-14")
def test_unknown_prints_as_unknown_and_is_one_object() -> None:
    """S-RULE-14: the one non-constant value is a singleton that says what it is when printed."""
    assert repr(UNKNOWN) == "UNKNOWN"
    assert type(UNKNOWN)() is UNKNOWN


@requirement("S-RULE-14")
def test_a_value_is_known_only_when_constant_all_the_way_down() -> None:
    """S-RULE-14: UNKNOWN is not known, an array holding one UNKNOWN (at any depth) is not either; constants are."""
    assert is_known(UNKNOWN) is False
    assert is_known(("a", UNKNOWN)) is False
    assert is_known(("a", ("b", UNKNOWN))) is False
    assert is_known(("a", ("b", 1))) is True
    assert is_known(()) is True
    for value in ("x", 0, None, False, b"", TypeRef("system.io.file")):
        assert is_known(value) is True


@requirement("S-RULE-13")
def test_values_print_as_powershell_expands_them_in_a_string() -> None:
    """S-RULE-13: `"$x"` of a bool is True/False, of $null empty, of a number its digits, of a type its name."""
    assert as_text(True) == "True"
    assert as_text(False) == "False"
    assert as_text("x") == "x"
    assert as_text(42) == "42"
    assert as_text(-7) == "-7"
    assert as_text(1.5) == "1.5"
    assert as_text(None) == ""
    assert as_text(TypeRef("system.io.file")) == "system.io.file"


@requirement("S-RULE-13")
def test_an_array_prints_joined_by_single_blanks() -> None:
    """S-RULE-13: an array expands joined by $OFS, one blank; a $null element is an empty item between blanks."""
    assert as_text(("a", "b", "c")) == "a b c"
    assert as_text(("a", None, "b")) == "a  b"
    assert as_text((1, True, ("x", "y"))) == "1 True x y"
    assert as_text(()) == ""
    assert as_text(("a",)) == "a"


@requirement("S-RULE-14")
def test_values_with_no_stable_text_print_as_nothing_known() -> None:
    """S-RULE-14: objects, script blocks, hashtables, bytes and UNKNOWN have no constant string form; an array
    holding one has none either."""
    for value in (
        UNKNOWN,
        ScriptBlock(source="x"),
        Hashtable((("a", "b"),)),
        ObjectRef("com", "wscript.shell"),
        CommandRef("remove-item"),
        b"abc",
    ):
        assert as_text(value) is None, value
    assert as_text(("a", UNKNOWN)) is None
    assert as_text((UNKNOWN, "a")) is None
    assert as_text(("a", ("b", ObjectRef("com", "x")))) is None


@requirement("S-RULE-13")
def test_an_argument_value_is_a_switch_word_text_or_not_constant() -> None:
    """S-RULE-13: as an operation's argument a bool is the switch word true/false, a script block is not constant,
    anything else is its string form."""
    assert as_value(True) == "true"
    assert as_value(False) == "false"
    assert as_value(ScriptBlock(source="Remove-Item x")) is None
    assert as_value("C:\\x") == "C:\\x"
    assert as_value(3) == "3"
    assert as_value(("a", "b")) == "a b"
    assert as_value(UNKNOWN) is None
    assert as_value(None) == ""


@requirement("S-RULE-13")
def test_flatten_unrolls_an_array_one_level_as_native_arguments_do() -> None:
    """S-RULE-13: a scalar is an array of one; nested arrays are flattened once, no deeper."""
    assert flatten("a") == ("a",)
    assert flatten(None) == (None,)
    assert flatten(("a", "b")) == ("a", "b")
    assert flatten(("a", ("b", "c"), "d")) == ("a", "b", "c", "d")
    assert flatten(("a", ("b", ("c",)))) == ("a", "b", ("c",))
    assert flatten(()) == ()


# ---------------------------------------------------------------------------------------
# ps_operators: literals


@requirement("S-RULE-13")
def test_integer_literals_read_as_powershell_reads_them() -> None:
    """S-RULE-13: decimal, hex, the long suffix and the KB…PB multipliers (any case) give PowerShell's value."""
    assert integer("10") == 10
    assert integer("0") == 0
    assert integer("0x52") == 0x52
    assert integer("0X1f") == 31
    assert integer("10l") == 10
    assert integer("10L") == 10
    assert integer("1kb") == 1024
    assert integer("1KB") == 1024
    assert integer("2mb") == 2 << 20
    assert integer("3gb") == 3 << 30
    assert integer("1tb") == 1 << 40
    assert integer("1pb") == 1 << 50
    assert integer("0x10KB") == 16 * 1024
    assert integer("5MBl") == 5 << 20


@requirement("S-RULE-11")
def test_an_integer_literal_that_is_no_number_is_unknown_not_an_error() -> None:
    """S-RULE-11: text that is no integer literal folds to UNKNOWN and never raises."""
    for text in ("abc", "", "kb", "0x", "1.5", "x10", "0xZZ", "1 0"):
        assert integer(text) is UNKNOWN, text


@requirement("S-RULE-13")
def test_real_literals_read_with_or_without_the_decimal_suffix() -> None:
    """S-RULE-13: `1.5`, `1.5d`, `1.5D` and `1e3` are real numbers; anything else is UNKNOWN."""
    assert real("1.5") == 1.5
    assert real("1.5d") == 1.5
    assert real("2.5D") == 2.5
    assert real("1e3") == 1000.0
    assert real("abc") is UNKNOWN
    assert real("") is UNKNOWN


@requirement("S-RULE-13")
def test_char_of_a_code_point_or_one_character() -> None:
    """S-RULE-13: `[char]65` is A, `[char]0` the NUL character, the last code point is valid, `[char]'x'` is x;
    a negative or too large number, a bool, a longer string or UNKNOWN is not folded."""
    assert char(65) == "A"
    assert char(0) == "\0"
    assert char(0x10FFFF) == chr(0x10FFFF)
    assert char("x") == "x"
    for code in (-1, 0x110000, True, False, "ab", "", UNKNOWN, None, 65.0):
        assert char(code) is UNKNOWN, code


# ---------------------------------------------------------------------------------------
# ps_operators: apply_operator


@requirement("S-RULE-14")
def test_an_operator_with_an_unknown_side_is_unknown() -> None:
    """S-RULE-14: any operator with UNKNOWN on either side folds to UNKNOWN."""
    for operator in ("+", "*", "-", "-f", "-join", "..", "-replace", "-split"):
        assert apply_operator(operator, UNKNOWN, "a") is UNKNOWN
        assert apply_operator(operator, "a", UNKNOWN) is UNKNOWN
        assert apply_operator(operator, 1, UNKNOWN) is UNKNOWN
        assert apply_operator(operator, UNKNOWN, 1) is UNKNOWN


@requirement("S-RULE-13")
def test_plus_on_a_string_appends_the_right_side_as_text() -> None:
    """S-RULE-13: `'a' + x` appends x's string form: a number's digits, nothing for $null, an array joined."""
    assert apply_operator("+", "C:\\", "Windows") == "C:\\Windows"
    assert apply_operator("+", "a", 1) == "a1"
    assert apply_operator("+", "a", None) == "a"
    assert apply_operator("+", "a", True) == "aTrue"
    assert apply_operator("+", "a", ("b", "c")) == "ab c"
    assert apply_operator("+", "", "") == ""
    assert apply_operator("+", "a", ObjectRef("com", "x")) is UNKNOWN


@requirement("S-RULE-11")
def test_plus_stops_at_the_longest_folded_string() -> None:
    """S-RULE-11: a concatenation up to MAX_STRING characters folds; one character more is UNKNOWN."""
    half = "a" * (MAX_STRING // 2)
    assert apply_operator("+", half, half) == half + half
    assert apply_operator("+", half, half + "b") is UNKNOWN
    assert apply_operator("+", "a" * MAX_STRING, "") == "a" * MAX_STRING
    assert apply_operator("+", "", "a" * (MAX_STRING + 1)) is UNKNOWN


@requirement("S-RULE-13")
def test_plus_on_an_array_appends_the_right_side_as_elements() -> None:
    """S-RULE-13: `@('a') + 'b'` adds one element, `@('a') + @('b','c')` adds each element."""
    assert apply_operator("+", ("a",), "b") == ("a", "b")
    assert apply_operator("+", ("a",), ("b", "c")) == ("a", "b", "c")
    assert apply_operator("+", (), 1) == (1,)


@requirement("S-RULE-13")
def test_plus_adds_numbers_and_refuses_what_it_cannot_convert() -> None:
    """S-RULE-13: numbers add; a bool or other value on the left is not folded (PowerShell would convert it)."""
    assert apply_operator("+", 1, 2) == 3
    assert apply_operator("+", 1, 0.5) == 1.5
    assert apply_operator("+", 1.5, 1) == 2.5
    assert apply_operator("+", 1, True) == 2
    assert apply_operator("+", True, 1) is UNKNOWN
    assert apply_operator("+", 1, "2") is UNKNOWN
    assert apply_operator("+", None, 1) is UNKNOWN
    assert apply_operator("+", TypeRef("x"), "a") is UNKNOWN


@requirement("S-RULE-13")
def test_times_repeats_strings_and_arrays_and_multiplies_numbers() -> None:
    """S-RULE-13: `'ab' * 3`, `@(1) * 2`, `'a' * 0` and `6 * 7` fold; a negative count, a count that is not an
    integer and a string on the right do not."""
    assert apply_operator("*", "ab", 3) == "ababab"
    assert apply_operator("*", "ab", 0) == ""
    assert apply_operator("*", ("a", "b"), 2) == ("a", "b", "a", "b")
    assert apply_operator("*", 6, 7) == 42
    assert apply_operator("*", -6, 7) == -42
    assert apply_operator("*", "ab", -1) is UNKNOWN
    assert apply_operator("*", "ab", "2") is UNKNOWN
    assert apply_operator("*", "ab", 1.5) is UNKNOWN
    assert apply_operator("*", 1.5, 2) is UNKNOWN
    assert apply_operator("*", None, 2) is UNKNOWN


@requirement("S-RULE-11")
def test_times_is_bounded_in_length_and_magnitude() -> None:
    """S-RULE-11: a repetition up to MAX_STRING characters folds, one more is UNKNOWN (`'a' * 1e9` allocates
    nothing); integers near 2**62 are not multiplied."""
    assert apply_operator("*", "a", MAX_STRING) == "a" * MAX_STRING
    assert apply_operator("*", "a", MAX_STRING + 1) is UNKNOWN
    assert apply_operator("*", "ab", MAX_STRING // 2 + 1) is UNKNOWN
    assert apply_operator("*", ("a",), MAX_STRING) == ("a",) * MAX_STRING
    assert apply_operator("*", ("a",), MAX_STRING + 1) is UNKNOWN
    assert apply_operator("*", (1 << 62) - 1, 1) == (1 << 62) - 1
    assert apply_operator("*", 1, (1 << 62) - 1) == (1 << 62) - 1
    assert apply_operator("*", -((1 << 62) - 1), 1) == -((1 << 62) - 1)
    assert apply_operator("*", 1 << 62, 1) is UNKNOWN
    assert apply_operator("*", 1, 1 << 62) is UNKNOWN
    assert apply_operator("*", -(1 << 62), 1) is UNKNOWN
    assert apply_operator("*", 1, -(1 << 62)) is UNKNOWN


@requirement("S-RULE-13")
def test_minus_subtracts_integers_only() -> None:
    """S-RULE-13: `5 - 7` folds to -2; a string or a real on either side is not folded."""
    assert apply_operator("-", 5, 7) == -2
    assert apply_operator("-", 7, 5) == 2
    assert apply_operator("-", "a", 1) is UNKNOWN
    assert apply_operator("-", 1, "a") is UNKNOWN
    assert apply_operator("-", 1.5, 1) is UNKNOWN


@requirement("S-RULE-13")
def test_format_operator_fills_its_items_from_the_right_side() -> None:
    """S-RULE-13: `'{0}\\{1}' -f 'a','b'` is a\\b, a scalar right side is item 0, a missing item or a format that
    is no text is UNKNOWN."""
    assert apply_operator("-f", "{0}\\{1}", ("a", "b")) == "a\\b"
    assert apply_operator("-f", "{0}{0}", "x") == "xx"
    assert apply_operator("-f", "{0}-{1}", (1, None)) == "1-"
    assert apply_operator("-f", "{1}", "x") is UNKNOWN
    assert apply_operator("-f", "{0}", ObjectRef("com", "x")) is UNKNOWN
    assert apply_operator("-f", ObjectRef("com", "x"), "a") is UNKNOWN
    assert apply_operator("-f", 12, ()) == "12"


@requirement("S-RULE-13")
def test_join_operator_joins_every_element_as_text() -> None:
    """S-RULE-13: `@('a','b',1) -join ','` is a,b,1, a scalar joins to itself, $null elements are empty, an
    element or separator with no text form is UNKNOWN."""
    assert apply_operator("-join", ("a", "b", 1), ",") == "a,b,1"
    assert apply_operator("-join", ("a", None, "b"), "") == "ab"
    assert apply_operator("-join", ("a", "b"), None) == "ab"
    assert apply_operator("-join", "a", ",") == "a"
    assert apply_operator("-join", ("a", "b"), 0) == "a0b"
    assert apply_operator("-join", ("a", ObjectRef("com", "x")), ",") is UNKNOWN
    assert apply_operator("-join", ("a", "b"), ObjectRef("com", "x")) is UNKNOWN


@requirement("S-RULE-13")
def test_range_operator_counts_up_or_down_including_both_ends() -> None:
    """S-RULE-13: `1..3` is 1,2,3, `3..1` is 3,2,1, `2..2` is 2; only integers fold."""
    assert apply_operator("..", 1, 3) == (1, 2, 3)
    assert apply_operator("..", 3, 1) == (3, 2, 1)
    assert apply_operator("..", 2, 2) == (2,)
    assert apply_operator("..", -1, 1) == (-1, 0, 1)
    assert apply_operator("..", "a", 3) is UNKNOWN
    assert apply_operator("..", 1, "c") is UNKNOWN


@requirement("S-RULE-11")
def test_range_operator_is_bounded() -> None:
    """S-RULE-11: a range of up to 1024 numbers folds; a longer one (either way) is UNKNOWN."""
    assert len(apply_operator("..", 0, 1023)) == 1024  # type: ignore[arg-type]
    assert len(apply_operator("..", 1023, 0)) == 1024  # type: ignore[arg-type]
    assert apply_operator("..", 0, 1024) is UNKNOWN
    assert apply_operator("..", 1024, 0) is UNKNOWN
    assert apply_operator("..", 1000, 1001) == (1000, 1001)
    assert apply_operator("..", -600, 600) is UNKNOWN


@requirement("S-RULE-13")
def test_replace_is_a_case_insensitive_regex_unless_creplace() -> None:
    """S-RULE-13: `-replace` and `-ireplace` ignore case, `-creplace` does not; one right operand replaces with
    nothing; an empty right side, or a pattern with no text form, is UNKNOWN."""
    assert apply_operator("-replace", "aBc", ("b", "x")) == "axc"
    assert apply_operator("-ireplace", "aBc", ("b", "x")) == "axc"
    assert apply_operator("-creplace", "aBc", ("b", "x")) == "aBc"
    assert apply_operator("-creplace", "abc", ("b", "x")) == "axc"
    assert apply_operator("-replace", "abc", "b") == "ac"
    assert apply_operator("-replace", "abc", ("b",)) == "ac"
    assert apply_operator("-replace", "abc", ("b", None)) == "ac"
    assert apply_operator("-replace", "abc", ()) is UNKNOWN
    assert apply_operator("-replace", "abc", (ObjectRef("com", "x"), "y")) is UNKNOWN
    assert apply_operator("-replace", "abc", ("b", ObjectRef("com", "x"))) is UNKNOWN
    assert apply_operator("-replace", 123, ("2", "x")) == "1x3"
    assert apply_operator("-replace", ObjectRef("com", "x"), ("2", "x")) is UNKNOWN


@requirement("S-RULE-13")
def test_replace_on_an_array_replaces_in_each_element() -> None:
    """S-RULE-13: `@('ab','cb') -replace 'b','x'` gives an array of the replaced elements; an element with no text
    makes the whole result UNKNOWN."""
    assert apply_operator("-replace", ("ab", "cB"), ("b", "x")) == ("ax", "cx")
    assert apply_operator("-creplace", ("ab", "cB"), ("b", "x")) == ("ax", "cB")
    assert apply_operator("-replace", ("ab", ObjectRef("com", "x")), ("b", "x")) is UNKNOWN
    assert apply_operator("-replace", (), ("b", "x")) == ()


@requirement("S-RULE-13")
def test_split_is_a_case_insensitive_regex_unless_csplit() -> None:
    """S-RULE-13: `-split` and `-isplit` ignore case, `-csplit` does not; the pattern is the right side's first
    element; an empty pattern splits between every character as .NET's Regex.Split does; a subject with no text, or
    a pattern with groups, is UNKNOWN."""
    assert apply_operator("-split", "aXbxc", "x") == ("a", "b", "c")
    assert apply_operator("-isplit", "aXbxc", "x") == ("a", "b", "c")
    assert apply_operator("-csplit", "aXbxc", "x") == ("aXb", "c")
    assert apply_operator("-split", "a,b", (",", 2)) == ("a", "b")
    assert apply_operator("-split", "a,b", "") == ("", "a", ",", "b", "")
    assert apply_operator("-split", ObjectRef("com", "x"), ",") is UNKNOWN
    assert apply_operator("-split", "a(b", "(") is UNKNOWN


@requirement("S-RULE-11")
def test_split_with_an_empty_right_side_does_not_raise() -> None:
    """S-RULE-11: `'a,b' -split @()` (no pattern at all) is folded without raising: as the empty pattern or UNKNOWN."""
    assert apply_operator("-split", "a,b", ()) in (UNKNOWN, ("", "a", ",", "b", ""))


@requirement("S-RULE-13")
def test_an_operator_folding_does_not_know_is_unknown() -> None:
    """S-RULE-13: comparison and other operators are not folded."""
    for operator in ("-eq", "/", "%", "-band", "-like", "replace", "split", "f", "join", "*=", ""):
        assert apply_operator(operator, 6, 3) is UNKNOWN, operator
        assert apply_operator(operator, "a", "a") is UNKNOWN, operator


# ---------------------------------------------------------------------------------------
# ps_operators: [string]:: static methods and string instance methods


@requirement("S-RULE-13")
def test_string_join_joins_the_rest_with_the_first() -> None:
    """S-RULE-13: `[string]::Join(',', 'a', @('b','c'))` is a,b,c; no arguments, or a part with no text, is
    UNKNOWN."""
    assert string_static("join", [",", ("a", "b"), "c"]) == "a,b,c"
    assert string_static("join", ["-", "a"]) == "a"
    assert string_static("join", [None, "a", "b"]) == "ab"
    assert string_static("join", ["-", "a", None, "b"]) == "a--b"
    assert string_static("join", [","]) == ""
    assert string_static("join", []) is UNKNOWN
    assert string_static("join", [ObjectRef("com", "x"), "a"]) is UNKNOWN
    assert string_static("join", [",", "a", ObjectRef("com", "x")]) is UNKNOWN


@requirement("S-RULE-13")
def test_string_concat_concatenates_every_argument() -> None:
    """S-RULE-13: `[string]::Concat('a', 1, $null, @('b','c'))` is a1bc (an array argument is its elements);
    an argument with no text is UNKNOWN."""
    assert string_static("concat", ["a", 1, None, ("b", "c")]) == "a1bc"
    assert string_static("concat", []) == ""
    assert string_static("concat", ["a", ObjectRef("com", "x")]) is UNKNOWN


@requirement("S-RULE-13")
def test_string_format_formats_the_rest_into_the_first() -> None:
    """S-RULE-13: `[string]::Format('{0}\\{1}', 'a', 'b')` is a\\b; no format, a format with no text, or a
    missing item is UNKNOWN."""
    assert string_static("format", ["{0}\\{1}", "a", "b"]) == "a\\b"
    assert string_static("format", ["{0}{1}", ("a", "b")]) == "ab"
    assert string_static("format", ["{0}-{1}", "a", None]) == "a-"
    assert string_static("format", ["x"]) == "x"
    assert string_static("format", []) is UNKNOWN
    assert string_static("format", [ObjectRef("com", "x"), "a"]) is UNKNOWN
    assert string_static("format", ["{1}", "a"]) is UNKNOWN


@requirement("S-RULE-13")
def test_other_string_statics_are_not_folded() -> None:
    """S-RULE-13: a static method of [string] the folder does not know is UNKNOWN."""
    for method in ("isnullorempty", "compare", "copy", "Join", "Concat", "Format"):
        assert string_static(method, ["a", "b"]) is UNKNOWN, method


@requirement("S-RULE-13")
def test_string_new_of_a_char_array() -> None:
    """S-RULE-13: `[string]::new([char[]]'abc')` is abc (a string argument is converted to char[]), and
    `[string]::new($chars, start, length)` is the slice, any in-range slice, the empty one included."""
    assert string_static("new", [("a", "b", "c")]) == "abc"
    assert string_static("new", ["abc"]) == "abc"
    assert string_static("new", [()]) == ""
    assert string_static("new", ["abc", 1, 1]) == "b"
    assert string_static("new", ["abc", 0, 3]) == "abc"
    assert string_static("new", ["abc", 3, 0]) == ""
    assert string_static("new", ["abc", 1, 2]) == "bc"
    assert string_static("new", [("a", "b", "c"), 0, 0]) == ""


@requirement("S-RULE-13")
def test_string_new_refuses_what_dotnet_would_throw_on() -> None:
    """S-RULE-13: a slice out of range, a negative start or length, elements that are not single characters,
    too many or non-integer arguments, or nothing at all is UNKNOWN."""
    for args in (
        ["abc", 4, 0],
        ["abc", 2, 2],
        ["abc", -1, 1],
        ["abc", 0, -1],
        ["abc", 0, 4],
        [("a", "bc")],
        [("a", 1)],
        [1],
        [ObjectRef("com", "x")],
        ["abc", 1, 1, 1],
        ["abc", "1", 1],
        ["abc", True, 1],
        ["abc", 1, 1.0],
        [],
    ):
        assert string_static("new", args) is UNKNOWN, args


@requirement("S-RULE-13")
def test_string_new_of_a_char_and_a_count_repeats_it() -> None:
    """S-RULE-13: `[string]::new('a', 3)` is aaa, a count of 0 the empty string; a longer string, a negative
    count or one past MAX_STRING is UNKNOWN."""
    assert string_static("new", ["a", 3]) == "aaa"
    assert string_static("new", ["a", 0]) == ""
    assert string_static("new", ["a", MAX_STRING]) == "a" * MAX_STRING
    assert string_static("new", ["a", MAX_STRING + 1]) is UNKNOWN
    assert string_static("new", ["a", -1]) is UNKNOWN
    assert string_static("new", ["ab", 2]) is UNKNOWN
    assert string_static("new", [("a",), 2]) is UNKNOWN
    assert string_static("new", ["a", "2"]) is UNKNOWN


@requirement("S-RULE-13")
def test_case_methods_and_tostring() -> None:
    """S-RULE-13: ToLower/ToLowerInvariant/ToUpper/ToUpperInvariant change case, ToString is the string itself."""
    assert string_method("AbC", "tolower", []) == "abc"
    assert string_method("AbC", "tolowerinvariant", []) == "abc"
    assert string_method("AbC", "toupper", []) == "ABC"
    assert string_method("AbC", "toupperinvariant", []) == "ABC"
    assert string_method("AbC", "tostring", []) == "AbC"


@requirement("S-RULE-13")
def test_replace_method_is_ordinal_and_case_sensitive() -> None:
    """S-RULE-13: `.Replace('b','x')` replaces exactly (no regex, case kept); an empty old value throws in .NET
    (UNKNOWN); a result past MAX_STRING is UNKNOWN; a wrong number of arguments is UNKNOWN."""
    assert string_method("abcB", "replace", ["b", "x"]) == "axcB"
    assert string_method("a.c", "replace", [".", ""]) == "ac"
    assert string_method("a.c", "replace", [".", None]) == "ac"
    assert string_method("abc", "replace", [1, 2]) == "abc"
    assert string_method("a1c", "replace", [1, 2]) == "a2c"
    assert string_method("abc", "replace", ["", "x"]) is UNKNOWN
    assert string_method("abc", "replace", ["b"]) is UNKNOWN
    assert string_method("abc", "replace", ["b", "x", "y"]) is UNKNOWN
    assert string_method("abc", "replace", ["b", ObjectRef("com", "x")]) is UNKNOWN
    assert string_method("a" * MAX_STRING, "replace", ["a", "a"]) == "a" * MAX_STRING
    assert string_method("a" * MAX_STRING, "replace", ["a", "bb"]) is UNKNOWN


@requirement("S-RULE-13")
def test_trim_methods_trim_blanks_or_the_given_characters() -> None:
    """S-RULE-13: Trim/TrimStart/TrimEnd trim white space, or each character of their argument, at both ends, the
    start or the end."""
    assert string_method("  a  ", "trim", []) == "a"
    assert string_method("  a  ", "trimstart", []) == "a  "
    assert string_method("  a  ", "trimend", []) == "  a"
    assert string_method("xyaxy", "trim", ["xy"]) == "a"
    assert string_method("xyaxy", "trimstart", ["yx"]) == "axy"
    assert string_method("xyaxy", "trimend", ["yx"]) == "xya"
    assert string_method("xyaxy", "trimend", ["x"]) == "xyaxy"


@requirement("S-RULE-13")
def test_substring_with_start_and_length_in_range() -> None:
    """S-RULE-13: `.Substring(1)` is the rest, `.Substring(1, 1)` one character, the empty slice at either end is
    valid; out of range, negative, non-integer, bool or missing arguments are UNKNOWN."""
    assert string_method("abc", "substring", [1]) == "bc"
    assert string_method("abc", "substring", [0]) == "abc"
    assert string_method("abc", "substring", [3]) == ""
    assert string_method("abc", "substring", [1, 1]) == "b"
    assert string_method("abc", "substring", [0, 3]) == "abc"
    assert string_method("abc", "substring", [3, 0]) == ""
    for args in ([4], [-1], [1, 3], [0, -1], [-1, 1], [2, 2], ["1"], [True], [1, True], [1.0], []):
        assert string_method("abc", "substring", args) is UNKNOWN, args  # type: ignore[arg-type]


@requirement("S-RULE-13")
def test_split_method_on_one_character() -> None:
    """S-RULE-13: `.Split(',')` splits on that character, keeping empty parts; a longer separator or none is not
    folded (.NET's overloads differ there)."""
    assert string_method("a,b,,c", "split", [","]) == ("a", "b", "", "c")
    assert string_method("abc", "split", [","]) == ("abc",)
    assert string_method("a,b", "split", [",,"]) is UNKNOWN
    assert string_method("a,b", "split", [""]) is UNKNOWN
    assert string_method("a,b", "split", []) is UNKNOWN
    assert string_method("a,b", "split", [",", "x"]) is UNKNOWN


@requirement("S-RULE-13")
def test_other_string_methods_and_unknown_arguments_are_not_folded() -> None:
    """S-RULE-13: a method the folder does not know, or any argument with no text, is UNKNOWN."""
    assert string_method("abc", "padleft", [5]) is UNKNOWN
    assert string_method("abc", "ToLower", []) is UNKNOWN
    assert string_method("abc", "tolower", [UNKNOWN]) is UNKNOWN
    assert string_method("abc", "trim", [ObjectRef("com", "x")]) is UNKNOWN
    assert string_method("abc", "tostring", [ObjectRef("com", "x")]) is UNKNOWN


@requirement("S-RULE-13")
def test_folded_operators_reach_the_verdict() -> None:
    """S-RULE-13: a System32 path built by `-replace`, `-f`, `-join` and `.Substring` is refused as a delete of
    System32 itself."""
    denied = ("protected-place-delete", "deny")
    assert ps("Remove-Item -Recurse ('C:\\Windows\\Sys' + 'tem32')") == denied
    assert ps("Remove-Item -Recurse ('C:\\Windows\\SysXXX32' -replace 'x+', 'tem')") == denied
    assert ps("Remove-Item -Recurse ('C:\\{0}\\{1}' -f 'Windows', 'System32')") == denied
    assert ps("Remove-Item -Recurse (('C:', 'Windows', 'System32') -join '\\')") == denied
    assert ps("Remove-Item -Recurse ('xxC:\\Windows\\System32'.Substring(2))") == denied


# ---------------------------------------------------------------------------------------
# ps_text: escapes, quotes, here-strings


def _names(name: str) -> str:
    return f"<{name}>"


def _none(name: str) -> None:
    return None


@requirement("S-RULE-13")
def test_escapes_at_the_edges_of_a_short_text() -> None:
    """S-RULE-13: a lone backtick stays, a doubled backtick is one backtick, an escape opens or ends a text, `""` is
    one quote in double quotes, an escaped dollar is a dollar, and a lone dollar stays."""
    assert unescape("`", doubled_quote=False) == "`"
    assert unescape("``a", doubled_quote=False) == "`a"
    assert unescape("`n", doubled_quote=False) == "\n"
    assert unescape("a`nb", doubled_quote=False) == "a\nb"
    assert unescape('""', doubled_quote=True) == '"'
    assert unescape('a""b`t', doubled_quote=True) == 'a"b\t'
    assert expand_text("$", _none, doubled_quote=True) == "$"
    assert expand_text("`$", _none, doubled_quote=True) == "$"
    assert expand_text("`$a", _none, doubled_quote=True) == "$a"
    assert expand_text("a`$b", _none, doubled_quote=True) == "a$b"


@requirement("S-RULE-13")
def test_backtick_escapes_of_windows_powershell() -> None:
    """S-RULE-13: `` `0 `a `b `f `n `r `t `v `` are the control characters; a backtick before any other character is
    that character (`` `e `` is a plain e in 5.1, ``` `` ``` a backtick, `` `$ `` a dollar); a trailing backtick
    stays."""
    assert unescape("a`nb", doubled_quote=False) == "a\nb"
    assert unescape("`0`a`b`f`n`r`t`v", doubled_quote=False) == "\0\a\b\f\n\r\t\v"
    assert unescape("Invok`e-Expression", doubled_quote=False) == "Invoke-Expression"
    assert unescape("a``b", doubled_quote=False) == "a`b"
    assert unescape('`$x`"', doubled_quote=False) == '$x"'
    assert unescape("ab`", doubled_quote=False) == "ab`"
    assert unescape("`", doubled_quote=False) == "`"
    assert unescape("plain", doubled_quote=False) == "plain"


@requirement("S-RULE-13")
def test_braced_unicode_escape_gives_its_code_point() -> None:
    """S-RULE-13: `` `u{41} `` is A (one to six hex digits); a code point past the last one never raises."""
    assert unescape("a`u{41}b", doubled_quote=False) == "aAb"
    assert unescape("`u{1F600}", doubled_quote=False) == "\U0001f600"
    assert unescape("`u{10FFFF}", doubled_quote=False) == chr(0x10FFFF)
    assert len(unescape("`u{FFFFFF}", doubled_quote=False)) == 1
    assert unescape("`u{}", doubled_quote=False) == "u{}"


@requirement("S-RULE-13")
def test_a_doubled_double_quote_is_one_quote_only_inside_double_quotes() -> None:
    """S-RULE-13: in a double-quoted string `""` is one quote (also next to a backtick escape); elsewhere it
    stays two."""
    assert unescape('a""b`t', doubled_quote=True) == 'a"b\t'
    assert unescape('a""`t', doubled_quote=False) == 'a""\t'
    assert unescape('"b`t', doubled_quote=True) == '"b\t'
    assert unescape('say ""hi""', doubled_quote=True) == 'say "hi"'
    assert unescape('a""`t', doubled_quote=True) == 'a"\t'
    assert unescape('say ""hi""', doubled_quote=False) == 'say ""hi""'
    assert unescape('a"b', doubled_quote=True) == 'a"b'
    assert unescape('"""', doubled_quote=True) == '""'


@requirement("S-RULE-13")
def test_verbatim_string_value() -> None:
    """S-RULE-13: a single-quoted literal loses its quotes and `''` inside is one quote; text without the outer
    quotes only has its doubled quotes folded."""
    assert verbatim("'it''s'") == "it's"
    assert verbatim("'a'") == "a"
    assert verbatim("''") == ""
    assert verbatim("''''") == "'"
    assert verbatim("'") == "'"
    assert verbatim("'a") == "'a"
    assert verbatim("a'") == "a'"
    assert verbatim("it''s") == "it's"


@requirement("S-RULE-13")
def test_here_string_body_is_between_the_opening_and_closing_lines() -> None:
    """S-RULE-13: a here-string's value is the lines between `@'`/`@"` and `'@`/`"@`, without the last line break
    (CRLF included); an empty here-string is empty."""
    assert here_body("@'\nline1\nline2\n'@") == "line1\nline2"
    assert here_body('@"\nx\n"@') == "x"
    assert here_body("@'\r\nx\r\ny\r\n'@") == "x\r\ny"
    assert here_body("@'\n\n'@") == ""
    assert here_body("@'\n'@") == ""
    assert here_body("@''@") == ""
    assert here_body("@'\n a \n'@") == " a "


# ---------------------------------------------------------------------------------------
# ps_text: expansion


@requirement("S-RULE-13")
def test_expandable_text_substitutes_each_variable_as_written() -> None:
    """S-RULE-13: `$name`, `${any text}`, `$scope:name` and `$env:X` are looked up as written and replaced by
    their text; the text around them has its escapes resolved."""
    lookup = _names
    assert expand_text("a$b c", lookup, doubled_quote=True) == "a<b> c"
    assert expand_text("${my var}x", lookup, doubled_quote=True) == "<my var>x"
    assert expand_text("$env:Path;", lookup, doubled_quote=True) == "<env:Path>;"
    assert expand_text("$Script:y.txt", lookup, doubled_quote=True) == "<Script:y>.txt"
    assert expand_text("$a$b", lookup, doubled_quote=True) == "<a><b>"
    assert expand_text('`t$a""`n', lookup, doubled_quote=True) == '\t<a>"\n'
    assert expand_text('$a""', lookup, doubled_quote=False) == '<a>""'
    assert expand_text('""$a', lookup, doubled_quote=True) == '"<a>'
    assert expand_text('a""b', lookup, doubled_quote=True) == 'a"b'
    assert expand_text("$?", lookup, doubled_quote=True) == "<?>"
    assert expand_text("$_.Name", lookup, doubled_quote=True) == "<_>.Name"


@requirement("S-RULE-13")
def test_an_escaped_or_lone_dollar_is_literal() -> None:
    """S-RULE-13: `` `$a `` is the text $a (no variable is read), and a `$` followed by nothing a name can start
    with is a dollar."""
    assert expand_text("a`$b", _none, doubled_quote=True) == "a$b"
    assert expand_text("$`$a", _none, doubled_quote=True) == "$$a"
    assert expand_text("5$ and $a", _names, doubled_quote=True) == "5$ and <a>"
    assert expand_text("`$a", _none, doubled_quote=True) == "$a"
    assert expand_text("x `$a y", _none, doubled_quote=True) == "x $a y"
    assert expand_text("a$", _none, doubled_quote=True) == "a$"
    assert expand_text("$ a", _none, doubled_quote=True) == "$ a"
    assert expand_text("cost: 5$", _none, doubled_quote=True) == "cost: 5$"
    assert expand_text("a`", _none, doubled_quote=True) == "a`"


@requirement("S-RULE-14")
def test_expansion_with_an_unknown_variable_or_a_subexpression_is_not_constant() -> None:
    """S-RULE-14: a variable with no constant value, or any `$(…)`, makes the whole text not constant."""
    assert expand_text("C:\\$x", _none, doubled_quote=True) is None
    assert expand_text("$a and $b", lambda n: "1" if n == "a" else None, doubled_quote=True) is None
    assert expand_text("x$(Get-Date)", _names, doubled_quote=True) is None
    assert expand_text("$a $(1)", _names, doubled_quote=True) is None
    assert expand_text("no variables `t", _none, doubled_quote=True) == "no variables \t"


# ---------------------------------------------------------------------------------------
# ps_text: -f, -replace, -split


@requirement("S-RULE-13")
def test_composite_format_items_and_alignment() -> None:
    """S-RULE-13: .NET composite formatting: `{0}` by index, `{0,3}` right-aligned, `{0,-3}` left-aligned,
    `{{`/`}}` are braces, blanks allowed inside an item, a format string on a string argument changes nothing."""
    assert net_format("{1}{0}", ["a", "b"]) == "ba"
    assert net_format("[{0,3}]", ["a"]) == "[  a]"
    assert net_format("[{0,-3}]", ["a"]) == "[a  ]"
    assert net_format("[{0,1}]", ["abc"]) == "[abc]"
    assert net_format("[{0,0}]", ["a"]) == "[a]"
    assert net_format("[{0,1}]", [""]) == "[ ]"
    assert net_format("[{0,-1}]", [""]) == "[ ]"
    assert net_format("[{0 , 2}]", ["a"]) == "[ a]"
    assert net_format("{{{0}}}", ["a"]) == "{a}"
    assert net_format("{{0}}", ["a"]) == "{0}"
    assert net_format("{0:x}", ["ab"], ["ab"]) == "ab"
    assert net_format("{0}", [""]) == ""
    assert net_format("x", []) == "x"
    assert net_format("a{0}b{0}c", ["-"]) == "a-b-c"


@requirement("S-RULE-14")
def test_composite_format_that_dotnet_rejects_or_cannot_fill_is_not_constant() -> None:
    """S-RULE-14: a lone brace (.NET throws), an index past the arguments, or an argument with no text is None."""
    assert net_format("a{b", ["x"]) is None
    assert net_format("a}b", ["x"]) is None
    assert net_format("{a}", ["x"]) is None
    assert net_format("{1}", ["x"]) is None
    assert net_format("{0}", []) is None
    assert net_format("{0}", [None]) is None
    assert net_format("{0}{1}", ["x", None]) is None


@requirement("S-RULE-13")
def test_replace_expands_dotnet_substitutions() -> None:
    """S-RULE-13: in a `-replace` replacement `$1` and `${1}` are groups, `${0}` and `$&` the whole match, `$$` a
    dollar, a group that took part in nothing is empty, and a reference to a group that does not exist stays
    as written."""
    assert ps_replace("abc", "(b)(c)", "[$2$1]") == "a[cb]"
    assert ps_replace("abc", "(b)", "${1}${1}") == "abbc"
    assert ps_replace("abc", "b", "<${0}>") == "a<b>c"
    assert ps_replace("abc", "b", "<$&>") == "a<b>c"
    assert ps_replace("abc", "b", "$$") == "a$c"
    assert ps_replace("ac", "a(b)?c", "[$1]") == "[]"
    assert ps_replace("abc", "(b)", "$9") == "a$9c"
    assert ps_replace("abc", "(b)", "${x}") == "a${x}c"
    assert ps_replace("abab", "b", "x") == "axax"
    assert ps_replace("abc", "b", "") == "ac"


@requirement("S-RULE-13")
def test_replace_ignores_case_unless_asked() -> None:
    """S-RULE-13: `-replace` matches without case by default; `-creplace` (case_sensitive) does not."""
    assert ps_replace("aBc", "b", "x") == "axc"
    assert ps_replace("aBc", "b", "x", case_sensitive=True) == "aBc"
    assert ps_replace("abc", "b", "x", case_sensitive=True) == "axc"


@requirement("S-RULE-11")
def test_replace_and_split_refuse_patterns_and_subjects_that_could_stall() -> None:
    """S-RULE-11: a subject over 4096 characters, a nested quantifier or back-reference, and a pattern that does not
    compile are not evaluated (None); a subject of exactly 4096 is."""
    assert ps_replace("a" * 4096, "a", "b") == "b" * 4096
    assert ps_replace("a" * 4097, "a", "b") is None
    assert ps_replace("aaa", "(a+)+", "b") is None
    assert ps_replace("aaa", "(a*)*b", "b") is None
    assert ps_replace("aa", "(a)\\1", "b") is None
    assert ps_replace("aa", "(?<x>a)\\k<x>", "b") is None
    assert ps_replace("aa", "(", "b") is None
    assert ps_split("a," * 2048, ",") is not None
    assert ps_split("a" * 4097, ",") is None
    assert ps_split("aaa", "(a+)+") is None
    assert ps_split("aaa", "[") is None


@requirement("S-RULE-13")
def test_split_splits_on_a_regex_ignoring_case_unless_asked() -> None:
    """S-RULE-13: `'a1b2c' -split '\\d'` is a, b, c; `-csplit` keeps case; a pattern with a capturing group (whose
    captures .NET would add to the result) is not folded."""
    assert ps_split("a1b2c", "\\d") == ("a", "b", "c")
    assert ps_split("aXbxc", "x") == ("a", "b", "c")
    assert ps_split("aXbxc", "x", case_sensitive=True) == ("aXb", "c")
    assert ps_split("a,,b", ",") == ("a", "", "b")
    assert ps_split("a1b", "(\\d)") is None
    assert ps_split("a1b", "(?:\\d)") == ("a", "b")


# ---------------------------------------------------------------------------------------
# ps_text: command lines


@requirement("S-RULE-13")
def test_a_command_line_splits_into_its_program_and_the_rest() -> None:
    """S-RULE-13: the program is the first word, or the quoted text at the start (blanks included, quotes removed,
    an unclosed quote running to the end); the rest is trimmed of outer blanks and keeps its inner ones."""
    assert split_program('  "C:\\Program Files\\x.exe"  -a  b  ') == ("C:\\Program Files\\x.exe", "-a  b")
    assert split_program('"C:\\a b\\x.exe"') == ("C:\\a b\\x.exe", "")
    assert split_program('"C:\\a b\\x.exe"/c') == ("C:\\a b\\x.exe", "/c")
    assert split_program('"abc') == ("abc", "")
    assert split_program('"a" "b"') == ("a", '"b"')
    assert split_program('"" x') == ("", "x")
    assert split_program('"abc def') == ("abc def", "")
    assert split_program("cmd  /c   del x  ") == ("cmd", "/c   del x")
    assert split_program("cmd\t/c x") == ("cmd", "/c x")
    assert split_program("notepad") == ("notepad", "")
    assert split_program("   ") == ("", "")
    assert split_program("") == ("", "")


@requirement("S-RULE-13")
def test_verbatim_words_split_on_blanks_outside_double_quotes() -> None:
    """S-RULE-13: after `--%` the words are split on any white space outside double quotes; quotes are kept and a
    quoted part glued to a word belongs to it."""
    assert split_words('a  "b c"\td e"f g"') == ("a", '"b c"', "d", 'e"f g"')
    assert split_words("  x  ") == ("x",)
    assert split_words("") == ()
    assert split_words('"a b') == ('"a b',)
    assert split_words('""') == ('""',)
    assert split_words("a\nb") == ("a", "b")


# ---------------------------------------------------------------------------------------
# ps_tree: the grammar's kinds and fields


@requirement("S-RULE-13")
def test_kind_ids_name_every_id_of_the_kinds_asked_for() -> None:
    """S-RULE-13: every id kind_ids returns has one of the names asked for, every such id is returned, `ERROR`
    brings the error id, and a name the grammar lacks brings nothing."""
    ids = kind_ids("command", "variable")
    assert ids == frozenset(
        i for i in range(LANGUAGE.node_kind_count) if LANGUAGE.node_kind_for_id(i) in ("command", "variable")
    )
    assert {LANGUAGE.node_kind_for_id(i) for i in ids} == {"command", "variable"}
    assert ERROR_ID in kind_ids("ERROR")
    assert ERROR_ID not in kind_ids("command")
    assert kind_ids("no_such_kind") == frozenset()
    assert kind_ids() == frozenset()
    tree = parse_text("Get-Item $x").tree
    command = tree.root_node.named_descendant_for_byte_range(0, 11)
    assert command is not None
    assert any(n.kind_id in kind_ids("command") for n in _walk(tree.root_node))
    assert all(n.kind_id in kind_ids(n.type) for n in _walk(tree.root_node) if n.is_named)


@requirement("S-RULE-13")
def test_kind_id_is_the_one_id_of_a_kind_or_a_lookup_error() -> None:
    """S-RULE-13: a kind with one id gives it; a kind the grammar lacks, or one with several ids, raises LookupError
    naming the kind."""
    command = kind_id("command")
    assert LANGUAGE.node_kind_for_id(command) == "command"
    assert kind_ids("command") == frozenset({command})
    with pytest.raises(LookupError, match="0 kind ids for 'no_such_kind'"):
        kind_id("no_such_kind")
    with pytest.raises(LookupError, match="kind ids for 'end'"):
        kind_id("end")


@requirement("S-RULE-13")
def test_by_kind_keys_a_table_by_every_id_of_each_kind() -> None:
    """S-RULE-13: a table by kind name becomes the same table by kind id, each id of a kind carrying its value."""
    table = by_kind({"command": 1, "end": 2, "no_such_kind": 3})
    assert table[kind_id("command")] == 1
    assert {i for i, v in table.items() if v == 2} == kind_ids("end")
    assert len(kind_ids("end")) > 1
    assert 3 not in table.values()
    assert by_kind({}) == {}


@requirement("S-RULE-13")
def test_field_id_is_the_grammars_id_or_a_lookup_error() -> None:
    """S-RULE-13: a field the grammar has gives its id; one it lacks raises LookupError naming it."""
    assert field_id("command_name") == LANGUAGE.field_id_for_name("command_name")
    assert LANGUAGE.field_name_for_id(field_id("command_elements")) == "command_elements"
    with pytest.raises(LookupError, match="no field 'no_such_field'"):
        field_id("no_such_field")


@requirement("S-RULE-13")
def test_a_new_parser_reads_powershell() -> None:
    """S-RULE-13: a parser of one's own parses with the PowerShell grammar, apart from the shared one."""
    parser = new_parser()
    assert parser is not new_parser()
    tree = parser.parse(b"Get-Item C:\\x")
    assert not tree.root_node.has_error
    assert any(n.type == "command" for n in _walk(tree.root_node))


# ---------------------------------------------------------------------------------------
# ps_tree: the text as PowerShell reads it, and where node texts come from


def _walk(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.children))
    return out


def _leaf_texts(text: str, *, glued: bool = False) -> list[str]:
    parsed = parse_text(text, glued=glued)
    return [
        parsed.source.text(n) for n in _walk(parsed.tree.root_node) if n.child_count == 0 and n.end_byte > n.start_byte
    ]


@requirement("S-RULE-02")
def test_typographic_quotes_and_dashes_read_as_ascii() -> None:
    """S-RULE-02: curly single and double quotes are ASCII quotes; an en, em or horizontal dash before a letter at
    the start or after a blank, `(`, `,`, `;`, `|`, `{` or `=` is a hyphen; a lone surrogate is U+FFFD."""
    assert prepare_text("Get-Item x") == "Get-Item x"
    assert prepare_text("\u2018a\u2019 \u201ab\u201b") == "'a' 'b'"
    assert prepare_text("\u201ca\u201d \u201eb") == '"a" "b'
    assert prepare_text("rm \u2013Recurse \u2014Force \u2015Confirm") == "rm -Recurse -Force -Confirm"
    assert prepare_text("\u2013Recurse") == "-Recurse"
    assert prepare_text("rm \u2014Force") == "rm -Force"
    assert prepare_text("rm \u2015Force") == "rm -Force"
    assert prepare_text("f(\u2013a,\u2013b;\u2013c|\u2013d{\u2013e=\u2013f") == "f(-a,-b;-c|-d{-e=-f"
    assert prepare_text("a\u2013b \u2013 c \u20131") == "a\u2013b \u2013 c \u20131"
    assert prepare_text("caf\u00e9 \ud800x") == "caf\u00e9 \ufffdx"
    assert prepare_text("\u00e9") == "\u00e9"
    assert prepare("\u2018\u00e9\u2019") == "'\u00e9'".encode()
    assert prepare("ab") == b"ab"


@requirement("S-RULE-13")
def test_a_source_reads_node_texts_from_the_original() -> None:
    """S-RULE-13: a source of ASCII text slices it as a string, other text is decoded from its UTF-8 bytes (a
    split character read as U+FFFD, never an error); offsets map a repaired text's positions to the original's."""
    ascii_source = source_of("Get-Item")
    assert ascii_source == Source(b"Get-Item", "Get-Item")
    assert ascii_source.span(4, 8) == "Item"
    assert ascii_source.offsets == ()
    assert ascii_source.unrepaired_quotes is False
    wide = source_of("\u00e9a")
    assert wide.ascii_text is None
    assert wide.original == "\u00e9a".encode()
    assert wide.span(0, 2) == "\u00e9"
    assert wide.span(2, 3) == "a"
    assert wide.span(0, 1) == "\ufffd"
    mapped = Source(b"abcd", "abcd", (0, 1, 1, 3, 4))
    assert mapped.span(1, 3) == "bc"
    assert mapped.span(2, 4) == "bcd"
    mapped_wide = Source("\u00e9bcd".encode(), None, (0, 2, 3, 3, 5, 6))
    assert mapped_wide.span(0, 1) == "\u00e9"
    assert mapped_wide.span(1, 4) == "bcd"
    assert mapped_wide.span(0, 0) == ""


@requirement("S-RULE-11")
def test_a_source_reader_never_raises_on_a_split_character() -> None:
    """S-RULE-11: the reader closure and `text` give `span` for any byte range, one that splits a UTF-8 character
    included (read as U+FFFD), with or without an offset table."""
    wide = "\u00e9a\u00fc".encode()
    plain = Source(wide, None)
    mapped = Source(wide, None, (0, 1, 2, 3, 4, 5))
    for source in (plain, mapped):
        read = source.reader()
        for start in range(len(wide) + 1):
            for end in range(start, len(wide) + 1):
                node = SimpleNamespace(start_byte=start, end_byte=end)
                assert read(node) == source.span(start, end)  # type: ignore[arg-type]
                assert source.text(node) == source.span(start, end)  # type: ignore[arg-type]
    assert plain.reader()(SimpleNamespace(start_byte=0, end_byte=1)) == "\ufffd"  # type: ignore[arg-type]
    assert mapped.reader()(SimpleNamespace(start_byte=1, end_byte=4)) == "\ufffda\ufffd"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "Get-Item C:\\x -Force",
        "$a = 'x' + 1MB; Get-Item a,b",
        "$a = '\u00e9' + 1MB; Write-Output \u00e9,b",
        "Write-Output '\u00e9t\u00e9' caf\u00e9",
        "Get-ChildItem\tC:\\t",
        'Get-Item C:\\x\\User" Data\\y"',
        "\u00e9 a,b",
    ],
)
@requirement("S-RULE-13")
def test_every_way_to_read_a_node_text_agrees(text: str) -> None:
    """S-RULE-13: `text(node)` and the `reader()` closure give `span(start, end)` for every node, on ASCII and
    other text, repaired or not."""
    parsed = parse_text(text)
    source, read = parsed.source, parsed.source.reader()
    for node in _walk(parsed.tree.root_node):
        expected = source.span(node.start_byte, node.end_byte)
        assert source.text(node) == expected
        assert read(node) == expected
    assert source.text(parsed.tree.root_node) == text


@requirement("S-RULE-13")
def test_repaired_texts_are_read_back_in_their_original_spelling() -> None:
    """S-RULE-13: a number suffix (`1MB`) and a glued comma are rewritten for the grammar, yet every node reads the
    original text, ASCII or not, before and after the rewritten spots."""
    assert "1MB" in _leaf_texts("$a = 1MB")
    parsed = parse_text("$a = 1MB")
    assert parsed.error is None
    assert parsed.source.ascii_text == "$a = 1MB"
    assert len(parsed.source.offsets) == len("$a = 1048576") + 1
    assert parsed.source.offsets[0] == 0
    assert parsed.source.offsets[-1] == len("$a = 1MB")
    leaves = _leaf_texts("$a = '\u00e9' + 1MB; $b = '\u00fc' + 2KB; x")
    assert "1MB" in leaves
    assert "2KB" in leaves
    assert "'\u00fc'" in leaves
    assert leaves[-1] == "x"
    assert "".join(_leaf_texts("echo a,b,c")) == "echo a,b,c"
    assert "".join(_leaf_texts("\u00e9 a,b")) == "\u00e9 a,b"
    # `é a ,b` is parsed: each parsed byte offset maps to the original's, the inserted blank to the comma's
    assert parse_text("\u00e9 a,b").source.offsets == (0, 1, 2, 3, 4, 4, 5, 6)
    for text in ("echo a,b,c", "\u00e9 a,b"):
        parsed = parse_text(text)
        assert parsed.error is None, text
        assert parsed.source.offsets != (), text
    assert "".join(_leaf_texts("echo \u00e9,b, c")) == "echo \u00e9,b, c"
    assert _leaf_texts("$a = 1MB; echo x")[-1] == "x"


@requirement("S-RULE-11")
def test_offsets_of_a_long_repaired_text_map_past_the_precomputed_table() -> None:
    """S-RULE-11: a repaired text longer than 8 KB maps its offsets as well as a short one: a suffixed number early
    and late in it reads as written."""
    text = "$a = 1KB\n#" + "x" * 9000 + "\n$b = 2MB\n$c = 'z'"
    leaves = _leaf_texts(text)
    assert "1KB" in leaves
    assert "2MB" in leaves
    assert leaves[-1] == "'z'"
    assert len(parse_text(text).source.offsets) > 9000


@requirement("S-RULE-13")
def test_parse_reports_the_first_syntax_error_by_its_text() -> None:
    """S-RULE-13: a text the grammar rejects (even repaired) keeps the original tree and names the first error by
    its text, blanks folded, at most 40 characters; a missing token with no text is a bare syntax error."""
    parsed = parse_text("Get-Item (")
    assert parsed.error == "PowerShell syntax error near 'Get-Item ('"
    assert parsed.source == source_of("Get-Item (")
    assert parsed.tree.root_node.has_error
    assert parse_text("Get-Item a\n\n  )  b c").error == "PowerShell syntax error near ') b c'"
    assert parse_text("x" * 50 + " (").error == "PowerShell syntax error near '" + "x" * 40 + "'"
    assert parse_text("function f {").error == "PowerShell syntax error"
    assert parse_text("$a = 1MB + (").error == "PowerShell syntax error near '$a = 1MB + ('"


@requirement("S-RULE-13")
def test_a_valid_text_parses_without_error_or_repair() -> None:
    """S-RULE-13: valid PowerShell parses with no error and no offset table; tabs separate words as blanks do."""
    for text in ("Get-Item C:\\x", "Get-ChildItem\tC:\\t", "$a = 1", "Remove-Item \u2013Recurse x"):
        parsed = parse_text(text)
        assert parsed.error is None, text
        assert parsed.source.offsets == (), text
    assert _leaf_texts("Get-ChildItem\tC:\\t") == ["Get-ChildItem", "\t", "C:\\t"]
    assert parse_text("Write-Output 'a\tb'").source.text(parse_text("Write-Output 'a\tb'").tree.root_node) == (
        "Write-Output 'a\tb'"
    )
    assert "'a\tb'" in _leaf_texts("Write-Output 'a\tb'")


@requirement("S-RULE-44")
def test_a_quote_glued_to_a_word_is_read_whole_only_when_asked() -> None:
    """S-RULE-44: parsed as it is, a text with a quote says so (the walker may ask again); with `glued` the quoted
    part with a blank inside a bareword stays one word."""
    text = 'Get-Item C:\\x\\User" Data\\y"'
    plain = parse_text(text)
    assert plain.source.unrepaired_quotes is True
    assert 'C:\\x\\User"' in _leaf_texts(text)
    glued = parse_text(text, glued=True)
    assert glued.source.unrepaired_quotes is False
    assert 'C:\\x\\User" Data\\y"' in _leaf_texts(text, glued=True)
    assert parse_text("Get-Item 'a'").source.unrepaired_quotes is True
    assert parse_text('Get-Item "a"').source.unrepaired_quotes is True
    assert parse_text("Get-Item 'a'", glued=True).source.unrepaired_quotes is False
    assert parse_text("Get-Item a").source.unrepaired_quotes is False
    assert parse_text("$a = '1' + 1MB").source.unrepaired_quotes is False
    assert parse_text("Get-Item 'a'").source == Source(b"Get-Item 'a'", "Get-Item 'a'", (), unrepaired_quotes=True)
    # `kb` with no digit before it is no number suffix: the repair is not tried, the quote is unrepaired
    assert parse_text("Get-Item 'a.kb'").source.unrepaired_quotes is True
    # a suffix inside a string sends the text through the repair, which leaves it as it is: the repair was tried
    assert parse_text("Get-Item '1kb'").source.unrepaired_quotes is False


@requirement("S-RULE-13")
def test_text_of_a_node_is_its_text_as_parsed() -> None:
    """S-RULE-13: text_of reads the node's own bytes as parsed, decoding them without error."""
    tree = PARSER.parse("Write-Output '\u00e9'".encode())
    assert text_of(tree.root_node) == "Write-Output '\u00e9'"
    assert text_of(PARSER.parse(b"Write-Output \xff").root_node) == "Write-Output \ufffd"
    missing = first_error(PARSER.parse(b"function f {").root_node)
    assert missing is not None
    assert text_of(missing) == ""


# ---------------------------------------------------------------------------------------
# ps_tree: wrappers and errors


def _unwrap_slowly(node: Node) -> Node:
    while node.kind_id in WRAPPER_IDS and node.child_count == 1:
        node = node.child(0)  # type: ignore[assignment]
    return node


_SHAPES = [
    "1 + 2",
    "'x'",
    '"x $a"',
    "Get-Item x",
    "$a",
    "${a b}",
    "[int]5",
    "0x10",
    "12",
    "$a = 1",
    "@(1, 2)",
    "-not $x",
    "!$a",
    "1..3",
    "'{0}' -f 1",
    "(1)",
    "((1))",
    "$a.b",
    "$a[0]",
    "& $x",
    "a | b",
    "{ x }",
    "[IO.File]::Read(1)",
    "$(1)",
    "@'\nx\n'@",
    '@"\nx\n"@',
    ",1",
    "x -eq 1",
    "Get-Item -Path x (1 + 2) $y.z",
    "if ($a) { 'b' } else { 3 }",
    "foreach ($i in 1..2) { $i }",
    "$x = @{ a = 1 }",
    "Get-Item (",
    "$a = (1",
    "'a' + ",
    "function f {",
    "x\n(\n1",
    "Get-Date",
    "& foo",
    "[IO.File]",
    "[int[]]$a",
    "@{a=1}.a",
    "gci $p\\x$(Remove-Item C:\\Windows\\System32)",
    '7z x C:\\t\\e.7z -o"C:\\Users\\me\\.ssh"',
    'Copy-Item -Path:$env:LOCALAPPDATA\\Google\\Chrome\\User" Data\\Default\\Login Data" C:\\t',
]


@requirement("S-RULE-13")
def test_skipping_wrappers_reaches_the_node_a_chain_stands_for() -> None:
    """S-RULE-13: for every wrapper node of many statement shapes (broken ones too), skip_wrappers and unwrap end
    where following the one-child chain node by node ends; a node that is no wrapper is its own unwrapping."""
    checked = 0
    for text in _SHAPES:
        root = parse_text(text).tree.root_node
        for node in _walk(root):
            slow = _unwrap_slowly(node)
            got = unwrap(node)
            assert (got.start_byte, got.end_byte, got.kind_id) == (slow.start_byte, slow.end_byte, slow.kind_id), text
            if node.kind_id in WRAPPER_IDS:
                fast = skip_wrappers(node)
                assert (fast.start_byte, fast.end_byte, fast.kind_id) == (slow.start_byte, slow.end_byte, slow.kind_id)
                checked += 1
    assert checked > 100


@requirement("S-RULE-13")
def test_skipping_wrappers_ends_at_the_expression() -> None:
    """S-RULE-13: a statement's chain ends at its expression: a string literal (not its characters), an integer
    literal, a variable, a binary expression, a command."""
    expected = {
        "'x'": "string_literal",
        "12": "integer_literal",
        "$a": "variable",
        "1 + 2": "additive_expression",
        "Get-Item x": "command",
        "(1)": "parenthesized_expression",
    }
    for text, kind in expected.items():
        statement = parse_text(text).tree.root_node.child(0)
        assert statement is not None
        node = statement
        while node.kind_id not in WRAPPER_IDS and node.child_count == 1:
            node = node.child(0)  # type: ignore[assignment]
        assert skip_wrappers(node).type == kind, text
        assert unwrap(node).type == kind, text


@requirement("S-RULE-13")
def test_first_error_is_the_first_error_or_missing_node_in_text_order() -> None:
    """S-RULE-13: a tree without error has none; otherwise the first ERROR or MISSING node in document order."""
    assert first_error(parse_text("Get-Item x").tree.root_node) is None
    for text in ("Get-Item (", "function f {", "Get-Item a; (; )", "a |\n)", "x\n(\n1"):
        root = PARSER.parse(text.encode()).root_node
        found = first_error(root)
        expected = next(n for n in _walk(root) if n.is_error or n.is_missing)
        assert found is not None, text
        assert (found.start_byte, found.end_byte, found.type) == (expected.start_byte, expected.end_byte, expected.type)
    missing = first_error(PARSER.parse(b"function f {").root_node)
    assert missing is not None
    assert missing.is_missing


# ---------------------------------------------------------------------------------------
# ps_tree: assigned variables and argument words


@requirement("S-RULE-13")
def test_assigned_variables_are_every_variable_a_text_may_assign() -> None:
    """S-RULE-13: `$x =`, `$a, $b =`, compound assignments, `$x++`, `++$x`, `$x--`, `--$x` and `foreach ($x in`
    assign (names as lookup keys); a comparison or a mere use does not."""
    assert assigned_variables("$a = 1") == {"a"}
    assert assigned_variables("$A=1") == {"a"}
    assert assigned_variables("$a, $b = 1, 2") == {"a", "b"}
    assert assigned_variables("$a,$b,$c=1") == {"a", "b", "c"}
    for op in ("+=", "-=", "*=", "/=", "%="):
        assert assigned_variables(f"$x {op} 1") == {"x"}, op
    assert assigned_variables("$x++") == {"x"}
    assert assigned_variables("$x--") == {"x"}
    assert assigned_variables("++$x") == {"x"}
    assert assigned_variables("-- $y") == {"y"}
    assert assigned_variables("foreach ($i in $l) { }") == {"i"}
    assert assigned_variables("ForEach( $i in $l) { }") == {"i"}
    assert assigned_variables("${my var} = 1") == {"my var"}
    assert assigned_variables("$Script:X = 1; $env:Y = 2") == {"x", "env:y"}
    assert assigned_variables("$a == 1") == set()
    assert assigned_variables("$a -eq 1") == set()
    assert assigned_variables("Get-Item $a") == set()
    assert assigned_variables("foreach") == set()
    assert assigned_variables("") == set()


@requirement("S-RULE-13")
def test_variable_keys_drop_the_sigil_braces_case_and_plain_scopes() -> None:
    """S-RULE-13: `$Script:X`, `${x}`, `@p` and `$global:a` are the variables x, x, p and a; `env:` and other
    drives stay in the key."""
    assert variable_key("$Script:X") == "x"
    assert variable_key("${x}") == "x"
    assert variable_key("${Global:Y}") == "y"
    assert variable_key("@p") == "p"
    for scope in ("script", "global", "local", "private", "using"):
        assert variable_key(f"${scope.upper()}:Name") == "name", scope
    assert variable_key("$env:Path") == "env:path"
    assert variable_key("$function:f") == "function:f"
    assert variable_key("$a") == "a"
    assert variable_key("${a:b:c}") == "a:b:c"
    assert variable_key("$script:a:b") == "a:b"
    assert variable_key("${x") == "{x"
    assert variable_key("$x}") == "x}"


@requirement("S-RULE-44")
def test_split_arguments_reads_words_as_argument_mode_does() -> None:
    """S-RULE-44: words split at blanks outside quotes and brackets; a comma joins a word to the one before (an
    array); a backtick escapes the next character; the statement ends at `;`, `|` or a newline outside brackets."""
    assert split_arguments("a") == ([("a", False)], 1)
    assert split_arguments('"`x"') == ([('"`x"', False)], 4)
    assert split_arguments("a`x") == ([("a`x", False)], 3)
    assert split_arguments("a `;") == ([("a", False), ("`;", False)], 4)
    assert split_arguments("X Y") == ([("X", False), ("Y", False)], 3)
    words, end = split_arguments('cmd /c \'a b\' "c `" d" (1, 2) {x; y} [a b]`  z')
    assert words == [
        ("cmd", False),
        ("/c", False),
        ("'a b'", False),
        ('"c `" d"', False),
        ("(1, 2)", False),
        ("{x; y}", False),
        ("[a b]` ", False),
        ("z", False),
    ]
    assert end == len('cmd /c \'a b\' "c `" d" (1, 2) {x; y} [a b]`  z')
    assert split_arguments("a b,c , d") == ([("a", False), ("b", False), ("c", True), ("d", True)], 9)
    assert split_arguments("a ,b") == ([("a", False), ("b", True)], 4)
    assert split_arguments("a; b") == ([("a", False)], 1)
    assert split_arguments("a | b") == ([("a", False)], 2)
    assert split_arguments("a\nb") == ([("a", False)], 1)
    assert split_arguments("a (b; c) d") == ([("a", False), ("(b; c)", False), ("d", False)], 10)
    assert split_arguments("a ((b) c) d") == ([("a", False), ("((b) c)", False), ("d", False)], 11)
    assert split_arguments("a 'b;c' \"d|e\"") == ([("a", False), ("'b;c'", False), ('"d|e"', False)], 13)
    assert split_arguments("a 'b`'") == ([("a", False), ("'b`'", False)], 6)
    assert split_arguments("a `;b") == ([("a", False), ("`;b", False)], 5)
    assert split_arguments("a `") == ([("a", False), ("`", False)], 3)
    assert split_arguments('a "b`') == ([("a", False), ('"b`', False)], 5)
    assert split_arguments("a 'b") == ([("a", False), ("'b", False)], 4)
    assert split_arguments("") == ([], 0)
    assert split_arguments("  ") == ([], 2)
    assert split_arguments("a\tb") == ([("a", False), ("b", False)], 3)


@requirement("S-RULE-13")
@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2015"])
def test_each_typographic_dash_alone_starts_a_parameter(dash: str) -> None:
    """S-RULE-13: PowerShell reads an en dash, an em dash and a horizontal bar as `-`, each on its own in a text."""
    assert prepare_text(f"Remove-Item {dash}Recurse C:\\t\\old") == "Remove-Item -Recurse C:\\t\\old"
    assert args_of(f"Remove-Item {dash}Recurse C:\\t\\old", "remove-item") == [("C:\\t\\old",)]
