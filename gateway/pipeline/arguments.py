"""Step 2b of a call's journey: validate its arguments before policy runs (S-ARG-01 … S-ARG-07).

A proxied call is checked, in order, against

1. the bounds of `argument_checks.bounds_problem` (nesting, sizes, finite numbers);
2. the upstream's own `inputSchema` from `tools/list`, with the gateway's additions
   (`based_on`, `approval_id`: `gateway.tools.with_gateway_args`), by `jsonschema`. The
   gateway's own arguments are admitted there whatever their value: policy judges them;
3. the gateway's semantic checks (`argument_checks.shape_problem`): points inside the
   virtual desktop of the session's latest observation, labels ≥ 0, short target lists.

The first problem refuses the call: `DENIED BAD_ARGUMENTS: <tool> argument <field> …`, audited
as a `deny` with the field, and nothing reaches the upstream. BAD_ARGUMENTS is never shadowed:
`enforce = false` forwards calls policy would refuse, but input that fails validation is not a
judgement about the desktop, it is a call upstream cannot carry out as the gateway would audit
it, so it is never forwarded (S-ARG-06).

Validators are compiled once per upstream tool list (the list object `GatewayApp.upstream_tools`
caches; a restart or `list_changed` brings a new one) and kept on `GatewayApp.argument_schemas`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema.exceptions import SchemaError, ValidationError  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.pipeline.argument_checks import Problem, Rect, bounds_problem, field_name, shape_problem, shown
from gateway.pipeline.policy_world import password_target
from gateway.tools import GATEWAY_ARGS, with_gateway_args
from policy import catalog
from policy.decision import Code, refusal_text, refuse
from policy.observation import Observation

log = logging.getLogger(__name__)

SPEC = "S-ARG-01"
_JSON_TYPES = {"array": "a list", "object": "an object", "string": "a string", "integer": "a whole number"}
_JSON_TYPES |= {"number": "a number", "boolean": "true or false", "null": "null"}


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledSchemas:
    """The validators of one upstream tool list.

    Attributes:
        source: the tool list they were compiled from; its identity is the cache key.
        validators: tool name → a compiled validator of its input schema (with the gateway's additions).
        broken: tool name → why its input schema cannot be used (calls to it are refused).
    """

    source: list[dict[str, Any]]
    validators: dict[str, Any] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)


def compile_schemas(tools: list[dict[str, Any]]) -> CompiledSchemas:
    """Compile each tool's input schema once (`validator_for(schema)(schema)`, after `check_schema`).

    Args:
        tools: upstream's tools as `tools/list` gave them.

    Returns:
        The compiled validators, and the tools whose schema is not a JSON Schema.
    """
    compiled = CompiledSchemas(source=tools)
    for tool in tools:
        name = tool.get("name")
        if not isinstance(name, str):
            continue
        schema = _admitting_own_args(with_gateway_args(tool).get("inputSchema"))
        try:
            cls = validator_for(schema)
            cls.check_schema(schema)
            compiled.validators[name] = cls(schema)
        except (SchemaError, TypeError, ValueError) as exc:
            compiled.broken[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            log.warning("upstream's inputSchema of %s is not a valid JSON Schema: %s", name, compiled.broken[name])
    return compiled


def _admitting_own_args(schema: object) -> object:
    """The schema with the gateway's own arguments admitted whatever their value: never forwarded,
    they are policy's to judge (a `based_on` of 7 is UNKNOWN_OBSERVATION, S-FLOW-01)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return schema
    props = schema["properties"]
    if not any(name in props for name in GATEWAY_ARGS):
        return schema
    return {**schema, "properties": {k: ({} if k in GATEWAY_ARGS else v) for k, v in props.items()}}


def schemas_of(app: GatewayApp, tools: list[dict[str, Any]]) -> CompiledSchemas:
    """The compiled schemas of `tools`, from `app`'s cache when it holds this very list."""
    cached = app.argument_schemas
    if isinstance(cached, CompiledSchemas) and cached.source is tools:
        return cached
    compiled = compile_schemas(tools)
    app.argument_schemas = compiled
    return compiled


def observed_desktop(obs: Observation | None) -> Rect | None:
    """The virtual desktop an observation shows: the box around its displays (None when it lists none)."""
    if obs is None or not obs.capture.displays:
        return None
    rects = [d.rect for d in obs.capture.displays]
    return min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects)


def schema_problem(validator: Any, tool: str, args: Mapping[str, Any]) -> Problem | None:
    """The most relevant schema error of `args` as a Problem naming its field, or None when valid.

    Args:
        validator: a compiled jsonschema validator.
        tool: the tool name (for the message).
        args: the arguments.

    Returns:
        The problem, or None.
    """
    errors = sorted(validator.iter_errors(dict(args)), key=_relevance)
    if not errors:
        return None
    error: ValidationError = _branch(errors[0])
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        known = set((error.schema or {}).get("properties", {}))
        extra = sorted(str(k) for k in error.instance if k not in known)
        return Problem(field=field_name([*path, extra[0]]), what=f"is not an argument of {tool}")
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        return Problem(field=field_name([*path, missing[0]]), what="is required")
    return Problem(field=field_name(path), what=_expected(error))


def _branch(error: ValidationError) -> ValidationError:
    """Inside an anyOf, the error of the form the value has (a list's bad item, not "not a string")."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        inner = [e for e in error.context if not (e.validator == "type" and not list(e.relative_path))]
        if not inner:
            break
        error = sorted(inner, key=_relevance)[0]
    return error


def _relevance(error: ValidationError) -> tuple[int, int]:
    # Outermost first (a missing or unknown argument before anything inside one), then by order.
    return len(error.absolute_path), 0 if error.validator in ("additionalProperties", "required") else 1


def _expected(error: ValidationError) -> str:
    got = shown(error.instance)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "enum":
        return f"must be one of {', '.join(repr(v) for v in error.validator_value)}; got {got}"
    forms = schema.get("anyOf") or schema.get("oneOf") or [schema]
    described = [_form(f) for f in forms if isinstance(f, dict)]
    return f"must be {' or '.join(d for d in described if d) or 'valid'}; got {got}"


def _form(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if kind == "array" and isinstance(schema.get("items"), dict) and schema["items"].get("type"):
        return f"a list of {_JSON_TYPES.get(schema['items']['type'], schema['items']['type'])}s"
    if isinstance(kind, str):
        return _JSON_TYPES.get(kind, kind)
    return "enum" if "enum" in schema else ""


def argument_problem(
    schemas: CompiledSchemas | None, tool: str, args: Mapping[str, Any], desktop: Rect | None
) -> Problem | None:
    """The first problem of a call's arguments: bounds, then the schema, then the gateway's shapes.

    Args:
        schemas: the compiled upstream schemas, or None when there is no tool list (schema step skipped).
        tool: the upstream tool name.
        args: the arguments as the client sent them (with the gateway's own).
        desktop: the session's observed virtual desktop, or None when unknown.

    Returns:
        The problem, or None when the call may go on to policy.
    """
    problem = bounds_problem(args)
    if problem is None and schemas is not None:
        if tool in schemas.broken:
            why = f"cannot be checked: upstream's inputSchema is not a valid JSON Schema ({schemas.broken[tool]})"
            problem = Problem(field="(the arguments)", what=why, remedy="tell the person; run winmcp_doctor")
        elif tool in schemas.validators:
            problem = schema_problem(schemas.validators[tool], tool, args)
    if problem is None:
        problem = shape_problem(tool, args, desktop)
    return problem


async def screen_arguments(
    app: GatewayApp, session: str, name: str, args: dict[str, Any], forward: dict[str, Any], *, started: float
) -> dict[str, Any] | None:
    """Validate one proxied call (module docstring); refuse and audit it when it fails.

    Args:
        app: the gateway.
        session: the session id.
        name: the upstream tool name.
        args: the arguments as the client sent them (with `based_on`/`approval_id`).
        forward: the arguments that would be forwarded (for the audit line).
        started: `time.perf_counter()` at the start of the call (for `duration_ms`).

    Returns:
        None when the call may go on; otherwise the result to answer with (nothing was forwarded).
    """
    common: dict[str, Any] = {"session": session, "tool": name, "class": catalog.classify(name).value}
    try:
        schemas = schemas_of(app, await app.upstream_tools())
    except UpstreamError as exc:
        # Unvalidated input is never forwarded: without upstream's schemas the call fails here (S-ARG-07).
        app.note_upstream_restarts()
        reason = f"the upstream's tool list, needed to check the arguments, is unavailable: {exc}"
        await app.audit_event("failure", code=exc.code, reason=reason, duration_ms=_ms(started), **common)
        text = f"FAILED {exc.code}: {reason} Remedy: retry the call; if it keeps failing run winmcp_doctor"
        return {"content": [{"type": "text", "text": text}], "isError": True}
    latest = app.store.latest(session)
    problem = argument_problem(schemas, name, args, observed_desktop(latest))
    if problem is None:
        return None
    decision = refuse(Code.BAD_ARGUMENTS, f"{name} argument {problem.field} {problem.what}.", problem.remedy, spec=SPEC)
    app.counters.count_denial(Code.BAD_ARGUMENTS.value)
    await app.audit_event(
        "deny",
        code=decision.code,
        reason=decision.reason,
        field=problem.field,
        args=audit_copy(forward),  # bounded here; AuditLog.append redacts (and masks password-field text)
        password_field=_password_field(latest, name, forward) or None,
        duration_ms=_ms(started),
        **common,
    )
    return {"content": [{"type": "text", "text": refusal_text(decision)}], "isError": True}


# A refused call's arguments are recorded in short: a hostile value must not flood the audit,
# whose rotation would then push older records out (S-AUD-04).
AUDIT_ITEMS = 16
AUDIT_CHARS = 1000
AUDIT_DEPTH = 6


def audit_copy(value: Any, depth: int = 0) -> Any:
    """`value` with long lists, objects and strings cut (marked with how much was left out).

    Args:
        value: a refused call's arguments (or a part of them).
        depth: how deep `value` sits (deeper than `AUDIT_DEPTH` is replaced by a marker).

    Returns:
        A small copy for the audit line.
    """
    if depth > AUDIT_DEPTH:
        return "…(nested deeper)"
    if isinstance(value, dict):
        items = list(value.items())
        out = {str(k): audit_copy(v, depth + 1) for k, v in items[:AUDIT_ITEMS]}
        if len(items) > AUDIT_ITEMS:
            out["…"] = f"{len(items) - AUDIT_ITEMS} more keys"
        return out
    if isinstance(value, list | tuple):
        cut = [audit_copy(v, depth + 1) for v in value[:AUDIT_ITEMS]]
        return cut + [f"…({len(value) - AUDIT_ITEMS} more items)"] if len(value) > AUDIT_ITEMS else cut
    if isinstance(value, str) and len(value) > AUDIT_CHARS:
        return value[:AUDIT_CHARS] + f"…({len(value) - AUDIT_CHARS} more characters)"
    return value


def _password_field(obs: Observation | None, name: str, forward: Mapping[str, Any]) -> bool:
    """Whether typed text may be going into a password field; a call too odd to tell counts as one."""
    try:
        return password_target(obs, name, forward)
    except Exception:  # noqa: BLE001 - malformed arguments: mask the text rather than guess
        return name in ("Type", "MultiEdit")


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000.0, 3)
