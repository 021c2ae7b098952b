"""Input the upstream needs from the client, over rounds and mid-call, in both eras (S-PROTO-21..28).

The upstream is `tests/e2e/rounds_upstream.py` (the `mcp` SDK): its `interview` tool asks for
elicitation, sampling and roots in every one of N rounds — InputRequiredResult rounds at
2026-07-28, server→client requests during the call at 2025-11-25. The client is the `mcp` SDK's
(`ClientProbe` answers with fixed values); every result is compared with the same client talking
to the upstream directly, and the audit is read after the gateway closed.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import PromptsListChanged, ToolsListChanged
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from gateway.app import GatewayApp
from gateway.protocol.waiting_call import STATE_PREFIX, run_interactive
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement
from tests.e2e._proto_rig import TOKEN, ClientProbe, http_client, http_server, in_process, proto_gateway
from tests.e2e.rounds_upstream import key

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

ROUNDS_UPSTREAM = Path(__file__).with_name("rounds_upstream.py")
KINDS = ["elicitation", "sampling", "roots"]
# client era → the era the gateway speaks to the upstream in (`serve --protocol`)
UPSTREAM_MODE = {"auto": "auto", "legacy": "legacy"}


def rounds_spec() -> UpstreamSpec:
    return UpstreamSpec(argv=(sys.executable, str(ROUNDS_UPSTREAM)))


@contextlib.asynccontextmanager
async def rounds_gateway(tmp: Path, era: str) -> AsyncIterator[GatewayApp]:
    async with proto_gateway(tmp, spec=rounds_spec(), upstream_mode=UPSTREAM_MODE[era]) as app:
        yield app


async def direct_text(era: str, rounds: int) -> str:
    params = StdioServerParameters(command=sys.executable, args=[str(ROUNDS_UPSTREAM)])
    async with Client(params, mode=era, **ClientProbe().kwargs()) as client:
        result = await client.call_tool("interview", {"rounds": rounds})
        return text_of(result)


def text_of(result: Any) -> str:
    return str(result.content[0].text)


async def stats(client: Client) -> dict[str, Any]:
    result = await client.call_tool("stats", {})
    return dict(result.structured_content or {})


def decisions(tmp: Path, tool: str) -> list[dict[str, Any]]:
    """The audit's decision lines (everything but outcomes) for `tool`."""
    lines = (json.loads(line) for line in (tmp / "state" / "audit.jsonl").read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line.get("tool") == tool and line.get("event") != "outcome"]


def answers_for(requests: dict[str, Any], tag: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, request in requests.items():
        if isinstance(request, types.ElicitRequest):
            out[name] = types.ElicitResult(action="accept", content={"answer": tag})
        elif isinstance(request, types.CreateMessageRequest):
            out[name] = types.CreateMessageResult(
                role="assistant", model="m", content=types.TextContent(type="text", text=tag)
            )
        else:
            out[name] = types.ListRootsResult(roots=[types.Root(uri=f"file:///{tag}")])
    return out


@pytest.mark.parametrize("rounds", [1, 2, 3])
@pytest.mark.parametrize("era", ["auto", "legacy"])
@requirement("S-PROTO-23")
async def test_elicitation_sampling_and_roots_through_n_rounds_equal_the_direct_call(
    tmp_path: Path, era: str, rounds: int
) -> None:
    """S-PROTO-23: N rounds (2026-07-28) or N×3 mid-call requests (2025-11-25): the same result as directly,
    every question asked once in order, the tool's effect once, one audit decision."""
    probe = ClientProbe()
    with anyio.fail_after(60):
        expected = await direct_text(era, rounds)
        async with rounds_gateway(tmp_path, era) as app, in_process(app, era, probe) as client:
            result = await client.call_tool("interview", {"rounds": rounds})
            seen = await stats(client)
    assert text_of(result) == expected
    assert expected.count("=") == 3 * rounds and "sampled!" in expected  # the answers really travelled
    asked = [method.split("/")[0] for method, _ in probe.asked]
    assert sorted(asked) == sorted(["elicitation", "sampling", "roots"] * rounds)
    assert seen["completed"] == 1
    assert seen["handled"] == (rounds + 1 if era == "auto" else 1)
    assert len(decisions(tmp_path, "interview")) == 1


@requirement("S-PROTO-24")
async def test_each_client_round_carries_one_upstream_round_and_only_the_gateways_state(tmp_path: Path) -> None:
    """S-PROTO-24: three upstream rounds are three client rounds of three questions each, under the upstream's own
    keys; the client only ever
    holds the gateway's `wmr.` state, never the upstream's; a tampered state is refused without reaching the
    upstream, and the untampered retry still finishes the call once."""
    with anyio.fail_after(60):
        async with rounds_gateway(tmp_path, "auto") as app, in_process(app, "auto", ClientProbe()) as client:
            session = client.session
            args = {"rounds": 3}
            result = await session.call_tool("interview", args, allow_input_required=True)
            shapes: list[list[str]] = []
            number = 0
            while isinstance(result, types.InputRequiredResult):
                number += 1
                state = result.request_state or ""
                assert state.startswith(STATE_PREFIX) and "upstream-state." not in state
                requests = dict(result.input_requests or {})
                shapes.append(sorted(requests))
                answers = answers_for(requests, f"r{number}")
                if number == 2:
                    before = (await stats(client))["handled"]
                    with pytest.raises(MCPError) as caught:
                        await session.call_tool(
                            "interview",
                            args,
                            input_responses=answers,
                            request_state=state[:-2] + ("aa" if not state.endswith("aa") else "bb"),
                            allow_input_required=True,
                        )
                    assert caught.value.code == types.INVALID_PARAMS
                    assert (await stats(client))["handled"] == before  # the refusal never reached the upstream
                result = await session.call_tool(
                    "interview", args, input_responses=answers, request_state=state, allow_input_required=True
                )
            seen = await stats(client)
    assert shapes == [sorted(key(kind, n) for kind in KINDS) for n in (1, 2, 3)]  # the upstream's own keys
    assert text_of(result) == " ".join(
        f"{kind}{n}={value}"
        for n in (1, 2, 3)
        for kind, value in zip(KINDS, (f"accept:r{n}", f"m:r{n}", f"file:///r{n}"), strict=True)
    )
    assert seen["completed"] == 1 and seen["handled"] == 4
    assert all(s.startswith("upstream-state.") for s in seen["states"])  # the upstream got its own states back
    assert len(decisions(tmp_path, "interview")) == 1


@requirement("S-PROTO-21")
async def test_a_2026_client_without_a_needed_capability_gets_32021_and_http_400(tmp_path: Path) -> None:
    """S-PROTO-21: the upstream's round asks for sampling, the client did not declare it: -32021 naming sampling,
    HTTP 400, and the tool never completes upstream."""
    statuses: list[int] = []

    async def record(response: httpx2.Response) -> None:
        statuses.append(response.status_code)

    with anyio.fail_after(60):
        async with rounds_gateway(tmp_path, "auto") as app, http_server(app) as settings:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
            http.event_hooks["response"].append(record)
            async with http:
                transport = streamable_http_client(settings.url("/mcp"), http_client=http)
                probe = ClientProbe(sampling=False)
                async with Client(transport, mode="auto", **probe.kwargs()) as client:
                    with pytest.raises(MCPError) as caught:
                        await client.call_tool("interview", {"rounds": 1, "kinds": ["sampling"]})
                    assert statuses[-1] == 400
                    seen = await stats(client)
    assert caught.value.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"sampling": {}}}
    assert seen["completed"] == 0 and probe.asked == []


@requirement("S-PROTO-22")
async def test_input_responses_that_are_not_an_object_are_invalid_params_and_run_nothing() -> None:
    """S-PROTO-22: `inputResponses: null` (or any non-object) on a 2026-07-28 call is -32602; no work runs."""
    ran: list[str] = []

    async def work() -> Any:
        ran.append("work")
        return {}

    for bad in (None, [], "x", 3):
        ctx = SimpleNamespace(protocol_version="2026-07-28", params={"name": "t", "inputResponses": bad})
        with pytest.raises(MCPError) as caught:
            await run_interactive(
                ctx,
                "s",
                binding="b",
                request_state=None,
                input_responses=None,
                work=work,
                log_floor=lambda _s: None,
            )
        assert caught.value.code == types.INVALID_PARAMS
    assert ran == []


@requirement("S-PROTO-25")
async def test_tool_list_changes_reach_an_open_listen_stream_over_http_refiltered(tmp_path: Path) -> None:
    """S-PROTO-25: a 2026-07-28 client that only listens hears of the upstream's tool change (no baseline yet);
    a change `tools_deny` hides is not announced, while a prompt change on the same stream is."""
    with anyio.fail_after(60):
        async with (
            proto_gateway(tmp_path / "open") as app,
            http_server(app) as settings,
            http_client(settings, "auto") as client,
            client.listen(tools_list_changed=True) as sub,
        ):
            await client.call_tool("change_tools", {})
            async for event in sub:
                assert event == ToolsListChanged()
                break
        async with (
            proto_gateway(tmp_path / "deny", tools_deny=["extra"]) as app,
            http_server(app) as settings,
            http_client(settings, "auto") as client,
        ):
            shown = {t.name for t in (await client.list_tools()).tools}
            got: list[Any] = []
            async with client.listen(tools_list_changed=True, prompts_list_changed=True) as sub:
                await client.call_tool("change_tools", {})
                await client.call_tool("change_prompts", {})
                with anyio.move_on_after(2):
                    async for event in sub:
                        got.append(event)
            assert got == [PromptsListChanged()]
            assert {t.name for t in (await client.list_tools(cache_mode="refresh")).tools} == shown


async def drive(session: Any, name: str, args: dict[str, Any]) -> tuple[list[tuple[list[str], str]], Any]:
    """One logical 2026-07-28 call driven by hand: approvals approved once, the upstream's questions answered."""
    rounds: list[tuple[list[str], str]] = []
    result = await session.call_tool(name, args, allow_input_required=True)
    while isinstance(result, types.InputRequiredResult):
        requests = dict(result.input_requests or {})
        rounds.append((sorted(requests), (result.request_state or "")[:4]))
        answers = {
            key: types.ElicitResult(
                action="accept",
                content={"decision": "approve_once"} if key == "winmcp-approval" else {"answer": "fine"},
            )
            for key in requests
        }
        result = await session.call_tool(
            name, args, input_responses=answers, request_state=result.request_state, allow_input_required=True
        )
    return rounds, result


@requirement("S-PROTO-24")
async def test_the_gateways_approval_round_and_the_upstreams_round_work_in_one_call(tmp_path: Path) -> None:
    """S-PROTO-24: `require_approval`: round 1 is the gateway's own approval (key `winmcp-approval`, signed
    state), round 2 the upstream's question (`wmr.` state); one ask, one allow, the tool's effect once."""
    with anyio.fail_after(60):
        async with (
            proto_gateway(tmp_path, spec=rounds_spec(), upstream_mode="auto", require_approval=True) as app,
            in_process(app, "auto", ClientProbe()) as client,
        ):
            rounds, result = await drive(client.session, "PowerShell", {"command": "Get-Date"})
            _, counted = await drive(client.session, "stats", {})  # unknown tools ask too under require_approval
    seen = dict(counted.structured_content or {})
    assert [keys for keys, _ in rounds] == [["winmcp-approval"], [key("elicitation", 1)]]
    assert rounds[0][1] != STATE_PREFIX and rounds[1][1] == STATE_PREFIX
    assert text_of(result) == "elicitation1=accept:fine"
    assert seen["completed"] == 1 and seen["handled"] == 2
    events = [line["event"] for line in decisions(tmp_path, "PowerShell")]
    assert events.count("ask") == 1 and events.count("allow") == 1 and "deny" not in events


async def replay_rounds(client: Client) -> tuple[list[str], list[int], Any]:
    """Three elicitation rounds answered in turn; at round 2 round 1's state is replayed first.

    Returns:
        The states the client was given, the replay's error code and whether `handled` moved, the final result.
    """
    session = client.session
    args = {"rounds": 3, "kinds": ["elicitation"]}
    result = await session.call_tool("interview", args, allow_input_required=True)
    states: list[str] = []
    refusal: list[int] = []
    while isinstance(result, types.InputRequiredResult):
        states.append(result.request_state or "")
        answers = answers_for(dict(result.input_requests or {}), f"r{len(states)}")
        if len(states) == 2:
            before = (await stats(client))["handled"]
            try:
                await session.call_tool(
                    "interview", args, input_responses=answers, request_state=states[0], allow_input_required=True
                )
            except MCPError as exc:
                refusal.append(exc.code)
            refusal.append(int((await stats(client))["handled"] != before))
        result = await session.call_tool(
            "interview", args, input_responses=answers, request_state=states[-1], allow_input_required=True
        )
    return states, refusal, result


async def seeded_call(client: Client) -> Any:
    """A first `interview` call carrying its answer, an unknown key and the gateway's own approval key."""
    own = types.ElicitResult(action="accept", content={"decision": "approve_once"})
    answer = types.ElicitResult(action="accept", content={"answer": "seeded"})
    extra = types.ElicitResult(action="accept", content={"foo": "bar"})
    responses = {key("elicitation", 1): answer, "unknown_extra": extra, "winmcp-approval": own}
    return await client.session.call_tool(
        "interview", {"rounds": 1, "kinds": ["elicitation"]}, input_responses=responses, allow_input_required=True
    )


@requirement("S-PROTO-26")
async def test_every_round_has_a_fresh_state_and_an_earlier_rounds_state_is_refused(tmp_path: Path) -> None:
    """S-PROTO-26: three rounds, three different `wmr.` states; replaying round 1's state with round 2's answers
    is INVALID_PARAMS and never reaches the upstream; the current state still finishes the call once."""
    with anyio.fail_after(60):
        async with rounds_gateway(tmp_path, "auto") as app, in_process(app, "auto", ClientProbe()) as client:
            states, refusal, result = await replay_rounds(client)
            seen = await stats(client)
    assert len(states) == 3 and len(set(states)) == 3 and all(s.startswith(STATE_PREFIX) for s in states)
    assert refusal == [types.INVALID_PARAMS, 0]  # refused, and the upstream's handler never ran for it
    assert text_of(result) == "elicitation1=accept:r1 elicitation2=accept:r2 elicitation3=accept:r3"
    assert seen["completed"] == 1 and seen["handled"] == 4
    assert len(decisions(tmp_path, "interview")) == 1


@requirement("S-PROTO-27")
async def test_input_responses_on_a_first_call_reach_the_upstream_without_the_gateways_own_key(
    tmp_path: Path,
) -> None:
    """S-PROTO-27: a first call carrying inputResponses and no requestState: the upstream's first call gets them
    (unknown keys too, as the client sent them) and completes at once; the gateway's `winmcp-approval` key never
    travels upstream."""
    with anyio.fail_after(60):
        async with rounds_gateway(tmp_path, "auto") as app, in_process(app, "auto", ClientProbe()) as client:
            result = await seeded_call(client)
            seen = await stats(client)
    assert isinstance(result, types.CallToolResult)
    assert text_of(result) == "elicitation1=accept:seeded"
    assert seen["handled"] == 1 and seen["completed"] == 1
    assert seen["keys"] == [sorted([key("elicitation", 1), "unknown_extra"])]
    assert len(decisions(tmp_path, "interview")) == 1


async def capabilities_seen(client: Client, kinds: list[str]) -> tuple[str, list[list[str]]]:
    """One `interview` round of `kinds`; its text and the client capabilities the upstream was told of."""
    result = await client.call_tool("interview", {"rounds": 1, "kinds": kinds})
    return text_of(result), (await stats(client))["caps"]


@requirement("S-PROTO-28")
async def test_a_2026_upstream_is_told_only_the_capabilities_the_calling_client_declared(tmp_path: Path) -> None:
    """S-PROTO-28: a client without sampling: every round of its call declares elicitation and roots to the upstream,
    never sampling, and the call completes; a client with all three: the upstream is told all three."""
    with anyio.fail_after(60):
        async with rounds_gateway(tmp_path / "narrow", "auto") as app:
            async with in_process(app, "auto", ClientProbe(sampling=False)) as client:
                narrow_text, narrow = await capabilities_seen(client, ["elicitation", "roots"])
            async with in_process(app, "auto", ClientProbe()) as client:
                _, both = await capabilities_seen(client, ["elicitation"])
    assert narrow_text.startswith("elicitation1=accept:") and "roots1=" in narrow_text
    assert narrow == [["elicitation", "roots"], ["elicitation", "roots"]]  # the first round and the retry
    assert both[len(narrow) :] == [["elicitation", "roots", "sampling"]] * 2
