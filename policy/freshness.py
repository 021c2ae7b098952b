"""The freshness gate for INPUT tools and the window allowlist (DESIGN.md §4; S-FRESH-01..09).

Steps of `check_freshness`, in order; the first that fails decides:

1. Basis. `based_on` given: it must be a non-empty string naming a held observation of this
   session (else UNKNOWN_OBSERVATION; another session's id gets the very same words, so the
   refusal reveals nothing about it), or a retired one (STALE). Not given: the session's
   latest observation (none → NO_OBSERVATION). With `require_observation = false` a call
   that cites nothing is not gated at all; a citation is still verified.
2. Superseded: a cited observation that is not the session's latest → STALE.
3. Age: older than `max_observation_age_ms`, or taken "after now" (the clock moved) → STALE.
4. Labels (FORMATS.md §7; `policy/labels.py`): every cited label must fall in the part of
   upstream's table the basis fixes with certainty (not a Screenshot, not a DOM capture, not
   from a browser window on) → else LABEL_UNVERIFIABLE, remedy "cite a loc from the tree".
5. Window drift (`require_process_match`): the probe's focused window must equal the
   basis's by handle and name → else PROCESS_CHANGED. Fail closed: a failed probe, or a
   basis that recorded no window (Screenshot, `use_ui_tree=false`), is PROCESS_CHANGED too;
   no probe at all is a gateway fault (POLICY_ERROR). Label calls get the same check: the
   shell probes them with a full-tree Snapshot instead of the small region one.
6. Label table (label calls): upstream resolves labels against its *last* capture, shared by
   all sessions. After the full-tree probe, that table is the probe's, so its
   `label_signature` must equal the basis's (same windows, same elements at the same points)
   → else STALE. Unprobed (`require_process_match` off): no capture since the basis may have
   replaced the table (the generation did not move) → else STALE.

`check_window` then applies `allowed_windows` to the focused window (probe, else basis).
MAPPING_INCOMPLETE (`freshness_warnings`) only warns.
"""

from __future__ import annotations

import re

from policy.catalog import INPUT_TOOLS_WITH_BASED_ON, uses_coords, uses_labels
from policy.context import PolicyConfig, SessionView
from policy.decision import Code, Decision, Warn, policy_error, refuse
from policy.labels import cited_labels, label_signature, label_table
from policy.observation import Observation, Window
from policy.values import ToolCall

# Trees that mean "upstream did not enumerate windows": the focused window is unknown, not absent.
_NO_WINDOW_INFO = frozenset({"skipped", "no_elements", "absent"})

_SNAP = "take a Snapshot (leave use_ui_tree on), then repeat the call citing it"


def _q(text: str) -> str:
    return '"' + text.replace('"', "'")[:80] + '"'


def _win(w: Window | None) -> str:
    return "no focused window" if w is None else f"{_q(w.name)} (handle {w.handle})"


def _cite(obs_id: str) -> str:
    return f'take a new Snapshot, then repeat the call with based_on="<its id>" (it replaces {obs_id})'


def basis_of(call: ToolCall, view: SessionView) -> tuple[Observation | None, Decision | None]:
    """The observation an input call relies on (step 1), or the refusal saying why there is none.

    Args:
        call: the call; `based_on` is its raw citation.
        view: this session's view.

    Returns:
        (observation, None) or (None, refusal).
    """
    cited = call.based_on
    if cited is None:
        if view.latest_id is None:
            return None, refuse(
                Code.NO_OBSERVATION,
                "this session has no observation to base an input action on.",
                'take a Snapshot first, then repeat the call with based_on="<the obs id it prints>"',
                spec="S-FRESH-01",
            )
        cited_id = view.latest_id
    elif not isinstance(cited, str) or not cited.strip():
        return None, refuse(
            Code.UNKNOWN_OBSERVATION,
            f'based_on must be an observation id string like "obs-3", not {type(cited).__name__} {str(cited)[:20]!r}.',
            _SNAP,
            spec="S-FRESH-02",
        )
    else:
        cited_id = cited
    if cited_id in view.observations:
        return view.observations[cited_id], None
    if cited_id in view.retired:
        why = " ".join(str(view.retired[cited_id]).split())[:120] or "it can no longer be used"
        return None, refuse(
            Code.STALE_OBSERVATION,
            f"observation {cited_id} is stale: {why}.",
            _cite(cited_id),
            spec="S-FRESH-04",
        )
    # Unknown and foreign ids get identical words (S-FRESH-02); only the audit detail differs.
    foreign = "yes" if cited_id in view.foreign_ids else "no"
    return None, refuse(
        Code.UNKNOWN_OBSERVATION,
        f"based_on {_q(cited_id)} names no observation of this session.",
        _SNAP,
        spec="S-FRESH-02",
        detail=(("foreign_session", foreign),),
    )


def window_known(obs: Observation) -> bool:
    """Whether the observation recorded the focused window (its tree was read)."""
    return obs.capture.tree not in _NO_WINDOW_INFO


def check_freshness(call: ToolCall, view: SessionView, config: PolicyConfig, now_ms: float) -> Decision | None:
    """Refuse an INPUT call whose view of the desktop may be wrong (steps 1-5 above).

    Args:
        call: the call (non-INPUT tools are never gated: None).
        view: this session's observations, the generation and the probe.
        config: the policy config.
        now_ms: the clock now (same clock as `Observation.taken_at_ms`).

    Returns:
        None when the call may proceed, else the refusal.
    """
    if call.tool not in INPUT_TOOLS_WITH_BASED_ON:
        return None
    if not config.require_observation and call.based_on is None:
        return None
    obs, refusal = basis_of(call, view)
    if obs is None:
        return refusal
    if call.based_on is not None and obs.id != view.latest_id:
        return refuse(
            Code.STALE_OBSERVATION,
            f"observation {obs.id} was superseded by {view.latest_id}, a newer observation of this session.",
            f'look at {view.latest_id} and repeat the call with based_on="{view.latest_id}", or take a new Snapshot',
            spec="S-FRESH-04",
            observation=obs.id,
        )
    age = now_ms - obs.taken_at_ms
    if not (0 <= age <= config.max_observation_age_ms):  # NaN fails too
        return refuse(
            Code.STALE_OBSERVATION,
            f"observation {obs.id} is {age:.0f} ms old; the limit is {config.max_observation_age_ms:.0f} ms.",
            _cite(obs.id),
            spec="S-FRESH-03",
            observation=obs.id,
        )
    labels = uses_labels(call.tool, call.args)
    if labels:
        refusal = _check_label_rows(call, obs)
        if refusal is not None:
            return refusal
    if config.require_process_match:
        refusal = _check_drift(view, obs)
        if refusal is not None:
            return refusal
    return _check_label_table(view, obs) if labels else None


_LOC_REMEDY = "cite a loc from the tree instead: the (x,y) printed before the element in {obs} is its screen point"


def _check_label_rows(call: ToolCall, obs: Observation) -> Decision | None:
    cited = cited_labels(call.tool, call.args)
    if cited is None:
        return refuse(
            Code.LABEL_UNVERIFIABLE,
            "a label must be a whole number.",
            _LOC_REMEDY.format(obs=obs.id),
            spec="S-FRESH-05",
            observation=obs.id,
        )
    table = label_table(obs, use_dom=obs.use_dom)
    for label in cited:
        if 0 <= label < len(table.rows):
            continue
        if table.complete:
            why = f"label {label} is out of range: {obs.id} has {len(table.rows)} label(s) (0-{len(table.rows) - 1})."
        else:
            why = f"label {label} cannot be verified: {table.problem}."
        return refuse(
            Code.LABEL_UNVERIFIABLE, why, _LOC_REMEDY.format(obs=obs.id), spec="S-FRESH-05", observation=obs.id
        )
    return None


def _check_label_table(view: SessionView, obs: Observation) -> Decision | None:
    probe = view.probe
    if probe.status == "ok" and probe.captured:
        if probe.labels is not None and probe.labels == label_signature(obs.capture):
            return None
        return refuse(
            Code.STALE_OBSERVATION,
            f"the desktop changed since {obs.id}: upstream's label table now names other elements "
            "(a window moved, opened or closed, or its content changed).",
            "take a new Snapshot and use its labels, or cite a loc from it",
            spec="S-FRESH-05",
            observation=obs.id,
        )
    if obs.generation != view.generation:
        return refuse(
            Code.STALE_OBSERVATION,
            f"upstream captured the desktop {view.generation - obs.generation} time(s) since {obs.id} "
            "(another session, a WaitFor, an App resize/switch or a DOM Scrape), replacing the label table "
            "the label(s) refer to.",
            f"use the loc coordinates printed in {obs.id}, or take a new Snapshot and use its labels",
            spec="S-FRESH-05",
            observation=obs.id,
        )
    return None


def _check_drift(view: SessionView, obs: Observation) -> Decision | None:
    probe = view.probe
    if probe.status == "pending":
        # Probe last (S-FRESH-10): only a call that everything before this check allows pays for one.
        return refuse(
            Code.PROBE_PENDING,
            "the focused window has not been read yet; the gateway reads it and decides again.",
            "none: the gateway does this itself",
            spec="S-FRESH-10",
            observation=obs.id,
        )
    if probe.status == "not_probed":
        return policy_error("the gateway did not probe the focused window before this input action.", spec="S-FRESH-06")
    if probe.status == "failed":
        detail = " ".join(probe.detail.split())[:120]
        return refuse(
            Code.PROCESS_CHANGED,
            f"the focused window could not be verified: the probe failed ({detail or 'no detail'}).",
            _SNAP,
            spec="S-FRESH-06",
            observation=obs.id,
        )
    if not window_known(obs):
        return refuse(
            Code.PROCESS_CHANGED,
            f"{obs.id} ({obs.capture.tool}) did not record the focused window, so a window change cannot be ruled out.",
            _SNAP,
            spec="S-FRESH-06",
            observation=obs.id,
        )
    was, now = obs.focused, probe.focused
    same = (was is None and now is None) or (
        was is not None and now is not None and was.handle == now.handle and was.name == now.name
    )
    if same:
        return None
    return refuse(
        Code.PROCESS_CHANGED,
        f"the focused window was {_win(was)} in {obs.id} and is now {_win(now)}.",
        "take a new Snapshot, check that the window you mean is in front, and act on that observation",
        spec="S-FRESH-06",
        observation=obs.id,
    )


def freshness_warnings(call: ToolCall, view: SessionView, config: PolicyConfig) -> tuple[str, ...]:
    """Warnings for an INPUT call that passed the gate; they never block (S-FRESH-06, S-FRESH-08).

    Args:
        call: the call.
        view: this session's view.
        config: the policy config.

    Returns:
        `"<Warn>: text"` strings (empty for non-INPUT calls or calls without a basis).
    """
    if call.tool not in INPUT_TOOLS_WITH_BASED_ON:
        return ()
    obs, _ = basis_of(call, view)
    out: list[str] = []
    coords = uses_coords(call.tool, call.args)
    if (
        obs is not None
        and config.require_coordinate_mapping
        and coords
        and obs.mapping is None
        and (obs.capture.image_size is not None or obs.capture.tool == "Screenshot")
    ):
        out.append(
            f"{Warn.MAPPING_INCOMPLETE}: {obs.id} has an image but no image-to-screen mapping; coordinates "
            "read off that image may be off. UI-tree coordinates are screen coordinates already."
        )
    return tuple(out)


def _glob(pattern: str) -> re.Pattern[str]:
    parts = [".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern.casefold()]
    return re.compile("".join(parts), re.DOTALL)


def window_matches(title: str, patterns: tuple[str, ...]) -> bool:
    """Whether `title` matches one of the case-insensitive whole-title glob `patterns` (`*`, `?`).

    Args:
        title: a window title.
        patterns: `allowed_windows`.

    Returns:
        True on the first match.
    """
    folded = title.casefold()
    return any(_glob(p).fullmatch(folded) for p in patterns)


def check_window(call: ToolCall, view: SessionView, config: PolicyConfig) -> Decision | None:
    """`allowed_windows`: refuse an INPUT call unless the focused window matches a pattern (S-FRESH-07).

    The focused window is the probe's when it answered, else the basis observation's;
    unknown counts as not allowed (fail closed).

    Args:
        call: the call (non-INPUT tools: None).
        view: this session's view.
        config: the policy config.

    Returns:
        None, or WINDOW_NOT_ALLOWED.
    """
    if call.tool not in INPUT_TOOLS_WITH_BASED_ON or not config.allowed_windows:
        return None
    window: Window | None = None
    known = False
    if view.probe.status == "ok":
        window, known = view.probe.focused, True
    else:
        obs, _ = basis_of(call, view)
        if obs is not None and window_known(obs):
            window, known = obs.focused, True
    if window is not None and window_matches(window.name, config.allowed_windows):
        return None
    what = _win(window) if known else "unknown"
    return refuse(
        Code.WINDOW_NOT_ALLOWED,
        f"the focused window is {what}, which matches none of allowed_windows {list(config.allowed_windows)}.",
        "bring an allowed window to the front, take a Snapshot, and repeat the call citing it",
        spec="S-FRESH-07",
    )
