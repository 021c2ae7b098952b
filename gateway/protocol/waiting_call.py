"""One client call waiting on the upstream, in either protocol era (S-PROTO-05, S-PROTO-06).

`CallLink` is the `Caller` the upstream connection sees. When the upstream asks something
back during the call (sampling, elicitation, roots), the link puts the question to the
client that made the call:

- 2025-11-25: as a server→client request on the call's own response stream
  (`related_request_id`), exactly as the upstream would have.
- 2026-07-28: the protocol forbids server→client requests; the server answers the call
  with an `InputRequiredResult` and the client retries it with `inputResponses`. The
  gateway's upstream call cannot be re-run (it is one call on a desktop), so it runs in a
  background task while the client's rounds come and go:

      1. the first round starts the call's work and waits for its result or a question;
      2. a question ends the round with InputRequiredResult {inputRequests, requestState};
         `requestState` is a random token (prefix `STATE_PREFIX`) naming the parked call,
         bound to the session, the method and the call's name/arguments; a retry carrying
         another `requestState` (one the pipeline issued itself, e.g. an approval) is not
         ours and runs as a new call, so the pipeline sees it;
      3. the retry carrying that token hands the answers to the waiting questions and
         waits again (step 1); each round's InputRequiredResult carries a fresh token, and the
         previous round's token is forgotten (S-PROTO-26);
      4. a round the client abandons while the work runs cancels the work; a parked call
         nobody resumes ends with the upstream's own timeout and is dropped `RESULT_TTL_S`
         after that.

  A 2026-07-28 upstream's own rounds arrive here through the SDK client's driver, which asks
  all questions of one upstream round at once: they reach the client as one round, under the
  upstream's own input keys (`INPUT_KEY`), while the upstream's `requestState` stays between
  the gateway and the upstream (S-PROTO-23, S-PROTO-24). A question needing a capability the
  client did not declare ends the call with -32021 instead (S-PROTO-21); `inputResponses`
  that are not an object are -32602 before anything runs (S-PROTO-22). A first round that
  carries `inputResponses` but no `requestState` hands them (minus the gateway's own approval
  key) to the upstream's first call of that name (S-PROTO-27).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from mcp.server.connection import allowed_log_levels
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import progress_token_from_params
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter

from gateway.protocol.elicitation import INPUT_KEY as APPROVAL_INPUT_KEY
from gateway.protocol.round_errors import check_round_params, missing_capability
from gateway.upstream.client_side import CURRENT_CALLER, INPUT_KEY, not_supported, strip_reserved_meta

log = logging.getLogger(__name__)

RESULT_TTL_S = 120.0
# Marks the requestState tokens of parked calls, so a foreign state is told apart from an expired one.
STATE_PREFIX = "wmr."
_SERVER_REQUEST: TypeAdapter[Any] = TypeAdapter(types.ServerRequest)
_INPUT_REQUEST: TypeAdapter[Any] = TypeAdapter(types.InputRequest)
_LEVELS: tuple[str, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
CAPABILITY_FOR = {
    "sampling/createMessage": types.ClientCapabilities(sampling=types.SamplingCapability()),
    "elicitation/create": types.ClientCapabilities(elicitation=types.ElicitationCapability()),
    "roots/list": types.ClientCapabilities(roots=types.RootsCapability()),
}


def level_at_least(level: str, floor: str | None) -> bool:
    """Whether a log entry at `level` passes a client's `logging/setLevel` floor (none: everything)."""
    if floor is None or floor not in _LEVELS:
        return True
    return level in _LEVELS and _LEVELS.index(level) >= _LEVELS.index(floor)


def result_type_for(method: str, params: Mapping[str, Any]) -> type[Any]:
    """The result model of a server→client request."""
    if method == "sampling/createMessage":
        return (
            types.CreateMessageResultWithTools
            if params.get("tools") or params.get("toolChoice")
            else (types.CreateMessageResult)
        )
    if method == "elicitation/create":
        return types.ElicitResult
    return types.ListRootsResult


def is_modern(ctx: Any) -> bool:
    return getattr(ctx, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS


@dataclass
class Runtime:
    """Per-serving lifespan state: a task group for parked calls and the parked calls by token."""

    tg: anyio.abc.TaskGroup
    parked: dict[str, CallLink] = field(default_factory=dict)


@contextlib.asynccontextmanager
async def runtime_lifespan(_server: Any) -> AsyncIterator[Runtime]:
    """The server lifespan: owns the background tasks of 2026-07-28 calls."""
    async with anyio.create_task_group() as tg:
        try:
            yield Runtime(tg=tg)
        finally:
            tg.cancel_scope.cancel()


class CallLink:
    """A client call waiting on the upstream (implements `gateway.upstream.client_side.Caller`)."""

    def __init__(self, ctx: Any, session: str, *, log_floor: Callable[[str], str | None], binding: str = "") -> None:
        self.session = session
        self.ctx = ctx
        self.modern = is_modern(ctx)
        self.binding = binding
        self.token = STATE_PREFIX + secrets.token_urlsafe(32)
        self._log_floor = log_floor
        raw_meta = (ctx.params or {}).get("_meta") if isinstance(ctx.params, Mapping) else None
        self._forward_meta = strip_reserved_meta(raw_meta if isinstance(raw_meta, Mapping) else None)
        self._questions: dict[str, tuple[dict[str, Any], anyio.Event, list[Any]]] = {}
        self._count = 0
        self._changed = anyio.Event()
        self._collected = anyio.Event()
        self._scope: anyio.CancelScope | None = None
        self.done = False
        self._result: Any = None
        self._error: BaseException | None = None
        self._refused = False
        self._seed: tuple[str, dict[str, Any]] | None = None

    def seed(self, name: str, responses: Mapping[str, Any] | None) -> None:
        """Input responses a first round carried without any requestState: the upstream's first
        call of `name` gets them (S-PROTO-27). The gateway's own input key never travels upstream."""
        kept = {k: v for k, v in (responses or {}).items() if k != APPROVAL_INPUT_KEY}
        self._seed = (name, kept) if kept else None

    def take_seed(self, name: str) -> dict[str, Any] | None:
        """The seeded responses, once, for the upstream call of the tool/prompt/resource this call names."""
        if self._seed is None or self._seed[0] != name:
            return None
        responses, self._seed = self._seed[1], None
        return responses

    @property
    def forward_meta(self) -> Mapping[str, Any] | None:
        return self._forward_meta

    @property
    def wants_progress(self) -> bool:
        """Whether the client may want progress (S-PERF-05): a 2025-11-25 request asks with a token in its
        `_meta`; a 2026-07-28 one may ask outside its params, so it is taken to have asked."""
        if self.modern:
            return True
        return progress_token_from_params(self.ctx.params if isinstance(self.ctx.params, Mapping) else None) is not None

    @property
    def declared_capabilities(self) -> frozenset[str]:
        """The relayed client capabilities (sampling, elicitation, roots) the calling client declared: a
        2026-07-28 upstream is told only these for this call's requests (S-PROTO-28)."""
        check = self.ctx.session.check_client_capability
        return frozenset(method.split("/")[0] for method, cap in CAPABILITY_FOR.items() if check(cap))

    def _signal(self) -> None:
        changed, self._changed = self._changed, anyio.Event()
        changed.set()

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Relay upstream progress under this client's own progress token (none asked: nothing sent)."""
        try:
            await self.ctx.session.report_progress(progress, total, message)
        except Exception:  # noqa: BLE001 - progress is advisory; a closed round drops it
            log.debug("dropped a progress update for a finished round", exc_info=True)

    def wants_log(self, level: str) -> bool:
        """2026-07-28: the request's own log-level opt-in; 2025-11-25: the session's setLevel floor."""
        if self.modern:
            raw_meta = (self.ctx.params or {}).get("_meta") if isinstance(self.ctx.params, Mapping) else None
            return level in allowed_log_levels(self.ctx.protocol_version, raw_meta)
        return level_at_least(level, self._log_floor(self.session))

    async def notify(self, method: str, params: Mapping[str, Any] | None) -> bool:
        """Send a notification on this call's own response stream."""
        try:
            note = TypeAdapter(types.ServerNotification).validate_python({"method": method, "params": params})
            await self.ctx.session.send_notification(note, related_request_id=self.ctx.request_id)
        except Exception:  # noqa: BLE001 - notifications are best effort
            log.debug("could not relay %s to the calling client", method, exc_info=True)
            return False
        return True

    async def ask(self, method: str, params: Mapping[str, Any]) -> dict[str, Any] | types.ErrorData:
        """Put a server→client request to this call's client; its answer or its error."""
        wanted = CAPABILITY_FOR.get(method)
        if wanted is None or not self.ctx.session.check_client_capability(wanted):
            if self.modern and wanted is not None:
                self._refuse_missing(method, wanted)
            return not_supported(method)
        if self.modern:
            return await self._ask_in_rounds(method, params)
        request = _SERVER_REQUEST.validate_python({"method": method, "params": dict(params)})
        try:
            answer = await self.ctx.session.send_request(
                request,
                result_type_for(method, params),
                metadata=ServerMessageMetadata(related_request_id=self.ctx.request_id),
            )
        except MCPError as exc:
            return exc.error
        wire: dict[str, Any] = answer.model_dump(by_alias=True, exclude_none=True, mode="json")
        return wire

    def _refuse_missing(self, method: str, wanted: types.ClientCapabilities) -> None:
        """2026-07-28: end the client's call with -32021 and cancel the upstream's work (S-PROTO-21)."""
        self._error = missing_capability(method, wanted)
        self._refused = True
        if self._scope is not None:
            self._scope.cancel()

    async def _ask_in_rounds(self, method: str, params: Mapping[str, Any]) -> dict[str, Any] | types.ErrorData:
        self._count += 1
        # The upstream's own key when it wrote one (a 2026-07-28 round), else one of ours.
        key = INPUT_KEY.get() or f"{method.split('/')[0]}-{self._count}"
        if key in self._questions:
            key = f"{method.split('/')[0]}-{self._count}"
        answered, box = anyio.Event(), list[Any]()
        self._questions[key] = ({"method": method, "params": dict(params)}, answered, box)
        self._signal()
        try:
            await answered.wait()
        finally:
            self._questions.pop(key, None)
        answer: dict[str, Any] | types.ErrorData = box[0]
        return answer

    # -- 2026-07-28 rounds -------------------------------------------------------------------

    async def run(self, work: Callable[[], Awaitable[Any]], runtime: Runtime) -> None:
        """The call's work, in the runtime's task group (step 1)."""
        CURRENT_CALLER.set(self)
        with anyio.CancelScope() as scope:
            self._scope = scope
            try:
                self._result = await work()
            except Exception as exc:  # noqa: BLE001 - handed to the round that collects it
                if not self._refused:
                    self._error = exc
        self.done = True
        self._signal()
        with anyio.move_on_after(RESULT_TTL_S):
            await self._collected.wait()
        runtime.parked.pop(self.token, None)

    def resume(self, ctx: Any, responses: Mapping[str, Any]) -> None:
        """A retry arrived: progress and logs now ride on it; hand over its answers (step 3)."""
        self.ctx = ctx
        for key, response in responses.items():
            question = self._questions.get(key)
            if question is None or question[1].is_set():
                continue
            wire = (
                response.model_dump(by_alias=True, exclude_none=True, mode="json")
                if hasattr(response, "model_dump")
                else dict(response)
            )
            question[2].append(wire)
            question[1].set()

    def _rotate(self, runtime: Runtime) -> None:
        """A fresh token for every round (S-PROTO-26): the state a client echoes names one round,
        so a state from an earlier round of the call is unknown from then on (no replay)."""
        runtime.parked.pop(self.token, None)
        self.token = STATE_PREFIX + secrets.token_urlsafe(32)

    async def next_round(self, runtime: Runtime) -> Any:
        """Wait for the result or the next questions (steps 1–2, 4)."""
        try:
            while True:
                if self.done:
                    self._collected.set()
                    runtime.parked.pop(self.token, None)
                    if self._error is not None:
                        raise self._error
                    return self._result
                open_questions = {k: q[0] for k, q in self._questions.items() if not q[1].is_set()}
                if open_questions:
                    self._rotate(runtime)
                    runtime.parked[self.token] = self
                    return types.InputRequiredResult(
                        input_requests={k: _INPUT_REQUEST.validate_python(q) for k, q in open_questions.items()},
                        request_state=self.token,
                    )
                await self._changed.wait()
        except anyio.get_cancelled_exc_class():
            # The client left this round while the work was running: nobody can resume it.
            if not self.done and self._scope is not None:
                self._scope.cancel()
            runtime.parked.pop(self.token, None)
            raise


def binding_of(method: str, name: str, arguments: Any) -> str:
    """What a `requestState` is bound to besides the session: the method, the name and the arguments."""
    digest = hashlib.sha256(json.dumps(arguments, sort_keys=True, default=str).encode()).hexdigest()
    return f"{method}|{name}|{digest}"


async def run_interactive(
    ctx: Any,
    session: str,
    *,
    binding: str,
    request_state: str | None,
    input_responses: Mapping[str, Any] | None,
    work: Callable[[], Awaitable[Any]],
    log_floor: Callable[[str], str | None],
) -> Any:
    """Run one call that may be asked questions mid-way, in the client's era (module docstring)."""
    if not is_modern(ctx):
        link = CallLink(ctx, session, log_floor=log_floor, binding=binding)
        token = CURRENT_CALLER.set(link)
        try:
            return await work()
        finally:
            CURRENT_CALLER.reset(token)
    check_round_params(ctx.params)  # a protocol error in the round trip itself, not a call to run
    runtime = ctx.lifespan_context
    if not isinstance(runtime, Runtime):
        raise MCPError(types.INTERNAL_ERROR, "the gateway's server runtime is not running")
    if request_state is not None and request_state.startswith(STATE_PREFIX):
        parked = runtime.parked.get(request_state)
        if parked is None or parked.session != session or parked.binding != binding:
            raise MCPError(types.INVALID_PARAMS, "unknown or expired requestState: repeat the call without it")
        parked.resume(ctx, input_responses or {})
        return await parked.next_round(runtime)
    link = CallLink(ctx, session, log_floor=log_floor, binding=binding)
    if request_state is None:
        link.seed(binding.split("|", 1)[1].rsplit("|", 1)[0], input_responses)
    runtime.tg.start_soon(link.run, work, runtime)
    return await link.next_round(runtime)
