"""cmd.exe command lines read the way cmd reads them (issue 18 item 2).

`analyse_cmd` turns one cmd line (what follows `cmd /c`) into `Operation`s. It follows cmd's
phases, as described by the public experiments on cmd's parser (StackOverflow 4094699):

1. percent expansion (`%VAR%`, `%VAR:~n,m%`, `%VAR:old=new%`) with the standard environment;
   on a command line an undefined `%X%` stays as text;
2. carets, quotes, the separators `&`, `&&`, `|`, `||`, blocks `( … )`, redirections, `@`;
3. `for` variables in the loop body; 4. delayed `!VAR!` expansion; 5. `call` expands again.

Two deliberate over-approximations, both towards seeing more (the safe direction):
- `set NAME=value` applies to every later expansion on the same line. Real cmd expands the
  whole line when it reads it, so `set x=rd&& %x% /s` runs a command named `%x%`; we read
  `rd /s`. An attacker gains nothing from cmd's real order, and a reader that followed it
  would let a second line (or a `call`) hide what the first one built.
- `!VAR!` is expanded unless the caller knows delayed expansion is off: the registry can turn
  it on for every cmd, and `r!x!d` with an undefined `x` is `rd` when it is on.

Operations: a built-in is `shell="cmd"` under one canonical name (`erase`→`del`, `rmdir`→`rd`,
`rename`→`ren`, `mkdir`→`md`, `chdir`→`cd`), its `/x` switches as params (`("s", "true")`,
`/a:h` → `("a", "h")`; `/s/q` and `rd/s` split) and its other words as args with quotes
removed; `echo` has one arg (its text), `set` has `(name, value)`, `assoc`/`ftype` have
`(key, value)`, `cd`/`pushd`/`title` one arg (the whole rest), `start` has its switches
(`title`, `b`, `wait`, `d` …) and `(program,)`. An external program is `shell="program"`
with its argv split by `argv.split_command_line`. An output redirection is `<redirect>`
with `(target,)` (and `("append", "true")` for `>>`); `>nul`, `2>&1` and `<` add nothing.

A value that cannot be known (`%RANDOM%`, a substring of an undefined variable, `set /p`,
a `for /f` variable) is held as the character `UNKNOWN` while parsing and reaches the
operations as None; a command name that holds it is reported in `Analysis.dynamic`.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TypeAlias

from policy.rules.shell.argv import program_name, reads_piped_commands, split_command_line
from policy.rules.shell.cmd_expand import UNKNOWN, Reader, Variables, expand_delayed, substitute_for
from policy.rules.shell.cmd_words import (
    BLANKS,
    BUILTINS,
    CANONICAL_BUILTINS,
    DELIMS,
    GLUE,
    WHOLE_ARGUMENT_BUILTINS,
    blank_spans,
    builtin_prefix,
    cmd_words,
    parse_switch,
    to_value,
    unquote,
)
from policy.rules.shell.ops import (
    NETWORK_SENDERS,
    RUN_PATH,
    SEND_PATH,
    TREE_READ,
    UNC_STARTS,
    Analysis,
    Operation,
    Value,
)
from policy.rules.shell.winenv import STANDARD_ENV

Nested: TypeAlias = Callable[[str, tuple[Value, ...], int], Analysis]

# Bounds (issue 18: a huge or hostile command is judged in bounded time). cmd itself refuses
# lines over 8191 characters and CreateProcess over 32767, so nothing real is cut off.
MAX_DEPTH = 8
MAX_LINE_CHARS = 32768
MAX_OPERATIONS = 1024
MAX_FOR_ITEMS = 16
MAX_BODY_RUNS = 64
MAX_NESTING = 48  # blocks, if and for bodies inside one another, over all nested pieces (bounds recursion)
_TEXT_CHARS = 200  # Operation.text is for reasons and the audit, not for matching

_WORD_STOPS = DELIMS + "&|<>()\n"
# Runs of characters with no meaning to the parser, taken in one step (speed: S-RULE-11 bounds).
_QUOTED_RUN = re.compile(r'[^"\n]+')
_WORD_RUN = re.compile(r'[^"^ \t\r,;=&|<>()\n]+')
_REST_RUN = re.compile(r'[^"^&|)<>\n]+')


# cmd commands and programs that read the files they are handed (a `for /r` body, S-RULE-162).
_TREE_READERS = frozenset({"type", "more", "copy", "xcopy", "robocopy", "findstr", "find", "certutil", "curl", "scp"})


def _shown(text: str) -> str:
    t = " ".join(text.replace(UNKNOWN, "?").split())
    return t if len(t) <= _TEXT_CHARS else t[: _TEXT_CHARS - 1] + "…"


# ---------------------------------------------------------------------------------------
# The parser


class _State:
    """What one analysis collects, shared by the parsers of nested pieces (`call`, `start`, `for`)."""

    def __init__(self, env: Mapping[str, str], nested: Nested | None, delayed: bool) -> None:
        self.variables = Variables(env)
        self.nested = nested
        self.delayed = delayed
        self.operations: list[Operation] = []
        self.dynamic: list[str] = []
        self.failures: list[str] = []
        self.muted = 0  # > 0 while a `for` body is only being measured
        self.body_runs = 0
        self.nesting = 0
        self.stopped = False  # a bound was hit: read no further

    def fail(self, reason: str) -> None:
        if reason not in self.failures:
            self.failures.append(reason)

    def note(self, sentence: str) -> None:
        if not self.muted and sentence not in self.dynamic:
            self.dynamic.append(sentence)

    def emit(self, operation: Operation) -> None:
        if self.muted:
            return
        if len(self.operations) >= MAX_OPERATIONS:
            self.fail("too many commands")
            return
        self.operations.append(operation)

    def merge(self, analysis: Analysis) -> None:
        if self.muted:
            return
        for operation in analysis.operations:
            self.emit(operation)
        for sentence in analysis.dynamic:
            self.note(sentence)
        if analysis.failed:
            self.fail(analysis.failed)


class _Parser:
    """A recursive-descent reader of cmd's grammar over one `Reader`."""

    def __init__(self, state: _State, reader: Reader, depth: int) -> None:
        self.state = state
        self.reader = reader
        self.depth = depth
        self.block_depth = 0
        self.pending: list[Operation] = []  # redirections, emitted after their command
        self.stdin: str | None = None  # the file a `<` gives the command being read (S-RULE-127)

    # -- characters ---------------------------------------------------------------------

    def _skip(self, chars: str) -> None:
        while (c := self.reader.peek()) and c in chars:
            self.reader.advance()

    def _at_redirection(self, previous: str) -> bool:
        c = self.reader.peek()
        if c in ("<", ">") and c:
            return True
        return c.isdigit() and self.reader.peek(1) in ("<", ">") and (previous == "" or previous in DELIMS)

    def _quote_or_caret(self, c: str, out: list[str], quoted: bool) -> bool | None:
        """What words and rests read alike: text inside quotes, a quote, a caret escape.

        Returns the quoting state after consuming `c`, or None when `c` is the caller's to read.
        """
        reader = self.reader
        if quoted or c == '"':
            out.append(reader.advance())
            if quoted and c == '"':
                return False
            if quoted:
                out.append(reader.take(_QUOTED_RUN))
            return True
        if c == "^":
            reader.advance()
            escaped = reader.advance()
            if escaped and escaped != "\n":  # caret-newline continues the line
                out.append(escaped)
            return False
        return None

    def _word(self) -> str:
        """One token (quotes kept, carets applied), up to a delimiter or special character."""
        reader = self.reader
        out: list[str] = []
        quoted = False
        while c := reader.peek():
            if c == "\n":
                break
            state = self._quote_or_caret(c, out, quoted)
            if state is not None:
                quoted = state
                continue
            if run := reader.take(_WORD_RUN):
                out.append(run)
                continue
            elif c in _WORD_STOPS and not (c == ")" and self.block_depth == 0):
                break
            out.append(reader.advance())
        if quoted:
            self.state.fail("unbalanced quotes")
        return "".join(out)

    def _next_word(self) -> str:
        self._skip(DELIMS)
        return self._word()

    def _rest(self) -> str:
        """The rest of a simple command: carets applied, quotes kept, redirections taken out."""
        reader = self.reader
        out: list[str] = []
        quoted = False
        while c := reader.peek():
            if c == "\n":
                break
            state = self._quote_or_caret(c, out, quoted)
            if state is not None:
                quoted = state
                continue
            if c not in "&|)<>" and not (c.isdigit() and reader.peek(1) in ("<", ">")):
                run = reader.take(_REST_RUN) or reader.advance()
                if len(run) > 1 and run[-1].isdigit() and run[-2] in DELIMS and reader.peek() in ("<", ">"):
                    reader.unread(run[-1])  # `2>`: the handle belongs to the redirection
                    run = run[:-1]
                out.append(run)
                continue
            elif c in "&|" or (c == ")" and self.block_depth > 0):
                break
            elif self._at_redirection(out[-1][-1:] if out else ""):  # the character before a handle
                self._redirection()  # its target always ends at a delimiter: no token is glued
                continue
            out.append(reader.advance())
        if quoted:
            self.state.fail("unbalanced quotes")
        return "".join(out)

    def _redirection(self) -> None:
        reader = self.reader
        if reader.peek().isdigit():
            reader.advance()
        direction = reader.advance()
        append = direction == ">" and reader.peek() == ">"
        if append:
            reader.advance()
        if reader.peek() == "&":  # 2>&1: a handle, not a file
            reader.advance()
            self._skip("0123456789")
            return
        target = unquote(self._late(self._next_word()))
        if not target:
            self.state.fail("redirection without a target")
            return
        if direction == "<" and target.lower().rstrip(":") != "nul":
            self.stdin = target
        if direction == ">" and target.lower().rstrip(":") != "nul":
            params: tuple[tuple[str, Value], ...] = (("append", "true"),) if append else ()
            self.pending.append(
                Operation(
                    shell="cmd",
                    name="<redirect>",
                    params=params,
                    args=(to_value(target),),
                    text=_shown((">>" if append else ">") + target),
                    depth=self.depth,
                )
            )

    def _late(self, text: str) -> str:
        return expand_delayed(text, self.state.variables) if self.state.delayed and "!" in text else text

    # -- structure ----------------------------------------------------------------------

    def parse_list(self) -> None:
        """Commands joined by `&`, `&&`, `||`, `|` and line breaks, up to the block's `)`."""
        reader = self.reader
        piped: str | None = None
        while not self.state.stopped:
            self._skip(DELIMS)
            c = reader.peek()
            if not c:
                return
            if c == ")":
                if self.block_depth > 0:
                    return
                reader.advance()  # a stray `)` outside a block
                continue
            before = reader.consumed
            name = self.parse_command(piped)
            piped = None
            self._skip(BLANKS)
            c = reader.peek()
            if c == "|":
                reader.advance()
                if reader.peek() == "|":
                    reader.advance()
                else:
                    piped = name if name is not None else ""
            elif c == "&":
                reader.advance()
                if reader.peek() == "&":
                    reader.advance()
            elif c == "\n":
                reader.advance()
            if reader.consumed == before:
                reader.advance()  # always make progress, whatever the text

    def parse_command(self, piped: str | None) -> str | None:
        """One command: a block, `if`, `for`, or a simple command; its name (for pipes)."""
        state = self.state
        if state.nesting >= MAX_NESTING:
            state.fail("too deeply nested")
            state.stopped = True
            return None
        state.nesting += 1
        outer, self.pending = self.pending, []
        outer_stdin, self.stdin = self.stdin, None
        try:
            name = self._command(piped)
            for operation in self.pending:
                state.emit(operation)
        finally:
            self.pending, self.stdin = outer, outer_stdin
            state.nesting -= 1
        return name

    def _command(self, piped: str | None) -> str | None:
        reader = self.reader
        self._skip(DELIMS + "@")
        while self._at_redirection(""):
            self._redirection()
            self._skip(DELIMS)
        c = reader.peek()
        if c == "(":
            self._block()
            return None
        if not c or c in "&|\n" or (c == ")" and self.block_depth > 0):
            return None
        word = self._word()
        plain = unquote(word).lower()
        head = builtin_prefix(plain) if '"' not in word else None
        if head is not None and len(head) < len(plain):
            reader.unread(word[len(head) :])
            word = plain = head
        if plain == "if":
            self._if()
            return "if"
        if plain == "for":
            self._for()
            return "for"
        if plain == "rem" or plain.startswith(":"):
            self.state.muted += 1
            self._rest()
            self.state.muted -= 1
            return None
        return self._simple(word, self._rest(), piped)

    def _block(self) -> None:
        self.reader.advance()
        self.block_depth += 1
        self.parse_list()
        if self.reader.peek() == ")":
            self.reader.advance()
        else:
            self.state.fail("unbalanced parentheses")
        self.block_depth -= 1
        self._skip(BLANKS)
        while self._at_redirection(""):
            self._redirection()
            self._skip(BLANKS)

    def _if(self) -> None:
        word = self._next_word()
        if word.lower() == "/i":
            word = self._next_word()
        if word.lower() == "not":
            word = self._next_word()
        if word.lower() in ("exist", "defined", "errorlevel", "cmdextversion"):
            self._next_word()
        else:
            self._skip(BLANKS)
            if self.reader.peek() == "=":
                self._skip("=")
            else:
                self._next_word()  # EQU NEQ LSS LEQ GTR GEQ
            self._next_word()
        # Both branches are analysed: the condition is not evaluated.
        self.parse_command(None)
        self._skip(BLANKS)
        reader = self.reader
        if "".join(reader.peek(k) for k in range(4)).lower() == "else" and reader.peek(4) in _WORD_STOPS:
            for _ in range(4):
                reader.advance()
            self.parse_command(None)

    def _for(self) -> None:
        mode, root = "", ""
        word = self._next_word()
        while word.startswith("/"):
            mode = word[1:2].lower()
            word = self._next_word()
            if mode in ("r", "f") and word and not word.startswith("%"):
                root = unquote(word) if mode == "r" else root
                word = self._next_word()
        letter = word[-1:] if word.startswith("%") else ""
        if not letter or self._next_word().lower() != "in":
            self.state.fail("malformed for")
            return
        self._skip(DELIMS)
        if self.reader.peek() != "(":
            self.state.fail("malformed for")
            return
        self.reader.advance()
        items_text = self._set_text()
        if self._next_word().lower() != "do":
            self.state.fail("malformed for")
            return
        first = len(self.state.operations)
        self._for_body(letter, self._for_items(mode, root, items_text))
        if mode == "r":
            self._recursive_from(first, root, items_text)

    def _recursive_from(self, first: int, root: str, items_text: str) -> None:
        # `for /r root %f in (*) do del "%f"` deletes matching files in every folder under root: what
        # `del /s root\*` does. The body was read once per pattern, so its deletes get `/s`.
        ops = self.state.operations
        for i in range(first, len(ops)):
            if ops[i].shell == "cmd" and ops[i].name in ("del", "erase") and not ops[i].switch("s"):
                ops[i] = replace(ops[i], params=(*ops[i].params, ("s", "true")))
        # A body that reads what it is handed (`type %f`, `copy %f C:\t`) reads the files of that name in every
        # folder below root, as `find -exec cat` does (S-RULE-162).
        if any(op.name in _TREE_READERS for op in ops[first:]):
            for name in cmd_words(items_text)[:MAX_FOR_ITEMS]:
                args = (root or ".", unquote(name))
                self.state.emit(Operation(shell="cmd", name=TREE_READ, args=args, text="for /r", depth=self.depth))

    def _set_text(self) -> str:
        out: list[str] = []
        quoted = False
        while c := self.reader.peek():
            self.reader.advance()
            if c == ")" and not quoted:
                return "".join(out)
            quoted = quoted != (c == '"')
            out.append(c)
        self.state.fail("unbalanced parentheses")
        return "".join(out)

    def _for_items(self, mode: str, root: str, text: str) -> list[str]:
        if mode == "f":
            inner = text.strip()
            if len(inner) > 1 and inner[0] in "'`" and inner[-1] == inner[0]:
                self._sub(inner[1:-1], percent=False)  # `for /f ... in ('command')` runs it
            return [UNKNOWN]
        words = cmd_words(text) if mode != "l" else cmd_words(text)[:1]
        if not words:
            return [UNKNOWN]
        if root:
            words = [ntpath.join(root, unquote(w)) for w in words]
        return words[:MAX_FOR_ITEMS]

    def _for_body(self, letter: str, items: list[str]) -> None:
        # The body runs once per item with the variable substituted (phase 4), so it is read
        # once to find where it ends, then analysed per item.
        state = self.state
        tape: list[str] = []
        self.reader.tapes.append(tape)
        state.muted += 1
        self.parse_list()
        state.muted -= 1
        self.reader.tapes.remove(tape)
        body = "".join(tape)
        if state.muted:
            return  # an outer body's measuring pass: its own runs will analyse this one
        for item in items:
            if state.body_runs >= MAX_BODY_RUNS:
                state.fail("too many for-loop iterations to analyse")
                return
            state.body_runs += 1
            self._sub(substitute_for(body, letter, item), percent=False, depth=self.depth)

    def _sub(self, text: str, *, percent: bool, depth: int | None = None) -> None:
        level = self.depth + 1 if depth is None else depth
        if level > MAX_DEPTH:
            self.state.fail("too deeply nested")
            return
        _Parser(self.state, Reader(text, self.state.variables, percent=percent), level).parse_list()

    # -- simple commands ----------------------------------------------------------------

    def _simple(self, word: str, rest: str, piped: str | None) -> str | None:
        late = self._late(word)
        if late != word and not late.startswith('"') and any(c in late for c in DELIMS):
            # `!x!` holding `rd /s /q C:\x`: after delayed expansion cmd takes the command name up to
            # the first delimiter and the rest as its arguments (reading it as one name would hide it).
            cut = next(i for i, c in enumerate(late) if c in DELIMS)
            late, rest = late[:cut], late[cut:] + rest
        word, rest = late, self._late(rest)
        plain = unquote(word)
        text = _shown(word + rest)
        if UNKNOWN in plain:
            self.state.note(f"cmd command name is not constant: {text}")
            return None
        if plain.count("%") >= 2:
            self.state.note(f"cmd command name uses a variable the standard environment does not define: {text}")
        lowered = plain.lower()
        if lowered in BUILTINS:
            name = CANONICAL_BUILTINS.get(lowered, lowered)
            self._builtin(name, rest, text, piped)
            return name
        head, slash, tail = plain.partition("/")
        if slash and head and '"' not in word and not head.endswith(":"):
            # cmd ends a program's name at `/` too: `cmd.exe/c rd …` runs cmd.exe with `/c rd …` (S-RULE-54).
            # (`C:/x/y.exe` keeps its name: read as the drive `C:` it would hide the program.)
            plain, rest = head, "/" + tail + rest
        name = program_name(plain)
        if not name:
            return None
        argv = tuple(to_value(a) for a in split_command_line(rest, first_is_program=False))
        if plain.lstrip('"')[:2] in UNC_STARTS:  # started from another machine's share (ops.py `<run>`)
            self.state.emit(Operation(shell="program", name=RUN_PATH, args=(plain,), text=text, depth=self.depth))
        self.state.emit(Operation(shell="program", name=name, args=argv, text=text, depth=self.depth, input_from=piped))
        if piped is not None and reads_piped_commands(name, argv):
            self.state.note(f"{name} runs the commands piped into it (`{_shown(text)}`)")
        elif self.stdin is not None and reads_piped_commands(name, argv):
            # `cmd < cmds.txt`: the file's lines are its commands, and a file with another extension than a
            # script's was never judged when it was written (S-RULE-114 judges scripts by their extension).
            self.state.note(f"{name} runs the commands in {_shown(self.stdin)}, which the gateway does not read")
        elif self.stdin is not None and name in NETWORK_SENDERS:
            self.state.emit(Operation(shell="cmd", name=SEND_PATH, args=(self.stdin,), text=text, depth=self.depth))
        nested = self.state.nested
        if nested is not None and not self.state.muted:
            # cmd.exe reads its own raw command line, not argv: hand it the text as written.
            passed = (rest.strip(),) if name == "cmd" else argv
            if self.depth + 1 > MAX_DEPTH:
                self.state.fail("too deeply nested")
            else:
                self.state.merge(nested(name, passed, self.depth + 1))
        return name

    def _builtin(self, name: str, rest: str, text: str, piped: str | None) -> None:
        params: list[tuple[str, Value]] = []
        args: list[Value] = []
        body = rest
        if name == "echo":
            # echo drops exactly one separator after its name (`echo.`, `echo(`, `echo hi`)
            args.append(to_value(rest[1:] if rest[:1] and rest[0] in DELIMS + GLUE + "(" else rest))
        elif name == "set":
            self._set(body, params, args)
        elif name == "call":
            target = body.strip(DELIMS)
            if target:
                # call expands percents a second time and reads the line again, `&` and `|` included; a label
                # (`call :x^&del y`) is skipped there like any label line, and what follows it still runs.
                self._sub(target, percent=True)
            return
        elif name == "start":
            self._start(body, text, piped)
            return
        elif name in ("assoc", "ftype"):
            key, equals, value = body.strip().partition("=")
            args.extend([to_value(key.strip())] + ([to_value(value)] if equals else []))
        elif name in WHOLE_ARGUMENT_BUILTINS:
            whole = body.strip(DELIMS)
            if name == "cd" and whole[:2].lower() == "/d":
                params.append(("d", "true"))
                whole = whole[2:].strip(BLANKS)
            if whole:
                args.append(to_value(unquote(whole)))
        else:
            for word in cmd_words(body):
                if word.startswith("/"):
                    switch = parse_switch(word)
                    if switch is not None:
                        params.append(switch)
                else:
                    args.append(to_value(unquote(word)))
        self.state.emit(
            Operation(
                shell="cmd",
                name=name,
                params=tuple(params),
                args=tuple(args),
                text=text,
                depth=self.depth,
                input_from=piped,
            )
        )

    def _set(self, body: str, params: list[tuple[str, Value]], args: list[Value]) -> None:
        text = body.lstrip(BLANKS)
        flag = text[:2].lower()
        assigned = self.state.variables.assigned
        if flag in ("/a", "/p"):
            params.append((flag[1], "true"))
            text = text[2:].lstrip(BLANKS)
            for part in text.split(","):
                if "=" in part:  # the value is computed or typed in: unknown
                    key = unquote(part.split("=", 1)[0]).strip(" \t+-*/%&|^<>")
                    if key and not self.state.muted:
                        assigned[key.upper()] = UNKNOWN
            args.append(to_value(text))
            return
        if text.startswith('"'):
            last = text.rfind('"')
            text = text[1:last] if last > 0 else text[1:]
        key, equals, value = text.partition("=")
        if not equals or not key:
            args.append(to_value(text))
            return
        if not self.state.muted:
            # `set x=` removes x in cmd; holding "" instead over-approximates (`r%x%d` → `rd`).
            assigned[key.upper()] = value
        args.extend([to_value(key), to_value(value)])

    def _start(self, body: str, text: str, piped: str | None) -> None:
        # start ["title"] [/d dir] [/b /wait /min /max /i /low … /node n /affinity m] program args
        spans = blank_spans(body)
        params: list[tuple[str, Value]] = []
        k = 0
        if spans and body[spans[0][0]] == '"':
            params.append(("title", to_value(unquote(body[spans[0][0] : spans[0][1]]))))
            k = 1
        while k < len(spans) and body[spans[k][0]] == "/":
            word = body[spans[k][0] : spans[k][1]]
            key = word[1:].lower()
            k += 1
            if key in ("d", "node", "affinity") and k < len(spans):
                params.append((key, to_value(unquote(body[spans[k][0] : spans[k][1]]))))
                k += 1
            elif key[:1] == "d" and key not in ("d",):
                params.append(("d", to_value(unquote(word[2:]))))
            else:
                params.append((key, "true"))
        command = body[spans[k][0] :] if k < len(spans) else ""
        program = unquote(body[spans[k][0] : spans[k][1]]) if command else ""
        self.state.emit(
            Operation(
                shell="cmd",
                name="start",
                params=tuple(params),
                args=(to_value(program),) if program else (),
                text=text,
                depth=self.depth,
                input_from=piped,
            )
        )
        if command:
            self._sub(command, percent=False)


def analyse_cmd(
    line: str,
    *,
    depth: int = 0,
    nested: Nested | None = None,
    env: Mapping[str, str] = STANDARD_ENV,
    delayed: bool = True,
) -> Analysis:
    """Resolve one cmd.exe command line into the operations it runs.

    Args:
        line: the command line cmd runs (the text after `cmd /c`).
        depth: nesting level of this line (0 = as given); past `MAX_DEPTH` nothing is read.
        nested: called as `nested(program, argv, depth + 1)` for each external program and
            `start`/`call` target, to look inside interpreters (`dispatch.analyse_program`).
        env: the environment `%VAR%` reads (keys upper case).
        delayed: whether `!VAR!` may be expanded (False only for `cmd /v:off`).

    Returns:
        The operations (built-ins as `shell="cmd"` with their `/x` switches as params,
        programs as `shell="program"` with argv split per the runtime's rules, output
        redirections as `<redirect>`), dynamic sentences, and a failure reason for
        malformed input. Never raises.
    """
    if depth > MAX_DEPTH:
        return Analysis(failed="too deeply nested")
    text = str(line)
    state = _State(env, nested, delayed)
    if len(text) > MAX_LINE_CHARS:
        state.fail("command too long")
        text = text[:MAX_LINE_CHARS]
    parser = _Parser(state, Reader(text, state.variables, percent=True), depth)
    parser.parse_list()
    for variable in list(state.variables.undefined)[: 0 if state.dynamic else 1]:  # (one reason is enough)
        state.note(
            f"the line holds {variable}, a variable with no standard value that cmd replaces before it reads the"
            " line: whatever an earlier command stored there (`&` and a whole command) runs with it"
        )
    return Analysis(
        operations=tuple(state.operations),
        dynamic=tuple(state.dynamic),
        failed="; ".join(state.failures) or None,
    )
