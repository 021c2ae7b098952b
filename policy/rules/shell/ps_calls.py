"""Method calls in PowerShell expressions (issue 18): `[Type]::Method(…)`, `$obj.Method(…)`.

`MethodCalls.call_member` folds what is pure (`[string]::Join`, `'x'.Replace`, base64 and
`GetString`, `[char]::ConvertFromUtf32`) and reports the rest as operations: a .NET static call
`system.io.file::delete`, a COM or .NET object's method `com:scripting.filesystemobject.deletefolder`,
a dangerous method on an object the analyser does not know `?.delete`. Calls that run text
(`[scriptblock]::Create`, `$ExecutionContext.InvokeCommand.InvokeScript`, `WScript.Shell.Run`,
`Win32_Process.Create`, `Process.Start`, `ShellExecute`) hand it on: PowerShell text is analysed
one level deeper, a command line or a program goes to the dispatcher (`Folder.call_nested`).
"""

from __future__ import annotations

import base64
import binascii
import re

from tree_sitter import Node

from policy.rules.shell import ps_operators as ops
from policy.rules.shell.argv import split_command_line
from policy.rules.shell.ops import Value
from policy.rules.shell.ps_fold import Folder
from policy.rules.shell.ps_names import (
    CERTIFICATE_STORE_TYPE,
    COMMAND_LINE_METHODS,
    DANGEROUS_METHODS,
    ENCODINGS,
    FILE_OBJECT_TYPES,
    FILE_PROPERTIES,
    PURE_STATIC_TYPES,
    TARGETED_TYPES,
    canonical_type,
    program_name,
)
from policy.rules.shell.ps_text import split_program
from policy.rules.shell.ps_tree import kind_ids, variable_key
from policy.rules.shell.ps_values import (
    UNKNOWN,
    CommandRef,
    Hashtable,
    ObjectRef,
    PSValue,
    ScriptBlock,
    TypeRef,
    as_text,
    as_value,
    flatten,
)
from policy.rules.shell.sendkeys import typed_text
from policy.rules.shell.winenv import injected_variable

_WILDCARD = re.compile(r"[*?\[]")
_LINE_WRITERS = frozenset({"writealllines", "appendalllines"})
_POWERSHELL_TYPE = "system.management.automation.powershell"
# Methods of a PowerShell pipeline object (`[PowerShell]::Create()`) that hand it something to run.
_PIPELINE_BUILDERS = frozenset({"addscript", "addcommand", "addparameter", "addparameters", "addargument", "invoke"})
_TYPE_LITERAL = kind_ids("type_literal")
_VARIABLE = kind_ids("variable")
# Instance methods that change their object (or an array handed to them) in place.
_MUTATORS = frozenset(
    {"reverse", "sort", "clear", "setvalue", "add", "addrange", "remove", "removeat", "removerange", "insert"}
    | {"insertrange", "set_item", "copyto", "fill", "push", "pop", "enqueue", "dequeue", "removeall"}
)


# Reflection on a type (S-RULE-142): what finds a method by its name, and what a found method is kept as.
_REFLECTION = frozenset({"getmethod", "invokemember", "getmethods", "getmembers", "getmember"})
_REFLECTED_METHOD = "system.reflection.methodinfo"
# A runspace's pipelines made from script text (`$rs.CreatePipeline('…')`, `$Host.Runspace.CreateNestedPipeline`).
_RUNSPACE_PIPELINES = frozenset({"createpipeline", "createnestedpipeline", "createdisconnectedpipeline"})
# An X509Store's methods that change the store (S-RULE-137).
_STORE_CHANGES = frozenset({"add", "addrange", "remove", "removerange"})
# A FileInfo's or DirectoryInfo's methods as the static call on its path that does the same (S-RULE-133):
# `([IO.FileInfo]'C:\\x').AppendText()` is `[IO.File]::AppendText('C:\\x')`, its arguments following the path.
_FILE_OBJECT_CALLS: dict[str, dict[str, str]] = {
    "system.io.fileinfo": {
        **{m: f"system.io.file::{m}" for m in ("delete", "appendtext", "createtext", "openwrite", "open", "create")},
        **{m: f"system.io.file::{m}" for m in ("openread", "opentext", "replace", "encrypt", "decrypt")},
        "moveto": "system.io.file::move",
        "copyto": "system.io.file::copy",
        "setaccesscontrol": "system.io.file::setaccesscontrol",
    },
    "system.io.directoryinfo": {
        "delete": "system.io.directory::delete",
        "moveto": "system.io.directory::move",
        "create": "system.io.directory::createdirectory",
        "createsubdirectory": "system.io.directory::createdirectory",
        "setaccesscontrol": "system.io.file::setaccesscontrol",  # a write of the folder, as of a file
        **{m: f"system.io.directory::{m}" for m in ("getfiles", "enumeratefiles", "getfilesystementries")},
    },
}


def file_object_call(base: ObjectRef, method: str, args: list[PSValue]) -> tuple[str, tuple[Value, ...]] | None:
    """The static call a file or folder object's `method` amounts to, with its arguments; None for a method that
    reads nothing and changes nothing (`.Refresh()`, `.ToString()`). A path not constant is None in the call."""
    static = _FILE_OBJECT_CALLS[base.name].get(method)
    if static is None:
        return None
    given = tuple(as_value(a) for a in args)
    if method == "createsubdirectory":  # the new folder is the object's path joined with the argument
        child = given[0] if given else None
        joined = None if base.target is None or child is None else base.target.rstrip("\\/") + "\\" + child
        return static, (joined,)
    return static, (base.target, *given)


# SendKeys' type, as `canonical_type` spells it with or without `System.`.
_SENDKEYS_TYPES = frozenset({"system.windows.forms.sendkeys", "windows.forms.sendkeys"})


def started_argv(name: str, given: tuple[Value, ...]) -> tuple[Value, ...]:
    """The argv a program started by value gets (S-RULE-95): `Start-Process -ArgumentList`, `Process.Start`,
    `ShellExecute` and `WScript.Shell.Run` hand it one command line — the items joined with blanks — that its
    runtime splits, so `Start-Process conhost 'cmd /c rd /s /q C:\\x'` starts cmd with its words. cmd reads its
    raw line itself (`dispatch._cmd`), and a line with a part that is not constant stays as given."""
    if name == "cmd" or not given or any(item is None for item in given):
        return given
    line = " ".join(item for item in given if item is not None)
    return tuple(split_command_line(line, first_is_program=False)) if line.strip() else ()


class MethodCalls(Folder):
    """Folds or reports method calls; see the module docstring."""

    def call_member(self, target: Node, separator: str, member: Node, arg_node: Node | None, text: str) -> PSValue:
        """A method call `target.member(args)` or `[Type]::member(args)`: folded, or reported as an operation."""
        method_text = self.text(member)
        static = separator == "::"
        base: PSValue = TypeRef(self._type_name(target)) if target.kind_id in _TYPE_LITERAL else self.fold(target)
        reads = self.env_reads
        args = self.arguments(arg_node)
        from_env = self.env_reads != reads
        self.argv_from_env = from_env  # a program this call starts got those values (S-RULE-219)
        if not method_text.replace("_", "a").isalnum():
            method = self.text(member)
            if isinstance(base, ObjectRef | TypeRef) or method.startswith("$"):
                self.note_dynamic(f"'{text}' calls a method whose name is not constant")
            return UNKNOWN
        method = method_text.lower()
        if static and isinstance(base, TypeRef):
            result = self._static_call(base.name, method, args, text, from_env)
            if base.name not in PURE_STATIC_TYPES:
                self._forget_mutable(arg_node)  # `[array]::Reverse($x)` changes $x in place (S-RULE-55)
            return result
        if method == "add" and self.text(target).rstrip().lower().endswith(".attachments"):
            # `$mail.Attachments.Add(path)`: an Outlook item's or a MailMessage's, whose type the analyser seldom knows
            # (`$o.CreateItem(0)` returns an object it does not follow): the file is sent with it (S-RULE-180).
            self.record("dotnet", "?.attachments.add", (), tuple(as_value(a) for a in args), text)
            return UNKNOWN
        result = self._instance_call(base, method, args, text, from_env)
        if method in _MUTATORS:
            self._forget_mutable(target)  # `$list.Reverse()`, `$a.SetValue('x', 0)`
            self._forget_mutable(arg_node)  # `$src.CopyTo($dst, 0)`
        return result

    def set_property(self, target: Node, value: PSValue, text: str) -> None:
        """`target = value` where `target` is a member (`(Get-Item X).Attributes`, `$f.LastWriteTime`): setting a
        file's attributes, times or read-only flag writes the file, as `attrib` and `Set-ItemProperty` do
        (S-RULE-134); any other member is only folded (its object's own operations are reported)."""
        children = target.named_children
        member = self.text(children[-1]).strip().lower() if len(children) > 1 else ""
        if member not in FILE_PROPERTIES:
            self.fold(target)
            return
        receiver = self.fold(children[0])
        if isinstance(receiver, ObjectRef) and receiver.kind == "dotnet" and receiver.name in FILE_OBJECT_TYPES:
            self.record("dotnet", "system.io.file::setattributes", (), (receiver.target, as_value(value)), text)
        elif receiver is UNKNOWN:
            # An object the analyser could not type, named by `effects_values` from the command that made it when
            # it can be (`(Get-Item X)`, a listing's `$_`). The value set is left out: what is written is the file.
            self.record("dotnet", "?.set_" + member, (), (), text)

    def _forget_mutable(self, node: Node | None) -> None:
        """A variable holding an array, a hashtable or bytes that a method may change in place (an argument, or
        the object called) no longer has its folded value: later readings of it are not constant."""
        if node is None:
            return
        stack = [node]
        seen = 0
        while stack and seen < 64:
            current = stack.pop()
            seen += 1
            if current.kind_id in _VARIABLE:
                key = variable_key(self.text(current))
                if isinstance(self.env.get(key), tuple | Hashtable | bytes):
                    self.env[key] = UNKNOWN
                continue
            stack.extend(current.named_children)

    def _set_process_env(self, name: str | None, value: PSValue, scope: str | None) -> None:
        """`[Environment]::SetEnvironmentVariable(name, value[, scope])`: in this process (no scope, `Process`) it is
        `$env:name = value`, read back here and inherited by the programs started after (S-RULE-219); a `User` or
        `Machine` one leaves this process's value as it was; a scope not known may have changed it to anything."""
        # ("" when no scope is given; None when it is not constant)
        where = "?" if scope is None else (scope.strip() or "process").lower().rsplit(":", 1)[-1].strip("[]: ")
        if name is None or not name.strip() or where in ("process", "0"):
            self.set_env_variable(name, value)
        elif where not in ("user", "machine", "1", "2"):
            self.set_env_variable(name, UNKNOWN)

    def _static_call(  # noqa: PLR0911
        self, type_name: str, method: str, args: list[PSValue], text: str, from_env: bool = False
    ) -> PSValue:
        texts = [as_text(a) for a in args]
        if type_name == "system.string":
            return ops.string_static(method, args)
        if type_name == "system.convert" and method == "frombase64string":
            # Reported although pure: decoded text that runs hides what runs (the `encoded-command` rule).
            self._emit_call("system.convert::frombase64string", (texts[0] if texts else None,), text)
            if not texts or texts[0] is None:
                return UNKNOWN
            try:
                return base64.b64decode("".join(texts[0].split()), validate=True)
            except (binascii.Error, ValueError):
                return UNKNOWN
        if type_name == "system.char" and method == "convertfromutf32" and args and isinstance(args[0], int):
            return ops.char(args[0])
        if type_name == "system.environment" and method == "setenvironmentvariable" and args:
            self._set_process_env(texts[0], args[1] if len(args) > 1 else None, texts[2] if len(args) > 2 else "")
        if type_name == "system.management.automation.scriptblock" and method == "create":
            source = texts[0] if texts else None
            if source is None or from_env:
                # Code made at run time: reported so a download before it reads as download-and-run.
                self._emit_call("system.management.automation.scriptblock::create", (None,), text)
            return self.script_from_text(source, text, from_env=from_env)
        if type_name in PURE_STATIC_TYPES:
            return UNKNOWN
        if type_name == "system.type" and method == "gettype" and texts and texts[0]:  # `[Type]::GetType('…')`
            return TypeRef(canonical_type(texts[0]))
        recorded = tuple(as_value(a) for a in args)
        if type_name == "system.io.file" and method in _LINE_WRITERS and len(args) > 1 and isinstance(args[1], tuple):
            # `[IO.File]::WriteAllLines(p, @('x', 'rd /s /q C:\Windows'))` writes each item on a line of its own
            # (a script's second command), where an array as text is its items joined by blanks (S-RULE-129).
            lines = [as_value(item) for item in args[1]]
            recorded = (recorded[0], None if None in lines else "\n".join(line or "" for line in lines), *recorded[2:])
        self.record("dotnet", f"{type_name}::{method}", (), recorded, text)
        if type_name in TARGETED_TYPES and method == "new":  # `[IO.FileInfo]::new('C:\\x')`
            return ObjectRef("dotnet", type_name, texts[0] if texts else None)
        if method == "new":  # `[Net.Http.HttpClient]::new().PostAsync(…)`: an object of that type, as New-Object makes
            return ObjectRef("dotnet", type_name)
        if type_name == _POWERSHELL_TYPE and method == "create":
            return ObjectRef("engine", "powershell")  # a pipeline of its own: what it is given runs (S-RULE-50)
        if type_name == "system.io.path" and method in ("combine", "join"):
            return _path_joined(args, reset=method == "combine")
        if type_name in _SENDKEYS_TYPES and method in ("send", "sendwait"):
            self._keystrokes(texts[0] if texts else None, text)
        if type_name == "system.diagnostics.process" and method == "start":
            self._start_program(texts[0] if texts else None, tuple(texts[1:2]), text)
        return UNKNOWN

    def _emit_call(self, name: str, args: tuple[Value, ...], text: str) -> None:
        self.record("dotnet", name, (), args, text)

    def script_from_text(self, source: str | None, text: str, *, from_env: bool = False) -> PSValue:
        """A script block made from text: analysed now when constant, dynamic otherwise.

        Args:
            source: the text, or None when it is not constant.
            text: the making expression, for the dynamic sentence.
            from_env: the text holds an environment variable's value (see `env_reads`): what
                runs is not known, although its spelling is.

        Returns:
            The script block (its source analysed at the next depth), or UNKNOWN.
        """
        if source is None:
            self.note_dynamic(f"'{text}' makes a script block from text that is not constant")
            return UNKNOWN
        if from_env:
            self.note_dynamic(f"'{text}' makes a script block from text read from an environment variable")
        self.analyse_text(source)
        return ScriptBlock(source=source)

    def _start_program(self, file: str | None, argv: tuple[Value, ...], text: str) -> None:
        if file is None:
            self.note_dynamic(f"'{text}' starts a program whose name is not constant")
            return
        name = program_name(file)
        self.call_nested(name, started_argv(name, argv))

    def _instance_call(  # noqa: C901, PLR0911
        self, base: PSValue, method: str, args: list[PSValue], text: str, from_env: bool = False
    ) -> PSValue:
        texts = [as_text(a) for a in args]
        if isinstance(base, str):
            return ops.string_method(base, method, args)
        if isinstance(base, ScriptBlock):
            if method in ("invoke", "invokereturnasis"):
                self.run_block(base)
            return UNKNOWN
        if isinstance(base, ObjectRef):
            if base.kind == "encoding":
                if method == "getstring" and args and isinstance(args[0], bytes):
                    return args[0].decode(ENCODINGS[base.name], "replace")
                return UNKNOWN
            if base.kind == "engine":
                return self._engine_call(method, texts, text, from_env, base.name)
            if base.name in FILE_OBJECT_TYPES and base.kind == "dotnet":
                call = file_object_call(base, method, args)
                if call is not None:
                    self.record("dotnet", call[0], (), call[1], text)
                    return UNKNOWN
            if base.name == _REFLECTED_METHOD and method == "invoke":  # `$m.Invoke($null, @(args))` (S-RULE-142)
                if base.target is None:
                    self.note_dynamic(f"'{text}' calls a method found by reflection, whose name is not constant")
                    return UNKNOWN
                type_name, _, name = base.target.partition("::")
                given = list(flatten(args[1])) if len(args) > 1 else []
                return self._static_call(type_name, name, given, text, from_env)
            if base.name == CERTIFICATE_STORE_TYPE and method in _STORE_CHANGES:
                # `$s.Add($cert)`: recorded with the store it changes, the one the object was made for (S-RULE-137).
                self.record("dotnet", f"{CERTIFICATE_STORE_TYPE}.{method}", (), (base.target,), text)
                return UNKNOWN
            prefix = "com:" if base.kind == "com" else ""
            self.record(
                "com" if base.kind == "com" else "dotnet",
                f"{prefix}{base.name}.{method}",
                (),
                tuple(as_value(a) for a in args),
                text,
            )
            if method in COMMAND_LINE_METHODS and (base.kind == "com" or base.name.endswith("win32_process")):
                self._run_command_line(texts[0] if texts else None, text)
            elif method == "shellexecute":
                self._start_program(texts[0] if texts else None, tuple(t for t in texts[1:2] if t), text)
            elif method == "sendkeys" and base.kind == "com":
                self._keystrokes(texts[0] if texts else None, text)
            return UNKNOWN
        if isinstance(base, TypeRef):
            if method in _REFLECTION:
                return self._reflected(base.name, method, args, text, from_env)
            return self._static_call(base.name, method, args, text, from_env)
        if method in _RUNSPACE_PIPELINES and args:  # `$rs.CreatePipeline('Remove-Item …').Invoke()` (S-RULE-142)
            return self.script_from_text(texts[0], text, from_env=from_env)
        if method in DANGEROUS_METHODS:
            self.record("dotnet", "?." + method, (), tuple(as_value(a) for a in args), text)
        if method in _PIPELINE_BUILDERS and method != "invoke":  # `$ps.AddScript(…)` on an untyped `$ps`
            self._pipeline_call(method, texts, text, from_env)
        return UNKNOWN

    def _reflected(self, type_name: str, method: str, args: list[PSValue], text: str, from_env: bool) -> PSValue:
        """Reflection on a type literal (S-RULE-142): `GetMethod(name)` gives the method to `Invoke` later,
        `InvokeMember(name, flags, binder, target, args)` calls it now; either is the static call by that name.
        A name not constant, or a type's methods listed to pick one at run time, asks."""
        name = as_text(args[0]) if args else None
        if method in ("getmethods", "getmembers", "getmember") or name is None:
            if type_name not in PURE_STATIC_TYPES:
                self.note_dynamic(f"'{text}' calls a method of {type_name} found by reflection at run time")
            return UNKNOWN
        if method == "getmethod":
            return ObjectRef("dotnet", _REFLECTED_METHOD, f"{type_name}::{name.lower()}")
        given = list(flatten(args[4])) if len(args) > 4 else []  # InvokeMember
        return self._static_call(type_name, name.lower(), given, text, from_env)

    def _pipeline_call(self, method: str, texts: list[str | None], text: str, from_env: bool) -> PSValue:
        """`[PowerShell]::Create().AddScript(code).Invoke()`: the code runs as PowerShell text; a command added
        by name runs too, and the parameters added to it are not read, so they ask (S-RULE-50)."""
        first = texts[0] if texts else None
        if method == "addscript":
            self.script_from_text(first, text, from_env=from_env)
        elif method == "addcommand":
            if first is None:
                self.note_dynamic(f"'{text}' adds a command whose name is not constant to a pipeline")
            else:
                self.analyse_text(first if " " not in first.strip() else f"& '{first}'")
        elif method in ("addparameter", "addparameters", "addargument"):
            self.note_dynamic(f"'{text}' hands a command built at run time parameters the gateway does not read")
        return ObjectRef("engine", "powershell")

    def _keystrokes(self, keys: str | None, text: str) -> None:
        """Keys typed into whichever window has the focus: each line is judged as PowerShell and as cmd
        would run it (the window may be either), like text typed with the Type tool (S-RULE-38)."""
        if keys is None:
            self.note_dynamic(f"'{text}' types keys that are not constant into whichever window has the focus")
            return
        for line in typed_text(keys).splitlines():
            if line.strip():
                self.analyse_text(line)
                self.call_nested("cmd", ("/d", "/c", line))

    def _run_command_line(self, command_line: str | None, text: str) -> None:
        if command_line is None:
            self.note_dynamic(f"'{text}' runs a command line that is not constant")
            return
        # `$shell.Exec($env:P)`: the whole line may be what an earlier command stored there (S-RULE-219).
        injected = injected_variable(command_line) if self.argv_from_env else None
        if injected is not None:
            self.note_dynamic(f"'{text}' runs a command line holding {injected}, a variable with no standard value")
            return
        program, rest = split_program(command_line)
        name = program_name(program)
        self.call_nested(name, started_argv(name, (rest,) if rest else ()))

    def _engine_call(  # noqa: PLR0913
        self, method: str, texts: list[str | None], text: str, from_env: bool, engine: str = ""
    ) -> PSValue:
        if engine.startswith("provider."):
            return self._provider_call(engine.removeprefix("provider."), method, texts, text)
        if method in ("invokescript", "newscriptblock"):
            return self.script_from_text(texts[0] if texts else None, text, from_env=from_env)
        if method in _PIPELINE_BUILDERS:
            return self._pipeline_call(method, texts, text, from_env)
        if method in ("getcommand", "getcmdlet", "getcommandname"):
            name = texts[0] if texts else None
            if name is None or _WILDCARD.search(name):
                return CommandRef(None, name or "")
            return CommandRef(name)
        self.note_dynamic(f"'{text}' reaches the PowerShell engine directly")
        return UNKNOWN

    def _provider_call(self, area: str, method: str, texts: list[str | None], text: str) -> PSValue:
        """`$ExecutionContext.InvokeProvider.Item.Remove(p, $true)`: the provider call a cmdlet makes, recorded as
        that cmdlet with its arguments named (S-RULE-141); a call the table does not know is not judged (ask)."""
        known = PROVIDER_CALLS.get((area, method))
        if known is None:
            self.note_dynamic(f"'{text}' calls the PowerShell providers directly")
            return UNKNOWN
        cmdlet, names = known
        params: list[tuple[str, Value]] = []
        for name, given in zip(names, texts, strict=False):
            if name in _PROVIDER_SWITCHES:
                if given is None or given.strip().lower() in ("true", "$true", "1"):  # one not constant may be on
                    params.append((name, "true"))
            else:
                params.append((name, given))
        self.record("powershell", cmdlet, tuple(params), (), text)
        return UNKNOWN


# `$ExecutionContext.InvokeProvider.<area>.<method>(…)` (ProviderIntrinsics, also through `.SessionState`): the
# cmdlet that makes the same provider call, and the names of the method's arguments in order (S-RULE-141).
PROVIDER_CALLS: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("item", "remove"): ("remove-item", ("path", "recurse")),
    ("item", "move"): ("move-item", ("path", "destination")),
    ("item", "copy"): ("copy-item", ("path", "destination", "recurse")),
    ("item", "rename"): ("rename-item", ("path", "newname")),
    ("item", "new"): ("new-item", ("path", "name", "itemtype", "value")),
    ("item", "set"): ("set-item", ("path", "value")),
    ("item", "clear"): ("clear-item", ("path",)),
    ("item", "invoke"): ("invoke-item", ("path",)),
    ("item", "get"): ("get-item", ("path",)),
    ("item", "exists"): ("test-path", ("path",)),
    ("content", "getwriter"): ("set-content", ("path",)),
    ("content", "clear"): ("clear-content", ("path",)),
    ("content", "getreader"): ("get-content", ("path",)),
    ("property", "get"): ("get-itemproperty", ("path",)),
    ("property", "set"): ("set-itemproperty", ("path",)),  # its values come in a PSObject: which ones is not read
    ("property", "new"): ("new-itemproperty", ("path", "name", "propertytype", "value")),
    ("property", "remove"): ("remove-itemproperty", ("path", "name")),
    ("property", "rename"): ("rename-itemproperty", ("path", "name", "newname")),
    ("property", "copy"): ("copy-itemproperty", ("path", "name", "destination")),
    ("property", "move"): ("move-itemproperty", ("path", "name", "destination")),
    ("property", "clear"): ("clear-itemproperty", ("path", "name")),
    ("childitem", "get"): ("get-childitem", ("path", "recurse")),
    ("childitem", "getnames"): ("get-childitem", ("path",)),
    ("securitydescriptor", "set"): ("set-acl", ("path", "aclobject")),
    ("securitydescriptor", "get"): ("get-acl", ("path",)),
}
_PROVIDER_SWITCHES = frozenset({"recurse"})


_ROOTED = re.compile(r"^(?:[\\/]|[A-Za-z]:)")


def _path_joined(args: list[PSValue], *, reset: bool) -> PSValue:
    """`[IO.Path]::Combine(a, b, …)` / `Join(…)` of constant strings (S-RULE-49): each part is appended with one
    separator unless the text so far ends in one; Combine starts again at a rooted part (`\\x`, `C:x`), as
    .NET does, Join never does. An empty part adds nothing."""
    parts = [a for a in args if isinstance(a, str)]
    if len(parts) != len(args) or not parts:
        return UNKNOWN
    joined = ""
    for part in parts:
        if not part:
            continue
        if not joined or (reset and _ROOTED.match(part)):
            joined = part
        elif joined.endswith(("\\", "/", ":")) or part.startswith(("\\", "/")):
            joined += part
        else:
            joined += "\\" + part
    return joined
