"""Network effects (issue 18): what a command sends off the machine, and how it changes the network.

- `UPLOAD` of a local file (its target is that file): `Invoke-WebRequest`/`Invoke-RestMethod
  -InFile`, `Start-BitsTransfer -TransferType Upload`, `Send-MailMessage -Attachments`,
  `curl -T` / `-F name=@file` / `-d @file` (and their long forms), `wget --post-file`,
  `WebClient.UploadFile`, `Copy-Item -ToSession`, and any copy or move whose destination is
  another machine: a UNC path to a host that is not this one (`paths.canonical_path` turns this
  machine's own admin shares into local paths first), or a drive the same command mapped to one
  (`net use Z: \\\\host\\share`, `New-PSDrive -Root \\\\host\\share`). Sending a credential store is
  credential access; any other file leaving the machine is a person's call (judge.py).
- `NETWORK_CHANGE`: adapters and protocol bindings switched off, DNS servers, addresses,
  routes, the WinHTTP proxy and port forwarding changed, leases released. Each can cut the
  machine (and the person watching it) off, or send its traffic through someone else's server.
  The proxy values of `Internet Settings` are a place (`place_table`), judged like these.

Reading the network's state (`Get-NetAdapter`, `ipconfig`, `netsh … show`, `route print`) gives nothing.
"""

from __future__ import annotations

import ipaddress
import ntpath
import re
from collections.abc import Collection, Mapping, Sequence
from urllib.parse import urlsplit

from policy.rules.effects_common import (
    LANDED,
    MAILBOX,
    RECURSIVE,
    REMOTE_SPEC,
    Effects,
    Handler,
    argv_of,
    bind,
    display,
    effect,
    landed,
    lower,
    program_stem,
    targets,
    unquote,
)
from policy.rules.paths import is_remote
from policy.rules.shell.ops import RUN_PATH, Effect, EffectKind, Operation, Value

K = EffectKind

# ---------------------------------------------------------------------------------------
# Other machines


def mapped_drives(ops: Sequence[Operation]) -> Mapping[str, str]:
    """Drives the operations map to another machine (`net use Z: \\\\h\\s`, `New-PSDrive Z … -Root \\\\h\\s`),
    each (`z:`) with the share it stands for."""
    found: dict[str, str] = {}
    for op in ops:
        if op.shell == "program" and op.name in ("net", "net1"):
            words = argv_of(op).positionals()
            if len(words) >= 3 and lower(words[0]) == "use" and is_remote(words[2]):
                found[lower(words[1]).rstrip("\\")[:2]] = unquote(words[2])
        elif op.shell == "powershell" and op.name == "new-psdrive":
            bound = bind(op, ("name", "psprovider", "root"))
            name, root = bound.get("name"), bound.get("root")
            if name is not None and root is not None and is_remote(root):
                found[lower(name).rstrip(":")[:1] + ":"] = unquote(root)
    return found


def copied_off(own: Effects, mapped: Collection[str] = ()) -> Effects:
    """UPLOAD of what one operation (or tool call) reads or moves, when it writes to another machine.

    Args:
        own: the effects of one operation: a copy is READ of its source and WRITE of its destination.
        mapped: drives the command mapped to another machine.
    """
    if not any(e.kind is K.WRITE and is_remote(e.target, mapped) for e in own):
        return ()
    return tuple(
        effect(K.UPLOAD, e.target, f"{e.detail} to another machine")
        for e in own
        if e.kind in (K.READ, K.MOVE) and not is_remote(e.target, mapped)
    )


def written_off(own: Effects, mapped: Collection[str] = ()) -> Effects:
    """UPLOAD of every file one operation writes on another machine: what it writes there leaves this one.

    A copy's source is named by `copied_off`; this covers content written straight to a share
    (`Set-Content \\\\h\\s\\x`, `… > \\\\h\\s\\x`, `Compress-Archive -DestinationPath \\\\h\\s\\x.zip`,
    FileSystem `write`).
    """
    return tuple(
        effect(K.UPLOAD, e.target, f"{e.detail} on another machine")
        for e in own
        if e.kind is K.WRITE and is_remote(e.target, mapped) and LANDED[0] not in e.extra  # one upload per copy
    )


# A folder change (`Set-Location`, `cd`, `pushd`): where a program started by a relative name is looked for.
_FOLDER_CHANGES = frozenset({"set-location", "push-location", "cd", "chdir", "pushd"})


# A folder named from a root: a drive (`C:\\`, `Z:`), a share (`\\\\h\\s`), the current drive's root.
_ROOTED = re.compile(r"^(?:[A-Za-z]:|[\\/])")


def run_in_remote_folder(ops: Sequence[Operation], mapped: Mapping[str, str] | None = None) -> Effects:
    """EXECUTE, from another machine, of each program started after the command moved into its share.

    cmd looks in the current folder before the path, and `.\\x.exe` names it in PowerShell; the program
    operation keeps only its base name, so every program started there counts (errs towards asking).
    """
    drives = mapped or {}
    here: Value = None
    found: list[Effect] = []
    for op in ops:
        # A shell's own folder change (a program named `pushd.exe` cannot move PowerShell's location); a relative
        # one moves within the folder it is in (`Set-Location \\h\s; Set-Location sub` is in the share).
        if op.name in _FOLDER_CHANGES and op.shell in ("powershell", "cmd"):
            named = [*op.args, *(v for k, v in op.params if k in ("path", "literalpath"))]
            to = named[0] if named else None
            relative = to is not None and here is not None and not _ROOTED.match(unquote(to))
            here = ntpath.normpath(ntpath.join(unquote(here), unquote(to))) if relative else to
        elif op.shell == "program" and op.name != RUN_PATH and is_remote(here, drives):
            folder = unquote(here)
            share = drives.get(folder[:2].lower())  # `Z:\x` is `\\host\share\x`: named so, the judge knows it
            folder = share.rstrip("\\/") + "\\" + folder[2:].lstrip("\\/") if share is not None else folder
            found.append(
                effect(K.EXECUTE, folder.rstrip("\\/") + "\\" + op.name, "started in another machine's folder")
            )
    return tuple(found)


# ---------------------------------------------------------------------------------------
# Uploads by the tools made for it


def _web_upload(op: Operation) -> Effects:
    bound = bind(op, ("uri",))
    return tuple(effect(K.UPLOAD, p, display(op.name) + " -InFile") for p in targets(bound, "infile"))


def _bits_upload(op: Operation) -> Effects:
    bound = bind(op, ("source", "destination"))
    if lower(bound.get("transfertype")) not in ("upload", "uploadreply"):
        return ()
    return tuple(effect(K.UPLOAD, p, "Start-BitsTransfer -TransferType Upload") for p in targets(bound, "source"))


def _mail(op: Operation) -> Effects:
    bound = bind(op, ("to", "subject", "body"))
    return tuple(effect(K.UPLOAD, p, "Send-MailMessage -Attachments") for p in targets(bound, "attachments"))


def _to_session(op: Operation) -> Effects:
    if not op.has("tosession"):
        return ()
    bound = bind(op, ("path", "destination"))
    return tuple(effect(K.UPLOAD, p, display(op.name) + " -ToSession") for p in targets(bound, "path", "literalpath"))


# curl's options that send a file, and how the file is named in their value.
_CURL_FILE = ("t", "upload-file")
_CURL_FORM = ("f", "form")  # name=@file (as a file) or name=<file (as text)
_CURL_DATA = ("d", "data", "data-binary", "data-ascii", "data-urlencode", "json")  # @file, name@file
_FORM_FILE = re.compile(r"^[^=]*=[@<]([^;]+)")
_DATA_FILE = re.compile(r"^[^=@]*@(.+)$")


def _curl(op: Operation) -> Effects:
    argv = argv_of(op)
    sent: list[Value] = list(argv.values(*_CURL_FILE))
    for value in argv.values(*_CURL_FORM):
        match = _FORM_FILE.match(unquote(value)) if value is not None else None
        if value is None or match is not None:
            sent.append(None if match is None else match.group(1).strip("'\""))
    for value in argv.values(*_CURL_DATA):
        match = _DATA_FILE.match(unquote(value)) if value is not None else None
        if match is not None and match.group(1) != "-":  # `@-` is standard input
            sent.append(match.group(1).strip("'\""))
    sent += argv.values("post-file", "body-file")  # wget
    return tuple(effect(K.UPLOAD, p, f"{op.name} upload") for p in sent)


def _scp(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals(("i", "o", "c", "f", "l", "s", "j", "pw"))
    if len(words) < 2:
        return ()
    if words[-1] is not None and not REMOTE_SPEC.match(unquote(words[-1])):
        return _fetched_into(op.name, words, tree=argv.flag("r"))
    sent = [w for w in words[:-1] if w is None or not REMOTE_SPEC.match(unquote(w))]
    return tuple(effect(K.UPLOAD, w, f"{op.name} to another machine") for w in sent)


def _fetched_into(name: str, words: Sequence[Value], *, tree: bool) -> Effects:
    """`scp host:authorized_keys ~\\.ssh`: the local destination is written, and into a folder each file lands
    under its own name, the remote path's last one (`host:` alone is the remote home: any name; S-RULE-148)."""
    destination = words[-1]
    out = [effect(K.WRITE, destination, f"{name} destination")]
    for source in words[:-1]:
        text = unquote(source)
        path = text.split(":", 1)[1] if source is not None and REMOTE_SPEC.match(text) else source
        out += landed(path, destination, f"{name} into a folder", tree=tree)
    return tuple(out)


# Cloud storage and sync tools: `<tool> <verb> SOURCE… DEST` sends what is local when DEST is remote.
_CLOUD_VERBS: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "aws": (("s3", "cp"), ("s3", "sync"), ("s3", "mv")),
    "gsutil": (("cp",), ("rsync",), ("mv",)),
    "gcloud": (("storage", "cp"), ("storage", "rsync"), ("storage", "mv"), ("alpha", "storage", "cp")),
    "azcopy": (("copy",), ("cp",), ("sync",)),
    "rclone": (("copy",), ("copyto",), ("sync",), ("move",), ("moveto",)),
}
# The options of those tools that take a value (so the value is not read as a path).
_CLOUD_VALUED = (
    "profile",
    "region",
    "endpoint-url",
    "include",
    "exclude",
    "storage-class",
    "acl",
    "sse",
    "sse-kms-key-id",
    "content-type",
    "cache-control",
    "expires",
    "grants",
    "metadata",
    "project",
    "billing-project",
    "config",
    "transfers",
    "checkers",
    "bwlimit",
    "filter",
    "filter-from",
    "include-from",
    "exclude-from",
    "log-file",
    "log-level",
    "from",
    "to",
    "output",
    "h",
    "o",
    "z",
    "j",
)
# A remote end: `s3://`, `gs://`, `az://`, `https://`, or rclone's `remote:path` (a drive letter is one character).
_CLOUD_REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[^:\\/\s]{2,}:)", re.IGNORECASE)


def _cloud_copy(op: Operation) -> Effects:
    words = argv_of(op).positionals(_CLOUD_VALUED)
    for verb in _CLOUD_VERBS.get(op.name, ()):
        said = [lower(w) if w is not None else None for w in words[: len(verb)]]
        if tuple(said) != verb:
            continue
        ends = words[len(verb) :]
        if len(ends) < 2 or not (ends[-1] is None or _CLOUD_REMOTE.match(unquote(ends[-1]))):
            return ()
        sent = [w for w in ends[:-1] if w is None or not _CLOUD_REMOTE.match(unquote(w))]
        return tuple(effect(K.UPLOAD, w, f"{op.name} {' '.join(verb)} to another machine") for w in sent)
    return ()


def _az(op: Operation) -> Effects:
    # `az storage blob upload --file X`, `az storage blob upload-batch --source X`, `az storage file upload …`.
    # A group or command word that is not constant (`az storage $kind upload`) may be an upload.
    argv = argv_of(op)
    said = [None if w is None else lower(w) for w in argv.positionals(_CLOUD_VALUED)[:3]]
    if not said or said[0] not in ("storage", None) or not any(w is None or w.startswith("upload") for w in said[1:3]):
        return ()
    return tuple(
        effect(K.UPLOAD, w, "az storage upload") for w in [*argv.values("file", "f"), *argv.values("source", "s")]
    )


def _bitsadmin(op: Operation) -> Effects:
    # `bitsadmin /transfer NAME /upload URL FILE`: the last word is the local file sent.
    argv = argv_of(op)
    if not argv.flag("upload"):
        return ()
    words = argv.positionals()
    return (effect(K.UPLOAD, words[-1] if words else None, "bitsadmin /upload"),)


def _tftp(op: Operation) -> Effects:
    # `tftp [-i] HOST PUT SOURCE [DEST]`; `tftp [-i] HOST GET SOURCE [DEST]` writes DEST, or SOURCE's name here.
    words = argv_of(op).positionals()
    verbs = [lower(w) if w is not None else None for w in words]
    if "get" in verbs:
        at = verbs.index("get")
        source = words[at + 1] if len(words) > at + 1 else None
        if len(words) > at + 2:
            return (effect(K.WRITE, words[at + 2], "tftp get"),)
        return (effect(K.WRITE, None if source is None else re.split(r"[\\/]", unquote(source))[-1], "tftp get"),)
    if "put" not in verbs:
        return ()
    at = verbs.index("put")
    return (effect(K.UPLOAD, words[at + 1] if len(words) > at + 1 else None, "tftp put"),)


# Cloud storage cmdlets and the parameters naming what they send (S-RULE-194): a folder goes with what is in it.
_STORAGE_UPLOADS: Mapping[str, tuple[str, ...]] = {
    "write-s3object": ("file", "folder"),
    "write-gcsobject": ("file", "folder"),
    "set-azstorageblobcontent": ("file",),
    "set-azstoragefilecontent": ("source",),
}


def _storage_upload(op: Operation) -> Effects:
    """`Write-S3Object -Folder ~\\Documents -Recurse`, `Set-AzStorageBlobContent -File x`: sent to cloud storage,
    as `aws s3 cp` sends it (S-RULE-194)."""
    bound = bind(op, ("file",) if op.name == "set-azstorageblobcontent" else ())
    return tuple(
        effect(K.UPLOAD, p, f"{display(op.name)} -{name.capitalize()}", extra=RECURSIVE if name == "folder" else ())
        for name in _STORAGE_UPLOADS[op.name]
        for p in targets(bound, name)
    )


# A mailbox's mail sent on to another address from now on (S-RULE-203): an inbox rule, the mailbox's own forwarding,
# an organisation's transport rule, a Graph message rule. Each named parameter that forwards, by its full name (the
# Exchange cmdlets' parameters are named in full in practice; a prefix is expanded where it is unambiguous).
_INBOX_FORWARDS = ("ForwardTo", "ForwardAsAttachmentTo", "RedirectTo")
_TRANSPORT_FORWARDS = ("BlindCopyTo", "RedirectMessageTo", "CopyTo", "AddToRecipients")
_MAIL_FORWARD_CMDLETS = (
    ("New-InboxRule", _INBOX_FORWARDS),
    ("Set-InboxRule", _INBOX_FORWARDS),
    ("Set-Mailbox", ("ForwardingSmtpAddress", "ForwardingAddress")),
    ("New-TransportRule", _TRANSPORT_FORWARDS),
    ("Set-TransportRule", _TRANSPORT_FORWARDS),
    ("New-MgUserMailFolderMessageRule", ("BodyParameter", "Actions")),
    ("Update-MgUserMailFolderMessageRule", ("BodyParameter", "Actions")),
)
# lower-case cmdlet name → (its display name, its forwarding parameters' display names)
_MAIL_FORWARDS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    cmdlet.lower(): (cmdlet, parameters) for cmdlet, parameters in _MAIL_FORWARD_CMDLETS
}
_GRAPH_FORWARD = re.compile(r"forwardto|redirectto|forwardasattachmentto", re.IGNORECASE)
_NO_ADDRESS = frozenset({"", "$null", "null", "''", '""'})


def _graph_forwards(value: Value, text: str) -> bool:
    """Whether a Graph message rule's body forwards: its text says so, or it is held elsewhere (`$body`) and not
    known. A hashtable written in the command is read from the command's text (the analyser folds it to no text)."""
    if _GRAPH_FORWARD.search((value or "") + text):
        return True
    return value is None and "@{" not in text


def _mail_forward(op: Operation) -> Effects:
    cmdlet, names = _MAIL_FORWARDS[op.name]
    found: list[Effect] = []
    for key, value in op.params:
        name = next((n for n in names if n.lower().startswith(key) and len(key) >= 4), None)
        if name is None or (value is not None and unquote(value).strip().lower() in _NO_ADDRESS):
            continue  # another parameter, or forwarding turned off (`-ForwardingSmtpAddress $null`)
        if op.name.endswith("messagerule") and not _graph_forwards(value, op.text):
            continue  # a Graph rule that only moves or flags mail
        shown = f"{cmdlet} -{name} {unquote(value) if value is not None else '(not known)'}"
        found.append(effect(K.UPLOAD, MAILBOX, shown))
    return tuple(found)


def _ftp(op: Operation) -> Effects:
    """`ftp -s:cmds.txt host`: a scripted session, whose `put`/`send` lines send files; the script is not read, so
    what is sent is not known (S-RULE-194). An interactive `ftp host` reads the person's keyboard, not the agent's."""
    script = next((w for w in op.args if w is not None and w.lower().startswith(("-s:", "/s:"))), None)
    return (effect(K.UPLOAD, None, f"ftp {script} (its commands are not read)"),) if script is not None else ()


def _upload_file(op: Operation) -> Effects:
    # WebClient.UploadFile(address, file) or (address, method, file): the file is the last argument.
    return (effect(K.UPLOAD, op.args[-1] if len(op.args) >= 2 else None, "WebClient.UploadFile"),)


# ---------------------------------------------------------------------------------------
# Network changes


def _change(detail: str) -> Handler:
    return lambda op: (effect(K.NETWORK_CHANGE, None, detail),)


_NETSH_CHANGES = re.compile(
    r"^(?:winhttp (?:set|import|reset) proxy"
    r"|int(?:erface)? (?:\S+ )?(?:set|add|delete|reset) (?:interface|dns\w*|address|route|neighbors)"
    r"|int(?:erface)? portproxy (?:add|set|delete|reset)"
    r"|int(?:erface)? (?:ip|ipv4|ipv6|tcp) reset"
    r"|winsock reset)"
)


def netsh_network(op: Operation) -> Effects:
    """What a `netsh` line changes in the network (effects_security's `netsh` asks here after the firewall)."""
    line = " ".join(argv_of(op).lowered())
    found = _NETSH_CHANGES.match(line)
    return (effect(K.NETWORK_CHANGE, None, "netsh " + found.group(0)),) if found else ()


def _route(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    verb = lower(words[0]) if words else ""
    if argv.flag("f"):  # clears every gateway route
        return (effect(K.NETWORK_CHANGE, None, "route -f"),)
    return (effect(K.NETWORK_CHANGE, None, f"route {verb}"),) if verb in ("add", "delete", "change") else ()


def _w32tm(op: Operation) -> Effects:
    """`w32tm /config /manualpeerlist:evil.example /update`: the machine's clock set from another server, which
    signatures, certificates and sign-ins trust (S-RULE-194); `/unregister` removes the time service."""
    words = [lower(w) for w in op.args]
    changed = "/unregister" in words or (
        "/config" in words and any(w.startswith(("/manualpeerlist", "/syncfromflags")) for w in words)
    )
    return (effect(K.NETWORK_CHANGE, None, "w32tm " + " ".join(w for w in words if w)[:60]),) if changed else ()


def _ipconfig(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("release", "release6"):
        return (effect(K.NETWORK_CHANGE, None, "ipconfig /release"),)
    return ()


NETWORK_CMDLETS: Mapping[str, Handler] = {
    **{
        name: _change(display(name))
        for name in (
            "disable-netadapter",
            "disable-netadapterbinding",
            "remove-netadapter",
            "set-dnsclientserveraddress",
            "set-dnsclientglobalsetting",
            "add-dnsclientnrptrule",
            "new-netroute",
            "set-netroute",
            "remove-netroute",
            "new-netipaddress",
            "set-netipaddress",
            "remove-netipaddress",
            "set-netipinterface",
            "new-netnat",
            "set-netconnectionprofile",
            "reset-netadapteradvancedproperty",
            # A folder shared, or a share opened to more people: its files reachable from the network (S-RULE-57).
            "new-smbshare",
            "set-smbshare",
            "grant-smbshareaccess",
            "unblock-smbshareaccess",
        )
    },
    "send-mailmessage": _mail,
    **dict.fromkeys(_STORAGE_UPLOADS, _storage_upload),
    **dict.fromkeys(_MAIL_FORWARDS, _mail_forward),
}

NETWORK_PROGRAMS: Mapping[str, Handler] = {
    "route": _route,
    "ipconfig": _ipconfig,
    **dict.fromkeys(("scp", "pscp", "sftp"), _scp),
    **dict.fromkeys(_CLOUD_VERBS, _cloud_copy),
    "az": _az,
    "tftp": _tftp,
    "ftp": _ftp,
    "w32tm": _w32tm,
}


def _load_assembly(op: Operation) -> Effects:
    # A DLL loaded by path runs its code in PowerShell's process (judged as running that file).
    return (effect(K.EXECUTE, op.args[0] if op.args else None, "Assembly." + op.name.rsplit("::", 1)[-1]),)


def _mail_attachment(op: Operation) -> Effects:
    """A file attached to a mail (`$mail.Attachments.Add(path)` on an Outlook item or a .NET MailMessage,
    `[Net.Mail.Attachment]::new(path)`): such a mail exists to be sent (S-RULE-180), as `Send-MailMessage
    -Attachments` is (a credential store attached is `credential-access`)."""
    return (effect(K.UPLOAD, op.args[0] if op.args else None, "a mail attachment"),)


NETWORK_CALLS: Mapping[str, Handler] = {
    "net.webclient.uploadfile": _upload_file,
    "?.attachments.add": _mail_attachment,
    "net.mail.attachment::new": _mail_attachment,
    **dict.fromkeys(
        ("reflection.assembly::loadfile", "reflection.assembly::loadfrom", "reflection.assembly::unsafeloadfrom"),
        _load_assembly,
    ),
}
NETWORK_METHODS: Mapping[str, Handler] = {"uploadfile": _upload_file, "uploadfileasync": _upload_file}


# ---------------------------------------------------------------------------------------
# What a download fetches (S-RULE-144): a local file by a `file:` URL, or the cloud instance's own credentials


# The instance metadata services of the clouds a Windows desktop runs in (Azure Virtual Desktop, AWS WorkSpaces,
# GCP): they hand the machine's access tokens to any local process that asks.
_METADATA_HOSTS = frozenset(
    {"169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "metadata.google.internal"}
    | {"metadata", "metadata.goog"}
)
_FETCHING_CMDLETS = frozenset({"invoke-webrequest", "invoke-restmethod", "start-bitstransfer"})
_FETCHING_PROGRAMS = frozenset({"curl", "wget", "certutil", "bitsadmin"})
_FETCHING_METHODS = frozenset(
    {"downloadstring", "downloadfile", "downloaddata", "openread", "create", "getstringasync", "getasync"}
    | {"getbytearrayasync", "getstreamasync", "downloadstringtaskasync", "downloaddatataskasync"}
    | {"downloadfiletaskasync", "downloadstringasync", "downloadfileasync", "downloaddataasync"}
)


def _host(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if host is None:
        return None
    try:  # `http://2852039166/`, `http://0xa9fea9fe/`: the same address as 169.254.169.254
        return str(ipaddress.ip_address(int(host, 16) if host.startswith("0x") else int(host)))
    except ValueError:
        return host.rstrip(".")


def fetched(url: Value, detail: str) -> Effects:
    """What fetching `url` reads: a `file:` URL is the local file (judged as reading it), a cloud's instance
    metadata service its credentials (`CREDENTIAL_ACCESS`); any other address reads nothing here (S-RULE-144).

    Args:
        url: the address as the call gives it, or None.
        detail: the command, for reasons.
    """
    text = unquote(url or "").strip()
    if text[:5].lower() == "file:":
        return (effect(K.READ, text, detail + " of a file: URL"),)
    if "://" in text and _host(text) in _METADATA_HOSTS:
        return (effect(K.CREDENTIAL_ACCESS, text, detail + " from the cloud instance metadata service (its tokens)"),)
    return ()


def fetches(op: Operation) -> Effects:
    """The local files and cloud credentials a download reads (`fetched`): iwr/irm/BITS, curl, wget, certutil,
    bitsadmin, and WebClient/HttpClient/WebRequest methods, each value handed to them looked at."""
    method = op.name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    if not (
        (op.shell == "powershell" and op.name in _FETCHING_CMDLETS)
        or (op.shell in ("program", "cmd") and op.name in _FETCHING_PROGRAMS)
        or (op.shell == "dotnet" and method in _FETCHING_METHODS)
    ):
        return ()
    values = [*op.args, *(v for _, v in op.params)]
    return tuple(
        e
        for v in values
        if v is not None and ("://" in v or v[:5].lower() == "file:")
        for e in fetched(v, display(op.name))
    )


# An MCP server on this machine reached directly (S-RULE-202): its endpoint's path (`/mcp` streamable HTTP, `/sse`
# and `/messages` the SSE transport), or a JSON-RPC method of MCP's anywhere in what the request is given.
LOCAL_MCP = "local-mcp"  # an `extra` key: the address of an MCP server on this machine a call talks to
_MCP_PATH = re.compile(r"^/(?:[^?#]*/)?(?:mcp|sse|messages)/?$", re.IGNORECASE)
_MCP_METHOD = re.compile(
    r"\b(?:tools/(?:call|list)|resources/(?:read|list|subscribe)|prompts/(?:get|list)|notifications/initialized)\b"
    r"|[\"']initialize[\"']"
)
_LOCAL_NAMES = frozenset({"localhost", "0.0.0.0", "::", "::1", "ip6-localhost"})
# What can send a request of its own: the web cmdlets, the HTTP command-line clients, any .NET or COM method
# (WebClient, HttpClient, WinHttp, XMLHTTP). A browser only opens the address (it cannot call a tool from there
# without its developer tools, which are judged as a language prompt: S-RULE-204).
_REQUEST_CMDLETS = frozenset({"invoke-webrequest", "invoke-restmethod"})
_REQUEST_PROGRAMS = frozenset({"curl", "wget", "wget2", "http", "https", "xh", "httpie"})


def _is_local(host: str | None) -> bool:
    if host is None:
        return False
    host = host.lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def local_mcp(op: Operation) -> Effects:
    """A request to an MCP server on this machine (S-RULE-202): with Windows-MCP served over HTTP, the agent would
    call its tools around the gateway. Any operation handed a local `http(s)://` address whose path is an MCP
    endpoint (Windows-MCP's own: `/mcp`, `/sse`, `/messages`), or that is handed an MCP method (`tools/call`)
    beside a local address. A body built from a hashtable in another statement is not seen (README limits)."""
    if not (
        (op.shell == "powershell" and op.name in _REQUEST_CMDLETS)
        or (op.shell in ("program", "cmd") and program_stem(op.name) in _REQUEST_PROGRAMS)
        or op.shell in ("dotnet", "com")
    ):
        return ()
    values = [unquote(v) for v in (*op.args, *(v for _, v in op.params)) if v is not None]
    addresses = [v for v in values if v.lower().startswith(("http://", "https://")) and _is_local(_host(v))]
    if not addresses:
        return ()
    mcp = any(_MCP_METHOD.search(text) for text in (*values, op.text))
    found = []
    for address in addresses:
        try:
            path = urlsplit(address).path
        except ValueError:
            path = ""
        if mcp or _MCP_PATH.match(path or "/"):
            found.append(
                effect(K.EXECUTE, address, f"{display(op.name)} to an MCP server here", extra=((LOCAL_MCP, address),))
            )
    return tuple(found)


def uploads(op: Operation) -> Effects:
    """The uploads of an operation whose own table says something else too (iwr, BITS, curl, bitsadmin, Copy-Item)."""
    if op.shell == "powershell":
        if op.name in ("invoke-webrequest", "invoke-restmethod"):
            return _web_upload(op)
        if op.name == "start-bitstransfer":
            return _bits_upload(op)
        if op.name in ("copy-item", "move-item"):
            return _to_session(op)
        return ()
    if op.shell == "program" and op.name in ("curl", "wget"):
        return _curl(op)
    if op.shell == "program" and op.name == "bitsadmin":
        return _bitsadmin(op)
    return ()
