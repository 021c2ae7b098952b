"""A word glued to a quoted part is found from the tree, not by repairing every text with a quote (S-RULE-44).

`ps_tree.parse_text` used to run `ps_repair`'s pass over every text where `GLUED_QUOTE` matched, and
that superset matches the closing quote of almost any string (`'cleanup.log') -Append`). Now a text
with quotes is parsed as it is, and the walker raises `GluedWord` when it reads a bareword holding a
quote from such a tree; the analysis then starts again with the pass tried first. These tests pin
both halves: the glued words are still read as one argument, and the pass no longer runs where it
cannot matter.
"""

from __future__ import annotations

import random

import pytest

from policy.rules.shell import ps_tree
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.rules.shell.ps_tree import parse_text
from policy.rules.shell.ps_walk import Walker
from tests._requirements import requirement
from tests.policy.verdicts import ps

CHROME = r"C:\Users\me\AppData\Local\Google\Chrome"
# Quotes everywhere, each closing a string: `GLUED_QUOTE` matches (`'cleanup.log') -Append`), nothing is glued.
STRINGS_ONLY = r"""$logDir = Join-Path $env:ProgramData 'BuildAgent\logs'
Start-Transcript -Path (Join-Path $logDir 'cleanup.log') -Append
Write-Output ("Free space on C: {0:N1} GB" -f $free)
Get-Service -Name 'BuildAgent*' | Where-Object Status -ne 'Running' | Start-Service
$files = Get-ChildItem -Path 'C:\Users\me\Documents' -Filter '*.log' -Recurse
$c = 'Get-' + 'Process'; & $c | Where-Object { $_.CPU -gt 10 } | Select-Object -First 5
Remove-Item -Path "$env:TEMP\build" -Recurse -Force -ErrorAction SilentlyContinue # it's the build's
"""


def _forced(text: str) -> object:
    """The analysis with the repair tried first wherever `GLUED_QUOTE` matches (the former way)."""
    walker = Walker(None, 0, glued=True)
    walker.run_text(text)
    return (tuple(walker.ops), tuple(walker.dynamic), walker.failed is None)


def _analysed(text: str) -> object:
    clear_analysis_cache()
    analysis = analyse_powershell(text)
    return (analysis.operations, analysis.dynamic, analysis.failed is None)


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("text", "argument"),
    [
        (rf'Remove-Item {CHROME}\User" Data"\Default\x -Force; Write-Host "done"', rf"{CHROME}\User Data\Default\x"),
        (rf"Copy-Item {CHROME}\User' Data'\Default\y D:\z", rf"{CHROME}\User Data\Default\y"),
        ('Write-Host "start"; Copy-Item C:\\x\\a" b"\\c D:\\', "C:\\x\\a b\\c"),
    ],
)
def test_a_word_glued_to_a_quoted_part_is_still_one_argument(text: str, argument: str) -> None:
    """S-RULE-44: the quoted part's blank stays inside the one argument when the walker asks for the repair."""
    clear_analysis_cache()
    operation = next(op for op in analyse_powershell(text).operations if op.name in ("remove-item", "copy-item"))
    assert operation.args[0] == argument


@requirement("S-RULE-44")
def test_a_tree_read_without_the_repair_says_so_and_a_glued_parse_does_not() -> None:
    """S-RULE-44: `unrepaired_quotes` marks exactly the trees whose barewords may be glued words."""
    text = r'Copy-Item C:\x\a" b"\c D:\; Write-Host "x"'
    assert parse_text(text).source.unrepaired_quotes
    assert not parse_text(text, glued=True).source.unrepaired_quotes  # the repair joined the word
    assert not parse_text("Get-Process | Stop-Process").source.unrepaired_quotes  # no quote at all
    assert not parse_text("$a = 1MB; 'x y'").source.unrepaired_quotes  # the repair ran first anyway


@requirement("S-RULE-44")
def test_a_script_whose_quotes_are_all_strings_is_never_repaired(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-RULE-44: the repair's pass does not run on a script whose only `GLUED_QUOTE` hits are closing quotes."""
    text = STRINGS_ONLY
    assert len(ps_tree.GLUED_QUOTE.findall(text)) >= 5, "the former pre-check would have run the pass here"
    calls: list[str] = []
    real = ps_tree.repair
    monkeypatch.setattr(ps_tree, "repair", lambda t: calls.append(t) or real(t))
    clear_analysis_cache()
    assert analyse_powershell(text).failed is None
    assert calls == []


@requirement("S-RULE-44")
def test_a_glued_word_runs_the_repair_once_after_the_first_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-RULE-44: a glued word costs one parse as it is, then the repaired one: the pass runs once."""
    calls: list[str] = []
    real = ps_tree.repair
    monkeypatch.setattr(ps_tree, "repair", lambda t: calls.append(t) or real(t))
    text = rf'Remove-Item {CHROME}\User" Data"\Default\x'
    clear_analysis_cache()
    analyse_powershell(text)
    assert calls == [text]


# Fragments whose mixes hold glued quoted parts, strings, comments, here-strings, subexpressions,
# nested command text, commas between words and the broken texts around them. Not `1, 2` between
# numbers: there the repair's comma rewrite changes an error-free tree (one array or two arguments of
# a program), which the former pre-check did only in texts with a quote somewhere, unrelated or not.
_FRAGMENTS = [
    *("Remove-Item", "Copy-Item", "Write-Host", "iex", "del", "cmd /c", "&", "=", "$a = ", "-Path", "-Path:"),
    *(rf"{CHROME}\User", '" Data\\Default"', "' Data'", '"a b"', "'x y'", 'x"y z"', "'rm C:\\x\" a b\"'"),
    *(" ", " ", " ", ",", ", ", "\n", "; ", "|", "(", ")", "{", "}", "$(", '"', "'", "#c ", '`"', '""', "''"),
    *("$x", "$env:TEMP\\a", '@"\nq " w\n"@\n', "1MB", 'C:\\Program" Files"\\x.exe', "-Recurse"),
]


@requirement("S-RULE-44")
@pytest.mark.parametrize("seed", range(4))
def test_the_analysis_is_the_one_the_former_pre_check_gave(seed: int) -> None:
    """S-RULE-44: on 500 random mixes per seed, the walker's signal reaches exactly what repairing first reached."""
    rng = random.Random(seed)
    for _ in range(500):
        text = "".join(rng.choice(_FRAGMENTS) for _ in range(rng.randint(2, 14)))
        assert _analysed(text) == _forced(text), text


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("text", "argument"),
    [
        # Two quoted parts in one word: the second is found from the word's start, over the first.
        (rf'Copy-Item {CHROME}\User" Data"\Default\Login" Data" D:\x', rf"{CHROME}\User Data\Default\Login Data"),
        (rf"Copy-Item {CHROME}\User' Data'\Default\Login' Data' D:\x", rf"{CHROME}\User Data\Default\Login Data"),
        # A parameter's glued value is the same one argument as a separate one.
        (rf'Copy-Item -Path:{CHROME}\User" Data\Default\Login Data" D:\x', rf"{CHROME}\User Data\Default\Login Data"),
        (r'Copy-Item -LiteralPath:C:\Program" Files"\Common" Files" D:\x', r"C:\Program Files\Common Files"),
    ],
)
def test_every_quoted_part_of_a_word_and_a_glued_value_stay_one_argument(text: str, argument: str) -> None:
    """S-RULE-44: the blanks of every quoted part in a word, and in `-Name:value`, stay in that one argument."""
    clear_analysis_cache()
    (operation,) = analyse_powershell(text).operations
    assert argument in (operation.args[:1] + tuple(v for _, v in operation.params))


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        ('x a" b"c" d"', 'x a"_b"c"_d"'),
        ('x -Path:a" b"', 'x -Path:a"_b"'),
        ("x -Path:a' b'\\c' d'", "x -Path:a'_b'\\c'_d'"),
        ('x $a" b"', None),  # a variable: read as PowerShell reads `$a" b"` (not a bareword)
        ('x -" b"', None),  # `-` alone is an operator's place, not a word
    ],
)
def test_the_repair_joins_each_quoted_part_of_a_word(text: str, repaired: str | None) -> None:
    """S-RULE-44: `ps_repair` turns the blanks of each quoted part of a bareword (or a glued value) into `_`."""
    result = ps_tree.repair(text)
    assert (result.text if result is not None else None) == repaired


@requirement("S-RULE-43")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            r"Copy-Item $env:LOCALAPPDATA\Google\Chrome\User` Data\Default\Login` Data C:\t",
            ("credential-access", "deny"),
        ),
        (r"Remove-Item $env:ProgramFiles\Common` Files -Recurse -Force", ("protected-place-delete", "deny")),
        (r"Copy-Item $env:TEMP\a` b.txt C:\t", None),
    ],
    ids=["store", "program-files", "own-file"],
)
def test_a_variable_path_with_escaped_blanks_is_one_argument(command: str, expected: object) -> None:
    """S-RULE-43: `$env:X\\a` b` is one path (it was left unparsed, and only asked)."""
    assert ps(command) == expected
