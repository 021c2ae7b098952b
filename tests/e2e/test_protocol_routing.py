"""What the upstream says first reaches the right clients and no others (S-PROTO-03 … -08, S-PROTO-10).

Negative checks ("B did not receive it") are made deterministic with a sentinel sent
after the fact on the same stream: once the sentinel has arrived, anything sent before
it would have arrived too.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated, ToolsListChanged
from mcp.shared.exceptions import MCPError

from gateway.protocol.forward import upstream_params
from gateway.transport.server import advertised_capabilities, router_for
from tests._requirements import requirement
from tests.e2e._proto_rig import (
    ClientProbe,
    direct,
    http_client,
    http_server,
    in_process,
    proto_gateway,
    proto_spec,
    wire,
)
from tests.e2e.harness import gateway_rig

pytestmark = pytest.mark.anyio

SENTINEL = "notifications/resources/list_changed"


async def stats(client: Client) -> dict[str, Any]:
    result = await client.call_tool("stats", {})
    data: dict[str, Any] = result.structured_content or {}
    return data


async def set_floor(client: Client, level: str) -> None:
    """logging/setLevel through the session (the SDK's helper is deprecated at 2026-07-28)."""
    await client.session.send_request(
        types.SetLevelRequest(params=types.SetLevelRequestParams(level=level)),
        types.EmptyResult,  # type: ignore[arg-type]
    )


async def subscribe(client: Client, uri: str, on: bool = True) -> None:
    request: Any = (
        types.SubscribeRequest(params=types.SubscribeRequestParams(uri=uri))
        if on
        else types.UnsubscribeRequest(params=types.UnsubscribeRequestParams(uri=uri))
    )
    await client.session.send_request(request, types.EmptyResult)


@contextlib.asynccontextmanager
async def two_http_clients(tmp: Path, a: ClientProbe, b: ClientProbe, **config: Any) -> AsyncIterator[Any]:
    """One gateway over HTTP, two 2025-11-25 clients (two sessions)."""
    async with (
        proto_gateway(tmp, **config) as app,
        http_server(app) as settings,
        http_client(settings, "legacy", a) as ca,
        http_client(settings, "legacy", b) as cb,
    ):
        yield app, ca, cb


async def sleeping_call(client: Client, started: anyio.Event, done: list[Any]) -> None:
    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        started.set()

    try:
        done.append(await client.call_tool("sleep", {"seconds": 30}, progress_callback=on_progress))
    except MCPError as exc:
        done.append(exc)


# -- capabilities -------------------------------------------------------------------------------


@requirement("S-PROTO-03")
def test_capabilities_are_the_upstreams_adjusted_for_the_gateway() -> None:
    """S-PROTO-03: tools always (listChanged), the rest only if the upstream has them, experimental hidden."""
    assert advertised_capabilities(None).model_dump(exclude_none=True) == {"tools": {"list_changed": True}}
    full = types.ServerCapabilities(
        prompts=types.PromptsCapability(list_changed=False),
        resources=types.ResourcesCapability(subscribe=True, list_changed=False),
        logging=types.LoggingCapability(),
        completions=types.CompletionsCapability(),
        tools=types.ToolsCapability(list_changed=False),
        experimental={"x-secret": {}},
    )
    assert advertised_capabilities(full).model_dump(exclude_none=True) == {
        "tools": {"list_changed": True},
        "prompts": {"list_changed": False},
        "resources": {"subscribe": True, "list_changed": False},
        "logging": {},
        "completions": {},
    }


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-PROTO-03")
async def test_clients_see_the_upstreams_capabilities_in_both_eras(tmp_path: Path, era: str) -> None:
    """S-PROTO-03: with the protocol upstream everything is offered; with the simulator (tools only) only
    tools."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path / "p") as app, in_process(app, era) as client:
            caps = client.server_capabilities
            assert caps.tools is not None and caps.tools.list_changed is True
            assert caps.prompts is not None and caps.prompts.list_changed is True
            assert caps.resources is not None and caps.resources.subscribe is True
            assert caps.logging is not None and caps.completions is not None
            assert caps.experimental is None
        async with gateway_rig(tmp_path / "s", client_mode=era) as rig:
            caps = rig.client.server_capabilities
            assert (caps.prompts, caps.resources, caps.completions, caps.logging) == (None, None, None, None)


# -- progress and _meta -------------------------------------------------------------------------


@requirement("S-PROTO-04")
def test_only_the_clients_own_meta_keys_travel_upstream() -> None:
    """S-PROTO-04: round-trip keys, the progress token and reserved envelope keys stay on the client's
    side."""
    params = types.ReadResourceRequestParams.model_validate(
        {
            "uri": "proto://greeting",
            "requestState": "tok",
            "inputResponses": {},
            "_meta": {
                "progressToken": 7,
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "trace": "t-1",
            },
        }
    )
    assert upstream_params(params) == {"uri": "proto://greeting", "_meta": {"trace": "t-1"}}


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-PROTO-04")
async def test_a_clients_meta_reaches_the_upstream_and_progress_comes_back(tmp_path: Path, era: str) -> None:
    """S-PROTO-04: the client's own `_meta` key arrives upstream; upstream progress arrives under the client's
    token."""
    seen: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(message)

    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, era) as client:
            result = await client.call_tool("meta", {}, progress_callback=on_progress, meta={"trace": "t-1"})
            assert (result.structured_content or {}).get("trace") == "t-1"
            assert not any(k.startswith("io.modelcontextprotocol/") for k in result.structured_content or {})
            await client.call_tool("progress", {"steps": 2}, progress_callback=on_progress)
            assert seen == ["step 1 of 2", "step 2 of 2"]


# -- server→client requests ---------------------------------------------------------------------


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-PROTO-05")
async def test_a_client_without_sampling_gets_the_same_refusal_as_directly(tmp_path: Path, era: str) -> None:
    """S-PROTO-05: no sampling capability → the SDK's own INVALID_REQUEST "Sampling not supported", as
    directly (2025-11-25); S-PROTO-21: at 2026-07-28 the gateway answers -32021 naming sampling."""
    outcomes = []
    with anyio.fail_after(30):
        async with direct(era, ClientProbe(sampling=False)) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("sample", {"prompt": "p"})
            outcomes.append((caught.value.code, caught.value.message))
        async with (
            proto_gateway(tmp_path) as app,
            in_process(app, era, ClientProbe(sampling=False)) as client,
        ):
            with pytest.raises(MCPError) as caught:
                await client.call_tool("sample", {"prompt": "p"})
            outcomes.append((caught.value.code, caught.value.message))
            data = caught.value.error.data
    if era == "legacy":
        assert outcomes == [(types.INVALID_REQUEST, "Sampling not supported")] * 2
    else:
        assert outcomes[0] == (types.INVALID_REQUEST, "Sampling not supported")
        assert outcomes[1][0] == -32021 and data == {"requiredCapabilities": {"sampling": {}}}


@requirement("S-PROTO-05")
async def test_sampling_goes_to_the_client_whose_call_asked(tmp_path: Path) -> None:
    """S-PROTO-05: of two HTTP clients, only the one whose call caused the request is asked."""
    a, b = ClientProbe(), ClientProbe()
    with anyio.fail_after(40):
        async with two_http_clients(tmp_path, a, b) as (_app, ca, cb):
            await ca.call_tool("sample", {"prompt": "for a"})
            assert [p["messages"][0]["content"]["text"] for _, p in a.asked] == ["for a"] and b.asked == []
            await cb.call_tool("elicit", {"question": "for b"})
            assert [p["message"] for _, p in b.asked] == ["for b"] and len(a.asked) == 1


@requirement("S-PROTO-05")
async def test_a_request_is_refused_when_calls_of_several_clients_are_in_flight(tmp_path: Path) -> None:
    """S-PROTO-05: with two clients' calls in flight and no link, the request is refused, not guessed."""
    a, b = ClientProbe(), ClientProbe()
    with anyio.fail_after(40):
        async with two_http_clients(tmp_path, a, b) as (_app, ca, cb):
            started, done = anyio.Event(), list[Any]()
            async with anyio.create_task_group() as tg:
                tg.start_soon(sleeping_call, ca, started, done)
                await started.wait()
                with pytest.raises(MCPError) as caught:
                    await cb.call_tool("sample", {"prompt": "whose?"})
                tg.cancel_scope.cancel()
            assert caught.value.code == types.INVALID_REQUEST
            assert "cannot tell which client" in caught.value.message
            assert a.asked == [] and b.asked == []


@requirement("S-PROTO-05")
async def test_a_request_outside_any_call_goes_to_the_only_client_or_nowhere(tmp_path: Path) -> None:
    """S-PROTO-05: nothing in flight: the single connected client is asked; with two, the request is
    refused."""
    a, b = ClientProbe(), ClientProbe()
    with anyio.fail_after(40):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings:
            router = router_for(app)
            async with http_client(settings, "legacy", a) as ca:
                await ca.list_tools()
                answer = await router.server_request("roots/list", {}, None)
                assert isinstance(answer, dict) and answer["roots"][0]["uri"] == "file:///work/r1"
                async with http_client(settings, "legacy", b) as cb:
                    await cb.list_tools()
                    refused = await router.server_request("roots/list", {}, None)
                    assert isinstance(refused, types.ErrorData) and refused.code == types.INVALID_REQUEST
            assert [m for m, _ in a.asked] == ["roots/list"] and b.asked == []


@requirement("S-PROTO-05")
async def test_a_2026_round_trip_is_bound_to_its_call(tmp_path: Path) -> None:
    """S-PROTO-05: our requestState resumes only the same call (tool and arguments); anything else is
    INVALID_PARAMS."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "auto", ClientProbe()) as client:
            session = client.session
            first = await session.call_tool("sample", {"prompt": "p"}, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult) and first.request_state
            ((key, request),) = (first.input_requests or {}).items()
            assert isinstance(request, types.CreateMessageRequest)
            answer = {
                key: types.CreateMessageResult(
                    role="assistant", model="m9", content=types.TextContent(type="text", text="ok")
                )
            }
            for name, args, state in (
                ("sample", {"prompt": "other"}, first.request_state),
                ("echo", {"text": "p"}, first.request_state),
                ("sample", {"prompt": "p"}, "wmr.forged-state"),
            ):
                with pytest.raises(MCPError) as caught:
                    await session.call_tool(
                        name, args, input_responses=answer, request_state=state, allow_input_required=True
                    )
                assert caught.value.code == types.INVALID_PARAMS
            foreign = await session.call_tool(
                "echo", {"text": "p"}, request_state="not-ours", allow_input_required=True
            )
            assert isinstance(foreign, types.CallToolResult)  # another component's state: a new call
            final = await session.call_tool(
                "sample",
                {"prompt": "p"},
                input_responses=answer,
                request_state=first.request_state,
                allow_input_required=True,
            )
            assert isinstance(final, types.CallToolResult)
            assert wire(final)["content"][0]["text"] == "sampled by m9: ok"


@requirement("S-PROTO-05")
async def test_a_clients_roots_change_reaches_the_upstream(tmp_path: Path) -> None:
    """S-PROTO-05: notifications/roots/list_changed from a 2025-11-25 client is passed to the upstream."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "legacy", ClientProbe()) as client:
            await client.session.send_notification(types.RootsListChangedNotification())
            while (await stats(client))["roots_changed"] < 1:
                pass  # the notification overtakes nothing; bounded by fail_after


# -- logging ------------------------------------------------------------------------------------


@requirement("S-PROTO-06")
async def test_logs_go_to_the_calling_client_above_its_floor(tmp_path: Path) -> None:
    """S-PROTO-06: each client's setLevel is its own floor, the upstream logs at the lowest; a call's log is
    its own."""
    a, b = ClientProbe(), ClientProbe()
    with anyio.fail_after(40):
        async with two_http_clients(tmp_path, a, b) as (app, ca, cb):
            await set_floor(ca, "error")
            await set_floor(cb, "debug")
            assert (await stats(ca))["level"] == "debug"
            await ca.call_tool("log", {"level": "warning", "message": "below a's floor"})
            await ca.call_tool("log", {"level": "error", "message": "for a"})
            await cb.call_tool("log", {"level": "info", "message": "for b"})
            router = router_for(app)
            await router.notification("notifications/message", {"level": "warning", "data": "broadcast warning"})
            await router.notification("notifications/message", {"level": "critical", "data": "broadcast critical"})
            await a.wait_log("broadcast critical")
            await b.wait_log("broadcast critical")
    assert [x["data"] for x in a.logs] == ["for a", "broadcast critical"]
    assert [x["data"] for x in b.logs] == ["for b", "broadcast warning", "broadcast critical"]


@requirement("S-PROTO-06")
async def test_a_2026_client_gets_logs_only_at_the_level_its_request_opted_in(tmp_path: Path) -> None:
    """S-PROTO-06: 2026-07-28: no opt-in, no logs; opted in at warning, info is dropped and warning
    delivered."""
    silent, warned = ClientProbe(), ClientProbe()
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app:
            async with in_process(app, "auto", silent, log_level=None) as client:
                await client.call_tool("log", {"level": "emergency", "message": "unasked"})
            async with in_process(app, "auto", warned, log_level="warning") as client:
                await client.call_tool("log", {"level": "info", "message": "too low"})
                await client.call_tool("log", {"level": "warning", "message": "delivered"})
    assert silent.logs == []
    assert [x["data"] for x in warned.logs] == ["delivered"]


# -- subscriptions and list changes --------------------------------------------------------------


@requirement("S-PROTO-07")
async def test_resource_updates_reach_exactly_the_subscribed_clients(tmp_path: Path) -> None:
    """S-PROTO-07: the upstream is subscribed once per URI, updates reach subscribers only, the last one out
    unsubscribes."""
    a, b = ClientProbe(), ClientProbe()
    updated = "notifications/resources/updated"
    with anyio.fail_after(40):
        async with two_http_clients(tmp_path, a, b) as (app, ca, cb):
            await subscribe(ca, "proto://greeting")
            await subscribe(cb, "proto://greeting")
            assert (await stats(ca))["subscribed"] == ["proto://greeting"]
            await cb.call_tool("touch", {"uri": "proto://greeting"})
            await a.wait_note(updated)
            await b.wait_note(updated)
            await subscribe(ca, "proto://greeting", on=False)
            assert (await stats(ca))["subscribed"] == ["proto://greeting"]
            await cb.call_tool("touch", {"uri": "proto://greeting"})
            await b.wait_note(updated, 2)
            await router_for(app).notification(SENTINEL, None)
            await a.wait_note(SENTINEL)
            assert a.notes.count(updated) == 1
            await subscribe(cb, "proto://greeting", on=False)
            assert (await stats(ca))["subscribed"] == []


@requirement("S-PROTO-07")
async def test_a_2026_listen_stream_gets_the_resources_it_asked_for(tmp_path: Path) -> None:
    """S-PROTO-07: a listen stream's resource filter subscribes the upstream while it is open."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "auto") as client:
            async with client.listen(resource_subscriptions=["proto://greeting"]) as sub:
                assert (await stats(client))["subscribed"] == ["proto://greeting"]
                await client.call_tool("touch", {"uri": "proto://greeting"})
                async for event in sub:
                    assert event == ResourceUpdated(uri="proto://greeting")
                    break
            while (await stats(client))["subscribed"]:
                pass  # the stream's end releases the upstream subscription (bounded by fail_after)


@requirement("S-PROTO-08")
async def test_a_tool_list_change_is_refetched_refiltered_and_announced(tmp_path: Path) -> None:
    """S-PROTO-08: a new upstream tool is announced and listed; prompts list changes are passed on."""
    probe = ClientProbe()
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "legacy", probe) as client:
            assert "extra" not in {t.name for t in (await client.list_tools()).tools}
            await client.call_tool("change_tools", {})
            await probe.wait_note("notifications/tools/list_changed")
            assert "extra" in {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
            await client.call_tool("change_prompts", {})
            await probe.wait_note("notifications/prompts/list_changed")


@requirement("S-PROTO-08")
async def test_a_change_to_a_hidden_tool_is_not_announced(tmp_path: Path) -> None:
    """S-PROTO-08: when the tool that changed is hidden (tools_deny) the visible list is the same: no
    announcement."""
    probe = ClientProbe()
    with anyio.fail_after(30):
        async with (
            proto_gateway(tmp_path, tools_deny=["extra"]) as app,
            in_process(app, "legacy", probe) as client,
        ):
            before = {t.name for t in (await client.list_tools()).tools}
            await client.call_tool("change_tools", {})
            router = router_for(app)
            await router.notification("notifications/tools/list_changed", None)
            await router.notification(SENTINEL, None)
            await probe.wait_note(SENTINEL)
            assert "notifications/tools/list_changed" not in probe.notes
            assert {t.name for t in (await client.list_tools(cache_mode="refresh")).tools} == before


@requirement("S-PROTO-08")
async def test_a_2026_client_hears_of_tool_changes_on_its_listen_stream(tmp_path: Path) -> None:
    """S-PROTO-08: 2026-07-28 list changes ride subscriptions/listen."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "auto") as client:
            await client.list_tools()
            async with client.listen(tools_list_changed=True) as sub:
                await client.call_tool("change_tools", {})
                async for event in sub:
                    assert event == ToolsListChanged()
                    break
            assert "extra" in {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}


@requirement("S-PROTO-07", "S-PROTO-08", "S-PROTO-09")
async def test_a_2026_upstreams_news_reach_2025_clients(tmp_path: Path) -> None:
    """S-PROTO-07/08/09: with a 2026-07-28 upstream (listen stream), list changes and updates
    arrive."""
    probe = ClientProbe()
    with anyio.fail_after(30):
        async with (
            proto_gateway(tmp_path, upstream_mode="auto") as app,
            in_process(app, "legacy", probe) as client,
        ):
            assert app.upstream.protocol_version == "2026-07-28"
            await client.list_tools()
            await client.call_tool("change_tools", {})
            await probe.wait_note("notifications/tools/list_changed")
            await subscribe(client, "proto://greeting")
            await client.call_tool("touch", {"uri": "proto://greeting"})
            await probe.wait_note("notifications/resources/updated")
            await client.call_tool("change_prompts", {})
            await probe.wait_note("notifications/prompts/list_changed")


# -- cancellation -------------------------------------------------------------------------------


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-PROTO-10")
async def test_a_clients_cancel_reaches_the_upstream_call(tmp_path: Path, era: str) -> None:
    """S-PROTO-10: cancelling a tools/call cancels the upstream's handler (it counts the cancellation)."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path, spec=proto_spec()) as app, in_process(app, era) as client:
            started, done = anyio.Event(), list[Any]()
            async with anyio.create_task_group() as tg:
                tg.start_soon(sleeping_call, client, started, done)
                await started.wait()
                tg.cancel_scope.cancel()
            while (await stats(client))["cancelled"] < 1:
                pass  # the cancellation travels client → gateway → upstream (bounded by fail_after)
            assert done == [] and app.upstream.in_flight() == ()
