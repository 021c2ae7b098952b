"""What a Type, MultiEdit or Clipboard call puts in, exactly (S-RULE-12, S-RULE-18); found by mutation testing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from policy.observation import Capture, Element, Point, Window
from policy.rules.keyboard import TypedInput, TypingTarget, typed_inputs, typing_target, unentered_after
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


# ---------------------------------------------------------------------------------------
# Where typed text lands, on captures built by hand (found by mutation testing)

T = TypingTarget
CHROME = "Example - Google Chrome"


def _win(name: str, width: int = 1000, height: int = 800) -> Window:
    return Window(name=name, depth=0, status="Normal", width=width, height=height, handle=7)


def _line(
    control: str,
    name: str,
    point: Point | None = None,
    *,
    window: str | None,
    depth: int = 1,
    kind: str = "element",
    flags: tuple[str, ...] = (),
) -> Element:
    return Element(
        kind=kind,  # type: ignore[arg-type]
        control=control,
        name=name,
        point=point,
        flags=frozenset(flags),
        depth=depth,
        window=window,
    )


def _top(name: str) -> Element:
    return _line("window", name, window=name, depth=0, kind="window")


def _cap(*elements: Element, focused: Window | None = None, windows: tuple[Window, ...] = ()) -> Capture:
    return Capture(tool="Snapshot", focused=focused, windows=windows, elements=elements)


@requirement("S-RULE-12")
def test_with_no_focus_shown_the_windows_whose_tree_shows_a_command_place_are_read() -> None:
    """S-RULE-12: no focused window or element: the windows with elements are judged, riskiest first."""
    cap = _cap(
        _top("notes.txt - Notepad"),
        _line("edit", "Text editor", (100, 100), window="notes.txt - Notepad"),
        _top("Windows PowerShell"),
        _line("document", "Text Area", (500, 500), window="Windows PowerShell"),
    )
    assert typing_target(cap, None) == (T.CONSOLE, "the console window 'Windows PowerShell'")


@requirement("S-RULE-12")
def test_a_window_line_alone_is_not_a_place_the_keyboard_is_known_to_be_in() -> None:
    """S-RULE-12: only elements group under a window; a bare window line with no focus says nothing."""
    cap = _cap(_top("Run"), _top("notes.txt - Notepad"))
    assert typing_target(cap, None) == (
        T.UNKNOWN,
        "an unknown place: the observation shows no focused window or element",
    )


@requirement("S-RULE-12")
def test_a_focused_window_with_no_focused_element_is_described_as_unseen() -> None:
    """S-RULE-12: the focused window is named when nothing in it holds the keyboard."""
    cap = _cap(focused=_win("notes.txt - Notepad"))
    assert typing_target(cap, None) == (T.UNKNOWN, "somewhere in 'notes.txt - Notepad', which shows no focused element")


@requirement("S-RULE-12")
def test_a_run_window_with_structure_but_no_elements_is_the_run_box() -> None:
    """S-RULE-12: a Run window whose tree shows no element (only panes) is the Run box."""
    cap = _cap(_top("Run"), _line("pane", "", window="Run", kind="structural"), focused=_win("Run"))
    assert typing_target(cap, None) == (T.RUN_BOX, "the Run box")


@requirement("S-RULE-12")
def test_only_elements_are_places_a_point_lands_on_not_text_lines() -> None:
    """S-RULE-12: a text line printed at the point is not where the text goes; the nearest element is."""
    cap = _cap(
        _top("notes.txt - Notepad"),
        _line("text", "hello", (300, 300), window="notes.txt - Notepad", kind="text"),
        _top("Windows PowerShell"),
        _line("document", "Text Area", (900, 900), window="Windows PowerShell"),
    )
    assert kind_at(cap, (300, 300)) == T.CONSOLE


def kind_at(cap: Capture, point: Point | None) -> TypingTarget:
    return typing_target(cap, point)[0]


@requirement("S-RULE-12")
def test_a_focused_element_puts_its_window_in_the_foreground_context_in_order() -> None:
    """S-RULE-12: the focused window comes first, then each window holding a focused element."""
    cap = _cap(
        _top("Command Prompt"),
        _line("document", "Text Area", (50, 50), window="Command Prompt", flags=("focused",)),
        _top("notes.txt - Notepad"),
        _line("edit", "Text editor", (700, 700), window="notes.txt - Notepad"),
        focused=_win("Windows PowerShell"),
    )
    assert typing_target(cap, (700, 701)) == (T.CONSOLE, "the console window 'Windows PowerShell'")
    only_element = replace(cap, focused=_win("notes.txt - Notepad"))
    assert typing_target(only_element, (700, 701)) == (T.CONSOLE, "the console window 'Command Prompt'")


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("control", "flags", "expected"),
    [
        ("edit", ("password",), (T.TEXT, "the password field 'PIN' in 'Sign in'")),
        ("edit", (), (T.TEXT, "the edit 'PIN' in 'Sign in'")),
    ],
    ids=["password", "plain"],
)
def test_a_text_field_is_described_by_its_control_or_as_a_password_field(
    control: str, flags: tuple[str, ...], expected: tuple[TypingTarget, str]
) -> None:
    """S-RULE-12: the reason names the field a person would recognise."""
    cap = _cap(_top("Sign in"), _line(control, "PIN", (10, 10), window="Sign in", flags=flags))
    assert typing_target(cap, (10, 10)) == expected


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("title", "control", "expected"),
    [
        ("Search", "edit", (T.RUN_BOX, "the Search search box, which starts what is typed")),
        ("Start", "edit", (T.RUN_BOX, "the Start search box, which starts what is typed")),
        ("Search", "button", (T.TEXT, "the button 'Box' in 'Search'")),
        ("Searching", "edit", (T.TEXT, "the edit 'Box' in 'Searching'")),
    ],
)
def test_the_start_menu_search_edit_runs_what_is_typed(
    title: str, control: str, expected: tuple[TypingTarget, str]
) -> None:
    """S-RULE-12: the edit of a window titled Search or Start starts what is typed; other controls do not."""
    cap = _cap(_top(title), _line(control, "Box", (10, 10), window=title))
    assert typing_target(cap, (10, 10)) == expected


@requirement("S-RULE-12")
def test_an_address_bar_outside_any_window_is_described_with_an_empty_title() -> None:
    """S-RULE-12: a browser's address bar under a depth-0 line that is no window is named with title ''."""
    cap = _cap(
        _line("pane", "Shell", window=None, depth=0, kind="structural"),
        _line("edit", "Address and search bar", (10, 10), window=None),
    )
    assert typing_target(cap, (10, 10)) == (T.ADDRESS_BAR, "the address bar 'Address and search bar' of ''")


def _band(*lines: tuple[int, str, str], window: str | None = None) -> Capture:
    """A tree of (depth, control, name) lines; the `Address` edit is at (10, 10)."""
    return _cap(
        *(
            _line(
                c,
                n,
                (10, 10) if n == "Address" else None,
                window=window,
                depth=d,
                kind="element" if n == "Address" else "structural",
            )
            for d, c, n in lines
        )
    )


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([(0, "pane", "Shell"), (1, "pane", "Address Band Root"), (2, "edit", "Address")], T.ADDRESS_BAR),
        ([(0, "pane", "Shell"), (1, "pane", "Other"), (2, "edit", "Address")], T.TEXT),
        # a sibling at the same depth encloses nothing
        ([(0, "pane", "Shell"), (1, "pane", "Address Band Root"), (1, "edit", "Address")], T.TEXT),
        # the band two levels up still encloses it
        (
            [(0, "pane", "Shell"), (1, "pane", "Address Band Root"), (2, "pane", "Bar"), (3, "edit", "Address")],
            T.ADDRESS_BAR,
        ),
        ([(0, "pane", "Address Band Root"), (1, "pane", "Bar"), (2, "edit", "Address")], T.ADDRESS_BAR),
        # a line after the edit encloses nothing
        ([(0, "pane", "Shell"), (1, "edit", "Address"), (0, "pane", "Address Band Root")], T.TEXT),
    ],
    ids=["enclosed", "other-pane", "sibling", "grandparent", "root", "after"],
)
def test_an_address_edit_is_an_address_bar_only_inside_the_address_band(
    lines: list[tuple[int, str, str]], expected: TypingTarget
) -> None:
    """S-RULE-12: Explorer's `Address` edit is known by the `Address Band Root` pane that encloses it."""
    assert kind_at(_band(*lines), (10, 10)) == expected


@requirement("S-RULE-12")
def test_an_address_band_anywhere_in_the_window_or_an_explorer_title_makes_address_an_address_bar() -> None:
    """S-RULE-12: the band named elsewhere in the same window, or a File Explorer title, is enough."""
    band = _cap(
        _top("Documents"),
        _line("pane", "Address Band Root", window="Documents", kind="structural"),
        _line("edit", "Address", (10, 10), window="Documents"),
    )
    assert typing_target(band, (10, 10)) == (T.ADDRESS_BAR, "the address bar of 'Documents'")
    explorer = _cap(
        _top("Documents - File Explorer"), _line("edit", "Address", (10, 10), window="Documents - File Explorer")
    )
    assert kind_at(explorer, (10, 10)) == T.ADDRESS_BAR
    plain = _cap(_top("Documents"), _line("edit", "Address", (10, 10), window="Documents"))
    assert kind_at(plain, (10, 10)) == T.TEXT


@requirement("S-RULE-12")
def test_a_web_pages_address_field_is_not_explorers_address_bar() -> None:
    """S-RULE-12: in a browser window only the browser's own bar names count, not Explorer's `Address`."""
    cap = _cap(
        _top(CHROME),
        _line("pane", "Address Band Root", window=CHROME, kind="structural"),
        _line("document", "Example", (500, 600), window=CHROME),
        _line("edit", "Address", (500, 700), window=CHROME),
    )
    assert typing_target(cap, (500, 700)) == (T.TEXT, f"the edit 'Address' in {CHROME!r}")


def _browser(*, size: Window | None, page: Point | None, extra: tuple[Element, ...] = ()) -> Capture:
    lines = [_top(CHROME), *extra]
    if page is not None:
        lines.append(_line("document", "Example", page, window=CHROME))
    lines.append(_line("button", "Go", (900, 900), window=CHROME))
    return _cap(*lines, windows=(size,) if size else ())


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("y", "toolbar"),
    [(199, True), (200, False), (250, False)],
)
def test_a_point_above_the_browser_page_is_read_as_its_toolbar(y: int, toolbar: bool) -> None:
    """S-RULE-12: page centre 500, window height 840: the page starts at most (840-240)/2 = 300 above it, at y 200."""
    cap = _browser(size=_win(CHROME, height=840), page=(500, 500))
    expected = (
        (T.ADDRESS_BAR, f"the toolbar of {CHROME!r}, where its address bar is")
        if toolbar
        else (T.TEXT, f"the document 'Example' in {CHROME!r}")
    )
    assert typing_target(cap, (500, y)) == expected


@requirement("S-RULE-12")
def test_the_browser_page_is_its_document_not_the_first_element_with_a_point() -> None:
    """S-RULE-12: the page top is estimated from the page document, not from a toolbar button printed first."""
    button = _line("button", "Reload", (500, 100), window=CHROME)
    cap = _browser(size=_win(CHROME, height=840), page=(500, 500), extra=(button,))
    # the page top is at most y 200 (500 - 300); the button read as the page would put it at -200
    assert kind_at(cap, (500, 150)) == T.ADDRESS_BAR


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("size", "page"),
    [(None, (500, 500)), (_win(CHROME, height=840), None)],
    ids=["no-window-size", "no-page-document"],
)
def test_a_browser_window_that_cannot_be_placed_may_be_its_address_bar(size: Window | None, page: Point | None) -> None:
    """S-RULE-12: without the window's size or a page document, a point in a browser may hit its address bar."""
    assert kind_at(_browser(size=size, page=page), (900, 880)) == T.ADDRESS_BAR


@requirement("S-RULE-12")
@pytest.mark.parametrize("loc", [["a", 5], [5, "a"], [True, 5], [5, False], [1.5, 2]])
def test_a_type_location_is_a_point_only_with_two_integers(loc: list[object]) -> None:
    """S-RULE-12: `loc` items that are not integers (a bool, a string, a float) give no point."""
    assert typed_inputs("Type", {"text": "x", "loc": loc}) == [TypedInput(text="x", enter=False)]
    assert typed_inputs("Type", {"text": "x", "loc": [3, 4]})[0].point == (3, 4)


@requirement("S-RULE-12")
def test_only_typing_adds_to_the_line_and_multiedit_leaves_its_last_item() -> None:
    """S-RULE-12: a Clipboard set types nothing; MultiEdit clears each field, so the last item's text is the line."""
    assert unentered_after("dir", "Clipboard", {"mode": "set", "text": "x"}) == "dir"
    labels = {"labels": [[1, "a"], [2, "b"], [3, "c"]]}
    assert unentered_after("dir", "MultiEdit", labels) == "c"
