"""Linux commands run through WSL (issue 18): what `wsl rm -rf /mnt/c/…` or `bash -c "…"` does to Windows' drives.

WSL mounts every Windows drive under `/mnt/<drive>`, so a Linux command there deletes, moves
or writes Windows files. `linux_effects` reads the command line `wsl` (its own options
skipped; `-e`/`--exec` runs the words without a shell) or `bash`/`sh -c` runs, splits it at
`;`, `&&`, `||`, `|`, `&`, and gives the effects of the few commands that touch files (`rm`,
`rmdir`, `unlink`, `shred`, `find -delete`, `mv`, `cp`, `chmod`, `chown`, `touch`, `tee`,
`truncate`); anything else reads the paths it is handed. Targets are mapped by `wsl_path`.
A `cd` moves where later relative paths of the line point (S-RULE-132). What is not read: variables,
globs expanded by the Linux shell, scripts run by file. A tripwire, not a sandbox.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
import shlex

from policy.rules.effects_agents import agent_effects
from policy.rules.effects_common import (
    NAMED,
    RECURSIVE,
    REMOTE_SPEC,
    Effects,
    effect,
    landed,
    lower,
    python_module,
    split_command_line,
    unquote,
)
from policy.rules.effects_downloads import download_writes
from policy.rules.effects_packages import package_sources
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind

# wsl's own options that take a value; `-e`/`--exec`/`--` run the next words without a shell.
_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id"})
_PREFIXES = frozenset({"sudo", "exec", "env", "nohup", "command", "builtin", "time", "doas"})
# At a position outside quotes (`_segments`). A redirection's own `&` and `|` separate nothing: `&> f`, `&>> f`,
# `2>&1`, `<&0`, `>| f` (S-RULE-192).
_SEPARATOR = re.compile(r"\s*(?:&&|\|\||[;\n]|(?<![<>])&(?!>)|(?<!>)\|)\s*")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
# Builtins that touch no file (a `cd` moves the shell, which only its later relative paths feel).
_NO_FILES = frozenset({"cd", "pushd", "popd", "echo", "printf", "export", "true", "false", "sleep"})
MAX_LINUX_DEPTH = 4  # `wsl bash -c "sh -c '…'"`: deeper nesting is not read


# A Windows drive as each Unix layer names it: WSL's automount `/mnt/c`, Git for Windows' and MSYS2's `/c`,
# Cygwin's `/cygdrive/c` (S-RULE-138). A WSL distribution has no `/c`: reading it as the drive is the safe side.
_MOUNTED_DRIVE = re.compile(r"^/(?:mnt/|cygdrive/)?([a-zA-Z])(?:/(.*))?$")
_WINDOWS_DRIVE = re.compile(r"^[a-zA-Z]:[/\\]")
# A raw disk or volume (`dd of=\\\\.\\PhysicalDrive0`, `of=/dev/sda`): writing it destroys every file system on it.
_RAW_DEVICE = re.compile(
    r"^(?:[/\\]{2}[.?][/\\](?:physicaldrive\d+|[a-z]:$|harddisk)|/dev/(?:sd|hd|nvme|vd|xvd|disk))", re.I
)


def wsl_path(path: Value) -> Value:
    """A Linux path as Windows sees it: `/mnt/c/Users` → `c:\\Users`; the Linux side is the distro's share.

    `/` and `/mnt` hold every mounted drive, so they stand for the system drive (the widest place
    a recursive delete there reaches). A relative path stays relative: WSL starts in the Windows
    current directory. `~` and `$HOME` are the Linux home, not the Windows profile.

    Args:
        path: the path as the Linux command names it, or None.

    Returns:
        The Windows spelling, or None when not constant.
    """
    if path is None:
        return None
    text = unquote(path)
    mounted = _MOUNTED_DRIVE.match(text)
    if mounted:
        return f"{mounted.group(1).lower()}:\\" + (mounted.group(2) or "").replace("/", "\\")
    if _WINDOWS_DRIVE.match(text):  # `C:/Users`, `C:\\Users`: a Windows path handed to a Unix tool on Windows
        return text.replace("/", "\\")
    if text.startswith("/") and text.rstrip("/") in ("", "/mnt"):
        return "c:\\"
    home = re.match(r"^(?:~|\$HOME|\$\{HOME\})(?=/|$)(.*)$", text)
    if home:
        text = "/home/user" + home.group(1)
    if text.startswith("/"):
        return "\\\\wsl.localhost\\linux" + text.replace("/", "\\")
    return text.replace("/", "\\")


def posix_words(text: str) -> list[Value]:
    """A Linux shell's words: quotes removed and a backslash escaping the next character (`Program\\ Files` is
    one word, `hal.d\\l\\l` is `hal.dll`); unbalanced quotes fall back to the Windows rules."""
    try:
        return list(shlex.split(text, posix=True))
    except ValueError:
        return list(split_command_line(text))


# A distribution's own launcher (`ubuntu.exe`, from the Store) runs a command line in it as `wsl` does:
# `ubuntu run rm -rf /mnt/c/Users` or `ubuntu -c "…"` (S-RULE-124). Its other verbs (`config`, `install`) run none.
DISTRO_LAUNCHERS = frozenset(
    {"ubuntu", "ubuntu1804", "ubuntu2004", "ubuntu2204", "ubuntu2404", "debian", "kali", "alpine", "fedoraremix"}
    | {"opensuse-leap-15", "opensuse-leap-15.6", "opensuse-tumbleweed", "sles-15", "oraclelinux_9_1", "almalinux-9"}
)


def _joined(words: list[Value]) -> str:
    """Words Windows split, as the one command line `wsl` hands the Linux shell (a word with a blank or a quote
    quoted, its own double quotes escaped, as the Windows command line carries them)."""
    return " ".join(
        '"' + w.replace('"', '\\"') + '"' if w is not None and (" " in w or '"' in w) else (w or "$unknown")
        for w in words
    )


def _exec_joined(words: list[Value]) -> str:
    """Words `wsl -e` runs without a shell, as one line the Linux shell splits back into exactly them."""
    return " ".join(shlex.quote(w) if w is not None else "$unknown" for w in words)


def _command_line(name: str, words: tuple[Value, ...]) -> str | None:
    """The Linux command line `wsl …`/`bash -c …` runs, or None when it runs none we can read."""
    items = list(words)
    if name in DISTRO_LAUNCHERS:
        head = lower(items[0]) if items else ""
        if head == "run":
            return _joined(items[1:])
        return _command_line("bash", words) if head == "-c" else None
    if name in ("wsl", "wslhost"):
        while items:
            head = lower(items[0])
            if head in _WSL_VALUED:
                items = items[2:]
            elif head in ("-e", "--exec"):
                return _exec_joined(items[1:])
            elif head == "--":
                return _joined(items[1:])
            elif head.startswith("-"):
                return None  # --install, --list, --shutdown …: wsl's own management
            else:
                break
        return _joined(items)
    for at, word in enumerate(items):
        # `-c`, or `-c` in a cluster of short options (`bash -lc '…'`, MSYS2's login shell): the command line is the
        # first word after the options (S-RULE-138).
        if word is not None and word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            rest = [w for w in items[at + 1 :] if w is None or not w.startswith("-")]
            return rest[0] if rest and rest[0] is not None else "$unknown"
    return None


def linux_effects(name: str, words: tuple[Value, ...], depth: int = 0) -> Effects:
    """What a Linux command run through `wsl` or `bash`/`sh -c` deletes, moves, writes or reads.

    Args:
        name: the program that runs it (`wsl`, `bash`, `sh`).
        words: that program's arguments.
        depth: nesting (`wsl bash -c "…"`), bounded by MAX_LINUX_DEPTH.

    Returns:
        DELETE(_RECURSIVE), MOVE, WRITE and READ effects with targets mapped by `wsl_path`.
    """
    line = _command_line(name, words)
    if not line or depth >= MAX_LINUX_DEPTH:
        return ()
    out: list[Effect] = []
    cwd: str | None = None  # where a `cd` moved the shell (S-RULE-132); None: where it started
    for segment in _segments(line):
        parts = list(posix_words(segment)) if segment.strip() else []
        while parts and lower(parts[0]) in _PREFIXES:
            parts = parts[1:]
        if not parts:
            continue
        parts, redirected = _redirects(parts, cwd)
        out += redirected
        if not parts:
            continue
        verb = ntpath.basename(lower(parts[0]).replace("/", "\\"))
        if verb == "cd":
            cwd = _moved(cwd, parts[1:])
        elif verb in _SHELLS:
            out += linux_effects("bash", tuple(parts[1:]), depth + 1)
        elif verb not in _NO_FILES:
            out += _command(verb, [_placed(w, cwd) for w in parts[1:]])
        # another agent, or Windows-MCP, started inside the distribution (S-RULE-198, S-RULE-199)
        out += agent_effects(Operation(shell="program", name=verb, args=tuple(parts[1:])))
    return tuple(out)


# A redirection word: `>`, `>>`, `<`, with a stream number before it, and the file glued on or next (`&>` and `>|`
# reach here split at their `&` or `|`, as `_segments` cuts a line: their file is read as a command's word).
# `>`, `>>`, `<` with an optional stream number, `&>`/`&>>` (both streams), `>|` (past noclobber) (S-RULE-190, 192).
_REDIRECT = re.compile(r"^(?:\d|&)?(>\||>>?|<)(.*)$", re.DOTALL)
_STREAM = re.compile(r"^(?:\d+|-)$")  # `>&2`, `>&-`: a stream copied or closed, no file
_DISCARDS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def _redirects(parts: list[Value], cwd: str | None) -> tuple[list[Value], list[Effect]]:
    """A simple command's words without its redirections, and what they write or read (S-RULE-190): `echo x >>
    ~/.bashrc` writes the file as `Add-Content` would, `cat < ~/.ssh/id_rsa` reads it. A stream copied (`2>&1`), a
    here-document (`<<EOF`, `<<<`), `/dev/null` and a redirection with no word after it are no file."""
    kept: list[Value] = []
    found: list[Effect] = []
    i = 0
    while i < len(parts):
        word = parts[i]
        match = _REDIRECT.match(word) if word is not None else None
        if match is None or match.group(2).startswith("<"):  # `<<EOF`, `<<<word`: no file
            kept.append(word)
            i += 1
            continue
        operator, glued = match.group(1), match.group(2)
        both = glued.startswith("&")  # `>&file` is `&>file`; `2>&1`, `>&-` copy or close a stream
        if both:
            glued = glued[1:]
        target = glued if glued else (parts[i + 1] if i + 1 < len(parts) else "")
        i += 1 if glued else 2
        if target == "" or target in _DISCARDS or (both and target is not None and _STREAM.match(target)):
            continue
        kind = K.READ if operator == "<" else K.WRITE
        found.append(effect(kind, wsl_path(_placed(target, cwd)), f"redirect {operator} (Linux shell)"))
    return kept, found


def linux_commands(name: str, words: tuple[Value, ...], depth: int = 0) -> list[list[Value]]:
    """The simple commands (verb first) a Linux command line run through `wsl`/`bash -c` holds, nested shells'
    included, their prefixes (`sudo`, `env`) dropped: for checks that need the words, not the effects. A line
    nested deeper than MAX_LINUX_DEPTH is one command `[None]`: not read, so not known (S-RULE-162)."""
    line = _command_line(name, words)
    if not line:
        return []
    if depth >= MAX_LINUX_DEPTH:
        return [[None]]
    out: list[list[Value]] = []
    for segment in _segments(line):
        parts = list(posix_words(segment)) if segment.strip() else []
        while parts and lower(parts[0]) in _PREFIXES:
            parts = parts[1:]
        if parts and ntpath.basename(lower(parts[0]).replace("/", "\\")) in _SHELLS:
            out += linux_commands("bash", tuple(parts[1:]), depth + 1)
        elif parts:
            out.append(parts)
    return out


def _segments(line: str) -> list[str]:
    """The simple commands of a Linux command line: split at `;`, `&&`, `||`, `|`, `&` and line breaks outside
    quotes (`bash -c "cd /x && rm y"` is one command whose argument holds two)."""
    out: list[str] = []
    start = i = 0
    quote = ""
    while i < len(line):
        c = line[i]
        if c == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif (found := _SEPARATOR.match(line, i)) is not None:
            out.append(line[start:i])
            start = i = found.end()
            continue
        i += 1
    out.append(line[start:])
    return out


_UNKNOWN_CWD = "\0unknown"  # a `cd` to a folder that is not constant (`cd "$X"`, `cd -`)


def _moved(cwd: str | None, words: list[Value]) -> str | None:
    """The shell's folder after `cd words`: `cd` alone goes home; a relative folder is joined to the last."""
    target = next((w for w in words if w is None or not w.startswith("-") or w == "-"), "~")
    if target is None or target == "-" or "$" in target or cwd == _UNKNOWN_CWD and not _rooted(target):
        return _UNKNOWN_CWD
    if _rooted(target) or cwd is None:
        return posixpath.normpath(target) if _rooted(target) else target
    return posixpath.normpath(posixpath.join(cwd, target))


def _rsync(flags: list[str], operands: list[Value], paths: list[Value], shown: str) -> list[Effect]:
    """`rsync SRC… DEST` (S-RULE-148): a source ending in `/` puts its contents into DEST, any other lands under
    its own name; `-r`/`-a` take the tree below; `--delete` removes what DEST has that the sources lack."""
    short = [f for f in flags if not f.startswith("--")]
    tree = bool({"--recursive", "--archive"} & set(flags)) or any("r" in f or "a" in f for f in short)
    destination = paths[-1] if not REMOTE_SPEC.match(unquote(operands[-1])) else None
    out: list[Effect] = []
    for raw, path in zip(operands[:-1], paths[:-1], strict=True):
        remote = raw is not None and REMOTE_SPEC.match(unquote(raw)) is not None
        if not remote:
            out.append(effect(K.READ, path, shown, extra=RECURSIVE if tree else ()))
        named = REMOTE_SPEC.sub("", unquote(raw)) if remote else path
        contents = raw is not None and unquote(raw).endswith("/")
        out += landed(named, destination, shown + " into a folder", tree=tree, contents=contents)
    if destination is None:  # to another machine: each local source leaves this one (S-RULE-30)
        return out + [effect(K.UPLOAD, p, shown + " to another machine") for p in _local(operands[:-1], paths[:-1])]
    out.insert(0, effect(K.WRITE, destination, shown))
    if any(f.startswith("--delete") for f in flags):
        out.append(effect(K.DELETE_RECURSIVE, destination, shown + " --delete"))
    return out


def _local(operands: list[Value], paths: list[Value]) -> list[Value]:
    """The mapped paths of the operands that are not another machine's (`host:path`)."""
    return [p for raw, p in zip(operands, paths, strict=True) if raw is None or not REMOTE_SPEC.match(unquote(raw))]


def _rooted(word: str) -> bool:
    return word.startswith(("/", "~"))


def _placed(word: Value, cwd: str | None) -> Value:
    """An operand read from the folder a `cd` moved to: a relative path is joined to it, and a relative path in a
    folder nobody can name is not constant (None). Options, absolute paths and `~` stay."""
    if cwd is None or word is None or word.startswith("-") or _rooted(word):
        return word
    if cwd == _UNKNOWN_CWD:
        return None
    return posixpath.normpath(posixpath.join(cwd, word))


# The account tools of a Linux distribution, by the file each rewrites (S-RULE-192): users, groups (`sudo`
# membership), passwords, the sudo rules.
_ACCOUNT_TOOLS = {
    **dict.fromkeys(("useradd", "adduser", "usermod", "userdel", "deluser", "passwd", "chpasswd"), "/etc/passwd"),
    **dict.fromkeys(("groupadd", "addgroup", "groupmod", "groupdel", "delgroup", "gpasswd"), "/etc/group"),
    "visudo": "/etc/sudoers",
}


def _command(verb: str, words: list[Value]) -> list[Effect]:
    flags = [lower(w) for w in words if w is not None and w.startswith("-") and w != "-"]
    operands = [w for w in words if w is None or not w.startswith("-") or w == "-"]
    paths = [wsl_path(w) for w in operands]
    shown = f"wsl {verb}"
    if verb == "rm":
        recursive = any(f == "--recursive" or (not f.startswith("--") and "r" in f) for f in flags)
        kind = K.DELETE_RECURSIVE if recursive else K.DELETE
        return [effect(kind, p, shown + (" -r" if recursive else "")) for p in paths or [None]]
    if verb in ("rmdir", "unlink", "shred"):
        return [effect(K.DELETE, p, shown) for p in paths or [None]]
    if verb == "find" and "-delete" in flags:
        return [effect(K.DELETE_RECURSIVE, paths[0] if paths else None, "wsl find -delete")]
    if verb == "find" and set(flags) & _FIND_RUNS:
        return _find_exec(words)
    if verb == "tar":
        # What `tar -c` archives is read with everything below it, as Compress-Archive reads it (S-RULE-162).
        sources = _tar_sources(words)
        read = [effect(K.READ, wsl_path(p), shown + " -c", extra=RECURSIVE) for p in sources]
        # `--remove-files` deletes every source, and all below it, once archived (S-RULE-183).
        removed = [effect(K.DELETE_RECURSIVE, wsl_path(p), shown + " --remove-files") for p in sources]
        return read + (removed if "--remove-files" in flags else [])
    if verb in ("mv", "cp") and len(paths) > 1:
        first_kind = K.MOVE if verb == "mv" else K.READ
        short = [f for f in flags if not f.startswith("--")]
        copies_tree = bool({"--recursive", "--archive"} & set(flags)) or any("r" in f or "a" in f for f in short)
        tree = verb == "mv" or copies_tree
        sources, destination = paths[:-1], paths[-1]
        named = next((f.partition("=")[2] for f in flags if f.startswith("--target-directory=")), None)
        if named is not None:  # `cp --target-directory=DIR SOURCE…`
            sources, destination = paths, wsl_path(named)
        elif "-t" in flags:  # `cp -t DIR SOURCE…`: the folder comes first
            sources, destination = paths[1:], paths[0]
        # Into a folder that exists, each source lands under its own name (S-RULE-147).
        into = [e for p in sources for e in landed(p, destination, shown + " into a folder", tree=tree)]
        return [*(effect(first_kind, p, shown) for p in sources), effect(K.WRITE, destination, shown), *into]
    if verb == "rsync" and len(paths) > 1:
        return _rsync(flags, operands, paths, shown)
    if verb in ("scp", "sftp") and len(paths) > 1 and operands[-1] is not None and REMOTE_SPEC.match(operands[-1]):
        # `scp -r ./project x@host:/loot`: what is local leaves the machine (S-RULE-30)
        return [effect(K.UPLOAD, p, shown + " to another machine") for p in _local(operands[:-1], paths[:-1])]
    if verb in ("chmod", "chown") and len(paths) > 1:
        return [effect(K.WRITE, p, shown) for p in paths[1:]]  # the first operand is the mode or owner
    if verb in ("touch", "tee", "truncate"):
        return [effect(K.WRITE, p, shown) for p in paths]
    if verb in _ACCOUNT_TOOLS:  # `usermod -aG sudo me`: what the tool rewrites (S-RULE-192)
        return [effect(K.WRITE, wsl_path(_ACCOUNT_TOOLS[verb]), shown)]
    if verb == "dd":
        return _dd(words, shown)
    if verb in ("curl", "wget"):  # where it saves: `-o`, `-O`, `-P`, the URL's name (S-RULE-148)
        mapped = [w if w is None or not _rooted(w) else wsl_path(w) for w in words]
        return list(download_writes(verb, mapped))
    # A package manager fetching from an address the line names runs that code (S-RULE-166).
    fetched = list(package_sources(verb, words))
    module = python_module(words) if verb.startswith("python") else None
    if module is not None:  # `python3 -m pip install …`
        fetched += package_sources(*module)
    # Anything else may read what it is handed (`cat`, `sqlite3`, `tar`); the judge weighs reads
    # only of credential stores, so every operand with a separator is read.
    return fetched + [
        effect(K.READ, p, shown)
        for p, w in zip(paths, operands, strict=True)
        if w is not None and ("/" in w or "\\" in w or w.startswith("~"))
    ]


# find's actions that run a command on each file it finds (`{}` stands for the file).
_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_ENDS = frozenset({";", "\\;", "+"})


def _find_exec(words: list[Value]) -> list[Effect]:
    """`find /mnt/c/Users -name id_rsa -exec cat {} \\;` (S-RULE-162): the command runs on every file the search
    finds below its starting folders, so it is judged on them: a read reads the tree (of the files `-name`
    picks), a delete deletes in all of it, a write writes every file. Other effects stay as the command has them."""
    roots: list[Value] = []
    i = 0
    while i < len(words) and not (lower(words[i]) or "?").startswith(("-", "(", "!")):
        roots.append(words[i])
        i += 1
    lowered = [lower(w) for w in words]
    name = next((words[k + 1] for k in range(i, len(words) - 1) if lowered[k] in ("-name", "-iname")), None)
    out: list[Effect] = []
    while i < len(words):
        if lowered[i] not in _FIND_RUNS:
            i += 1
            continue
        end = next((k for k in range(i + 1, len(words)) if words[k] in _FIND_ENDS), len(words))
        command, i = words[i + 1 : end], end + 1
        verb = ntpath.basename(lower(command[0]).replace("/", "\\")) if command and command[0] else ""
        for root in roots or ["."]:
            found = None if root is None else posixpath.join(root, unquote(name) if name else "*")
            stand_in = wsl_path(found)
            args = [found if w is not None and "{}" in w else w for w in command[1:]]
            for e in _command(verb, args) if verb else [effect(K.EXECUTE, None, "wsl find -exec")]:
                out.append(_on_found(e, stand_in, wsl_path(root), name))
    return out


def _on_found(e: Effect, stand_in: Value, root: Value, name: Value) -> Effect:
    """An effect on the stand-in for each found file, as the effect on the tree the search covers."""
    if e.target is None or e.target != stand_in:
        return e
    if e.kind in (K.DELETE, K.DELETE_RECURSIVE):
        return effect(K.DELETE_RECURSIVE, root, e.detail + " (find -exec)")
    if e.kind is K.READ:
        extra = (*RECURSIVE, (NAMED, unquote(name))) if name else RECURSIVE
        return effect(K.READ, root, e.detail + " (find -exec)", extra=extra)
    if e.kind is K.WRITE:
        return effect(K.WRITE, root, e.detail + " (find -exec)", extra=(*RECURSIVE, ("every_file", "true")))
    return e


def _tar_sources(words: list[Value]) -> list[Value]:
    """What `tar -c` (`--create`, or `c` in a cluster, with or without its dash) archives, each joined to the folder
    a `-C`/`--directory` before it names; [] for any other tar command. `-f`/`-C` take the next word."""
    create, folder = False, None
    sources: list[Value] = []
    i = 0
    while i < len(words):
        word, low = words[i], lower(words[i])
        i += 1
        if low == "--create":
            create = True
        elif low.startswith(("--file=", "--directory=")):
            folder = word.split("=", 1)[1] if low.startswith("--directory=") and word else folder
        elif low in ("--file", "--directory"):
            folder = words[i] if low == "--directory" and i < len(words) else folder
            i += 1
        elif re.fullmatch(r"-[a-z]+|[a-z]+", low, re.IGNORECASE) and (low.startswith("-") or i == 1):
            letters = (word or "").lstrip("-")
            create = create or "c" in letters
            for letter in (c for c in letters if c in "fC"):
                folder = (words[i] if i < len(words) else None) if letter == "C" else folder
                i += 1
        elif word is not None and not word.startswith("-") and word != "-":
            sources.append(word if folder is None or _rooted(word) else posixpath.join(folder, word))
    return sources if create else []


def _dd(words: list[Value], shown: str) -> list[Effect]:
    """`dd if=… of=…`: the input read, the output written; a raw disk or volume as output is destroyed."""
    out: list[Effect] = []
    for word in words:
        key, _, value = (word or "").partition("=")
        if word is None or key not in ("if", "of"):
            continue
        if key == "if":
            out.append(effect(K.READ, wsl_path(value), shown))
        elif _RAW_DEVICE.match(value):
            out.append(effect(K.DISK_DESTROY, value, shown + " of=<disk>"))
        else:
            out.append(effect(K.WRITE, wsl_path(value), shown))
    return out


# Unix tools run as Windows programs (Git for Windows' `usr\bin`, MSYS2, Cygwin, busybox-w32): `rm.exe -rf C:/x`
# deletes as `wsl rm` does (S-RULE-138). `find` is Windows' own text search unless it is handed `-delete`.
UNIX_TOOLS = frozenset(
    {"rm", "rmdir", "unlink", "shred", "mv", "cp", "chmod", "chown", "touch", "tee", "truncate", "dd", "rsync"}
)


def unix_tool_effects(name: str, words: tuple[Value, ...]) -> Effects:
    """What a Unix tool started as a Windows program does (`rm`, `mv`, `dd`, …, `busybox <applet>`, GNU `find`).

    Args:
        name: the program's stem (`rm`, `busybox`, `find`).
        words: its arguments, as Windows split them.

    Returns:
        The effects `_command` gives the same words in a Linux shell, targets mapped by `wsl_path`.
    """
    items = list(words)
    if name == "busybox":
        applet = ntpath.basename(lower(items[0]).replace("/", "\\")) if items else ""
        if applet in _SHELLS:
            return linux_effects("bash", tuple(items[1:]))
        return unix_tool_effects(applet, tuple(items[1:])) if applet in UNIX_TOOLS | {"find"} else ()
    if name == "find" and not {"-delete", *_FIND_RUNS} & {lower(w) for w in items}:
        return ()  # Windows' own `find` (a text search) has neither
    return tuple(_command(name, items))


def unregistered(name: str, words: tuple[Value, ...]) -> Effects:
    """`wsl --unregister <distro>` (`wslconfig /unregister`, `/u`): the distribution's whole file system is deleted,
    as a recursive delete of its share (S-RULE-124)."""
    items = [lower(w) for w in words]
    switches = ("--unregister",) if name == "wsl" else ("/unregister", "/u")
    for switch in switches:
        if switch in items:
            at = items.index(switch) + 1
            distro = unquote(words[at]) if at < len(words) and words[at] is not None else None
            target = "\\\\wsl.localhost\\" + distro if distro else None
            return (effect(K.DELETE_RECURSIVE, target, f"{name} {switch}"),)
    return ()
