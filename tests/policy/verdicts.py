"""The verdict of one call under the built-in rules, as the rule tests compare it: (rule id, action) or None."""

from __future__ import annotations

import functools

from policy.rules.command import judge_call
from policy.rules.match import RuleSet, load_rules
from policy.rules.shell.ops import Effect, EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache

RULES = load_rules()

Verdict = tuple[str, str] | None


def verdict(tool: str, **args: object) -> Verdict:
    """The built-in rules' verdict on `tool` called with `args`."""
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


def ps(command: str) -> Verdict:
    """The built-in rules' verdict on a PowerShell command."""
    return verdict("PowerShell", command=command)


def ps_effects(command: str) -> tuple[Effect, ...]:
    """The effects the gateway reads from one PowerShell call."""
    return judge_call("PowerShell", {"command": command}).effects


def effect_rows(command: str) -> list[tuple[EffectKind, str | None, str]]:
    """(kind, target, detail) of each effect the gateway reads from one PowerShell call."""
    return [(e.kind, e.target, e.detail) for e in ps_effects(command)]


def reason_of(command: str) -> str:
    """The reason of the rule a PowerShell command hits (it must hit one)."""
    hit = RULES.match("PowerShell", {"command": command})
    assert hit is not None, command
    return hit.reason


def args_of(command: str, name: str) -> list[tuple[str | None, ...]]:
    """The arguments of each `name` operation the analyser reads from `command` (uncached), in order."""
    clear_analysis_cache()
    return [op.args for op in analyse_powershell(command).operations if op.name == name]


# The gateway's own files as a default install on Windows names them (user bob): what `serve` protects.
GATEWAY_STATE = "C:\\Users\\bob\\AppData\\Local\\winmcp-gateway"
GATEWAY_CONFIG_DIR = "C:\\Users\\bob\\AppData\\Roaming\\winmcp-gateway"


@functools.cache
def _guarded_rules() -> RuleSet:
    from gateway.app import SELF_COMMANDS  # the gateway's own command names (imported late: gateway is the shell)

    protected = [GATEWAY_STATE, GATEWAY_STATE + "\\STOP", GATEWAY_CONFIG_DIR, GATEWAY_CONFIG_DIR + "\\config.toml"]
    return load_rules(protected_paths=[*protected, *SELF_COMMANDS])


def guarded(tool: str, **args: object) -> Verdict:
    """The built-in rules' verdict with the gateway's own files protected, as `serve` builds them."""
    hit = _guarded_rules().match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)
