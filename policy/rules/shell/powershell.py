"""The PowerShell analyser (issue 18): command text → the operations it would run.

`analyse_powershell` parses the text with the tree-sitter PowerShell grammar and walks the
syntax tree (statements `ps_walk`, commands `ps_command`, method calls `ps_calls`, expressions
`ps_fold`): aliases (built-in and defined in the script), constant
folding of names and arguments, variables assigned earlier, splatting, `&`/`.`, `iex`,
.NET static calls, COM objects, redirections and native programs (handed to `nested`, the
dispatcher for `cmd /c`, `powershell -EncodedCommand`, …). A string that is only printed or
compared is not an invocation and yields nothing. Where a name or decisive argument stays
non-constant, `Analysis.dynamic` says so; where the grammar or a bound gave up,
`Analysis.failed` says why and the operations found so far are still returned.

Valid PowerShell the grammar rejects (`Select-Object Id, Name`, `$env:TEMP\\x` as an argument,
`1MB`, `switch … default` on one line, `-EnableSMB1Protocol`, `--`, `[Type,Assembly]`) is parsed
through `ps_repair`, with every value read from the original text; `failed` is set only when the
text still does not parse.

Cache: an analysis is a pure function of (text, depth, nested) and `Analysis` is immutable,
so the last `CACHE_SIZE` analyses are kept: one call is judged several times (rules, the
approval, the audit), and only the first pays. `nested` must therefore be pure (the
dispatcher's `analyse_program` is); `clear_analysis_cache` empties it (benchmarks).

Threading: the grammar's parser is one module-level object (`ps_tree.PARSER`); policy runs
on the gateway's one event-loop thread.
"""

from __future__ import annotations

import functools

from policy.rules.builtin import MAX_COMMAND_CHARS
from policy.rules.shell.ops import Analysis
from policy.rules.shell.ps_fold import MAX_TEXT_DEPTH, Nested
from policy.rules.shell.ps_tree import GluedWord
from policy.rules.shell.ps_walk import Walker

__all__ = ["CACHE_SIZE", "Nested", "analyse_powershell", "clear_analysis_cache", "powershell_blanks"]

# Distinct recent command texts kept (each key holds its text: at most 256 × MAX_COMMAND_CHARS,
# about 3 MB); a call's repeated judgements are seconds apart, so a small cache catches them.
CACHE_SIZE = 256


def analyse_powershell(text: str, *, depth: int = 0, nested: Nested | None = None) -> Analysis:
    """Resolve a PowerShell command text into the operations it invokes (cached; see the module docstring).

    Args:
        text: the command text (any string: never raises).
        depth: nesting level of this text (0 = as given; the dispatcher passes depth + 1).
        nested: how to analyse a native program's argv (`analyse_program(name, argv, depth)`);
            None to only report the program operation itself.

    Returns:
        The operations (every invocation found, nested ones included), the dynamic
        invocations, and `failed` when the text was too large, too deep, too many commands,
        or not valid PowerShell (operations found elsewhere in the text are still returned).
    """
    try:
        hash(nested)
    except TypeError:
        return _analyse(text, depth, nested)
    return _cached(text, depth, nested)  # type: ignore[arg-type]  # (a Protocol is not Hashable to mypy: checked above)


def clear_analysis_cache() -> None:
    """Forget every cached analysis (a benchmark measuring the uncached cost calls this)."""
    _cached.cache_clear()


@functools.lru_cache(maxsize=CACHE_SIZE)
def _cached(text: str, depth: int, nested: Nested | None) -> Analysis:
    return _analyse(text, depth, nested)


# PowerShell's tokenizer takes NBSP, NEL and every Unicode space, line or paragraph separator for a
# blank (CharExtensions.IsWhitespace); the grammar takes only ASCII blanks, and would read
# `Remove-Item<NBSP>-Recurse<NBSP>C:\x` as one command name. Each becomes a space before parsing (in a
# string too: no protected place has such a character in its name, so this only errs towards judging).
# NEL, NBSP, and the Unicode Zs/Zl/Zp characters above ASCII (tests/policy check the list against unicodedata).
_BLANK_CHARS = (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_BLANKS = str.maketrans(_BLANK_CHARS, " " * len(_BLANK_CHARS))


def powershell_blanks(text: str) -> str:
    """`text` with every non-ASCII character PowerShell reads as a blank replaced by a space."""
    return text if text.isascii() else text.translate(_BLANKS)


def _analyse(text: str, depth: int, nested: Nested | None) -> Analysis:
    if len(text) > MAX_COMMAND_CHARS:
        return Analysis(failed="too large")
    text = powershell_blanks(text)
    if not text.strip():
        return Analysis()  # an empty script runs nothing (the grammar wants one statement: it would say error)
    if depth > MAX_TEXT_DEPTH:
        return Analysis(failed="too deeply nested")
    walker = Walker(nested, depth)
    try:
        try:
            walker.run_text(text)
        except GluedWord:  # a word may be glued to a quoted part: again, with the repair tried first
            walker = Walker(nested, depth, glued=True)
            walker.run_text(text)
    except Exception as error:  # noqa: BLE001 - an analyser fault must read as "could not analyse", never escape
        walker.fail(f"analyser error: {type(error).__name__}")
    return Analysis(operations=tuple(walker.ops), dynamic=tuple(walker.dynamic), failed=walker.failed)
