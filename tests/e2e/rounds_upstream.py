"""A small MCP upstream whose tool needs the client's input over several rounds (S-PROTO-23).

Run over stdio: ``python tests/e2e/rounds_upstream.py`` (it imports nothing from this repository).

Tool `interview {"rounds": N, "kinds": ["elicitation", "sampling", "roots"]}`: N rounds, each asking
the client one question of every listed kind, then one result naming every answer in order.
Tool `PowerShell {"command": …}` (Windows-MCP's name, so the gateway's approval asks first): one
round with one elicitation.

* 2026-07-28: every round but the last answers `InputRequiredResult` with the round's questions
  (keys `ask:elicitation@K`, `ask:sampling@K`, `ask:roots@K`: unlike any key the gateway makes) and
  a `requestState` carrying the answers so far, HMAC-signed with this process's secret: a state it
  did not issue, or one changed on the way, is INVALID_PARAMS
  (as the conformance suite's tampered-state scenario expects of a server).
* 2025-11-25: the same questions as server→client requests during the one call.

The tool's effect (counted by `completed` in `stats`) happens once per logical call, when the
last answer is in: a retried round never repeats it. `stats` also tells how many times the
`interview` handler ran (`handled`: N + 1 at 2026-07-28, 1 at 2025-11-25), the states it saw, and per
2026-07-28 round the `inputResponses` keys (`keys`) and declared client capabilities (`caps`) it got.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

SECRET = secrets.token_bytes(32)
STATE_MARK = "upstream-state."  # the client of the gateway must never see a state of ours
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
TOOLS = [
    {
        "name": "interview",
        "description": "Ask the client N rounds of questions, then answer.",
        "inputSchema": {
            "type": "object",
            "properties": {"rounds": {"type": "integer"}, "kinds": {"type": "array", "items": {"type": "string"}}},
        },
    },
    {"name": "stats", "description": "What this server has seen.", "inputSchema": {"type": "object"}},
    {
        # Windows-MCP's name: the gateway classifies it SYSTEM, so `require_approval` asks a person first.
        "name": "PowerShell",
        "description": "Run a command after one round of questions.",
        "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
    },
]


class Stats:
    def __init__(self) -> None:
        self.handled = 0
        self.completed = 0
        self.states: list[str] = []
        self.keys: list[list[str]] = []  # the inputResponses keys each 2026-07-28 round carried
        self.caps: list[list[str]] = []  # the client capabilities each 2026-07-28 round declared


def key(kind: str, number: int) -> str:
    """This server's key for round `number`'s question of `kind`."""
    return f"ask:{kind}@{number}"


def _question(kind: str, number: int) -> Any:
    if kind == "elicitation":
        return types.ElicitRequest(
            params=types.ElicitRequestFormParams(message=f"question {number}", requested_schema=SCHEMA)
        )
    if kind == "sampling":
        text = types.TextContent(type="text", text=f"prompt {number}")
        message = types.SamplingMessage(role="user", content=text)
        return types.CreateMessageRequest(params=types.CreateMessageRequestParams(messages=[message], max_tokens=16))
    return types.ListRootsRequest()


def _answer_text(kind: str, answer: Any) -> str:
    data = answer.model_dump(by_alias=True, exclude_none=True, mode="json") if hasattr(answer, "model_dump") else answer
    if kind == "elicitation":
        return f"{data.get('action')}:{(data.get('content') or {}).get('answer')}"
    if kind == "sampling":
        return f"{data.get('model')}:{(data.get('content') or {}).get('text')}"
    return ",".join(str(r.get("uri")) for r in data.get("roots", []))


def _seal(answers: list[str]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(answers).encode()).decode()
    mac = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    return f"{STATE_MARK}{body}.{mac}"


def _open(state: str) -> list[str]:
    body, _, mac = state.removeprefix(STATE_MARK).rpartition(".")
    good = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    if not state.startswith(STATE_MARK) or not hmac.compare_digest(mac, good):
        raise MCPError(types.INVALID_PARAMS, "requestState was not issued by this server or was altered")
    answers: list[str] = json.loads(base64.urlsafe_b64decode(body))
    return answers


def build(stats: Stats) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in TOOLS])

    async def modern(params: types.CallToolRequestParams, rounds: int, kinds: list[str]) -> Any:
        answers = _open(params.request_state) if params.request_state else []
        if params.request_state:
            stats.states.append(params.request_state)
        done = len(answers) // len(kinds)
        responses = params.input_responses or {}
        stats.keys.append(sorted(responses))
        if done < rounds and responses:
            number = done + 1
            missing = [k for k in kinds if key(k, number) not in responses]
            if missing:
                raise MCPError(types.INVALID_PARAMS, f"round {number} lacks answers for {missing}")
            answers += [f"{k}{number}={_answer_text(k, responses[key(k, number)])}" for k in kinds]
            done = number
        if done < rounds:
            number = done + 1
            return types.InputRequiredResult(
                input_requests={key(k, number): _question(k, number) for k in kinds}, request_state=_seal(answers)
            )
        stats.completed += 1
        return types.CallToolResult(content=[types.TextContent(type="text", text=" ".join(answers))])

    async def legacy(ctx: ServerRequestContext[Any, Any], rounds: int, kinds: list[str]) -> Any:
        answers = []
        result_types: dict[str, type[Any]] = {
            "elicitation": types.ElicitResult,
            "sampling": types.CreateMessageResult,
            "roots": types.ListRootsResult,
        }
        meta = ServerMessageMetadata(related_request_id=ctx.request_id)
        for number in range(1, rounds + 1):
            for kind in kinds:
                answer: Any = await ctx.session.send_request(_question(kind, number), result_types[kind], metadata=meta)
                answers.append(f"{kind}{number}={_answer_text(kind, answer)}")
        stats.completed += 1
        return types.CallToolResult(content=[types.TextContent(type="text", text=" ".join(answers))])

    async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> Any:
        args = params.arguments or {}
        if params.name == "stats":
            data = {
                "handled": stats.handled,
                "completed": stats.completed,
                "states": stats.states,
                "keys": stats.keys,
                "caps": stats.caps,
            }
            return types.CallToolResult(content=[types.TextContent(type="text", text="stats")], structured_content=data)
        if params.name == "PowerShell":
            args = {"rounds": 1, "kinds": ["elicitation"]}
        elif params.name != "interview":
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        stats.handled += 1
        rounds = int(args.get("rounds", 1))
        kinds = [str(k) for k in args.get("kinds", ["elicitation", "sampling", "roots"])]
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            meta = (ctx.params or {}).get("_meta") or {}
            stats.caps.append(sorted(meta.get("io.modelcontextprotocol/clientCapabilities") or {}))
            return await modern(params, rounds, kinds)
        return await legacy(ctx, rounds, kinds)

    return Server("rounds-upstream", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve() -> None:
    server = build(Stats())
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve)
