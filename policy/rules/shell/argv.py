"""Windows command lines as programs see them: the MSVCRT / CommandLineToArgvW split and its inverse.

Windows hands a new process one string; the program's C runtime cuts it into argv. Almost
every program (and powershell.exe, pwsh and .NET) uses the rules the MSVC runtime documents
("Parsing C command-line arguments"), so the analysers read an external program's arguments
the same way. cmd.exe is the exception: it reads its raw line, which `cmd.py` parses itself.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Sequence

from policy.rules.shell.winenv import env_value

_BLANKS = " \t"
# What `_argument_token` copies as it is: outside quotes up to a blank, inside them up to the closing quote.
_PLAIN_RUN = re.compile(r'[^\\" \t]+')
_QUOTED_RUN = re.compile(r'[^\\"]+')
# Extensions a program is run by without naming them (PATHEXT's executables that matter here).
_PROGRAM_EXTENSIONS = (".exe", ".com", ".bat", ".cmd")


def _program_token(text: str, i: int) -> tuple[str, int]:
    # argv[0] follows the simpler rule: quotes group and are dropped, backslashes are literal.
    out: list[str] = []
    quoted = False
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            quoted = not quoted
        elif c in _BLANKS and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out), i


def _argument_token(text: str, i: int) -> tuple[str, int]:
    out: list[str] = []
    quoted = False
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            j = i
            while j < n and text[j] == "\\":
                j += 1
            count = j - i
            if j < n and text[j] == '"':
                # 2N backslashes + quote: N backslashes, the quote is a delimiter;
                # 2N+1: N backslashes and a literal quote.
                out.append("\\" * (count // 2))
                if count % 2:
                    out.append('"')
                    i = j + 1
                else:
                    i = j
                continue
            out.append("\\" * count)
            i = j
            continue
        if c == '"':
            if quoted and i + 1 < n and text[i + 1] == '"':
                out.append('"')  # "" inside quotes: a literal quote, still quoted (post-2008 CRT)
                i += 2
                continue
            quoted = not quoted
            i += 1
            continue
        if c in _BLANKS and not quoted:
            break
        # A run of ordinary characters (blanks too, inside quotes) is taken whole: one regex step, not a turn each.
        run = (_QUOTED_RUN if quoted else _PLAIN_RUN).match(text, i)
        end = run.end() if run is not None else i + 1  # (it always matches: `c` is none of its exclusions)
        out.append(text[i:end])
        i = end
    return "".join(out), i


def split_command_line(text: str, *, first_is_program: bool = True) -> list[str]:
    """Split a Windows command line into argv exactly as the MSVC runtime does.

    Rules (Microsoft, "Parsing C command-line arguments", post-2008 runtime): arguments are
    separated by spaces or tabs; a double quote starts or ends a quoted part (an argument may
    hold several); 2N backslashes followed by a quote give N backslashes and the quote
    delimits; 2N+1 backslashes followed by a quote give N backslashes and a literal quote;
    backslashes not followed by a quote are literal; `""` inside a quoted part is a literal
    quote. The program name (argv[0]) only groups by quotes: backslashes are literal there.

    Args:
        text: the whole command line.
        first_is_program: False when `text` holds arguments only (`Start-Process
            -ArgumentList 'a b'`), so the first token follows the argument rules too.

    Returns:
        The arguments in order; empty quoted arguments (`""`) are kept as "".
    """
    out: list[str] = []
    i = 0
    n = len(text)
    first = first_is_program
    while True:
        while i < n and text[i] in _BLANKS:
            i += 1
        if i >= n:
            return out
        token, i = _program_token(text, i) if first else _argument_token(text, i)
        first = False
        out.append(token)


# A program named by one environment variable alone: `$env:X`, `${env:X}`, `%X%`.
_WHOLE_VARIABLE = re.compile(r"(?i)\$env:(\w+)|\$\{env:([^}]+)\}|%([^%]+)%")


def program_name(token: str) -> str:
    """The canonical name of a program as the rules compare it.

    Surrounding quotes and blanks dropped, directory dropped (either separator), lower case,
    trailing dots and spaces dropped (Windows ignores them), and the extension dropped when
    it is one a program runs by (`.exe`, `.com`, `.bat`, `.cmd`).

    Args:
        token: the program as written (`"C:\\Windows\\System32\\cmd.EXE"`, `cmd`, `C:/x/Net.exe`).

    Returns:
        The base name (`cmd`, `net`); "" for an empty token.
    """
    name = token.strip().strip('"').strip()
    variable = _WHOLE_VARIABLE.fullmatch(name)
    if variable is not None:  # `& $env:ComSpec`, `%ComSpec%`: the program the standard value names
        name = env_value(variable.group(1) or variable.group(2) or variable.group(3) or "") or name
    name = ntpath.basename(name.replace("/", "\\")).lower().rstrip(". ")
    for extension in _PROGRAM_EXTENSIONS:
        if name.endswith(extension) and len(name) > len(extension):
            return name[: -len(extension)].rstrip(". ")
    return name


def _quote_argument(arg: str) -> str:
    if arg and not any(c in arg for c in ' \t\n\v"'):
        return arg
    out = ['"']
    backslashes = 0
    for c in arg:
        if c == "\\":
            backslashes += 1
            continue
        if c == '"':
            out.append("\\" * (backslashes * 2 + 1))  # escape the backslashes and the quote
            out.append('"')
        else:
            out.append("\\" * backslashes)
            out.append(c)
        backslashes = 0
    out.append("\\" * (backslashes * 2))  # backslashes before the closing quote are doubled
    out.append('"')
    return "".join(out)


def join_argv(args: Sequence[str]) -> str:
    """Join arguments into one command line that `split_command_line` reads back unchanged.

    This is the quoting .NET uses (`ProcessStartInfo.ArgumentList`, `PasteArguments`): an
    argument that is empty or holds a blank or a quote is quoted; inside, quotes are escaped
    with a backslash and backslashes before a quote or the closing quote are doubled.

    Args:
        args: the arguments (without the program, or with one that has no quote in it).

    Returns:
        The command line.
    """
    return " ".join(_quote_argument(a) for a in args)


def _needs_legacy_quotes(arg: str) -> bool:
    # PowerShell's `NeedQuotes`: a blank outside any pair of (unescaped) quotes the argument holds.
    quotes, after_backslash = 0, False
    for c in arg:
        if c == '"' and not after_backslash:
            quotes += 1
        elif c.isspace() and quotes % 2 == 0:
            return True
        after_backslash = c == "\\"
    return False


def powershell_native_line(args: Sequence[str]) -> str:
    """The command line PowerShell hands cmd.exe for a native call `cmd <args>` (S-RULE-81).

    PowerShell 5.1 builds it this way for every program, and 7.3+ still does for cmd.exe and batch
    files (`$PSNativeCommandArgumentPassing = 'Windows'`): an argument with a blank outside its own
    quotes is wrapped in double quotes, and nothing inside is escaped. So `cmd /c del "C:\\Program
    Files\\x"` reaches cmd as `/c del "C:\\Program Files\\x"`: one path, as cmd then reads it.

    Args:
        args: the arguments as PowerShell bound them (quotes it removed are gone).

    Returns:
        The line after the program name.
    """
    return " ".join(f'"{a}"' if _needs_legacy_quotes(a) else a for a in args)


# PowerShell's switches that neither name a command nor take a value (`powershell -NoProfile` still reads
# its commands from standard input when some are piped to it).
_PS_BARE_SWITCHES = frozenset(
    {"noprofile", "nop", "nologo", "noninteractive", "noni", "noexit", "sta", "mta", "nol", "nopro"}
)


# Linux shells that run what is piped into them when given no command (S-RULE-100); wsl starts the
# distribution's shell. Options of wsl that take the next word.
_LINUX_STDIN_SHELLS = frozenset({"wsl", "bash", "sh", "zsh", "dash"})
_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--distribution-id"})


def _linux_shell_reads_stdin(name: str, words: Sequence[str], known: bool) -> bool:
    """`… | bash`, `… | bash -s`, `… | wsl -d Ubuntu`: no command or script named, so the shell reads one."""
    if not known:
        return True  # a word that is not constant may be `-s`
    if name != "wsl":
        return not any(w == "-c" or not w.startswith("-") for w in words)
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _WSL_VALUED:
            skip = True
        elif word in ("-e", "--exec", "--") or not word.startswith("-"):
            return False
    return True


def reads_piped_commands(name: str, argv: Sequence[str | None]) -> bool:
    """Whether shell `name`, run with `argv` and given piped input, runs that input as its commands.

    `cmd` without `/c` reads its commands from standard input (with `/k`, after its own command); so do
    `powershell`/`pwsh` with no command, file or encoded command (or with `-` / `-Command -`), and the
    Linux shells (`wsl`, `bash`, `sh`) with no command or script.

    Args:
        name: the program's canonical name (`cmd`, `powershell`, `pwsh`, a Linux shell; any other is False).
        argv: its arguments (None: not constant).
    """
    words = [w.lower() for w in argv if w is not None]
    if name == "cmd":  # `/k` runs its command, then reads the rest from standard input too
        return not any(w.startswith(("/c", "/r")) for w in words)
    if name in _LINUX_STDIN_SHELLS:
        return _linux_shell_reads_stdin(name, words, len(words) == len(argv))
    if name in ("powershell", "pwsh"):
        if "-" in words:  # `powershell -`, `powershell -Command -`
            return True
        return len(words) == len(argv) and all(w[:1] in ("-", "/") and w[1:] in _PS_BARE_SWITCHES for w in words)
    return False
