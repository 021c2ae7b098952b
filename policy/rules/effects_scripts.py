"""Scripts made from content the gateway did not read (S-RULE-114).

A `.bat`, `.cmd` or `.ps1` written with constant content is judged as it is written (S-RULE-28), so a
later call that runs it runs what was judged. One made any other way would run unjudged at a later
call, since running a local script is ordinary: a file that was no script copied or renamed to one
(`ren notes.txt x.bat`), a download saved as one (`iwr … -OutFile x.ps1`), or one written from a value
the analyser cannot fold (`Set-Content x.ps1 $s`). Such a write gets a second `WRITE` effect marked
`UNREAD_SCRIPT`, and the judge asks. Copying or renaming a script to a script makes nothing that could
not already run, and neither does `New-Item x.ps1` with no value (an empty file).
"""

from __future__ import annotations

from collections.abc import Sequence

from policy.rules.effects_common import UNREAD_SCRIPT, Effects, effect
from policy.rules.shell.dispatch import judged_script_writes, runs_unread, script_shell
from policy.rules.shell.ops import Effect, EffectKind, Operation

K = EffectKind
_SOURCES = frozenset({K.READ, K.MOVE})  # a copy reads its source, a move or rename moves it


def _is_script(path: object) -> bool:
    return script_shell(path) is not None or runs_unread(path)


def unread_scripts(effects: Effects, detail: str) -> Effects:
    """For one operation's (or one tool call's) effects: a marked write of each script it makes whose
    content it did not take from another script. `detail` names the operation in the reason."""
    made = [e.target for e in effects if e.kind is K.WRITE and e.extra != UNREAD_SCRIPT and _is_script(e.target)]
    if not made or any(e.kind in _SOURCES and _is_script(e.target) for e in effects):
        return ()
    return tuple(effect(K.WRITE, target, detail, extra=UNREAD_SCRIPT) for target in made)


def unread_scripts_of(ops: Sequence[Operation], per_op: Sequence[Effects]) -> Effects:
    """`unread_scripts` for every operation of an analysis, except a write of constant content (it was judged)."""
    judged = judged_script_writes(ops)
    found: list[Effect] = []
    for index, (op, own) in enumerate(zip(ops, per_op, strict=True)):
        if index not in judged:
            found += unread_scripts(own, op.text[:80] or op.name)
    return tuple(found)
