"""A container handed a folder of this machine (S-RULE-217).

`docker run -v C:\\Windows:/w alpine rm -rf /w/System32` deletes System32 as surely as `rd /s /q` would: Docker
Desktop (and Podman, nerdctl) bind-mounts the folder into the container, and whatever runs there writes through
to it. The path rules never saw `C:\\Windows\\System32`, only `/w/System32`. So a `run` or `create` with a bind
mount (`-v|--volume HOST:CONTAINER[:ro]`, `--mount type=bind,source=…,target=…`) is read in two ways:

* the folder is handed over: a `READ` of it (every file below; a credential store mounted is read), and a `WRITE`
  of it unless mounted read-only (what the image's own program does with it is not known);
* the command given after the image (or `--entrypoint`) is judged as a Linux command line (`effects_linux`) with
  each mount's container path written as the host folder it is (`/w/System32` → `/mnt/c/Windows/System32`,
  which `wsl_path` reads as `c:\\Windows\\System32`), `sh -c "…"` included.

A named volume (`data:/var/lib/x`) is no folder of this machine. Not read: compose files, `docker exec` into a
container started earlier (its mounts are not in the call), and what the image's default command does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from policy.rules.effects_common import RECURSIVE, Effects, effect, lower, program_stem
from policy.rules.effects_linux import linux_effects
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

__all__ = ["container_mounts"]

K = EffectKind
_ENGINES = frozenset({"docker", "podman", "nerdctl"})
_RUNS = frozenset({"run", "create"})
# Options of `run`/`create` that take a value as the next word (the rest are switches, or carry `=value`).
_VALUED = frozenset(
    {"-v", "--volume", "--mount", "-e", "--env", "--env-file", "-p", "--publish", "--name", "-w", "--workdir"}
    | {"--network", "--net", "--entrypoint", "-u", "--user", "-l", "--label", "--label-file", "--platform", "-m"}
    | {"--memory", "--cpus", "--restart", "-h", "--hostname", "--add-host", "--dns", "--cap-add", "--cap-drop"}
    | {"--device", "--gpus", "--ulimit", "--log-driver", "--log-opt", "--pull", "--runtime", "--security-opt"}
    | {"--tmpfs", "--ipc", "--pid", "--shm-size", "--stop-signal", "--expose", "--link", "--volumes-from"}
    | {"--cidfile", "--health-cmd", "--isolation", "--mac-address", "--ip", "--network-alias", "--userns"}
    | {"--cgroupns", "--cgroup-parent", "--group-add", "--stop-timeout", "--attach", "-a", "--memory-swap"}
)
# Global options before the verb (`docker --context x run …`).
_GLOBAL_VALUED = frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "--connection"})
# A host folder: a drive path, a UNC path, a Unix-rooted one (`/c/Users`, `/mnt/c`), `~`, `.`/`..` or a variable.
_HOST_PATH = re.compile(r"^(?:[a-zA-Z]:[\\/]|[\\/]|~|\.{1,2}(?:[\\/]|$)|\$)")
_DRIVE_SPEC = re.compile(r"^([a-zA-Z]):[\\/]?(.*)$")  # a drive path, as `_posix` rewrites it


@dataclass(frozen=True, slots=True)
class _Mount:
    host: str  # as written (`C:\\Windows`, `${PWD}`, `/c/Users`)
    target: str  # inside the container, `/`-rooted
    read_only: bool


def container_mounts(op: Operation) -> Effects:
    """What a `docker|podman|nerdctl run|create` hands the container of this machine's folders (module docstring)."""
    if op.shell not in ("program", "cmd") or program_stem(op.name) not in _ENGINES:
        return ()
    words = list(op.args)
    at = _verb_at(words)
    if at is None:
        return ()
    mounts, command = _read(words[at + 1 :])
    out: list[Effect] = []
    shown = f"{program_stem(op.name)} run"
    for mount in mounts:
        out.append(effect(K.READ, mount.host, f"a folder handed to a container ({shown} -v)", extra=RECURSIVE))
        if not mount.read_only:
            out.append(effect(K.WRITE, mount.host, f"a folder handed to a container to write ({shown} -v)"))
    if command and mounts:
        out += linux_effects("bash", ("-c", " ".join(_on_host(w, mounts) for w in command)))
    return tuple(out)


def _verb_at(words: list[Value]) -> int | None:
    """Where `run`/`create` (or `container run`) is, past the engine's global options; None for another verb."""
    i = 0
    while i < len(words):
        word = words[i]
        if word is None:
            return None
        text = word.strip()
        if text in _GLOBAL_VALUED:
            i += 2
            continue
        if text.startswith("-"):
            i += 1
            continue
        verb = text.lower()
        if verb == "container" and i + 1 < len(words):
            following = lower(words[i + 1])
            return i + 1 if following in _RUNS else None
        return i if verb in _RUNS else None
    return None


def _read(words: list[Value]) -> tuple[list[_Mount], list[str]]:
    """The bind mounts among `run`'s options, and the command line after the image (with `--entrypoint`)."""
    mounts: list[_Mount] = []
    entrypoint: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word is None:
            return mounts, []  # an option or the image not constant: the command is not known
        name, eq, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        if word.startswith("-") and word != "-":
            valued = name in _VALUED and not eq
            value = words[i + 1] if valued and i + 1 < len(words) else (inline if eq else None)
            i += 2 if valued else 1
            if name in ("-v", "--volume") and value is not None:
                mounts += _volume(value)
            elif name == "--mount" and value is not None:
                mounts += _mount(value)
            elif name == "--entrypoint" and value:
                entrypoint = [value]
            continue
        # the image; what follows is its command
        rest = [w for w in words[i + 1 :] if w is not None]
        return mounts, entrypoint + rest if len(rest) == len(words[i + 1 :]) else []
    return mounts, []


def _volume(spec: str) -> list[_Mount]:
    """`HOST:CONTAINER[:OPTIONS]`, split at the first `:/` that is not a drive's (`C:/x:/y:ro`, `$env:P\\x:/y`)."""
    text = spec.strip().strip("'\"")
    at = next((m.start() for m in re.finditer(":/", text) if not re.fullmatch(r"[a-zA-Z]", text[: m.start()])), -1)
    if at <= 0:
        return []  # an anonymous volume (`-v /data`), or no container path: no folder of this machine
    host, rest = text[:at], text[at + 1 :]
    target, _, options = rest.partition(":")
    if not _HOST_PATH.match(host):
        return []  # a named volume (`data:/var/lib`)
    return [_Mount(host, target.rstrip("/") or "/", "ro" in options.lower().split(","))]


def _mount(spec: str) -> list[_Mount]:
    """`type=bind,source=…,target=…[,readonly]` (`src`, `dst`, `destination` too)."""
    fields: dict[str, str] = {}
    flags: set[str] = set()
    for part in spec.strip().strip("'\"").split(","):
        key, eq, value = part.partition("=")
        if eq:
            fields[key.strip().lower()] = value.strip()
        else:
            flags.add(key.strip().lower())
    host = fields.get("source") or fields.get("src")
    target = fields.get("target") or fields.get("dst") or fields.get("destination")
    if fields.get("type", "volume").lower() != "bind" or not host or not target or not target.startswith("/"):
        return []
    read_only = bool(flags & {"readonly", "ro"}) or fields.get("readonly", "").lower() in ("true", "1")
    return [_Mount(host, target.rstrip("/") or "/", read_only)]


def _on_host(word: str, mounts: list[_Mount]) -> str:
    """`word` (a shell word, `sh -c`'s text included) with each mount's container path written as its host folder,
    in the `/mnt/<drive>/…` form `effects_linux.wsl_path` reads back as a Windows path; longest target first."""
    for mount in sorted(mounts, key=lambda m: len(m.target), reverse=True):
        pattern = re.compile(r"(?<![\w./-])" + re.escape(mount.target) + r"(?=/|$|[\s'\";|&)])")
        host = _posix(mount.host).replace("\\", "\\\\")  # a replacement template: its backslashes doubled
        word = pattern.sub(host, word)
    return _quoted(word)


def _posix(host: str) -> str:
    drive = _DRIVE_SPEC.match(host)
    if drive:
        return f"/mnt/{drive.group(1).lower()}/" + drive.group(2).replace("\\", "/").strip("/")
    return host.replace("\\", "/")


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'" if re.search(r"[\s'\"$;|&<>()]", word) else word
