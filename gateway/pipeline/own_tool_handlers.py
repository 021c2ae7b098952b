"""Handlers of the gateway's own `winmcp_*` tools (definitions in own_tools.py)."""

from __future__ import annotations

import logging
from typing import Any

from gateway.app import GatewayApp
from gateway.observe.coords import image_to_screen, in_image, on_displays, round_half_away, screen_to_image, to_loc
from gateway.tools import structured
from policy.observation import Observation

log = logging.getLogger(__name__)


def _basis(app: GatewayApp, session: str, based_on: object) -> tuple[Observation | None, str | None]:
    """The observation a conversion uses: the cited one, else the latest of the session with an image."""
    if based_on is None:
        obs = app.store.latest_with_image(session)
        if obs is None:
            return (
                None,
                "this session has no observation with an image: "
                "take a Snapshot with use_vision=true (or a Screenshot) first",
            )
        return obs, None
    if not isinstance(based_on, str):
        return None, f'based_on must be an observation id string like "obs-3", got {type(based_on).__name__}'
    obs = app.store.get(session, based_on)
    if obs is None:
        return None, f"{based_on} is not an observation of this session (call winmcp_state to list them)"
    if obs.mapping is None:
        return (
            None,
            f"{based_on} has no image (Snapshot without use_vision): its tree coordinates are already screen points",
        )
    return obs, None


def _convert(app: GatewayApp, session: str, args: dict[str, Any], *, to_screen: bool) -> dict[str, Any]:
    x, y = args.get("x"), args.get("y")
    if not isinstance(x, int | float) or not isinstance(y, int | float) or isinstance(x, bool) or isinstance(y, bool):
        return structured({"ok": False, "error": "x and y must be numbers"}, "x and y must be numbers", is_error=True)
    obs, error = _basis(app, session, args.get("based_on"))
    if obs is None or obs.mapping is None:
        return structured({"ok": False, "obs": None, "error": error}, f"cannot convert: {error}", is_error=True)
    m = obs.mapping
    if to_screen:
        if not in_image(m, x, y):
            msg = (
                f"image pixel ({x}, {y}) is outside {obs.id}'s image {m.image_size[0]}x{m.image_size[1]} "
                "(pixels run from 0 to width-1 / height-1)"
            )
            return structured({"ok": False, "obs": obs.id, "error": msg}, msg, is_error=True)
        sx, sy = image_to_screen(m, x, y)
        loc = list(to_loc(sx, sy))
        back = screen_to_image(m, sx, sy)
        visible = on_displays(obs.capture, loc[0], loc[1])
        text = (
            f"loc=[{loc[0]}, {loc[1]}] — image pixel ({x}, {y}) of {obs.id} is screen point "
            f"({sx:.2f}, {sy:.2f}); round trip → image ({back[0]:.2f}, {back[1]:.2f}). "
            f'Pass loc=[{loc[0]}, {loc[1]}] with based_on="{obs.id}".'
        )
        if not visible:
            text += " WARNING: that screen point is outside every visible display."
        return structured(
            {
                "ok": True,
                "obs": obs.id,
                "loc": loc,
                "exact": [sx, sy],
                "round_trip": list(back),
                "on_screen": visible,
            },
            text,
        )
    ix, iy = screen_to_image(m, x, y)
    back = image_to_screen(m, ix, iy)
    inside = in_image(m, ix, iy)
    text = (
        f"image pixel ({ix:.2f}, {iy:.2f}) of {obs.id} for screen point ({x}, {y}); "
        f"round trip → screen ({back[0]:.2f}, {back[1]:.2f})."
    )
    if not inside:
        text += f" WARNING: outside {obs.id}'s image {m.image_size[0]}x{m.image_size[1]} (not captured)."
    return structured(
        {
            "ok": inside,
            "obs": obs.id,
            "loc": [round_half_away(ix), round_half_away(iy)],
            "exact": [ix, iy],
            "round_trip": list(back),
            "on_screen": on_displays(obs.capture, x, y),
            "error": None if inside else "outside the image",
        },
        text,
        is_error=not inside,
    )


def _obs_summary(app: GatewayApp, obs: Observation) -> dict[str, Any]:
    m = obs.mapping
    return {
        "id": obs.id,
        "tool": obs.capture.tool,
        "age_ms": round(app.now_ms() - obs.taken_at_ms),
        "generation": obs.generation,
        "current_epoch": app.store.is_current_epoch(obs),
        "focused": obs.focused.name if obs.focused else None,
        "elements": len(obs.capture.elements),
        "mapping": None
        if m is None
        else {
            "origin": list(m.origin),
            "scale": list(m.scale),
            "image": list(m.image_size),
            "source": list(m.source_size),
            "warnings": list(m.warnings),
        },
        "warnings": list(obs.capture.warnings),
    }


def _state(app: GatewayApp, session: str) -> dict[str, Any]:
    kill = app.kill.status()
    history = app.store.history(session)
    observations = [_obs_summary(app, o) for o in reversed(history[-5:])]
    audit_stats: dict[str, Any] = app.audit.stats()
    data: dict[str, Any] = {
        "kill": kill.as_dict(),
        "session": session,
        "latest": history[-1].id if history else None,
        "observations": observations,
        "generation": app.store.generation,
        "counters": {
            "calls": app.counters.calls,
            "allowed": app.counters.allowed,
            "denied": app.counters.denied,
            "by_code": dict(app.counters.by_code),
            "upstream_failures": app.counters.upstream_failures,
        },
        "audit": audit_stats,
        "config_warnings": list(app.config.warnings),
        "upstream": {
            "spec": app.upstream.spec.describe(),
            "alive": app.upstream.alive,
            "restarts": app.upstream.restarts,
            "last_error": app.upstream.last_error,
            "protocol": app.upstream.protocol_version,
        },
        "enforce": app.config.enforce,
        "brake": app.brake.levels(session, app.now_ms()),  # tokens left per class, loop runs (S-RATE-08)
    }
    lines = [
        f"kill switch: {'ENGAGED by ' + str(kill.by) + ' since ' + str(kill.since) if kill.engaged else 'off'}",
        f"session {session}: latest observation {data['latest'] or 'none (take a Snapshot)'}",
    ]
    for o in observations:
        lines.append(
            f"  {o['id']} {o['tool']} age {o['age_ms']} ms focused={o['focused']!r} "
            f"mapping={'yes' if o['mapping'] else 'no image'}"
        )
    lines.append(
        f"calls {app.counters.calls}, allowed {app.counters.allowed}, denied {app.counters.denied}; "
        f"audit failures {data['audit'].get('failures', 0)}"
    )
    lines.append(_brake_line(data["brake"]))
    if not app.config.enforce:
        lines.append("SHADOW MODE (enforce = false): refusals are audited but not enforced")
    lines += [f"config warning: {w}" for w in app.config.warnings]
    return structured(data, "\n".join(lines))


def _brake_line(brake: dict[str, Any]) -> str:
    parts = []
    for cls in ("input", "system", "unknown"):
        bucket = brake.get(cls)
        parts.append(f"{cls} off" if bucket is None else f"{cls} {bucket['tokens']:g} tokens ({bucket['rate']})")
    loop = f"; LOOP DETECTED ({brake['loop']}): observe first" if brake.get("loop") else ""
    return (
        f"brake: {', '.join(parts)}; {brake['identical_run']} identical and {brake['refusal_run']} refused "
        f"calls in a row{loop}"
    )


async def _kill(app: GatewayApp, session: str, args: dict[str, Any]) -> dict[str, Any]:
    action = args.get("action")
    if action == "engage":
        before = app.kill.status()
        status = app.kill.engage(by="model", reason=str(args.get("reason") or f"engaged by the model ({session})"))
        await app.audit_write_ahead(
            "kill", session=session, tool="winmcp_kill", reason=f"engage: {status.reason}", by="model"
        )
        msg = (
            "kill switch ENGAGED: desktop- and system-changing calls are refused; observation keeps working. "
            "A person can release it with `winmcp-gateway kill release`."
        )
        return structured({**status.as_dict(), "changed": not before.engaged, "message": msg}, msg)
    if action == "release":
        released, status = app.kill.release(by="model")
        if not released:
            msg = (
                f"DENIED KILLED: the stop was engaged by a {status.by} and only a person can release it. "
                "Remedy: ask the person to run `winmcp-gateway kill release`."
            )
            await app.audit_event("deny", session=session, tool="winmcp_kill", code="KILLED", reason=msg)
            return structured({**status.as_dict(), "changed": False, "message": msg}, msg, is_error=True)
        await app.audit_write_ahead("kill", session=session, tool="winmcp_kill", reason="release", by="model")
        msg = "kill switch released"
        return structured({**status.as_dict(), "changed": True, "message": msg}, msg)
    if action == "status":
        status = app.kill.status()
        msg = f"kill switch {'ENGAGED by ' + str(status.by) if status.engaged else 'off'}"
        return structured({**status.as_dict(), "changed": False, "message": msg}, msg)
    msg = "action must be engage, release or status"
    return structured({"engaged": app.kill.status().engaged, "changed": False, "message": msg}, msg, is_error=True)


async def handle(app: GatewayApp, session: str, name: str, args: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """Answer a `winmcp_*` call. Read-only ones work whatever the kill switch says."""
    if name == "winmcp_state":
        return _state(app, session)
    if name == "winmcp_to_screen":
        return _convert(app, session, args, to_screen=True)
    if name == "winmcp_screen_to_image":
        return _convert(app, session, args, to_screen=False)
    if name == "winmcp_kill":
        return await _kill(app, session, args)
    if name == "winmcp_audit":
        from gateway.pipeline.audit_tool import audit_view

        return await audit_view(app, args)
    if name == "winmcp_doctor":
        from gateway.doctor.run import doctor_tool

        return await doctor_tool(app)
    raise AssertionError(f"not an own tool: {name}")  # pragma: no cover - guarded by OWN_TOOL_NAMES
