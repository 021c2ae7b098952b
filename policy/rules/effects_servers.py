"""A file server started on the network (issue 18, S-RULE-170).

`python -m http.server` serves the folder it starts in to every machine that can reach this one (it listens on
every interface unless told `--bind 127.0.0.1`), and so do `npx http-server`, `npx serve`, `php -S 0.0.0.0:…`
and `python -m pyftpdlib`. Whoever finds the port reads every file below that folder, the user's profile and
its keys included: an `UPLOAD` of the folder and everything below it (judge row `upload-file`, ask), as a copy
to another machine's share is. Bound to this machine only (`127.0.0.1`, `localhost`, `::1`) it is ordinary
local testing. Which folder is served when none is named is the current one, which the gateway may not know.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from policy.rules.effects_common import RECURSIVE, Effects, effect, lower, program_stem, python_module, unquote
from policy.rules.shell.ops import EffectKind, Operation, Value

_PYTHON_SERVERS = frozenset({"http.server", "simplehttpserver", "pyftpdlib", "uploadserver", "rangehttpserver"})
_NODE_SERVERS = frozenset({"http-server", "serve", "live-server", "local-web-server", "ws"})
_RUNNERS = frozenset({"npx", "pnpx", "bunx"})
_LOOPBACK = re.compile(r"^(?:127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])(?::\d+)?$", re.IGNORECASE)
_PYTHONS = re.compile(r"^(?:python[\d.]*w?|py|pypy[\d.]*)$")


def _value(words: Sequence[Value], *names: str) -> Value | None:
    """The value of `--name value` or `--name=value` (names with their dashes); None when absent."""
    for index, word in enumerate(words):
        text = unquote(word)
        for name in names:
            if text == name:
                return words[index + 1] if index + 1 < len(words) else None
            if text.startswith(name + "="):
                return text[len(name) + 1 :]
    return None


def _served(folder: Value, bind: Value, detail: str) -> Effects:
    host = unquote(bind)
    if host and _LOOPBACK.match(host.removeprefix("tcp://")):  # serve's `-l tcp://127.0.0.1:3000`
        return ()
    return (effect(EffectKind.UPLOAD, folder if folder is not None else ".", detail, extra=RECURSIVE),)


def _python_server(module: str, words: Sequence[Value]) -> Effects:
    folder = _value(words, "--directory", "-d")
    bind = _value(words, "--bind", "-b", "-i", "--interface")
    return _served(folder, bind, f"python -m {module} (a file server on the network)")


def _node_server(server: str, words: Sequence[Value]) -> Effects:
    positionals = [w for i, w in enumerate(words) if not unquote(w).startswith("-") and not _is_value(words, i)]
    bind = _value(words, "-a", "--address", "--host", "-l", "--listen")
    return _served(positionals[0] if positionals else None, bind, f"{server} (a file server on the network)")


def _is_value(words: Sequence[Value], index: int) -> bool:
    """Whether `words[index]` is an option's value (`-p 8080`): the word before it is an option without `=`."""
    if index == 0:
        return False
    before = unquote(words[index - 1])
    return before.startswith("-") and "=" not in before


def file_servers(op: Operation) -> Effects:
    """What a file server started by `op` exposes (module docstring); nothing for any other operation."""
    if op.shell != "program":  # (cmd's own commands are never one of these)
        return ()
    stem = program_stem(op.name)
    words = list(op.args)
    module = python_module(words) if _PYTHONS.match(stem) else None
    if module is not None:
        return _python_server(*module) if module[0] in _PYTHON_SERVERS else ()
    if stem in _RUNNERS:
        packages = [(i, lower(w)) for i, w in enumerate(words) if not unquote(w).startswith("-")]
        if packages and packages[0][1].split("@")[0] in _NODE_SERVERS:
            at, server = packages[0]
            return _node_server(server, words[at + 1 :])
        return ()
    if stem in _NODE_SERVERS - {"serve", "ws"}:  # installed globally: `http-server C:\`
        return _node_server(stem, words)
    if stem == "php" and "-S" in [unquote(w) for w in words]:
        at = [unquote(w) for w in words].index("-S") + 1
        bind = words[at] if at < len(words) else None
        return _served(
            _value(words, "-t"), (unquote(bind).rsplit(":", 1)[0] if bind else None), "php -S (a file server)"
        )
    return ()
