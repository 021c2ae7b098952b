"""Valid PowerShell the tree-sitter grammar rejects, rewritten so it parses (issue 18).

tree-sitter-powershell 0.26 reports syntax errors on ordinary commands: bareword arrays in
arguments (`Select-Object Id, StartTime`, `cmd /c echo %COMSPEC:~0,19%`), a variable with a
path after it as a bare argument (`Copy-Item $env:TEMP\\a.txt x`), number suffixes in
expressions (`-gt 1MB`), two switch clauses on one line (`1 {'a'} default {'b'}`), a parameter
name with a digit (`-EnableSMB1Protocol`), the end-of-parameters token (`wsl -d x -- rm …`) and an
assembly-qualified type literal (`[Windows.Security.Credentials.PasswordVault,…,ContentType=…]`).
`repair` rewrites exactly these spots, outside strings, here-strings, comments and braced
variables, into forms the grammar reads the same way PowerShell does:

| written                | parsed as              | why it means the same                             |
|------------------------|------------------------|---------------------------------------------------|
| `a,b` / `a, b`         | `a ,b` / `a ,b` (moved)| `,b` continues the array (`_words` joins it)       |
| `$env:T\\x`             | `"$env:T\\x"`           | a bareword expands like a double-quoted string     |
| `1MB`, `0x10KB`        | `1048576`, `16384`     | the literal's value                               |
| `} default {` (switch) | `};default {`          | a clause separator the grammar needs, PowerShell not |
| `-EnableSMB1Protocol`  | `-EnableSMB_Protocol`  | the grammar's parameters have no digits        |
| `--` (a word)          | `-_`                   | the end-of-parameters token (read as `--`)        |
| `[T,Asm,K=V]::`        | `[T        ]::`        | an assembly-qualified type (`ps_names.canonical_type`) |
| `C:\\x\\${n}\\y`          | `"C:\\x\\${n}\\y"`        | a bareword expands like a double-quoted string     |

Every edit is recorded as an anchor (parsed offset → original offset), so the walker reads
every node's text from the original (`ps_tree.Source.span`): no value changes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_SUFFIXES = {"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40, "pb": 1 << 50}
# A quote inside a bareword whose quoted part holds a blank (`C:\\x\\User" Data\\y"`): the grammar
# splits the word without an error, so such a text is repaired before it is trusted (a superset;
# `ps_tree.parse_text` says when).
GLUED_QUOTE = re.compile(r"""[^\s$(){}\[\];|,@'"`<>&](?:"[^"\n]*[ \t]|'[^'\n]*[ \t])""")
# Whether any number suffix appears at all (the grammar may misparse one without an error).
HAS_NUMBER_SUFFIX = re.compile(r"\d(?:kb|mb|gb|tb|pb)(?![\w.])", re.IGNORECASE)
# `kb`…`pb` in lower-case text: the search jumps from `b` to `b` (a literal, found the fast way) and
# looks behind each, where a substring search per suffix would read the whole text five times.
_SUFFIX_HINT = re.compile(r"b(?<=[kmgtp]b)")


def may_have_number_suffix(text: str) -> bool:
    """False when `HAS_NUMBER_SUFFIX` (or a suffixed hex number) cannot match: ASCII text without `kb`…`pb`.

    One literal-led search of the lower-cased text, where the case-insensitive pattern tries every
    digit (a hot path: every text is asked).
    """
    if not text.isascii():
        return True  # case folding beyond ASCII (the Kelvin sign is a `k`): let the pattern decide
    return _SUFFIX_HINT.search(text.lower()) is not None


# Characters that cannot end the bareword before an array comma (a quote, a bracket, an operator…).
_NOT_BAREWORD = frozenset(" \t\r\n'\"`(){}[];,|&<>=@#")
_DIGIT = re.compile("[0-9]")
# One pass over the text: strings, here-strings, comments, escapes and braced variables are
# matched whole (`skip`), so a comma or number inside them is never touched.
# Each branch starts with its literal character and checks what precedes it after (a leading
# lookbehind would be tried at every position): with the guard, one pass costs ~30 ns a character.
_SKIP = r"""
      (?P<skip>
        @'[ \t]*\r?\n.*?(?:\r?\n'@|\Z)                      # verbatim here-string
      | @"[ \t]*\r?\n.*?(?:\r?\n"@|\Z)                      # expandable here-string
      | '(?:[^']|'')*(?:'|\Z)                               # verbatim string
      | "(?:[^"`]|`.|"")*(?:"|\Z)                           # expandable string
      | <\#.*?(?:\#>|\Z)                                    # block comment
      | \#(?:(?<=^\#)|(?<=[\s(=,+*/%;{\[|!]\#))[^\n]*       # line comment (`a#b` is a word)
      | `.                                                  # escaped character
      | \$\{[^{}]*\}(?![\\])                                # braced variable without a path after it
      )
    | (?P<varpath>\$(?:\{[^{}`"'$]*\}|[A-Za-z_]\w*(?::\w+)?)\\(?:[^\s;|&)}<>,"'`(){}\[\]]|`[^\r\n])*)
"""
_SWITCH = r"""
    | (?P<switch>[sS](?:(?<=^.)|(?<=[\s(=,+*/%;{\[|!].))(?i:witch)(?=[\s(-]))
"""
_NUMBER = r"""
    | (?P<number>[0-9](?:(?<=^.)|(?<=[^\w$.\-].)|(?<=[^\w]-.)|(?<=^-.))
        (?P<digits>(?i:x[0-9a-f]+)|[0-9]*)(?P<suffix>(?i:kb|mb|gb|tb|pb))(?![\w.]))
"""
_RARE = r"""
    | (?P<parameter>-(?:(?<=^-)|(?<=[ \t]-))[A-Za-z_?][A-Za-z0-9_?\-]*[0-9][A-Za-z0-9_?\-]*(?=[\s:;|)}]|\Z))
    | (?P<endparameters>-(?:(?<=^-)|(?<=[ \t]-))-(?=[\s;|)}]|\Z))
    | (?P<assembly>\[(?:(?<=^\[)|(?<=[^\w\])}]\[))[ \t]*[A-Za-z_][\w.`+]*
        (?P<qualifier>[ \t]*,[A-Za-z0-9_.=, \t\-]*)\](?=::|\.))
"""
_BRACKETS = r"""
    | (?P<open>[({])
    | (?P<close>[)}])
"""
_COMMA = r"""
    | (?P<comma>,)
    )"""
_FLAGS = re.VERBOSE | re.DOTALL | re.MULTILINE


@functools.lru_cache(maxsize=16)
def token_pattern(rare: bool, switch: bool, number: bool, brackets: bool) -> re.Pattern[str]:
    """The one-pass token pattern with only the branches that can matter in the text at hand.

    `switch` brings the `switch` keyword, `number` the number suffixes, `rare` the rare spots,
    `brackets` the nesting `repair` tracks for a switch body. A branch is left out only where it
    could not have matched (`needed_branches`), or, for the brackets, where their count cannot mark a
    block (no `switch`, and no `{` or no `)`: an unmatched `)` takes the count below zero, where a
    `{` is taken for a switch body); no other branch starts with its characters, so what the pass
    finds is what the full pattern finds. Each variant starts with a lookahead on the first
    characters its branches can start with, so the engine fails fast at every other position; `s`,
    digits, `-` and `[` (common) are in it only with their branch.
    """
    first = "@'\"<\\#`$,"
    branches = _SKIP
    if switch:
        first += "sS"
        branches += _SWITCH
    if number:
        first += "0-9"
        branches += _NUMBER
    if rare:
        first += "\\-\\["
        branches += _RARE
    if brackets:
        first += "(){}"
        branches += _BRACKETS
    return re.compile(f"(?=[{first}])(?:" + branches + _COMMA, _FLAGS)


def needed_branches(text: str) -> tuple[bool, bool, bool, bool]:
    """The `token_pattern` branches `text` may need: (rare, switch, number, brackets), each a superset test."""
    # Beyond ASCII, case folding (`ı`, the Kelvin sign) may spell the keyword or a suffix otherwise:
    # those branches stay. In ASCII, one lower-case copy serves both tests (`may_have_number_suffix`).
    if text.isascii():
        lowered = text.lower()
        switch = "switch" in lowered
        number = _SUFFIX_HINT.search(lowered) is not None
    else:
        switch = number = True
    brackets = switch or ("{" in text and ")" in text)
    return _may_be_rare(text), switch, number, brackets


# The rare shapes, strings not excluded (a superset), each starting with a literal the engine skips to.
# `-Name1`: a word with a digit after its first letter. The characters before the first digit are
# matched possessively (no digit among them to give back), so a word without a digit is read once
# instead of backtracked through. A match still starts at the word's `-`; ending at the first digit
# only lets further matches start inside the word, never after a blank, and `_may_be_rare` counts
# only matches at the start or after a blank.
_PARAMETER_HINT = re.compile(r"-[A-Za-z_?][A-Za-z_?\-]*+[0-9]")
_DASHES_HINT = re.compile(r"--(?=[\s;|)}]|\Z)")
_ASSEMBLY_HINT = re.compile(r"\[[ \t]*[A-Za-z_][\w.`+]*[ \t]*,")


def _may_be_rare(text: str) -> bool:
    """Whether `text` may hold a rare spot (`-Name1`, `--`, `[T,Assembly]`; cheap: literal-led searches)."""
    if "[" in text and _ASSEMBLY_HINT.search(text):
        return True
    if "--" in text and any(m.start() == 0 or text[m.start() - 1] in " \t" for m in _DASHES_HINT.finditer(text)):
        return True
    return any(m.start() == 0 or text[m.start() - 1] in " \t" for m in _PARAMETER_HINT.finditer(text))


@dataclass(frozen=True, slots=True)
class Repair:
    """A rewritten text and where its offsets fall in the original.

    Attributes:
        text: the text to parse.
        anchors: `(parsed offset, original offset)` pairs in code-point offsets, ascending: a
            parsed offset `p` maps to `o + (p - r)` for the last anchor `(r, o)` with `r <= p`.
    """

    text: str
    anchors: tuple[tuple[int, int], ...]


class _Writer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[str] = []
        self.anchors: list[tuple[int, int]] = []
        self.copied = 0  # original offset copied up to
        self.length = 0  # parsed length written so far

    def replace(self, start: int, end: int, new: str, anchors: list[tuple[int, int]]) -> None:
        """Write original[copied:start], then `new` for original[start:end]; anchors relative to `new`."""
        if start < self.copied:
            return  # overlaps the edit before (cannot happen with one token pass; kept exact if it did)
        gap = self.text[self.copied : start]
        self.out.append(gap)
        self.length += len(gap)
        for parsed, original in anchors:
            self.anchors.append((self.length + parsed, start + original))
        self.out.append(new)
        self.length += len(new)
        self.copied = end
        if len(new) != end - start:
            self.anchors.append((self.length, end))

    def result(self) -> Repair | None:
        if not self.out:
            return None
        self.out.append(self.text[self.copied :])
        return Repair("".join(self.out), tuple(self.anchors))


def repair(text: str) -> Repair | None:  # noqa: C901, PLR0912 - one lexical pass
    """Rewrite the spots the grammar rejects but PowerShell accepts (see the module docstring).

    Args:
        text: the command text (after `ps_tree.prepare`'s quote and dash folding).

    Returns:
        The rewritten text with its offset anchors, or None when nothing needed rewriting.
    """
    writer = _Writer(text)
    braces: list[str] = []  # "switch" for a switch body, "" for any other `{`
    parens = 0
    switch_parens = -1  # paren depth at which a `switch` keyword waits for its body's `{`
    # The token pattern finds only what matters (strings, comments, here-strings are matched whole
    # and skipped); plain words between the matches are passed over by the regex engine.
    for match in token_pattern(*needed_branches(text)).finditer(text):
        kind = match.lastgroup
        if kind == "skip":
            if match.group(0).startswith("${"):
                _braced_in_word(text, match.start(), writer)
            else:
                _separate_string(text, match, writer)
            continue
        i = match.start()
        if kind == "varpath":
            if i == 0 or text[i - 1] in " \t":
                writer.replace(i, match.end(), f'"{match.group(0)}"', [(1, 0)])
            elif match.group(0).startswith("${"):
                _braced_in_word(text, i, writer)
        elif kind == "open":
            if match.group(0) == "(":
                parens += 1
            else:
                braces.append("switch" if switch_parens == parens else "")
                switch_parens = -1
        elif kind == "close":
            if match.group(0) == ")":
                parens -= 1
                continue
            if braces:
                braces.pop()
            if braces and braces[-1] == "switch":
                _separate_clause(text, i, writer)
        elif kind == "comma":
            _array_comma(text, i, writer)
        elif kind == "number":
            writer.replace(i, match.end(), str(_number_value(match)), [])
        elif kind == "switch":
            switch_parens = parens
        elif kind == "parameter":
            # Same length, ASCII for ASCII: no anchor needed, every offset maps to itself.
            writer.replace(i, match.end(), _DIGIT.sub("_", match.group(0)), [])
        elif kind == "endparameters":
            writer.replace(i, match.end(), "-_", [])
        elif kind == "assembly":
            start, end = match.span("qualifier")
            writer.replace(start, end, " " * (end - start), [])
    return writer.result()


def _array_comma(text: str, i: int, writer: _Writer) -> None:
    """`a,b` → `a ,b`; `a, b` / `a , b` → the blanks moved before the comma (same length)."""
    before = i - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    if before < 0 or text[before] in _NOT_BAREWORD:
        return
    after = i + 1
    while after < len(text) and text[after] in " \t":
        after += 1
    if after >= len(text) or text[after] in _NOT_BAREWORD or text[after] == "$":
        # End of line (the array continues on the next: valid as it is), or an element that is
        # not a bareword (`a, 'b'`, `a, $b`): the grammar would read `,'b'` as one word.
        return
    blanks = after - i - 1
    if blanks:
        writer.replace(i, after, " " * blanks + ",", [(blanks, 0), (blanks + 1, blanks + 1)])
    elif before == i - 1:
        writer.replace(i, i + 1, " ,", [(1, 0)])


# What may start a bareword glued to the string before it (`"dir "C:\\x`); not `.` `[` (a member or an
# index of the string), an operator, a bracket, a separator or another quote.
_GLUED_WORD = re.compile(r"[\w\\/:~%!*?+@$]")


def _separate_string(text: str, match: re.Match[str], writer: _Writer) -> None:
    """An argument that starts with a quoted string ends at its closing quote: what follows at once is
    the next argument (`cmd /c "dir "C:\\Program Files" /b"` hands cmd `dir `, `C:\\Program`,
    `Files /b`; S-RULE-44). The grammar rejects the two glued together: a blank is put between them."""
    string = match.group(0)
    start, end = match.span()
    if string[:1] not in ("'", '"') or len(string) < 2 or string[-1] != string[0]:
        return
    if start > 0 and text[start - 1] not in " \t\r\n":
        _quoted_in_word(text, start, string, writer)
        return
    if start == 0 or end >= len(text) or not _GLUED_WORD.match(text, end):
        return
    writer.replace(end, end, " ", [])


# A bareword (not a variable or an expression) that a quoted part continues (`PROP="a b"` too), with
# the quoted parts before it in the same word (`User" Data"\\Default\\Login" Data"`), or the value
# glued to a parameter (`-Path:C:\\x\\User" Data"`: the value is the same one argument).
_PLAIN_WORD = re.compile(
    r"""(?:-[A-Za-z_?][\w?\-]*:)?"""
    r"""[^\s$(){}\[\];|,=@'"`<>&-](?:[^\s$(){}\[\];|,@'"`<>&]|"[^"\n]*"|'[^'\n]*')*"""
)
_QUOTED_BLANK = re.compile(r"[ \t]")


def _quoted_in_word(text: str, start: int, string: str, writer: _Writer) -> None:
    """A quoted part inside a bareword is part of that one argument, blanks and all
    (`C:\\Chrome\\User" Data\\Login Data"` is one path; S-RULE-44). The grammar ends the word at the
    blank: the blanks are read as `_` (same length, so every value is still read from the original)."""
    if not _QUOTED_BLANK.search(string):
        return
    begin = _word_start(text, start)
    if not _PLAIN_WORD.fullmatch(text, begin, start):
        return
    writer.replace(start, start + len(string), _QUOTED_BLANK.sub("_", string), [])


def _word_start(text: str, end: int) -> int:
    """Where the word that reaches `end` begins: back to a blank, over its quoted parts whole."""
    i = end
    while i > 0:
        ch = text[i - 1]
        if ch in " \t\r\n":
            break
        if ch in "\"'":
            opening = text.rfind(ch, 0, i - 1)  # the quoted part's own opening quote
            if opening < 0:
                break
            i = opening
            continue
        i -= 1
    return i


# What ends a bareword; `$(`, `{` and quotes inside one are left to the grammar (not rewritten).
_WORD_END = frozenset(" \t\r\n;|&)}<>,'\"`({")


def _braced_in_word(text: str, i: int, writer: _Writer) -> None:
    """A braced variable inside a bareword (`C:\\Windows\\${n}`, `C:\\${env:x}\\y`): PowerShell expands the
    word as it would the same text in double quotes; the grammar rejects the braces there. The whole word is
    written in double quotes (S-RULE-13). A word that starts with the variable is left as it is."""
    begin = _word_start(text, i)
    if begin == i or not _PLAIN_WORD.fullmatch(text, begin, i):
        return
    end = i
    while end < len(text) and text[end] not in _WORD_END:
        if text.startswith("${", end):
            close = text.find("}", end)
            if close < 0:
                return
            end = close + 1
        else:
            end += 1
    word = text[begin:end]
    if "${" not in word or (end < len(text) and text[end] in "('\"`{"):
        return  # the word goes on in a way the quotes would change
    writer.replace(begin, end, f'"{word}"', [(1, 0)])


def _separate_clause(text: str, i: int, writer: _Writer) -> None:
    """A switch clause's `}` followed on the same line by another clause: the blank becomes `;`."""
    j = i + 1
    if j >= len(text) or text[j] not in " \t":
        return
    k = j
    while k < len(text) and text[k] in " \t":
        k += 1
    if k < len(text) and text[k] not in "}{;\r\n#":
        writer.replace(j, j + 1, ";", [])


def _number_value(match: re.Match[str]) -> int:
    digits = (match.group(0)[0] + match.group("digits")).lower()  # the branch's first digit is outside the group
    base = int(digits, 16) if digits.startswith("0x") else int(digits)
    return base * _SUFFIXES[match.group("suffix").lower()]
