"""Private windows on the road of a capture: learn where they are, mask, store the redacted view (S-PRIV-03).

A Snapshot with its UI tree says which windows exist and where their elements are. A Screenshot
(and a Snapshot with `use_ui_tree=false`) enumerates no window at all (FORMATS §4), so the gateway
cannot tell from it whether a password manager is on screen. Then it takes one companion Snapshot
without an image, of the same displays or region, and masks the image by what that one saw. The
companion is a capture, so it moves the generation (FORMATS §7). If it fails, the whole image is
painted: an image is never forwarded unmasked because the gateway could not look.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import replace
from typing import Any

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.observe.mask import WITHHELD, mask_result
from gateway.observe.parse import CaptureFailure, parse_result
from policy.observation import NO_PRIVACY, Capture, Mapping, Privacy
from policy.private import PrivatePatterns, privacy_of, private_patterns, private_titles, redact_capture

log = logging.getLogger(__name__)

_NO_WINDOW_INFO = frozenset({"skipped", "no_elements", "absent"})  # upstream enumerated no window
WHOLE = Privacy(everywhere=True)


@functools.lru_cache(maxsize=8)
def _patterns(configured: tuple[str, ...]) -> PrivatePatterns:
    return private_patterns(configured)


def patterns_of(app: GatewayApp) -> PrivatePatterns:
    """The effective private-window patterns of this gateway's config (built once per config)."""
    configured = app.config.private_windows
    return _patterns(tuple(configured) if isinstance(configured, list | tuple) else (str(configured),))


def companion_args(capture: Capture) -> dict[str, Any]:
    """A Snapshot without an image that enumerates the windows of what `capture` showed."""
    args: dict[str, Any] = {"use_vision": False}
    if capture.region is not None:
        args["region"] = list(capture.region)
    elif capture.selected_displays is not None:
        args["display"] = list(capture.selected_displays)
    return args


async def _snapshot(app: GatewayApp, args: dict[str, Any]) -> Capture | None:
    try:
        result = await app.upstream.call_tool("Snapshot", args)
    except UpstreamError as exc:
        log.warning("the private-window companion Snapshot failed: %s", exc)
        return None
    finally:
        app.note_upstream_restarts()
    app.store.bump_generation()
    parsed = parse_result("Snapshot", result)
    return None if isinstance(parsed, CaptureFailure) or parsed.tree in _NO_WINDOW_INFO else parsed


async def _window_source(app: GatewayApp, capture: Capture) -> Capture | None:
    if capture.tree not in _NO_WINDOW_INFO:
        return capture
    return await _snapshot(app, companion_args(capture))


async def _locate(app: GatewayApp, source: Capture, patterns: PrivatePatterns, privacy: Privacy) -> Privacy:
    """Place private windows upstream did not traverse (S-PRIV-03).

    Upstream walks only the focused window and dialogs, so a password manager open behind the
    focused window has a size but no points. In region mode it walks every window that meets the
    region (FORMATS §5.4): one image-less Snapshot of the whole virtual screen places it, and only
    the whole capture is masked if even that cannot.
    """
    if not privacy.everywhere or not source.displays:
        return privacy
    screen = (
        min(d.rect[0] for d in source.displays),
        min(d.rect[1] for d in source.displays),
        max(d.rect[2] for d in source.displays),
        max(d.rect[3] for d in source.displays),
    )
    located = await _snapshot(app, {"use_vision": False, "region": list(screen)})
    if located is None:
        return privacy
    found = privacy_of(located, patterns)
    if found.everywhere or set(private_titles(located, patterns)) < set(private_titles(source, patterns)):
        return privacy  # a private window listed before is not placed now: keep masking everything
    return replace(found, count=privacy.count, focused=privacy.focused)


async def guard_capture(
    app: GatewayApp, result: dict[str, Any], capture: Capture, mapping: Mapping | None
) -> tuple[dict[str, Any], Capture, Privacy]:
    """Mask a parsed capture result and redact its capture (module docstring).

    Args:
        app: the gateway (config, upstream for the companion Snapshot).
        result: the upstream result as received.
        capture: its parse.
        mapping: its image→screen mapping (None paints every image whole).

    Returns:
        `(result to forward, capture to store, privacy)`.
    """
    patterns = patterns_of(app)
    source = await _window_source(app, capture)
    if source is None:
        has_image = any(isinstance(c, dict) and c.get("type") == "image" for c in result.get("content", []))
        if not has_image:
            return result, capture, NO_PRIVACY  # no image and no window table: nothing to mask
        return mask_result(result, titles=(), privacy=WHOLE, mapping=mapping), capture, WHOLE
    titles = private_titles(source, patterns)
    privacy = await _locate(app, source, patterns, privacy_of(source, patterns))
    if source is not capture:  # the tables and tree come from `capture`, the windows from the companion
        titles = tuple(dict.fromkeys((*private_titles(capture, patterns), *titles)))
        privacy = replace(privacy, count=len(titles) or privacy.count)
    return (
        mask_result(result, titles=titles, privacy=privacy, mapping=mapping),
        redact_capture(capture, titles),
        privacy,
    )


def withhold_images(result: dict[str, Any]) -> dict[str, Any]:
    """A capture the gateway could not parse keeps its text but loses its images (fail closed)."""
    content = result.get("content") if isinstance(result, dict) else None
    if not isinstance(content, list) or not any(isinstance(c, dict) and c.get("type") == "image" for c in content):
        return result
    kept = [
        {"type": "text", "text": WITHHELD} if isinstance(c, dict) and c.get("type") == "image" else c for c in content
    ]
    return {**result, "content": kept}
