"""`winmcp-gateway completion bash|zsh|powershell`: a shell completion script (issue 16 item 11; S-CLI-47).

The script is generated from the command line's own argparse parser by shtab (a maintained
generator, PyPI `shtab`; it writes bash, zsh and PowerShell), so a new subcommand or option
completes without anyone editing a script. Two things are added to the parser first:

* `sim` and `audit-report` take their options past the main parser (`main` hands them on
  whole), so their real parsers (`gateway.sim.run.build_parser`, `gateway.audit.report`) stand
  in for the pass-through ones;
* options that name a file or a folder complete paths (`--config`, `--file`, `--event-log`,
  `--control` files; `--state-dir` folders).

Load it:

    bash        eval "$(winmcp-gateway completion bash)"        (or save it under bash-completion's dir)
    zsh         winmcp-gateway completion zsh > "${fpath[1]}/_winmcp-gateway"   (then compinit)
    PowerShell  winmcp-gateway completion powershell | Out-String | Invoke-Expression   (add to $PROFILE)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import TypeAlias

SHELLS = ("bash", "zsh", "powershell")
FILE_OPTIONS = frozenset({"--config", "--file", "--event-log", "--control", "--scenario"})
DIR_OPTIONS = frozenset({"--state-dir"})


ParserFactory: TypeAlias = Callable[[], argparse.ArgumentParser]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], build_parser: ParserFactory) -> None:
    """Add `completion` to the command line; `build_parser` makes the whole parser (`gateway/cli/commands.py`,
    handed in so that this module does not import it back)."""
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or PowerShell)")
    p.add_argument("shell", choices=SHELLS, help="the shell the script is for")
    p.set_defaults(handler=lambda args: run_completion(args, build_parser))


def run_completion(args: argparse.Namespace, build_parser: ParserFactory) -> int:
    """Print the script for `args.shell`; returns 0."""
    sys.stdout.write(completion_script(args.shell, build_parser))
    return 0


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse._SubParsersAction[argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield action


def _walk(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in _subparsers(parser):
        for child in dict.fromkeys(action.choices.values()):  # an alias would repeat a parser
            yield from _walk(child)


def completion_parser(build_parser: ParserFactory) -> argparse.ArgumentParser:
    """The command line's parser as the completion sees it (see the module docstring)."""
    from gateway.audit.report import _parser as audit_report_parser
    from gateway.sim.run import build_parser as sim_parser

    parser = build_parser()
    for action in _subparsers(parser):
        # Keep the help shown for the pass-through commands; hand in their real options.
        action.choices["sim"] = sim_parser({}, prog="winmcp-gateway sim")
        action.choices["audit-report"] = audit_report_parser()
    import shtab

    for each in _walk(parser):
        for option in each._actions:
            names = set(option.option_strings)
            if names & DIR_OPTIONS:
                option.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
            elif names & FILE_OPTIONS:
                option.complete = shtab.FILE  # type: ignore[attr-defined]
    return parser


def completion_script(shell: str, build_parser: ParserFactory) -> str:
    """The completion script for `shell` ("bash", "zsh" or "powershell") of the parser `build_parser` makes.

    Raises:
        ValueError: another shell.
    """
    if shell not in SHELLS:
        raise ValueError(f"no completion for {shell!r}; choose one of {', '.join(SHELLS)}")
    import shtab

    script: str = shtab.complete(completion_parser(build_parser), shell=shell)
    return script if script.endswith("\n") else script + "\n"
