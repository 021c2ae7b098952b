"""Registry effects (issue 18): which key and value a command sets, deletes or reads.

Cmdlets on registry provider paths (`HKLM:\\…`, `Registry::…`), `reg.exe`, `setx`,
`[Environment]::SetEnvironmentVariable`, `[Microsoft.Win32.Registry]`/`RegistryKey` methods and
`WScript.Shell.RegWrite` all become `REGISTRY_SET` / `REGISTRY_DELETE` (or `READ`) of a key as
written, with the value name and data, so the judge sees WDigest `UseLogonCredential = 1`
whichever tool wrote it. `reg save`/`reg export` of the SAM, SECURITY or SYSTEM hive is
credential access: those hives hold the local password hashes and the key to them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from policy.rules.effects_common import (
    RECURSIVE,
    Bound,
    Effects,
    Handler,
    argv_of,
    display,
    effect,
    first,
    is_on,
    lower,
    split_list,
)
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind

USER_ENVIRONMENT_KEY = "HKCU\\Environment"
MACHINE_ENVIRONMENT_KEY = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"


def _names(bound: Bound, name: str = "name") -> list[Value]:
    return split_list(bound[name]) if name in bound else [None]


def registry_cmdlet(op: Operation, key: Value, bound: Bound) -> Effects:
    """The registry effect of a provider cmdlet whose path `key` is in the registry.

    Args:
        op: the cmdlet operation (`set-itemproperty`, `remove-item`, …).
        key: the registry path it names (as written), or None when not constant.
        bound: its bound parameters (see `effects_common.bind`).

    Returns:
        REGISTRY_SET / REGISTRY_DELETE / READ effects with value name and data where given.
    """
    name = op.name
    detail = display(name)
    data = first(bound, "value")
    kind_of = first(bound, "propertytype", "type", "itemtype")  # Set-ItemProperty's own -Type is the value's kind
    typed = (("type", kind_of),) if kind_of else ()
    destination = first(bound, "destination")
    if name == "remove-item":
        recursive = RECURSIVE if is_on(bound, "recurse") else ()
        return (effect(K.REGISTRY_DELETE, key, detail + " (registry key)", extra=recursive),)
    if name in ("set-itemproperty", "new-itemproperty"):
        return tuple(effect(K.REGISTRY_SET, key, detail, value_name=v, data=data, extra=typed) for v in _names(bound))
    if name == "remove-itemproperty":
        return tuple(effect(K.REGISTRY_DELETE, key, detail, value_name=v) for v in _names(bound))
    if name == "rename-itemproperty":
        return (
            effect(K.REGISTRY_DELETE, key, detail, value_name=first(bound, "name")),
            effect(K.REGISTRY_SET, key, detail, value_name=first(bound, "newname")),
        )
    if name == "clear-itemproperty":
        return tuple(effect(K.REGISTRY_SET, key, detail, value_name=v, data="") for v in _names(bound))
    if name in ("copy-itemproperty", "move-itemproperty"):
        out = [effect(K.REGISTRY_SET, destination, detail, value_name=v) for v in _names(bound)]
        if name == "move-itemproperty":
            out += [effect(K.REGISTRY_DELETE, key, detail, value_name=v) for v in _names(bound)]
        return tuple(out)
    if name in ("get-itemproperty", "get-itempropertyvalue", "get-item", "get-childitem", "test-path"):
        return (effect(K.READ, key, detail, value_name=first(bound, "name")),)
    if name in ("move-item", "copy-item"):
        first_kind = K.REGISTRY_DELETE if name == "move-item" else K.READ
        # A recursive copy reads every key under the source (S-RULE-107).
        deep = RECURSIVE if first_kind is K.READ and is_on(bound, "recurse") else ()
        return (
            effect(first_kind, key, detail, extra=deep),
            effect(K.REGISTRY_SET, destination, detail + " destination"),
        )
    if name == "rename-item":
        new_name = first(bound, "newname")
        renamed = (
            new_name if key is None or new_name is None else key.rstrip("\\/").rsplit("\\", 1)[0] + "\\" + new_name
        )
        return (effect(K.REGISTRY_DELETE, key, detail), effect(K.REGISTRY_SET, renamed, detail))
    if name == "clear-item":
        return (effect(K.REGISTRY_SET, key, detail, value_name="", data=""),)
    if name in ("set-item", "new-item"):
        return (effect(K.REGISTRY_SET, key, detail + " (registry key)", data=data),)
    return (effect(K.REGISTRY_SET, key, detail),)


# ---------------------------------------------------------------------------------------
# reg.exe


_HIVE_ALIASES = {
    "hkey_local_machine": "hklm",
    "hkey_current_user": "hkcu",
    "hkey_classes_root": "hkcr",
    "hkey_users": "hku",
    "hkey_current_config": "hkcc",
}


def _key_parts(key: Value) -> list[str]:
    text = lower(key).replace("/", "\\")
    text = re.sub(r"^(?:microsoft\.powershell\.core\\)?registry::", "", text)
    parts = [p for p in text.split("\\") if p]
    if parts:
        hive = parts[0].rstrip(":")
        parts[0] = _HIVE_ALIASES.get(hive, hive)
    return parts


def is_credential_hive(key: Value) -> bool:
    """Whether a registry key is (in) the SAM or SECURITY hive, or the SYSTEM hive root or its LSA key.

    Args:
        key: a registry path in any spelling (`HKLM\\SAM`, `HKEY_LOCAL_MACHINE\\SYSTEM`, `HKLM:\\SECURITY`).

    Returns:
        True when saving or exporting it yields password hashes or the key that decrypts them.
    """
    parts = _key_parts(key)
    if len(parts) < 2 or parts[0] != "hklm":
        return False
    if parts[1] in ("sam", "security"):
        return True
    return parts[1] == "system" and (len(parts) == 2 or parts[-1] == "lsa")


def _reg(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.lowered()
    verb = words[0] if words else ""
    # `reg query … /f <text>` searches for the text: it is no key (`reg add … /f` forces, taking nothing).
    keys = argv.positionals(("v", "t", "d", "s", "se", "f") if verb == "query" else ("v", "t", "d", "s", "se"))[1:]
    key = keys[0] if keys else None
    second = keys[1] if len(keys) > 1 else None
    value_name: str | None = "" if argv.flag("ve") else argv.value("v")
    if verb == "add":
        reg_type = argv.value("t")
        typed = (("type", reg_type),) if reg_type else ()
        return (effect(K.REGISTRY_SET, key, "reg add", value_name=value_name, data=argv.value("d"), extra=typed),)
    if verb == "delete":
        # Without /v, /ve or /va `reg delete` removes the key with every subkey below it (S-RULE-191).
        every = (("all_values", "true"),) if argv.flag("va") else () if value_name is not None else RECURSIVE
        return (effect(K.REGISTRY_DELETE, key, "reg delete", value_name=value_name, extra=every),)
    if verb in ("save", "export"):
        kind = K.CREDENTIAL_ACCESS if is_credential_hive(key) else K.READ
        deep = RECURSIVE if kind is K.READ else ()
        return (effect(kind, key, f"reg {verb}", extra=deep), effect(K.WRITE, second, f"reg {verb} file"))
    if verb == "import":
        return (
            effect(K.READ, key, "reg import file"),
            effect(K.REGISTRY_SET, None, "reg import", extra=(("file", key or ""),)),
        )
    if verb in ("restore", "load"):
        return (effect(K.REGISTRY_SET, key, f"reg {verb}", extra=(("file", second or ""),)),)
    if verb == "unload":
        return (effect(K.REGISTRY_DELETE, key, "reg unload"),)
    if verb == "copy":
        return (effect(K.READ, key, "reg copy"), effect(K.REGISTRY_SET, second, "reg copy destination"))
    if verb in ("query", "compare"):
        deep = RECURSIVE if argv.flag("s") else ()
        return tuple(effect(K.READ, k, f"reg {verb}", value_name=value_name, extra=deep) for k in keys)
    return ()


def _setx(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals(("s", "u", "p", "k", "f", "a", "r", "d"))
    name = words[0] if words else None
    data = None if argv.flag("k", "f") else (words[1] if len(words) > 1 else None)
    machine = argv.flag("m")
    key = MACHINE_ENVIRONMENT_KEY if machine else USER_ENVIRONMENT_KEY
    return (effect(K.REGISTRY_SET, key, "setx /m" if machine else "setx", value_name=name, data=data),)


def _regedit(op: Operation) -> Effects:
    # `regedit [/s] file.reg` imports the file (with /s, without asking); `/e file [key]` exports.
    argv = argv_of(op)
    words = argv.positionals(("e", "a"))
    exported = argv.value("e") if argv.flag("e") else argv.value("a") if argv.flag("a") else None
    if argv.flag("e", "a"):
        return (
            effect(K.READ, words[0] if words else "hklm", "regedit export", extra=RECURSIVE),
            effect(K.WRITE, exported, "regedit export"),
        )
    if not words:
        return ()  # the editor's window: what the person does there is theirs
    return (
        effect(K.READ, words[0], "regedit import file"),
        effect(K.REGISTRY_SET, None, "regedit import", extra=(("file", words[0] or ""),)),
    )


def _lgpo(op: Operation) -> Effects:
    """`LGPO.exe /m|/u|/g|/s|/a|/t <file>` applies local group policy read from a file: registry policies that
    may turn off Defender, the firewall or UAC, which the gateway does not read (S-RULE-117)."""
    argv = argv_of(op)
    applies = [w for w in argv.lowered() if w in ("/m", "/u", "/g", "/s", "/a", "/ac", "/t", "/p")]
    if not applies:
        return ()
    return (effect(K.REGISTRY_SET, None, f"LGPO {applies[0]} (policy settings from a file)"),)


# `sdbinst x.sdb` registers a shim database (`-u` removes one): its fixes load into the programs it names (S-RULE-151).
_SHIM_DATABASES = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\AppCompatFlags\InstalledSDB"


def _sdbinst(op: Operation) -> Effects:
    return (effect(K.REGISTRY_SET, _SHIM_DATABASES, "sdbinst"),)


REGISTRY_PROGRAMS: Mapping[str, Handler] = {
    "sdbinst": _sdbinst,
    "reg": _reg,
    "lgpo": _lgpo,
    "setx": _setx,
    **dict.fromkeys(("regedit", "regedt32"), _regedit),
}


# ---------------------------------------------------------------------------------------
# .NET and COM


def _arg(op: Operation, index: int) -> Value:
    return op.args[index] if index < len(op.args) else None


# `[EnvironmentVariableTarget]::User` as the third argument: an enum the analyser may not fold.
_TARGET_ENUM = re.compile(r"environmentvariabletarget\]\s*::\s*['\"]?(\w+)", re.IGNORECASE)


def _set_environment_variable(op: Operation) -> Effects:
    # SetEnvironmentVariable(name, value[, target]): without a target, or Process, only this process.
    detail = "[Environment]::SetEnvironmentVariable"
    if len(op.args) < 3:
        return ()
    scope = lower(op.args[2])
    if op.args[2] is None:
        named = _TARGET_ENUM.search(op.text)
        if named is None:
            # Not known which: judge it as both persistent scopes (the process scope is harmless).
            return tuple(
                effect(K.REGISTRY_SET, key, detail + " (scope unknown)", value_name=_arg(op, 0), data=_arg(op, 1))
                for key in (USER_ENVIRONMENT_KEY, MACHINE_ENVIRONMENT_KEY)
            )
        scope = named.group(1).lower()
    if "machine" in scope or scope == "2":
        key = MACHINE_ENVIRONMENT_KEY
    elif "user" in scope or scope == "1":
        key = USER_ENVIRONMENT_KEY
    else:
        return ()
    return (effect(K.REGISTRY_SET, key, detail, value_name=_arg(op, 0), data=_arg(op, 1)),)


def _split_value_path(path: Value) -> tuple[Value, str | None]:
    """`HKLM\\…\\Key\\Name` → (key, name); a trailing `\\` names the key itself (WScript.Shell)."""
    if path is None:
        return None, None
    if path.endswith("\\"):
        return path, None
    key, sep, name = path.rpartition("\\")
    return (key, name) if sep else (path, None)


def _regwrite(op: Operation) -> Effects:
    key, name = _split_value_path(_arg(op, 0))
    reg_type = _arg(op, 2)
    typed = (("type", reg_type),) if reg_type else ()
    return (effect(K.REGISTRY_SET, key, "WScript.Shell.RegWrite", value_name=name, data=_arg(op, 1), extra=typed),)


def _regdelete(op: Operation) -> Effects:
    key, name = _split_value_path(_arg(op, 0))
    return (effect(K.REGISTRY_DELETE, key, "WScript.Shell.RegDelete", value_name=name),)


def _regread(op: Operation) -> Effects:
    key, name = _split_value_path(_arg(op, 0))
    return (effect(K.READ, key, "WScript.Shell.RegRead", value_name=name),)


REGISTRY_CALLS: Mapping[str, Handler] = {
    "environment::setenvironmentvariable": _set_environment_variable,
    "microsoft.win32.registry::setvalue": lambda op: (
        effect(K.REGISTRY_SET, _arg(op, 0), "[Registry]::SetValue", value_name=_arg(op, 1), data=_arg(op, 2)),
    ),
    "microsoft.win32.registry::getvalue": lambda op: (
        effect(K.READ, _arg(op, 0), "[Registry]::GetValue", value_name=_arg(op, 1)),
    ),
    "com:wscript.shell.regwrite": _regwrite,
    "com:wscript.shell.regdelete": _regdelete,
    "com:wscript.shell.regread": _regread,
}


def _key_method(op: Operation) -> Effects:
    # A RegistryKey method: the key it acts on is the object's, which only `pipeline_effects`
    # can name (from an earlier OpenSubKey); a subkey argument is relative to it.
    method = op.name.rsplit(".", 1)[-1]
    detail = f"RegistryKey.{method}"
    if method == "setvalue":
        return (effect(K.REGISTRY_SET, None, detail, value_name=_arg(op, 0), data=_arg(op, 1)),)
    if method == "deletevalue":
        return (effect(K.REGISTRY_DELETE, None, detail, value_name=_arg(op, 0)),)
    if method in ("deletesubkey", "deletesubkeytree"):
        recursive = RECURSIVE if method == "deletesubkeytree" else ()
        return (effect(K.REGISTRY_DELETE, _arg(op, 0), detail, extra=recursive),)
    if method == "createsubkey":
        return (effect(K.REGISTRY_SET, _arg(op, 0), detail),)
    if method == "getvalue":  # a read of one value (`GetValue('DefaultPassword')`, S-RULE-165)
        return (effect(K.READ, None, detail, value_name=_arg(op, 0)),)
    if method in KEY_READS:
        return (effect(K.READ, None, detail),)
    return ()


# The `RegistryKey` methods that read (S-RULE-165); `effects_pipeline` reads them only on a key opened before.
KEY_READS = frozenset({"getvalue", "getvaluenames", "getsubkeynames"})
# Method names that mean a registry change, or a read, on any `RegistryKey` object, typed or not.
REGISTRY_METHODS: Mapping[str, Handler] = dict.fromkeys(
    ("setvalue", "deletevalue", "deletesubkey", "deletesubkeytree", "createsubkey", *KEY_READS), _key_method
)

# `[Microsoft.Win32.Registry]::LocalMachine` and friends: the hive a later OpenSubKey starts from.
REGISTRY_ROOTS: Mapping[str, str] = {
    "localmachine": "HKLM",
    "currentuser": "HKCU",
    "classesroot": "HKCR",
    "users": "HKU",
    "currentconfig": "HKCC",
}


def registry_root(op: Operation) -> str | None:
    """The hive a .NET operation opens (`[Registry]::LocalMachine`, `RegistryKey::OpenBaseKey('LocalMachine')`)."""
    if op.shell != "dotnet":
        return None
    if op.name.startswith("microsoft.win32.registry::"):
        # `…::localmachine` alone, or with the call made on it (`…::localmachine.opensubkey`).
        return REGISTRY_ROOTS.get(op.name.split("::", 1)[1].split(".", 1)[0])
    if op.name == "microsoft.win32.registrykey::openbasekey":
        hive = lower(_arg(op, 0)).rsplit(":", 1)[-1].strip("[]")
        return REGISTRY_ROOTS.get(hive)
    return None


def registry_effect_with_key(found: Effect, key: str) -> Effect:
    """`found` with its relative (or missing) key joined onto the object's key `key`."""
    target = key if found.target is None else key.rstrip("\\") + "\\" + found.target.lstrip("\\")
    return effect(found.kind, target, found.detail, value_name=found.value_name, data=found.data, extra=found.extra)


# `[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SOFTWARE\\x').SetValue(…)` as the analyser's
# text: the hive, then the subkeys each `OpenSubKey`/`CreateSubKey` in the chain opens.
_ROOT_IN_TEXT = re.compile(
    r"^\(*\s*\[(?:microsoft\.)?(?:win32\.)?registry\]\s*::\s*(localmachine|currentuser|classesroot|users|currentconfig)"
    r"|^\(*\s*\[(?:microsoft\.)?(?:win32\.)?registrykey\]\s*::\s*openbasekey\(\s*['\"]?(?:\[[^\]]*\]::)?(\w+)",
    re.IGNORECASE,
)
_SUBKEY_IN_TEXT = re.compile(r"\.\s*(?:opensubkey|createsubkey)\(\s*(?:'([^']*)'|\"([^\"]*)\"|([^)]*))", re.IGNORECASE)


def registry_key_in_text(text: str) -> str | None:
    """The key a .NET registry call chain opens, read from its text (`[Registry]::LocalMachine.OpenSubKey('x')…`).

    Args:
        text: the analyser's text of the call (`Operation.text`).

    Returns:
        `HKLM\\x` and the like, or None when the chain does not start at a hive or a subkey in it is
        not a constant string.
    """
    root = _ROOT_IN_TEXT.match(text.strip())
    if root is None:
        return None
    hive = REGISTRY_ROOTS.get((root.group(1) or root.group(2) or "").lower())
    if hive is None:
        return None
    key = hive
    for sub in _SUBKEY_IN_TEXT.finditer(text, root.end()):
        literal = sub.group(1) if sub.group(1) is not None else sub.group(2)
        if literal is None:
            return None  # `OpenSubKey($path)`: the key is not known
        key += "\\" + literal.strip("\\")
    return key
