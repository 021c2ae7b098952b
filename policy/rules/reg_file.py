"""What a `.reg` file does when it is imported (`reg import`, `regedit /s`; S-RULE-117).

A registration file is a header (`Windows Registry Editor Version 5.00` or `REGEDIT4`) and sections:

    [HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run]   the key (created if missing)
    "Updater"="cmd /c …"                                                   a string value
    @="…"                                                                  the key's default value
    "Flag"=dword:00000001                                                  a DWORD (hex digits)
    "Path"=hex(2):25,00,…                                                  other types, as bytes; `\\` continues a line
    "Old"=-                                                                the value deleted
    [-HKEY_LOCAL_MACHINE\\Software\\X]                                      the key deleted, with all below it

Strings escape `\\` and `"` with a backslash. Each line becomes the effect `reg add`/`reg delete` would
have, so the judge reads an imported file as it reads those commands. A line that is none of these is
skipped, as regedit skips it.
"""

from __future__ import annotations

import re

from policy.rules.effects_common import RECURSIVE, Effects, effect
from policy.rules.shell.ops import Effect, EffectKind

K = EffectKind

_SECTION = re.compile(r"^\[(-?)([^\]]+)\]$")
_VALUE = re.compile(r'^(@|"((?:[^"\\]|\\.)*)")\s*=\s*(.*)$')
_STRING = re.compile(r'^"((?:[^"\\]|\\.)*)"$')
_DWORD = re.compile(r"^dword:([0-9a-fA-F]{1,8})$")
_HIVES = {"hkey_local_machine": "HKLM", "hkey_current_user": "HKCU", "hkey_classes_root": "HKCR", "hkey_users": "HKU"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _key(name: str) -> str:
    """`HKEY_CURRENT_USER\\Software\\X` → `HKCU\\Software\\X` (as `reg` spells a key)."""
    hive, sep, rest = name.strip().partition("\\")
    return _HIVES.get(hive.lower(), hive) + sep + rest


def _lines(text: str) -> list[str]:
    """Logical lines: a trailing `\\` (hex data) joins the next line."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if pending:
            line = pending + line
            pending = ""
        if line.endswith("\\") and not _STRING.match(line.partition("=")[2].strip()):
            pending = line[:-1]
            continue
        out.append(line)
    if pending:
        out.append(pending)
    return out


def _data(raw: str) -> tuple[str | None, str | None]:
    """(Data as `reg add` would be given it, its type) for one value's right-hand side."""
    raw = raw.strip()
    string = _STRING.match(raw)
    if string:
        return _unescape(string.group(1)), "REG_SZ"
    dword = _DWORD.match(raw)
    if dword:
        return str(int(dword.group(1), 16)), "REG_DWORD"
    if raw.lower().startswith("hex"):
        kind, _, body = raw.partition(":")
        hex_bytes = bytes(int(b, 16) for b in re.findall(r"[0-9a-fA-F]{2}", body))
        if kind.lower() in ("hex(2)", "hex(7)"):  # REG_EXPAND_SZ, REG_MULTI_SZ: UTF-16 text
            return hex_bytes.decode("utf-16-le", "replace").replace("\x00", " ").strip(), kind.lower()
        return hex_bytes.hex(), kind.lower()
    return None, None


def reg_file_effects(text: str, source: str) -> Effects:
    """The registry changes importing `text` makes, in file order.

    Args:
        text: the file's content.
        source: how the file is named in reasons (`x.reg`).

    Returns:
        REGISTRY_SET for each value written, REGISTRY_DELETE for each value or key removed (a key with
        everything below it); nothing for lines outside a section or not understood.
    """
    found: list[Effect] = []
    key: str | None = None
    detail = f"reg import {source}"
    for line in _lines(text):
        section = _SECTION.match(line)
        if section:
            key = _key(section.group(2))
            if section.group(1):
                found.append(effect(K.REGISTRY_DELETE, key, detail, extra=RECURSIVE))
                key = None  # values under a deleted key are ignored by regedit
            continue
        value = _VALUE.match(line)
        if value is None or key is None:
            continue
        name = "" if value.group(1) == "@" else _unescape(value.group(2))
        if value.group(3).strip() == "-":
            found.append(effect(K.REGISTRY_DELETE, key, detail, value_name=name))
            continue
        data, kind = _data(value.group(3))
        typed = (("type", kind),) if kind else ()
        found.append(effect(K.REGISTRY_SET, key, detail, value_name=name, data=data, extra=typed))
    return tuple(found)
