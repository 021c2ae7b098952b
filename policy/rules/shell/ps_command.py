"""Commands of the PowerShell analyser (issue 18): a command node → one `Operation`.

`CommandWalker._command` reads a command's name and elements into words (parameters,
arguments, splats), resolves the name (script aliases, functions, built-in aliases, module
qualifiers, `sc`), binds the words to parameters the way PowerShell does (a switch takes no
value, any other parameter the next argument) and emits the operation: a cmdlet with its
canonical parameters, or a program with its argv, handed on to the dispatcher (`cmd /c …`).
A few cmdlets mean more (`_semantics`): `iex` analyses its text, `Set-Alias` defines a name,
`New-Object` makes an object, `Start-Process` starts a program. A command the grammar broke
is re-read from its text (`_recover_command`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from policy.rules.shell.argv import powershell_native_line, reads_piped_commands
from policy.rules.shell.argv import program_name as standard_program
from policy.rules.shell.ops import RUN_PATH, UNC_STARTS, Value
from policy.rules.shell.ps_calls import MethodCalls
from policy.rules.shell.ps_fold import Nested, shown
from policy.rules.shell.ps_names import (
    ALIAS_SETTERS,
    BLOCK_RUNNERS,
    BUILTIN_ALIASES,
    DANGEROUS_METHODS,
    PSREADLINE_OPTIONS,
    TARGETED_TYPES,
    VARIABLE_SETTERS,
    canonical_type,
    is_switch,
    looks_like_program,
    program_name,
)
from policy.rules.shell.ps_repair import HAS_NUMBER_SUFFIX
from policy.rules.shell.ps_text import split_words
from policy.rules.shell.ps_tree import (
    ERROR_ID,
    WRAPPER_IDS,
    Source,
    field_id,
    kind_id,
    kind_ids,
    unwrap,
    variable_key,
)
from policy.rules.shell.ps_values import (
    UNKNOWN,
    CommandRef,
    Hashtable,
    ObjectRef,
    PSValue,
    ScriptBlock,
    as_text,
    as_value,
    flatten,
)
from policy.rules.shell_names import SC_VERBS
from policy.rules.shell_names import canonical_parameter as _canonical_parameter

_MODULE_QUALIFIED = re.compile(r"[\w.]+\\([\w]+-[\w]+)")
_WILDCARD = re.compile(r"[*?\[]")
_BLANK = re.compile(r"\s")
# `New-Item`/`Set-Item` on the Alias: drive define an alias as `Set-Alias` does (S-RULE-89); they and
# `Set-Content`/`Add-Content` on the Function: drive define a function, whose body is code (S-RULE-94).
_ITEM_SETTERS = frozenset({"new-item", "set-item", "set-content", "add-content"})
_SESSION_DRIVE = re.compile(
    r"(?:microsoft\.powershell\.core\\)?(?P<drive>alias|function|env)::?[\\/]*(?P<name>.*)", re.IGNORECASE
)
# The commands `_semantics` gives a meaning beyond their operation.
_MEANINGFUL = frozenset({"invoke-expression", "new-object", "get-command", "write-output", "start-process"})
_MEANINGFUL |= {"foreach-object", "invoke-sqlcmd"} | ALIAS_SETTERS | VARIABLE_SETTERS | _ITEM_SETTERS
_MEANINGFUL |= {"get-psreadlineoption"}
# Cmdlets handing a method its parameters as one hashtable (`Invoke-CimMethod … -Arguments @{CommandLine=…}`,
# by name, by position or splatted): each constant entry is also recorded as a parameter `arguments.<key>`
# (S-RULE-45), so the method's own parameters are read like the cmdlet's.
_DICTIONARY_PARAMETERS = {"invoke-cimmethod": "arguments"}
# Kinds the command walker tests, by id (`ps_tree.kind_ids`; one id, `ps_tree.kind_id`, where a test
# in a hot path mostly hits).
_INVOKATION_OPERATOR = kind_ids("command_invokation_operator")
_COMMAND_ELEMENTS = kind_id("command_elements")
_COMMAND_NAME = kind_id("command_name")
# The kinds of a command's `command_name` field (`command_name`, or `command_name_expr` after `&`/`.`).
_NAME_KINDS = kind_ids("command_name", "command_name_expr")
_PATH_COMMAND_NAME = kind_ids("path_command_name")
_PATH_COMMAND_NAME_TOKEN = kind_ids("path_command_name_token")
_COMMAND_NAME_FIELD = field_id("command_name")
_ARGUMENT_SEP = kind_id("command_argument_sep")
_PARAMETER = kind_id("command_parameter")
_REDIRECTION = kind_ids("redirection")
_REDIRECTED_FILE_NAME = kind_ids("redirected_file_name")
_STOP_PARSING = kind_ids("stop_parsing")
_SCRIPT_BLOCK = kind_id("script_block_expression")
_ARGUMENT_LIST = kind_ids("argument_list")
_OTHER_ELEMENTS = _REDIRECTION | _STOP_PARSING | _ARGUMENT_LIST | kind_ids("comment")
_GENERIC_TOKEN = kind_id("generic_token")
_INTEGER_LITERAL = kind_id("integer_literal")
_VARIABLE = kind_id("variable")
_MEMBER_ACCESS = kind_id("member_access")
_MEMBER_NAME = kind_ids("member_name")


@functools.lru_cache(maxsize=4096)
def canonical_parameter(command: str, name: str) -> str:
    """`shell_names.canonical_parameter`, cached: it scans the command's parameter table per call."""
    return _canonical_parameter(command, name)


@functools.lru_cache(maxsize=4096)
def _parameter_key(command: str, written: str) -> str:
    """The canonical name of a parameter as written (`-Rec`, `-Path:`) for `command` (cached)."""
    return canonical_parameter(command, written.lstrip("-").rstrip(":").lower())


@functools.lru_cache(maxsize=4096)
def _takes_value(command: str, written: str) -> tuple[str, bool]:
    """A parameter as written → its canonical name and whether it takes the next argument (cached)."""
    key = _parameter_key(command, written)
    return key, not is_switch(command, key)


# Windows PowerShell's aliases of Invoke-WebRequest that name a program in PowerShell 7.
_ALIASED_PROGRAMS = frozenset({"curl", "wget"})


@dataclass(slots=True)
class Word:
    """One element of a command after the name: a parameter, an argument, or a splat."""

    kind: str  # "param", "arg", "splat"
    text: str = ""
    value: PSValue = UNKNOWN
    has_value: bool = False
    joined: bool = False  # a bareword array written with commas (`a,b`, `a, b`)
    # For a joined array: its elements joined by the separators as written (`%X:~0,19%`), which
    # is what a native program receives (PowerShell's GetEnumerableArgSeparator); None when an
    # element is not constant or holds a blank.
    line: str | None = None
    end_of_parameters: bool = False  # the `--` word: a program receives it, a cmdlet's binding drops it


class CommandWalker(MethodCalls):
    """Turns command nodes into operations; see the module docstring."""

    def __init__(self, nested: Nested | None, depth: int) -> None:
        super().__init__(nested, depth)
        self.aliases: dict[str, str | None] = {}
        self.functions: dict[str, ScriptBlock] = {}
        self._trees: list[object] = []  # keeps every parsed tree (and its node ids) alive
        self._last_name = ""  # the canonical name of the command last invoked (a pipeline's `input_from`)
        self._name_node: Node | None = None  # the name of the command whose words `_words` is reading

    def walk_in(self, source: Source, node: Node) -> PSValue:
        """Walk `node` of the tree parsed from `source` (node texts are read from it)."""
        before = self.source
        self.source = source
        try:
            return self.walk(node)
        finally:
            self.source = before

    # -- commands -----------------------------------------------------------------------

    def command(
        self, node: Node, input_from: str | None = None, piped: PSValue = UNKNOWN, *, piped_env: bool = False
    ) -> PSValue:
        """Walk one command (`input_from`: the name of the command piping into it; `piped`: its value)."""
        self._last_name = ""
        operator = elements = name_node = None
        for child in node.children:  # one pass (instead of a generator per search): a hot path
            kind = child.kind_id
            if kind in _NAME_KINDS:
                if name_node is None:
                    name_node = child
            elif kind == _COMMAND_ELEMENTS:
                elements = child
            elif kind in _INVOKATION_OPERATOR:
                operator = child
        if node.has_error:
            # Only in a broken tree may the first name-like child not be the `command_name` field.
            name_node = node.child_by_field_id(_COMMAND_NAME_FIELD)
        if (
            elements is not None
            and operator is None
            and elements.has_error
            and any(c.kind_id == ERROR_ID for c in elements.children)
        ):
            self._recover_command(node, node)
            return UNKNOWN
        outer, self._name_node = self._name_node, name_node
        reads = self.env_reads
        words = self._words(elements) if elements is not None else []
        self._name_node = outer
        from_env = (self.env_reads != reads, piped_env)
        text = shown(self.text(node))
        if name_node is None:
            return UNKNOWN
        if name_node.kind_id == _COMMAND_NAME:
            called = self.bareword(self.text(name_node))  # `_name_value` of a plain name, inlined
        else:
            called = self._name_value(name_node)
        dot = operator is not None and self.text(operator).strip() == "."
        self.argv_from_env = from_env[0]  # a program this command starts got those values (S-RULE-219)
        return self._invoke(called, words, text, input_from, piped, dot, from_env)

    def _runs_blocks(self, name_node: Node | None) -> bool:
        """Whether the command named at `name_node` may run a script block argument (see `_value_word`)."""
        if name_node is None or name_node.kind_id != _COMMAND_NAME:
            return True  # `& $x {…}`, `& 'x' {…}`: not known without folding the name; walked as before
        written = self.text(name_node)
        if "$" in written or "`" in written:
            return True
        resolved = self._resolve(written.strip(), [])
        return resolved is None or resolved[0] != "program" or resolved[1] in BLOCK_RUNNERS

    def _name_value(self, node: Node) -> PSValue:
        node = unwrap(node)
        kind = node.kind_id
        if kind == _COMMAND_NAME:
            return self.bareword(self.text(node))
        if kind in _PATH_COMMAND_NAME:
            if node.named_child_count == 1:
                return self.fold(node.named_children[0])
            children = node.named_children
            for before, after in zip(children, children[1:], strict=False):
                if before.kind_id == _VARIABLE and self.text(after).startswith("."):
                    # `& $b.Substring(1)`, `& $c.Source`: PowerShell reads a member of the variable here,
                    # not text glued to its value, and the member's value is not known: not constant.
                    return UNKNOWN
            parts = [
                self.fold(c) if c.kind_id not in _PATH_COMMAND_NAME_TOKEN else self.bareword(self.text(c))
                for c in node.named_children
            ]
            texts = [as_text(p) for p in parts]
            return UNKNOWN if any(t is None for t in texts) else "".join(t or "" for t in texts)
        return self.fold(node)

    def _invoke(  # noqa: PLR0913
        self,
        called: PSValue,
        words: list[Word],
        text: str,
        input_from: str | None,
        piped: PSValue,
        dot: bool = False,
        from_env: tuple[bool, bool] = (False, False),
    ) -> PSValue:
        if type(called) is str:
            name = called.strip()  # the common case first: a constant name
        elif isinstance(called, ScriptBlock):
            self.run_block(called, child_scope=not dot)
            return UNKNOWN
        elif isinstance(called, CommandRef):
            if called.name is None:
                self.note_dynamic(
                    f"'{text}' runs a command found by the wildcard {called.pattern!r}"
                    if called.pattern
                    else f"'{text}' runs a command whose name is not constant"
                )
                return UNKNOWN
            name = called.name.strip()
        else:
            name = ""
        if not name:
            self.note_dynamic(f"'{text}' runs a command whose name is not constant")
            return UNKNOWN
        if not self.aliases and not self.functions and name.lower() != "sc":
            resolved: tuple[str, str] | None = _builtin_resolution(name)  # the common case, as `_resolve`
        else:
            resolved = self._resolve(name, words)
        if resolved is None:
            self.note_dynamic(f"'{text}' runs an alias whose target is not constant")
            return UNKNOWN
        kind, canonical = resolved
        self._last_name = canonical
        if kind == "program":
            if "$" in canonical and "$" in standard_program(canonical):  # `$env:ComSpec` is cmd
                # A variable PowerShell could not fold is still in the name (`& $env:X`, `& "$env:UNSET\x"`):
                # never a harmless unknown program (issue 18 item 1). In cmd's own text `$` is a letter.
                self.note_dynamic(f"'{text}' runs a program whose name is a variable with no known value")
            if name[:2] in UNC_STARTS or "\\" in name or "/" in name:
                # Started by its path (`<run>`, ops.py): from another machine's share, or a local file — which, when
                # it is a document (`& C:\Users\me\.ssh\id_rsa`), opens in its program as Invoke-Item's would.
                self.record("program", RUN_PATH, (), (name,), text, input_from)
            self._program(canonical, words, text, input_from, piped)
            return UNKNOWN
        params, args, named, positional = self._bind(canonical, words, text)
        self.record("powershell", canonical, tuple(params), tuple(args), text, input_from)
        if canonical == "invoke-webrequest" and name.lower() in _ALIASED_PROGRAMS:
            # `curl`/`wget` are Invoke-WebRequest in Windows PowerShell but curl.exe/wget.exe in PowerShell 7
            # (which has no such alias): both readings are judged (`curl -o C:\x\a.dll URL`, S-RULE-148).
            self._program(name.lower(), words, text, input_from, piped)
        if kind == "function":
            self.run_block(self.functions[canonical])
            return UNKNOWN
        self._last_name = canonical
        if canonical not in _MEANINGFUL:
            return UNKNOWN  # none of `_semantics` applies (most commands)
        return self._semantics(canonical, named, positional, text, piped, input_from is not None, from_env)

    def define_session_item(self, drive: str, name: str | None, value: PSValue, text: str) -> None:
        """An alias (`alias`) or function (`function`) defined through its drive (S-RULE-89, S-RULE-94): an alias
        names the command it runs; a function's body is a script block or the text of one, judged where it is
        defined (a call of it runs no more than that). A name, target or body that is not constant asks."""
        if name is None or not name.strip():
            self.note_dynamic(f"'{text}' defines an {drive} whose name is not constant")
            return
        name = name.strip().lower()
        if drive == "alias":
            self.aliases[name] = as_text(value)
        elif isinstance(value, ScriptBlock):
            self.functions[name] = value
        elif (body := as_text(value)) is None:
            self.note_dynamic(f"'{text}' defines a function whose body is not constant")
        else:
            self.analyse_text(body)

    def _resolve(self, name: str, words: list[Word]) -> tuple[str, str] | None:
        if not self.aliases and not self.functions and name.lower() != "sc":
            return _builtin_resolution(name)  # the common case: no script aliases or functions
        qualified = _MODULE_QUALIFIED.fullmatch(name)
        lowered = (qualified.group(1) if qualified else name).lower()
        for _ in range(8):
            if lowered in self.aliases:
                target = self.aliases[lowered]
                if target is None:
                    return None
                qualified = _MODULE_QUALIFIED.fullmatch(target)
                lowered = (qualified.group(1) if qualified else target).lower()
                continue
            break
        if lowered in self.functions:
            return "function", lowered
        if lowered == "sc":
            first = next((as_text(w.value) for w in words if w.kind == "arg"), None)
            return ("program", "sc") if (first or "").lower() in SC_VERBS else ("cmdlet", "set-content")
        lowered = BUILTIN_ALIASES.get(lowered, lowered)
        if looks_like_program(lowered):
            return "program", program_name(lowered)
        return "cmdlet", lowered

    def _program(
        self, name: str, words: list[Word], text: str, input_from: str | None, piped: PSValue = UNKNOWN
    ) -> None:
        argv: list[Value] = []
        for word in words:
            if word.kind == "param":
                argv.append(word.text + (":" + (as_text(word.value) or "") if word.has_value else ""))
            elif word.kind == "splat" and isinstance(word.value, Hashtable):
                argv.extend(f"-{k}:{as_text(v) or ''}" for k, v in word.value.entries)
            elif word.line is not None:
                argv.extend(word.line.split())
            else:
                argv.extend(as_value(v) for v in flatten(word.value))
        self.record("program", name, (), tuple(argv), text, input_from)
        known = [a for a in argv if a is not None]
        if name == "cmd" and len(known) == len(argv):
            # cmd reads the raw line, and PowerShell quotes an argument with a blank in it when it
            # builds that line: `del "C:\Program Files\x"` stays one path (S-RULE-81).
            self.call_nested(name, (powershell_native_line(known),))
        else:
            self.call_nested(name, tuple(argv))
        if input_from is not None and reads_piped_commands(name, argv):
            self._piped_commands(name, piped, text)

    def _piped_commands(self, shell: str, piped: PSValue, text: str) -> None:
        """`'rd /s /q C:\\x' | cmd`: the piped text is the shell's commands, one per line."""
        items = [as_text(item) for item in flatten(piped)]  # an array is written one item per line
        if any(item is None for item in items):
            self.note_dynamic(f"'{text}' runs the commands piped into it, which are not constant")
            return
        for line in "\n".join(item or "" for item in items).splitlines():
            if not line.strip():
                continue
            if shell == "cmd":
                self.call_nested("cmd", ("/d", "/c", line))
            elif shell in ("powershell", "pwsh"):
                self.analyse_text(line)
            else:  # a Linux shell: each line is a command line, as `bash -c line` runs it (S-RULE-100)
                self.record("program", "bash", (), ("-c", line), text)
                self.call_nested("bash", ("-c", line))

    def _bind(  # noqa: C901
        self, command: str, words: list[Word], text: str
    ) -> tuple[list[tuple[str, Value]], list[Value], dict[str, PSValue], list[PSValue]]:
        params: list[tuple[str, Value]] = []
        args: list[Value] = []
        named: dict[str, PSValue] = {}
        positional: list[PSValue] = []
        dictionary = _DICTIONARY_PARAMETERS.get(command)
        i = 0
        count = len(words)
        while i < count:
            word = words[i]
            i += 1
            kind = word.kind
            if kind == "param":
                if word.has_value:
                    key = _parameter_key(command, word.text)
                    value = word.value
                else:
                    key, takes_value = _takes_value(command, word.text)
                    if takes_value and i < count and words[i].kind == "arg":
                        value = words[i].value
                        i += 1
                    else:
                        value = True
                named[key] = value
                if type(value) is str:
                    params.append((key, value))  # `as_value` of text is the text (a hot path)
                elif value is True:
                    params.append((key, "true"))  # a switch: `as_value(True)`
                elif not isinstance(value, tuple):
                    params.append((key, as_value(value)))  # `_items` of a single value, without a generator
                else:
                    params.extend((key, as_value(v)) for v in _items(value))
            elif word.end_of_parameters:
                continue
            elif kind == "splat":
                if isinstance(word.value, Hashtable):
                    for name, value in word.value.entries:
                        key = canonical_parameter(command, name.lower())
                        named[key] = value
                        params.extend((key, as_value(v)) for v in _items(value))
                elif isinstance(word.value, tuple):
                    positional.extend(word.value)
                    args.extend(as_value(v) for v in word.value)
                else:
                    self.note_dynamic(f"'{text}' splats parameters ({word.text}) that are not constant")
            else:
                value = word.value
                if isinstance(value, Hashtable) and dictionary is not None and dictionary not in named:
                    named[dictionary] = value  # the one hashtable-typed positional parameter
                    params.append((dictionary, None))
                    continue
                positional.append(value)
                if type(value) is str:
                    args.append(value)
                elif not isinstance(value, tuple):
                    args.append(as_value(value))  # `flatten` of a single value, without a generator
                elif value:
                    args.append(_one_argument(value))
        table = named.get(dictionary) if dictionary is not None else None
        if isinstance(table, Hashtable):
            params.extend((f"{dictionary}.{key.lower()}", as_value(value)) for key, value in table.entries)
        return params, args, named, positional

    def _semantics(  # noqa: C901, PLR0911, PLR0912, PLR0913
        self,
        command: str,
        named: dict[str, PSValue],
        positional: list[PSValue],
        text: str,
        piped: PSValue,
        has_input: bool,
        from_env: tuple[bool, bool],
    ) -> PSValue:
        """What a few cmdlets mean beyond their operation: they run text, define names, make objects.

        `from_env`: whether the arguments, and the piped value, hold an environment variable's value.
        """
        first = positional[0] if positional else UNKNOWN
        second = positional[1] if len(positional) > 1 else UNKNOWN
        if command == "invoke-expression":
            given = "command" in named or bool(positional)
            source = named.get("command", first if positional else (piped if has_input else UNKNOWN))
            code = as_text(source) if not isinstance(source, ScriptBlock) else None
            if code is None:
                self.note_dynamic(f"'{text}' runs text that is not constant (Invoke-Expression)")
            else:
                if from_env[0] if given else (from_env[1] and has_input):
                    self.note_dynamic(f"'{text}' runs text read from an environment variable (Invoke-Expression)")
                self.analyse_text(code)
            return UNKNOWN
        if command in ALIAS_SETTERS:
            alias = as_text(named.get("name", first))
            target = as_text(named.get("value", second))
            if alias is None:
                self.note_dynamic(f"'{text}' defines an alias whose name is not constant")
            else:
                self.aliases[alias.lower()] = target
            return UNKNOWN
        if command in _ITEM_SETTERS:
            path = as_text(named.get("path", first))
            drive = _SESSION_DRIVE.fullmatch(path.strip()) if path is not None else None
            if drive is not None:  # `New-Item -Path alias: -Name ls2 -Value Remove-Item`, `Set-Item alias:ls2 x`
                name = drive.group("name") or as_text(named.get("name", UNKNOWN))
                value = named.get("value", second if command != "new-item" else UNKNOWN)
                if drive.group("drive").lower() == "env":  # `Set-Item env:P x`: as `$env:P = 'x'` (S-RULE-219)
                    self.set_env_variable(name, UNKNOWN if command == "add-content" else value)
                else:
                    self.define_session_item(drive.group("drive").lower(), name, value, text)
            return UNKNOWN
        if command in VARIABLE_SETTERS:
            variable = as_text(named.get("name", first))
            if variable is None:
                self.env.clear()
            else:
                self.env[variable_key(variable)] = named.get("value", second if len(positional) > 1 else None)
            return UNKNOWN
        if command == "new-object":
            progid = as_text(named.get("comobject", UNKNOWN))
            if progid is not None:
                return ObjectRef("com", progid.lower())
            type_name = as_text(named.get("typename", first))
            if not type_name:
                return UNKNOWN
            made = canonical_type(type_name)
            if made in TARGETED_TYPES:  # `New-Object IO.FileInfo 'C:\\x'`: an object for that path (S-RULE-133)
                listed = flatten(named.get("argumentlist", second if "typename" not in named else first))[:1]
                return ObjectRef("dotnet", made, as_text(listed[0]) if listed else None)
            return ObjectRef("dotnet", made)
        if command == "get-psreadlineoption":  # `(Get-PSReadLineOption).HistorySavePath` (ps_fold, S-RULE-136)
            return PSREADLINE_OPTIONS
        if command == "get-command":
            pattern = as_text(named.get("name", first))
            if pattern is None or _WILDCARD.search(pattern):
                return CommandRef(None, pattern or "")
            return CommandRef(pattern)
        if command == "write-output":
            values = positional if "inputobject" not in named else [named["inputobject"]]
            return values[0] if len(values) == 1 else tuple(values)
        if command == "start-process":
            file = as_text(named.get("filepath", first))
            arguments = named.get("argumentlist", second if len(positional) > 1 else ())
            argv = tuple(as_value(v) for v in flatten(arguments)) if arguments != () else ()
            self._start_program(file, argv, text)
            return UNKNOWN
        if command == "invoke-sqlcmd":
            self._sql_query(named, first, text)
            return UNKNOWN
        if command == "foreach-object":
            member = as_text(named.get("membername", first))
            if member is not None and member.lower() in DANGEROUS_METHODS:
                self.record("dotnet", "?." + member.lower(), (), (), text)
        return UNKNOWN

    # -- words --------------------------------------------------------------------------

    def _words(self, elements: Node) -> list[Word]:  # noqa: C901, PLR0912
        words: list[Word] = []
        colon = False  # a `-Name:` parameter was just read: the next argument is its value
        # The separator before the element at hand (None: none since the last element). Its text is
        # read only where an argument needs it (`_value_word`): most separators are one blank.
        separator: Node | None = None
        last_member: Node | None = None
        text = self.text
        # `text(child)` is inlined below where the original is ASCII (a hot path).
        plain, offsets = self.plain, self.offsets
        parameters = True  # until `--`: after it a `-Name` word is an argument (about_Parsing)
        for child in elements.children:
            kind = child.kind_id
            if kind == _ARGUMENT_SEP:
                separator, colon = child, False  # the colon is now the separator's (`_colon`)
                continue  # `last_member` stays: a method call's arguments may follow a blank
            pending, last_member = last_member, None
            if kind == _PARAMETER:
                if plain is None:
                    written = text(child)
                elif offsets is None:
                    written = plain[child.start_byte : child.end_byte]
                else:
                    written = plain[offsets[child.start_byte] : offsets[child.end_byte]]
                if not parameters:
                    words.append(Word("arg", written, written))
                elif written == "--":
                    parameters = False
                    words.append(Word("arg", written, written, end_of_parameters=True))
                else:
                    words.append(Word("param", written.rstrip(":")))
                colon = parameters and written.endswith(":")
            elif kind in _OTHER_ELEMENTS:
                colon = colon or self._colon(separator)  # kept past a redirection or `--%`, as before
                if kind in _REDIRECTION:
                    self._redirection(child)
                elif kind in _STOP_PARSING:
                    words.extend(Word("arg", value=w) for w in split_words(text(child)[3:]))
                elif kind in _ARGUMENT_LIST and words and words[-1].kind == "arg" and pending is not None:
                    # `iex $wc.DownloadString(u)`: the grammar splits a method call in argument mode.
                    words[-1].value = self._member_call(pending, child)
                elif kind in _ARGUMENT_LIST:
                    self._value_word(child, words, colon, separator)
                    colon = False
            else:
                last_member = self._value_word(child, words, colon, separator)
                colon = False
            separator = None
        return words

    def _colon(self, separator: Node | None) -> bool:
        """Whether a separator is the `:` of `-Name:value` (`-Name: value` ends with a blank: not one)."""
        if separator is None:
            return False
        written = self.text(separator)
        return written != " " and written.strip() == ":"

    def _value_word(self, child: Node, words: list[Word], colon: bool, separator: Node | None) -> Node | None:
        """One argument of a command (a value after a `-Param:` included); returns it if a member access.

        `colon`: a `-Name:` parameter was just read; `separator`: the separator before the argument, if any.
        """
        value_node = child
        kind = child.kind_id
        while kind in WRAPPER_IDS:  # `unwrap`, inlined (a hot path: two wrappers above each argument)
            if value_node.child_count != 1:
                break
            value_node = value_node.child(0)  # (not `children[0]`: no list made for the one child)
            kind = value_node.kind_id
        plain = self.plain
        if plain is None:
            written = self.text(value_node)
        elif self.offsets is None:  # `text`, inlined (a hot path)
            written = plain[value_node.start_byte : value_node.end_byte]
        else:
            offsets = self.offsets
            written = plain[offsets[value_node.start_byte] : offsets[value_node.end_byte]]
        # The argument's value (`_argument` of PowerShell's argument mode).
        if kind == _GENERIC_TOKEN:
            plain_word = "$" not in written and "`" not in written and '"' not in written and "'" not in written
            value = written if plain_word else self.bareword(written)
        elif kind == _INTEGER_LITERAL and HAS_NUMBER_SUFFIX.search(written):
            value = self.bareword(written)  # `-gt 1MB` in argument mode: a bareword, as unrepaired
        elif kind == _SCRIPT_BLOCK and not self._runs_blocks(self._name_node):
            # `bcdedit /set {current} …`: PowerShell hands a program a script block as text
            # (`-encodedCommand …` in 5.1 and 7.x): only a PowerShell host, or a launcher that may
            # start one, runs it. Anywhere else its words are not commands.
            value = ScriptBlock(node=value_node, origin=self.source)
        else:
            value = self.fold(value_node)
            if kind == _VARIABLE and isinstance(value, ScriptBlock):
                self.run_block(value)  # a block held in a variable runs where it is passed, with today's variables
        if words and words[-1].kind == "arg" and words[-1].text.endswith("`") and not words[-1].joined:
            # `C:\Program` Files\x`: the backtick escapes the blank after it, which PowerShell keeps in the
            # word where the grammar ends the word (`C:\Program``, `Files\x`).
            between = _escaped_blank(words[-1].text, separator, self.text)
            if between is not None:
                escaped = words[-1].text + between[0]
                if len(between) == 1 and kind == _GENERIC_TOKEN:  # nothing else between: one word
                    words[-1].text, words[-1].value = escaped + written, self.bareword(escaped + written)
                    return None
                words[-1].text, words[-1].value = escaped, self.bareword(escaped)
        if words and words[-1].kind == "param" and not words[-1].has_value and (colon or self._colon(separator)):
            words[-1].value, words[-1].has_value = value, True
        elif kind == _GENERIC_TOKEN and written.startswith(",") and words and words[-1].kind == "arg":
            between = self.text(separator) if separator is not None else ""
            _join(words[-1], between, written, self.bareword(written[1:].lstrip()))
        elif kind == _VARIABLE and written.startswith("@"):
            words.append(Word("splat", written, self.lookup(written)))
        else:
            words.append(Word("arg", written, value))
        return value_node if kind == _MEMBER_ACCESS else None

    def _sql_query(self, named: dict[str, PSValue], first: PSValue, text: str) -> None:
        """`Invoke-Sqlcmd -Query … [-ServerInstance …]` is read as `sqlcmd -Q … [-S …]` (S-RULE-75)."""
        if "query" not in named and first is UNKNOWN:
            return  # `-InputFile x.sql`: a file's content is not read (README)
        server = next((v for k, v in named.items() if len(k) >= 2 and "serverinstance".startswith(k)), None)
        argv: tuple[Value, ...] = ("-Q", as_text(named.get("query", first)))
        if server is not None:
            argv += ("-S", as_text(server))
        self.call_nested("sqlcmd", argv)

    def _member_call(self, access: Node, arg_node: Node) -> PSValue:
        children = access.children
        if len(children) < 3 or children[-1].kind_id not in _MEMBER_NAME:
            return UNKNOWN
        text = shown(self.text(access) + self.text(arg_node))
        return self.call_member(children[0], children[1].type, children[-1], arg_node, text)

    def _redirection(self, node: Node) -> None:
        target = next((c for c in node.named_children if c.kind_id in _REDIRECTED_FILE_NAME), None)
        if target is None:
            return
        parts = [c for c in target.named_children if c.kind_id != _ARGUMENT_SEP]
        if not parts:
            return
        first = unwrap(parts[0])
        if first.kind_id == _VARIABLE and variable_key(self.text(first)) == "null":
            return  # `> $null` discards
        value = self.fold(parts[0])
        self.record("powershell", "<redirect>", (), (as_value(value),), shown(self.text(node)))

    def _recover_command(self, command: Node, container: Node) -> int:
        """Re-read a command the grammar broke from its text (`ps_walk.Walker`); returns where it ended."""
        raise NotImplementedError


@functools.lru_cache(maxsize=2048)
def _builtin_resolution(name: str) -> tuple[str, str]:
    """What a command name resolves to with only built-in aliases (cached: a hot path)."""
    qualified = _MODULE_QUALIFIED.fullmatch(name)
    lowered = (qualified.group(1) if qualified else name).lower()
    lowered = BUILTIN_ALIASES.get(lowered, lowered)
    if looks_like_program(lowered):
        return "program", program_name(lowered)
    return "cmdlet", lowered


def _one_argument(array: tuple[PSValue, ...]) -> Value:
    """An array given as one positional argument of a cmdlet (`Remove-Item a, b`): PowerShell binds the
    whole array to the one parameter at that position, so it stays one argument, its items joined with `,`
    as a parameter named twice is (`effects_common.bind`, `split_list`); None when an item is not constant.
    Spreading it over the positions would bind `b` to the next parameter, or drop it."""
    items = [as_value(v) for v in flatten(array)]
    return None if any(item is None for item in items) else ",".join(item or "" for item in items)


def _items(value: PSValue) -> tuple[PSValue, ...]:
    """The values a parameter binds: an array's elements (flattened once), else the value itself."""
    return flatten(value) if isinstance(value, tuple) and value else (value,)


_ESCAPING_END = re.compile(r"(?<!`)(?:``)*`\Z")  # an odd run of backticks at the end: the last escapes


def _escaped_blank(previous: str, separator: Node | None, text: Callable[[Node], str]) -> str | None:
    """The separator after a bareword whose last backtick escapes the blank that starts it; else None."""
    if separator is None or not _ESCAPING_END.search(previous):
        return None
    between = text(separator)
    return between if between[:1] in (" ", "\t") else None


def _join(word: Word, separator: str, written: str, item: PSValue) -> None:
    """`a` then `,b`: one array argument (see `Word.line`)."""
    element = written[1:].lstrip()
    if not word.joined:
        word.line = as_text(word.value) if not isinstance(word.value, tuple) else None
        word.joined = True
    text = as_text(item)
    if word.line is not None and text is not None and not _BLANK.search(word.line + text):
        word.line += separator + written[: len(written) - len(element)] + text
    else:
        word.line = None
    word.value = (*flatten(word.value), *flatten(item))


def has_operator(command: Node) -> bool:
    """Whether a command node starts with `&` or `.`."""
    return any(c.kind_id in _INVOKATION_OPERATOR for c in command.children)
