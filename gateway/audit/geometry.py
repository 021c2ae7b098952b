"""The screen geometry one observation line records, for the HTML report (S-AREP-05).

An observation's audit line says where things were without any picture: the display
rectangles, the capture origin and scale, the image size, the cursor and the focused window
(upstream prints its size and state, never its position). Only ``observation`` lines carry it,
so an ordinary line grows by nothing; an input line already names its ``obs`` and ``point``.
No pixel is ever stored (DESIGN §6).
"""

from __future__ import annotations

from typing import Any

from policy.observation import Observation


def screen_geometry(obs: Observation) -> dict[str, Any]:
    """The ``screen`` field of an observation line (see spec/audit-line.schema.json).

    Args:
        obs: the observation the capture result was parsed into.
    Returns:
        ``displays`` (``[l, t, r, b]`` each, right/bottom exclusive, as upstream prints them)
        and, when known, ``primary`` (an index into ``displays``), ``region`` (the captured
        rectangle), ``origin`` and ``scale`` (the mapping ``screen = origin + image_px × scale``),
        ``image`` (its ``[w, h]``), ``cursor`` and ``focused`` (``name``, ``size``, ``status``).
    """
    cap = obs.capture
    out: dict[str, Any] = {"displays": [list(d.rect) for d in cap.displays]}
    primary = next((i for i, d in enumerate(cap.displays) if d.primary), None)
    if primary is not None:
        out["primary"] = primary
    if cap.region is not None:
        out["region"] = list(cap.region)
    if obs.mapping is not None:
        out["origin"] = [_num(v) for v in obs.mapping.origin]
        out["scale"] = [_num(v) for v in obs.mapping.scale]
        out["image"] = list(obs.mapping.image_size)
    elif cap.image_size is not None:
        out["image"] = list(cap.image_size)
    if cap.cursor is not None:
        out["cursor"] = list(cap.cursor)
    if cap.focused is not None:
        f = cap.focused
        out["focused"] = {"name": f.name, "size": [f.width, f.height], "status": f.status}
    return out


def _num(value: float) -> float | int:
    # Integral values as integers, the rest to six decimals (as the annotation line prints them).
    rounded = round(float(value), 6)
    return int(rounded) if rounded.is_integer() else rounded
