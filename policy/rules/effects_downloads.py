"""Where a download is saved (S-RULE-148): curl's and wget's own options, and a file kept under its URL's name.

`curl -o FILE` and `wget -O FILE` name the file; `curl -O` (`--remote-name`) and wget without `-O` keep the
name the URL ends in, in `--output-dir`/`-P DIR` or the current folder; `Invoke-WebRequest -OutFile` and
`Start-BitsTransfer -Destination` given a folder do the same. The same words mean the same on Windows
(curl.exe, wget.exe) and in WSL or Git Bash, so both `effects_process` and `effects_linux` read them here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from policy.rules.effects_common import LANDED, Argv, Effects, effect, landed, unquote
from policy.rules.shell.ops import Effect, EffectKind, Value

K = EffectKind

URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
# curl's options are case-sensitive: `-o FILE` names the file (alone or ending a cluster: `-sSLo FILE`), `-O`
# (alone or in a cluster: `-LO`) and `--remote-name` keep the URL's name, `--output-dir` says where.
_CURL_OUTPUT = re.compile(r"^-[A-Za-z]*o$")
_CURL_REMOTE_NAME = re.compile(r"^-[A-Za-z]*O[A-Za-z]*$|^--remote-name(?:-all)?$")


def url_name(url: Value) -> Value:
    """The name a download keeps when it is given only a folder (or none): the last segment of the URL's path,
    without its query (`https://x/a/authorized_keys?v=1` → `authorized_keys`); None when it has none (a URL
    ending in `/`, a bare host)."""
    if url is None:
        return None
    path = unquote(url).split("?", 1)[0].split("#", 1)[0].split("://", 1)[-1]
    _, slash, name = path.rpartition("/")
    return name if slash and name else None


def saved_in(urls: Sequence[Value], folder: Value, detail: str, *, unnamed: str | None = None) -> Effects:
    """Each download saved under its URL's name: into `folder`, or, with None, the current folder (a relative
    name, placed by a `Set-Location` before it). A URL that is not constant may end in any name (`*`); one whose
    path ends in no name saves as `unnamed` (wget's `index.html`), or not at all (curl and PowerShell refuse)."""
    out: list[Effect] = []
    for url in urls:
        name = "*" if url is None else url_name(url) or unnamed
        if name is None:
            continue
        if folder is not None:
            out += landed(name, folder, detail, tree=False)
        else:
            out.append(effect(K.WRITE, name, detail, extra=LANDED))
    return tuple(out)


def download_writes(program: str, words: Sequence[Value]) -> Effects:
    """The files `curl` or `wget` writes, given its words after the name (as written: curl's case matters).

    Args:
        program: "curl", or any other name for wget's rules.
        words: the words after the program's name (None: not constant).

    Returns:
        WRITE of each file named by an option, then one per URL kept under its own name.
    """
    argv = Argv(tuple(words))
    urls = [w for w in words if w is None or URL.match(unquote(w))]
    if program != "curl":  # wget: `-O FILE`, else each URL's name in `-P DIR` or here
        written = tuple(effect(K.WRITE, p, f"{program} -o") for p in argv.values("o", "output", "output-document"))
        if argv.flag("o", "output-document"):
            return written
        return written + saved_in(
            urls, argv.value("p", "directory-prefix"), f"{program} download", unnamed="index.html"
        )
    given = [None if w is None else w.strip() for w in words]
    outputs = [
        given[i + 1] if i + 1 < len(given) else None
        for i, w in enumerate(given)
        if w is not None and (_CURL_OUTPUT.match(w) or w == "--output")
    ]
    outputs += [w.split("=", 1)[1] for w in given if w is not None and w.startswith("--output=")]
    written = tuple(effect(K.WRITE, p, f"{program} -o") for p in outputs)
    if not any(w is not None and _CURL_REMOTE_NAME.match(w) for w in given):
        return written
    named = [u for u in urls if u not in outputs]
    return written + saved_in(named, argv.value("output-dir"), f"{program} -O")
