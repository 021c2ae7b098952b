"""The keyboard is a shell: typed and pasted text judged as a command where it would run (issue 18 item 4).

Type, MultiEdit, and a paste (Shortcut Ctrl+V / Shift+Insert / Ctrl+Shift+V, a right click in a
console) put text somewhere; where that somewhere runs what it is given — a console, the Run box
or Task Manager's "Create new task", an Explorer or browser address bar — the text is judged by
the same command rules as the PowerShell tool (`CommandRules.match("PowerShell", …)`). The target
comes from the observation the call acts on (`policy/rules/keyboard.py`): the element at `loc`,
every element a label may be (`policy/labels.py`), or the keyboard focus. Enter (press_enter, a
line break, a later Shortcut `enter`) is what makes it run, but text without it is judged too: a
later Enter runs it. A UAC or Windows Security prompt is always a person's call.

A paste is judged by what this session last put on the clipboard with the Clipboard tool
(`SessionView.clipboard`); when the gateway cannot know the clipboard's content (nothing set,
or a command ran since that may have changed it), pasting into such a place asks a person.

Limit: a custom shell or REPL with a plain window title and no console text area looks like an
ordinary text field, and its input is not judged (README, Command rules).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace

from policy.context import Context
from policy.decision import RuleHit
from policy.freshness import basis_of
from policy.labels import label_table
from policy.observation import Observation, Point
from policy.rules.args import truthy
from policy.rules.effects_browsers import password_page
from policy.rules.explorer_drag import explorer_drag
from policy.rules.keyboard import (
    FILE_NAME_BOXES,
    RISK,
    UNKNOWN_FOLDER,
    ExplorerDelete,
    TypingTarget,
    caret_position,
    dialog_folder,
    document_run_button,
    document_run_keys,
    edits_line,
    explorer_delete,
    explorer_paste,
    file_name_box,
    location_statements,
    shows_credential_prompt,
    submit_target,
    typed_inputs,
    typing_target,
)
from policy.rules.shell.winenv import STANDARD_ENV
from policy.rules.uia_keys import KeyEvent, key_events
from policy.values import ToolCall

# Places that run what they are given (a credential prompt is handled on its own).
RUNS_TEXT = frozenset(
    {TypingTarget.INTERPRETER, TypingTarget.CONSOLE, TypingTarget.RUN_BOX, TypingTarget.ADDRESS_BAR}
    | {TypingTarget.UNKNOWN}
)
# A console window, with a shell's or an interpreter's prompt in it (a right click there pastes).
CONSOLES = frozenset({TypingTarget.INTERPRETER, TypingTarget.CONSOLE})
INTERPRETER_RULE = "dynamic-command"
TYPED_TOOLS = frozenset({"Type", "MultiEdit", "Shortcut", "Click", "Move"})

# A file dialog's name box (S-RULE-149): the path typed there is saved to or opened, as FileSystem's `path` is.
FILE_DIALOGS = frozenset({TypingTarget.FILE_SAVE, TypingTarget.FILE_OPEN})
# A name the dialog resolves by itself: a drive, a share, `%VAR%` (the dialog expands it); a bare name is in the
# dialog's own folder.
_ROOTED_NAME = re.compile(r"^(?:[A-Za-z]:|\\\\|//|%[^%]+%)")

CREDENTIAL_PROMPT_RULE = "credential-prompt"
WILDCARD_DELETE = "wildcard-delete"
UNKNOWN_PASTE_RULE = "unknown-paste"
UNKNOWN_LINE_RULE = "unknown-line"


def _worst(hits: list[RuleHit]) -> RuleHit | None:
    return next((h for h in hits if h.action == "deny"), hits[0] if hits else None)


def _target(obs: Observation | None, point: Point | None, label: int | None) -> tuple[TypingTarget, str]:
    if obs is None:
        return TypingTarget.UNKNOWN, "an unknown place (no observation to read it from)"
    if label is not None:
        table = label_table(obs, use_dom=obs.use_dom)
        if not 0 <= label < len(table.rows):
            return TypingTarget.UNKNOWN, f"label {label}, which {obs.id} does not place"
        found = [typing_target(obs.capture, c.point) for c in table.rows[label].candidates if c.point is not None]
        found.sort(key=lambda kd: RISK.index(kd[0]))
        return found[0] if found else (TypingTarget.UNKNOWN, f"label {label}")
    return typing_target(obs.capture, point)


def _judge(
    text: str, where: tuple[TypingTarget, str], ctx: Context, *, enter: bool, folder: str | None = None
) -> RuleHit | None:
    kind, description = where
    if kind in FILE_DIALOGS:
        return _file_name_hit(text, where, ctx, folder)
    if kind is TypingTarget.CREDENTIAL_PROMPT:
        return RuleHit(
            rule_id=CREDENTIAL_PROMPT_RULE,
            action="ask",
            risk="credential-prompt",
            reason=f"this would type into {description}, a Windows security prompt. Instead, let the person "
            "answer the prompt themselves.",
        )
    if kind not in RUNS_TEXT or ctx.rules is None or not text.strip():
        return None  # blank text runs nothing
    if kind is TypingTarget.INTERPRETER:
        # Python, Node or SQL, not a shell: the command rules would read `shutil.rmtree('C:/Users')` as
        # nothing, so what it runs cannot be judged (S-RULE-103), as `python -c` cannot.
        runs = "and run (Enter follows)" if enter else "(a later Enter runs it)"
        return RuleHit(
            rule_id=INTERPRETER_RULE,
            action="ask",
            risk="dynamic-command",
            reason=f"text typed into {description} {runs} is code in that interpreter's language, which the "
            "command rules cannot judge. Instead, do it with a PowerShell command the gateway can judge, or let "
            "the person run the code.",
        )
    hits_here = _session_changes(text, description) if kind in _SESSIONS else []
    # A console may run cmd as well as PowerShell (a Command Prompt, a Terminal tab, the Run box and an
    # address bar start command lines), and cmd reads `%ComSpec% /c …` or `for /r … do del` where
    # PowerShell reads something else: the text is judged both ways and the worse answer stands.
    # The console's folder as earlier calls left it: relative paths are judged from there (S-RULE-120).
    moved = location_statements(ctx.view.console_moves) if kind in _SESSIONS else ""
    read = ctx.rules.match("PowerShell", {"command": moved + text})
    linux = _as_linux(text, ctx) if kind is TypingTarget.CONSOLE else None
    opened = _as_opened_path(text, ctx) if kind in _OPENERS else None
    hit = _worst([h for h in (read, _as_cmd(text, ctx), linux, opened) if h is not None])
    if hit is None:
        return _worst(hits_here)
    runs = "and run (Enter follows)" if enter else "(a later Enter runs it)"
    return _worst([*hits_here, replace(hit, reason=f"text typed into {description} {runs} is a command: {hit.reason}")])


# A console keeps its session between Type calls: what one call defines there changes what a later one runs
# (S-RULE-119). An alias, a function or filter, a doskey macro, a key handler or a command-lookup hook.
_SESSIONS = frozenset({TypingTarget.CONSOLE, TypingTarget.UNKNOWN})
_REDEFINES = re.compile(
    r"(?<![\w-])(?:set-alias|new-alias|sal|nal|set-psreadlinekeyhandler)(?![\w-])"
    r"|(?<![\w-])(?:function|filter)\s+[^\s{(]+\s*[{(]"
    r"|\$\{?function:|(?<![\w$])function:\\?\w"
    r"|(?<![\w-])doskey(?:\.exe)?\s+(?:/\S+\s+)*[^\s=/]+="
    r"|(?:pre|post)commandlookupaction|commandnotfoundaction",
    re.IGNORECASE,
)


# A console's environment is part of its session too (S-RULE-123): a later command reads `$env:TEMP` or
# `%windir%` as the standard folder, and finds a program by `Path`/`PSModulePath`, while the console has them
# pointing elsewhere (`$env:TEMP = 'C:\Windows\System32'`, then `del $env:TEMP\hal.dll`). Appending to a
# lookup list (`$env:Path += ';C:\tools'`, `set PATH=%PATH%;C:\tools`) shadows nothing already found, so it
# passes. A variable with no standard value needs no check: a change through it always asks (S-RULE-122).
_STANDARD_NAMES = "|".join(re.escape(n) for n in sorted(STANDARD_ENV, key=len, reverse=True))
_LOOKUP = r"(?:PATH|PSMODULEPATH)"
_ENV_NAMES = rf"(?:{_STANDARD_NAMES}|{_LOOKUP})"
# The list itself with constant text after it: `$env:Path + ';C:\tools'`, `"$env:Path;C:\tools"`.
_APPENDED = rf"(?:\$\{{?env:{_LOOKUP}\}}?\s*\+\s*'[^']*'|\"\$\{{?env:{_LOOKUP}\}}?;[^\"$`]*\")"
_SETS_ENVIRONMENT = re.compile(
    rf"\$\{{?env:(?:{_STANDARD_NAMES})\}}?\s*[-+*/]?=(?!=)"
    rf"|\$\{{?env:{_LOOKUP}\}}?\s*=(?!=)(?!\s*{_APPENDED}\s*(?:$|[;\r\n]))"
    rf"|(?<![\w-])set\s+(?:/a\s+)?\"?(?:{_STANDARD_NAMES})\s*="
    rf"|(?<![\w-])set\s+\"?{_LOOKUP}\s*=(?!%{_LOOKUP}%)"
    rf"|(?<![\w-])(?:set-item|si|new-item|ni|set-content|add-content|ac|clear-content|clc|remove-item|ri|del)\s+"
    rf"(?:-(?:literal)?path\s+)?['\"]?env:\\?{_ENV_NAMES}(?![\w(])"
    rf"|setenvironmentvariable\s*\(\s*['\"]{_ENV_NAMES}['\"]",
    re.IGNORECASE,
)


# Quoted text only mentions a definition (`Write-Output 'function f {}'`).
_QUOTED_TEXT = re.compile(r"'[^']*'|\"[^\"]*\"")


def _file_name_hit(text: str, where: tuple[TypingTarget, str], ctx: Context, folder: str | None) -> RuleHit | None:
    """S-RULE-149: a path typed into a file dialog's name box is written (a Save dialog) or opened and shown (an
    Open dialog) once Enter or the dialog's button follows: judged as FileSystem `write` or `read` of it. A bare
    name is in the dialog's folder: judged there when the dialog shows it, else not at all, except a name that
    climbs out of it (`..\\.ssh\\x`), which lands where nobody can tell."""
    if ctx.rules is None:
        return None
    saving = where[0] is TypingTarget.FILE_SAVE
    hits: list[RuleHit] = []
    for name in re.findall(r'"([^"]*)"', text) or [text]:  # an Open dialog takes `"a.txt" "b.txt"`
        path = name.strip()
        if not path:
            continue
        if not _ROOTED_NAME.match(path):
            if folder is not None:
                path = folder.rstrip("\\/") + "\\" + path
            elif ".." in re.split(r"[\\/]", path):
                hits.append(_climbs_out(path, where))
                continue
            else:
                continue
        hit = ctx.rules.match("FileSystem", {"mode": "write" if saving else "read", "path": path})
        if hit is not None:
            what = "saved there" if saving else "opened and shown"
            hits.append(replace(hit, reason=f"a path typed into {where[1]} is {what}: {hit.reason}"))
    return _worst(hits)


def _climbs_out(path: str, where: tuple[TypingTarget, str]) -> RuleHit:
    return RuleHit(
        rule_id=INTERPRETER_RULE,
        action="ask",
        risk="dynamic-command",
        reason=f"{path!r} typed into {where[1]} climbs out of the dialog's folder, which the observation does not "
        "show, so where the file lands cannot be judged. Instead, type the whole path (`C:\\Users\\…`), or use "
        "FileSystem, whose paths the gateway judges.",
    )


def _outside_quotes(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of `pattern` in `text` that does not start inside quoted text."""
    quoted = [m.span() for m in _QUOTED_TEXT.finditer(text)]
    return next((m for m in pattern.finditer(text) if not any(a <= m.start() < b for a, b in quoted)), None)


def _session_changes(text: str, description: str) -> list[RuleHit]:
    """What `text` changes in a console's session that a later command typed there reads (S-RULE-119, S-RULE-123)."""
    hits: list[RuleHit] = []
    redefined = _outside_quotes(_REDEFINES, text)
    if redefined is not None:
        hits.append(_redefinition(redefined.group(0).strip(), description))
    environment = _outside_quotes(_SETS_ENVIRONMENT, text)
    if environment is not None:
        hits.append(
            RuleHit(
                rule_id=INTERPRETER_RULE,
                action="ask",
                risk="dynamic-command",
                reason=f"this changes a standard environment variable in {description}'s session "
                f"({environment.group(0).strip()[:40]} …): a command typed there later would read a place or find "
                "a program other than the one its text names, so the gateway could not judge it. Instead, spell "
                "the paths out, or use the PowerShell tool (each call is a fresh PowerShell).",
            )
        )
    return hits


def _redefinition(what: str, description: str) -> RuleHit:
    return RuleHit(
        rule_id=INTERPRETER_RULE,
        action="ask",
        risk="dynamic-command",
        reason=f"this defines a command in {description}'s session ({what[:40]} …): a command typed there later "
        "would run it while its text says something else, so the gateway could not judge that later command. "
        "Instead, type the command you mean spelled out, or use the PowerShell tool (each call is a fresh "
        "PowerShell).",
    )


_BREAK = re.compile(r"\r\n|[\r\n]")

# PowerShell's single quotes (ASCII and typographic); inside '…' each is written twice.
_SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"


def _unknown_line(where: tuple[TypingTarget, str]) -> RuleHit | None:
    """Enter where a line runs, when keys since the line began may have changed it unseen (S-RULE-60)."""
    if where[0] not in RUNS_TEXT:
        return None
    return RuleHit(
        rule_id=UNKNOWN_LINE_RULE,
        action="ask",
        risk="dynamic-command",
        reason=f"this presses Enter in {where[1]}, which runs the line typed there, and keys pressed since that "
        "line began (Tab completion, Backspace, an arrow, history, or a click that moved the caret) leave the "
        "gateway unable to know what the line now says. Instead, press Esc (Shortcut `esc`) to empty the line, "
        "then type the whole command in one Type call with press_enter=true, so it can be judged.",
    )


# The Run box and an address bar open a path whole, blanks and all (`C:\…\User Data\Default\Login Data`), and a
# browser's `view-source:` shows the file it names (S-RULE-149).
_OPENERS = frozenset({TypingTarget.RUN_BOX, TypingTarget.ADDRESS_BAR})
_OPENED_PATH = re.compile(
    r"^(?:view-source:)?(?:file:/*(?=[A-Za-z]:)|(?=file:))?((?:[A-Za-z]:|\\\\|//|%[^%]+%|file:)[^\"<>|]*)$",
    re.IGNORECASE,
)


def _as_opened_path(text: str, ctx: Context) -> RuleHit | None:
    """The rule the text hits as one path opened (`Invoke-Item` of it): a command line would split it at its
    blanks, and a browser's `view-source:` or a `file:///` URL hides the path from the command reading."""
    if ctx.rules is not None and password_page(text):  # `about:logins` is no command word (S-RULE-214)
        return ctx.rules.match("PowerShell", {"command": "Start-Process " + _quoted(text.strip())})
    found = _OPENED_PATH.match(text.strip())
    if ctx.rules is None or found is None or found.group(0) == found.group(1) and " " not in found.group(1):
        return None  # a path with no blank and no prefix is the command reading's own word
    path = found.group(1).strip().replace("/", "\\") if found.group(1)[1:2] == ":" else found.group(1).strip()
    return ctx.rules.match("PowerShell", {"command": "Invoke-Item -LiteralPath " + _quoted(path)})


def _quoted(text: str) -> str:
    """`text` as one PowerShell single-quoted literal (each single quote, typographic ones too, written twice)."""
    return "'" + "".join(c * 2 if c in _SINGLE_QUOTES else c for c in text) + "'"


def _as_cmd(text: str, ctx: Context) -> RuleHit | None:
    """The rule `text` hits when cmd.exe runs it: handed to cmd as one literal, so PowerShell's
    parser, which reads the wrapper, never sees the text's own quotes, pipes or parentheses.

    Only what cmd's reading finds counts (its effects and names it cannot resolve): the regex table
    already read the text as written in the PowerShell reading, and reading the wrapper's literal again
    would take a string PowerShell only prints for a command (`Write-Output "… Remove-Item -Recurse …"`).
    """
    if ctx.rules is None:
        return None
    return ctx.rules.match("PowerShell", {"command": f"cmd /d /c {_quoted(text)}"}, table=False)


def _as_linux(text: str, ctx: Context) -> RuleHit | None:
    """The rule `text` hits when a Linux shell runs it (S-RULE-131): a console may be WSL, Git Bash, an SSH session
    or a Terminal tab holding one, where `sudo rm -rf /` reaches every Windows drive (`/mnt/c`) and PowerShell's
    and cmd's readings see nothing. Handed to `bash -c` as one literal; effects only, as `_as_cmd`."""
    if ctx.rules is None:
        return None
    # The console's folder as earlier calls left it (S-RULE-120, S-RULE-132): `cd /mnt/c/Windows/System32` typed by
    # one call, `rm hal.dll` by the next.
    moved = "".join(
        'cd "$unknown" && ' if move == UNKNOWN_FOLDER else f"cd {shlex.quote(move)} && "
        for move in ctx.view.console_moves
    )
    return ctx.rules.match("PowerShell", {"command": f"bash -c {_quoted(moved + text)}"}, table=False)


def _paste_hit(call: ToolCall, ctx: Context, where: tuple[TypingTarget, str]) -> RuleHit | None:
    if where[0] is TypingTarget.TEXT:
        return None
    text = ctx.view.clipboard
    if text is None:
        return _unknown_paste(where)
    line = ctx.view.unentered + text  # a paste completes the line typed before it, as typing does
    texts = (text, line) if line != text else (text,)
    hits = [_judge(t, where, ctx, enter="\n" in t or "\r" in t) for t in texts]
    if not ctx.view.line_known and ("\n" in text or "\r" in text):
        hits.insert(0, _unknown_line(where))  # the paste's Enter runs a line the gateway does not know
    return _worst([h for h in hits if h is not None])


def _key_hits(events: tuple[KeyEvent, ...], where: tuple[TypingTarget, str], ctx: Context) -> list[RuleHit]:
    """What a Shortcut's keys hit where they land (the keyboard focus): the text they type is judged like
    Type's, alone and with the line it completes, each Enter runs that line (asking when the gateway
    lost it), a paste is judged by the clipboard, and text left without Enter is judged too."""
    hits: list[RuleHit | None] = []
    line, known, typed = ctx.view.unentered, ctx.view.line_known, ""
    for e in events:
        if e.kind == "text":
            line, typed = line + e.text, typed + e.text
        elif e.kind in ("paste", "unknown-paste"):
            clip = ctx.view.clipboard if e.kind == "paste" else None
            if clip is None:
                hits.append(_unknown_paste(where))
                known = False
                continue
            *ran, rest = _BREAK.split(line + clip)
            for run in ran:  # each line break in the clipboard is an Enter
                hits += [_judge(run, where, ctx, enter=True), None if known else _unknown_line(where)]
                known = True
            line, typed = rest, typed + clip
        elif e.kind == "edit":
            known = False
        elif e.kind == "end-line":
            line, known, typed = "", True, ""
        elif e.kind == "enter":
            texts = {typed, line} - {""}
            hits += [_judge(t, where, ctx, enter=True) for t in texts]
            hits.append(None if known else _unknown_line(where))
            line, known, typed = "", True, ""
    hits += [_judge(t, where, ctx, enter=False) for t in {typed, line} - {""} if typed]
    return [h for h in hits if h is not None]


def _explorer_delete_hit(deleted: ExplorerDelete, ctx: Context) -> RuleHit | None:
    """S-RULE-153: File Explorer's Delete removes the selected items (a folder with all it holds), judged as
    FileSystem `delete` of each. For a selection the Snapshot does not show (`<folder>\\*`), the "every item at
    once" reading (`wildcard-delete`) does not apply: one item, any of them, is what the key removes."""
    if ctx.rules is None:
        return None
    hits: list[RuleHit] = []
    for path in deleted.paths:
        hit = ctx.rules.match("FileSystem", {"mode": "delete", "path": path})
        if hit is not None and not (path.endswith("\\*") and hit.rule_id == WILDCARD_DELETE):
            if deleted.how == "deletes":
                done = "deletes what is selected in " + deleted.description
                done += " for good" if deleted.permanent else " to the Recycle Bin"
            else:  # Ctrl+X, F2 (S-RULE-218)
                done = f"{deleted.how.split(' ', 1)[0]} what is selected in {deleted.description} "
                done += deleted.how.split(" ", 1)[1]
            hits.append(replace(hit, reason=f"this key {done}: {hit.reason}"))
    return _worst(hits)


def _explorer_paste_hit(description: str, folder: str, ctx: Context) -> RuleHit | None:
    """S-RULE-153: File Explorer's paste drops files nobody named into the folder it shows: judged as a copy of
    unknown files into that folder (`<folder>\\*`, S-RULE-147): System32, Startup, `~\\.ssh` refuse."""
    if ctx.rules is None:
        return None
    hit = ctx.rules.match("PowerShell", {"command": "Copy-Item C:\\pasted\\* -Destination " + _quoted(folder)})
    if hit is None:
        return None
    return replace(hit, reason=f"this key pastes copied files into {description}: {hit.reason}")


def _explorer_drag_hit(obs: Observation | None, call: ToolCall, ctx: Context) -> RuleHit | None:
    """S-RULE-213: a drag out of File Explorer (or off the desktop) deletes, moves or hands over the file it drags:
    judged as that FileSystem call. A drag that is not a file's (a slider, a window, selected text) is no call."""
    if obs is None or ctx.rules is None or not truthy(call.args.get("drag")):
        return None
    ends: list[Point | None] = [*_points(obs, call)] or [None]
    hits: list[RuleHit] = []
    for end in ends:  # a label may stand for several elements: each is where it may land
        drag = explorer_drag(obs.capture, _loc(call.args.get("from_loc")), end)
        hit = ctx.rules.match("FileSystem", drag.call) if drag is not None else None
        one_of = drag is not None and drag.source.endswith("\\*")  # one item, not every one at once
        if drag is not None and hit is not None and not (one_of and hit.rule_id == WILDCARD_DELETE):
            hits.append(replace(hit, reason=f"this {drag.description}: {hit.reason}"))
    return _worst(hits)


def _document_run(what: str) -> RuleHit:
    """An editor told to run its document or selection (S-RULE-139): code typed there was never read as a command."""
    return RuleHit(
        rule_id=INTERPRETER_RULE,
        action="ask",
        risk="dynamic-command",
        reason=f"this presses {what}, which runs the open document or the code selected in it: text typed into an "
        "editor is never read as a command, so the gateway cannot judge what would run. Instead, write the code "
        "with FileSystem `write` (it is judged as written) and run it with PowerShell, or let the person run it.",
    )


def _unknown_paste(where: tuple[TypingTarget, str]) -> RuleHit | None:
    if where[0] not in RUNS_TEXT and where[0] is not TypingTarget.CREDENTIAL_PROMPT:
        return None
    return RuleHit(
        rule_id=UNKNOWN_PASTE_RULE,
        action="ask",
        risk="dynamic-command",
        reason=f"this pastes into {where[1]}, which runs what it is given, and the gateway cannot know what "
        "the clipboard holds. Instead, type the command with Type, or set it with Clipboard first.",
    )


def _is_right_click(call: ToolCall) -> bool:
    return call.tool == "Click" and str(call.args.get("button", "")).lower() == "right"


def typed_hit(call: ToolCall, ctx: Context) -> RuleHit | None:
    """The command rule that text this input call puts in would hit where it lands, or None.

    Args:
        call: an INPUT call (Type, MultiEdit, a paste chord, a right click).
        ctx: the context (rules, this session's observations and clipboard).

    Returns:
        The worst hit (first deny, else first ask) over every text the call puts in.
    """
    if call.tool not in TYPED_TOOLS:
        return None
    obs, _ = basis_of(call, ctx.view)
    if call.tool == "Shortcut":
        pressed = _key_hits(key_events(call.args.get("shortcut")), _target(obs, None, None), ctx)
        runs = document_run_keys(obs.capture, call.args.get("shortcut")) if obs is not None else None
        deleted = explorer_delete(obs.capture, call.args.get("shortcut")) if obs is not None else None
        removed = _explorer_delete_hit(deleted, ctx) if deleted is not None else None
        pasted = explorer_paste(obs.capture, call.args.get("shortcut")) if obs is not None else None
        dropped = _explorer_paste_hit(*pasted, ctx) if pasted is not None else None
        acted = [h for h in (removed, dropped) if h is not None]
        return _worst(acted + ([_document_run(runs)] if runs else []) + pressed)
    if call.tool == "Move":
        return _explorer_drag_hit(obs, call, ctx)
    if call.tool == "Click" and not _is_right_click(call):
        if obs is None:
            return None
        runs = next((r for p in _points(obs, call) if (r := document_run_button(obs.capture, p))), None)
        if runs is not None:
            return _document_run(runs)
        # Save or Open in a file dialog: the path its name box holds is written or opened (S-RULE-149).
        submitted = next((b for p in _points(obs, call) if (b := file_name_box(obs.capture, p))), None)
        if submitted is not None:
            kind, description, value, folder = submitted
            return _file_name_hit(value, (kind, description), ctx, folder)
        # A click on a UAC or Windows Security prompt (Yes: the elevation) is a person's call (S-RULE-69).
        for point in _points(obs, call) if shows_credential_prompt(obs.capture) else ():
            kind, description = typing_target(obs.capture, point)
            if kind is TypingTarget.CREDENTIAL_PROMPT and not _declines(obs, point):
                return RuleHit(
                    rule_id=CREDENTIAL_PROMPT_RULE,
                    action="ask",
                    risk="credential-prompt",
                    reason=f"this clicks in {description}, a Windows security prompt: its Yes raises a program to "
                    "administrator or hands over a password. Instead, let the person answer the prompt themselves.",
                )
        # OK in a Run box is its Enter (S-RULE-60): at `loc`, or any element the label may be.
        if ctx.view.line_known:
            return None
        found = (submit_target(obs.capture, p) for p in _points(obs, call))
        ok = next((f for f in found if f is not None), None)
        return _unknown_line(ok) if ok is not None else None
    if _is_right_click(call):
        where = _target(obs, _loc(call.args.get("loc")), _label(call.args.get("label")))
        if where[0] not in CONSOLES:
            return None  # a right click pastes only in a console
        return _paste_hit(call, ctx, where)
    hits: list[RuleHit] = []
    # `clear` is Ctrl+A then Backspace: a Command Prompt keeps its line through it, so the line before still counts —
    # for MultiEdit too, which upstream types item by item with `clear` (the text alone is judged as well).
    cleared = call.tool == "MultiEdit"
    before = ctx.view.unentered
    caret = caret_position(call.args) if call.tool == "Type" else "idle"
    at_start = caret == "start"
    for item in typed_inputs(call.tool, call.args):
        where = _target(obs, item.point, item.label)
        folder = _dialog_folder(obs) if where[0] in FILE_DIALOGS and obs is not None else None
        # The text alone, and the line it completes: `r` typed earlier, then `d /s /q C:\x` + Enter
        # (or, typed at the start of the line, `Remove-Item ` in front of `C:\x -Recurse` typed earlier).
        line = item.text + before if at_start else before + item.text
        for text in (item.text, line) if before else (item.text,):
            hit = _judge(text, where, ctx, enter=item.enter, folder=folder)
            if hit is not None:
                hits.append(hit)
        # A click in a field that holds text may put the caret anywhere in it (a Run box, an address bar).
        caret_moved = bool(before) and caret == "idle" and (item.point is not None or item.label is not None)
        # The lines an Enter of this call runs; a Tab or another control key in one changed it unseen.
        ran = _BREAK.split(line)
        ran = ran if item.enter and not line.endswith(("\n", "\r")) else ran[:-1]
        edited = any(edits_line(r) for r in ran)
        if edited or (item.enter and not cleared and (not ctx.view.line_known or caret_moved)):
            unknown = _unknown_line(where)
            if unknown is not None:
                hits.insert(0, unknown)  # before other asks: it says why the line cannot be judged
    return _worst(hits)


# Buttons that decline a prompt: clicking them raises nothing and hands over nothing.
_DECLINE_BUTTONS = frozenset({"no", "cancel", "close", "don't allow", "deny"})


def _dialog_folder(obs: Observation) -> str | None:
    """The folder a file dialog in the observation shows (its breadcrumb), for a bare name typed into it."""
    titles = dict.fromkeys(
        e.window for e in obs.capture.elements if e.window and e.name.strip().casefold() in FILE_NAME_BOXES
    )
    return next((f for t in titles if t is not None and (f := dialog_folder(obs.capture, t)) is not None), None)


def _declines(obs: Observation, point: Point) -> bool:
    """Whether the element printed exactly at `point` is a button that declines the prompt."""
    return any(
        e.point == point and e.control == "button" and e.name.strip().casefold() in _DECLINE_BUTTONS
        for e in obs.capture.elements
    )


def _points(obs: Observation, call: ToolCall) -> list[Point]:
    """The screen points a Click may land on: its `loc`, or every element its label may be."""
    label = _label(call.args.get("label"))
    if label is None:
        loc = _loc(call.args.get("loc"))
        return [] if loc is None else [loc]
    table = label_table(obs, use_dom=obs.use_dom)
    if not 0 <= label < len(table.rows):
        return []
    return [c.point for c in table.rows[label].candidates if c.point is not None]


def _label(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _loc(value: object) -> Point | None:
    if isinstance(value, list | tuple) and len(value) >= 2:
        try:
            return int(float(value[0])), int(float(value[1]))
        except (TypeError, ValueError):
            return None
    return None
