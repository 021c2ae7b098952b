"""An MCP upstream implementing what the official conformance suite's server scenarios call (issue 14).

    python tests/e2e/conformance_upstream.py stdio          # behind the gateway
    python tests/e2e/conformance_upstream.py http PORT      # served directly (streamable HTTP, /mcp)

It imports nothing from this repository. The npm everything server predates 2026-07-28, so the
suite's 2026-07-28 scenarios fail against it directly and prove nothing through the gateway;
this server implements them (the `test_*` tools, resources and prompts the scenarios in
`@modelcontextprotocol/conformance` name), so `scripts/conformance.py --upstream python` can
compare it served directly with the same server behind the gateway.

* 2025-11-25: sampling, elicitation and roots are server→client requests during the call.
* 2026-07-28: the `test_input_required_result_*` tools answer `InputRequiredResult`s whose
  `requestState` is HMAC-signed by this process (round number, answers so far, a nonce, the
  tool's name): a state it did not issue, or one changed on the way, is INVALID_PARAMS, as the
  tampered-state scenario expects. The input requests offered follow the client's declared
  capabilities (`_meta['io.modelcontextprotocol/clientCapabilities']`); `test_missing_capability`
  needs sampling and answers -32021 (MissingRequiredClientCapabilityError) without it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import sys
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, PromptsListChanged, ToolsListChanged
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

SECRET = secrets.token_bytes(32)
STATE_MARK = "cu1."
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
MISSING_CAPABILITY = -32021
IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
AUDIO = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
SCHEMA_2020 = "https://json-schema.org/draft/2020-12/schema"
JSON_SCHEMA_TOOL: dict[str, Any] = {
    "$schema": SCHEMA_2020,
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}
EMPTY: dict[str, Any] = {"type": "object", "properties": {}}


def _form(message: str, field: str, kind: str = "string") -> dict[str, Any]:
    return {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {"type": "object", "properties": {field: {"type": kind}}, "required": [field]},
        },
    }


def _sampling(text: str, max_tokens: int) -> dict[str, Any]:
    return {
        "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": text}}], "maxTokens": max_tokens},
    }


ROOTS: dict[str, Any] = {"method": "roots/list", "params": {}}
# The rounds of each input-required tool: one mapping of input key → input request per round.
ROUNDS: dict[str, list[dict[str, dict[str, Any]]]] = {
    "test_input_required_result_elicitation": [{"user_name": _form("What is your name?", "name")}],
    "test_input_required_result_sampling": [{"capital_question": _sampling("What is the capital of France?", 100)}],
    "test_input_required_result_list_roots": [{"client_roots": ROOTS}],
    "test_input_required_result_request_state": [{"confirm": _form("Please confirm", "ok", "boolean")}],
    "test_input_required_result_multiple_inputs": [
        {
            "user_name": _form("What is your name?", "name"),
            "greeting": _sampling("Generate a greeting", 50),
            "client_roots": ROOTS,
        }
    ],
    "test_input_required_result_multi_round": [
        {"step1": _form("Step 1: What is your name?", "name")},
        {"step2": _form("Step 2: What is your favorite color?", "color")},
    ],
    "test_input_required_result_tampered_state": [{"confirm": _form("Please confirm", "ok", "boolean")}],
    "test_input_required_result_capabilities": [
        {"user_name": _form("What is your name?", "name"), "greeting": _sampling("Generate a greeting", 50)}
    ],
    "test_missing_capability": [{"completion": _sampling("Say something", 20)}],
    "test_streaming_elicitation": [{"answer": _form("Streaming question", "answer")}],
    "test_input_required_result_prompt": [{"user_context": _form("What context should the prompt use?", "context")}],
    # 2025-11-25 tools asking mid-call (the same questions, as server→client requests).
    "test_sampling": [{"q": _sampling("{prompt}", 100)}],
    "test_elicitation": [{"q": _form("{message}", "response")}],
}


def _enum_question(name: str) -> dict[str, Any]:
    """The elicitation of the SEP-1034 (defaults) or SEP-1330 (enums) scenario."""
    if name == "test_elicitation_sep1034_defaults":
        props: dict[str, Any] = {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "description": "Verification status", "default": True},
        }
    else:
        options = [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"},
            {"const": "value3", "title": "Third Option"},
        ]
        props = {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": options},
            "legacyEnum": {
                "type": "string",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": options}},
        }
    return {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Please review and update the form fields",
            "requestedSchema": {"type": "object", "properties": props, "required": []},
        },
    }


for _name in ("test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"):
    ROUNDS[_name] = [{"q": _enum_question(_name)}]
CAPABILITY_OF = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
RESULT_TYPE: dict[str, type[Any]] = {
    "elicitation/create": types.ElicitResult,
    "sampling/createMessage": types.CreateMessageResult,
    "roots/list": types.ListRootsResult,
}


def _tool(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": schema or EMPTY}


TOOLS: list[dict[str, Any]] = [
    _tool("test_simple_text", "Simple text content"),
    _tool("test_image_content", "Image content"),
    _tool("test_audio_content", "Audio content"),
    _tool("test_embedded_resource", "Embedded resource content"),
    _tool("test_multiple_content_types", "Text, image and resource content"),
    _tool("test_tool_with_logging", "Logs three messages during the call"),
    _tool("test_logging_tool", "Logs one message during the call"),
    _tool("test_tool_with_progress", "Reports progress three times"),
    _tool("test_error_handling", "Always fails"),
    _tool("test_reconnection", "Closes its SSE stream mid-call, then answers"),
    _tool(
        "test_sampling",
        "Asks the client's model",
        {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
    ),
    _tool(
        "test_elicitation",
        "Asks the user",
        {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    ),
    _tool("test_elicitation_sep1034_defaults", "Elicitation with defaults (SEP-1034)"),
    _tool("test_elicitation_sep1330_enums", "Elicitation with enum schemas (SEP-1330)"),
    {
        "name": "json_schema_2020_12_tool",
        "description": "JSON Schema 2020-12 features",
        "inputSchema": JSON_SCHEMA_TOOL,
    },
    _tool("test_trigger_tool_change", "Changes the tool list"),
    _tool("test_trigger_prompt_change", "Changes the prompt list"),
    *(_tool(name, "Input-required rounds (SEP-2322)") for name in ROUNDS if name.startswith("test_input_required")),
    _tool("test_missing_capability", "Needs the client's sampling capability"),
    _tool("test_streaming_elicitation", "Asks one elicitation (never a request on the stream)"),
]
PROMPTS: list[dict[str, Any]] = [
    {"name": "test_simple_prompt", "description": "A simple prompt"},
    {
        "name": "test_prompt_with_arguments",
        "description": "A prompt with arguments",
        "arguments": [{"name": "arg1", "required": True}, {"name": "arg2", "required": True}],
    },
    {
        "name": "test_prompt_with_embedded_resource",
        "description": "A prompt embedding a resource",
        "arguments": [{"name": "resourceUri", "required": True}],
    },
    {"name": "test_prompt_with_image", "description": "A prompt with an image"},
    {"name": "test_input_required_result_prompt", "description": "A prompt that asks for context first"},
]
EXTRA_TOOL = _tool("test_added_tool", "Listed after test_trigger_tool_change")
EXTRA_PROMPT = {"name": "test_added_prompt", "description": "Listed after test_trigger_prompt_change"}
TEXT = "This is the content of the static text resource."


class State:
    def __init__(self) -> None:
        self.extra_tool = False
        self.extra_prompt = False
        self.subscribed: set[str] = set()
        self.bus = InMemorySubscriptionBus()


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def _modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _seal(payload: dict[str, Any]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(payload, sort_keys=True).encode()).decode()
    mac = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    return f"{STATE_MARK}{body}.{mac}"


def _open(state: str, name: str) -> dict[str, Any]:
    body, _, mac = state.removeprefix(STATE_MARK).rpartition(".")
    good = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    if not state.startswith(STATE_MARK) or not hmac.compare_digest(mac, good):
        raise MCPError(types.INVALID_PARAMS, "requestState failed its integrity check")
    payload: dict[str, Any] = json.loads(base64.urlsafe_b64decode(body))
    if payload.get("tool") != name:
        raise MCPError(types.INVALID_PARAMS, "requestState belongs to another request")
    return payload


def _declared(ctx: ServerRequestContext[Any, Any]) -> set[str]:
    """The client capabilities this request declares (2026-07-28: its own `_meta`; else the session's)."""
    if _modern(ctx):
        meta = (ctx.params or {}).get("_meta") or {}
        caps = meta.get(CAPS_KEY) if isinstance(meta, dict) else None
        return {k for k in (caps or {}) if k in ("sampling", "elicitation", "roots")}
    found = set()
    for name, cap in (
        ("sampling", types.ClientCapabilities(sampling=types.SamplingCapability())),
        ("elicitation", types.ClientCapabilities(elicitation=types.ElicitationCapability())),
        ("roots", types.ClientCapabilities(roots=types.RootsCapability())),
    ):
        if ctx.session.check_client_capability(cap):
            found.add(name)
    return found


def _summary(method: str, answer: Any) -> str:
    data = answer.model_dump(by_alias=True, exclude_none=True, mode="json") if hasattr(answer, "model_dump") else answer
    if not isinstance(data, dict):
        raise MCPError(types.INVALID_PARAMS, f"the response to {method} must be an object")
    if method == "elicitation/create":
        return f"action={data.get('action')}, content={json.dumps(data.get('content') or {}, sort_keys=True)}"
    if method == "sampling/createMessage":
        content = data.get("content")
        return str(content.get("text") if isinstance(content, dict) else content)
    return ",".join(str(r.get("uri")) for r in data.get("roots", []) if isinstance(r, dict))


def _fill(request: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    filled: dict[str, Any] = json.loads(
        json.dumps(request)
        .replace("{prompt}", str(args.get("prompt", "")))
        .replace("{message}", str(args.get("message", "")))
    )
    return filled


async def _rounds(
    ctx: ServerRequestContext[Any, Any], name: str, params: Any, args: dict[str, Any]
) -> list[str] | types.InputRequiredResult:
    """Run the tool's rounds; the answers in order, or the next InputRequiredResult (module docstring)."""
    declared = _declared(ctx)
    steps = [
        {k: _fill(q, args) for k, q in step.items() if CAPABILITY_OF[q["method"]] in declared or not _modern(ctx)}
        for step in ROUNDS[name]
    ]
    needed = {CAPABILITY_OF[q["method"]] for step in ROUNDS[name] for q in step.values()}
    if name == "test_missing_capability" and "sampling" not in declared:
        raise MCPError(
            MISSING_CAPABILITY,
            "test_missing_capability needs the client's sampling capability",
            {"requiredCapabilities": {"sampling": {}}},
        )
    if not _modern(ctx):
        missing = needed - declared
        if missing:
            return [f"{sorted(missing)} not supported by the client"]
        answers = []
        meta = ServerMessageMetadata(related_request_id=ctx.request_id)
        for step in steps:
            for question in step.values():
                typed: Any = _SERVER_REQUEST(question)
                answer = await ctx.session.send_request(typed, RESULT_TYPE[question["method"]], metadata=meta)
                answers.append(_summary(question["method"], answer))
        return answers
    payload: dict[str, Any] = (
        _open(params.request_state, name) if params.request_state else {"tool": name, "round": 0, "answers": []}
    )
    done, answers = int(payload["round"]), list(payload["answers"])
    responses = params.input_responses or {}
    if done < len(steps) and steps[done] and all(k in responses for k in steps[done]):
        answers += [f"{k}: {_summary(q['method'], responses[k])}" for k, q in steps[done].items()]
        done += 1
    while done < len(steps) and not steps[done]:
        done += 1  # a round whose every question needs a capability the client lacks
    if done < len(steps):
        state = _seal({"tool": name, "round": done, "answers": answers, "nonce": secrets.token_hex(8)})
        return types.InputRequiredResult.model_validate(
            {"resultType": "input_required", "inputRequests": steps[done], "requestState": state}
        )
    if params.request_state:
        answers.append("state-ok")
    return answers


def _SERVER_REQUEST(question: dict[str, Any]) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(types.ServerRequest).validate_python(question)


def build(state: State) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tools = TOOLS + ([EXTRA_TOOL] if state.extra_tool else [])
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def log(ctx: ServerRequestContext[Any, Any], text: str) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await ctx.session.send_log_message("info", text, logger="conformance", related_request_id=ctx.request_id)

    async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> Any:
        name, args = params.name, dict(params.arguments or {})
        if name == "test_simple_text":
            return _text("This is a simple text response for testing.")
        if name == "test_image_content":
            return types.CallToolResult(content=[types.ImageContent(type="image", data=IMAGE, mime_type="image/png")])
        if name == "test_audio_content":
            return types.CallToolResult(content=[types.AudioContent(type="audio", data=AUDIO, mime_type="audio/wav")])
        if name == "test_embedded_resource":
            resource = types.TextResourceContents(
                uri="test://embedded-resource", mime_type="text/plain", text="This is an embedded resource content."
            )
            return types.CallToolResult(content=[types.EmbeddedResource(type="resource", resource=resource)])
        if name == "test_multiple_content_types":
            resource = types.TextResourceContents(
                uri="test://mixed-content-resource", mime_type="application/json", text='{"test": "data", "value": 123}'
            )
            return types.CallToolResult(
                content=[
                    types.TextContent(type="text", text="Multiple content types test:"),
                    types.ImageContent(type="image", data=IMAGE, mime_type="image/png"),
                    types.EmbeddedResource(type="resource", resource=resource),
                ]
            )
        if name == "test_tool_with_logging":
            for text in ("Tool execution started", "Tool processing data", "Tool execution completed"):
                await log(ctx, text)
                await anyio.sleep(0.05)
            return _text("Tool with logging executed successfully")
        if name == "test_logging_tool":
            await log(ctx, "a log entry the client did not opt in to")
            return _text("logged")
        if name == "test_tool_with_progress":
            for step in (0, 50, 100):
                await ctx.session.report_progress(step, 100, f"Completed step {step} of 100")
                await anyio.sleep(0.05)
            return _text("progress done")
        if name == "test_error_handling":
            return types.CallToolResult(
                content=[types.TextContent(type="text", text="This tool intentionally returns an error for testing")],
                is_error=True,
            )
        if name == "test_reconnection":
            if ctx.close_sse_stream is not None:
                await ctx.close_sse_stream()
            await anyio.sleep(0.1)
            return _text("Reconnection test completed successfully.")
        if name == "test_trigger_tool_change":
            state.extra_tool = not state.extra_tool
            await _announce(ctx, ToolsListChanged(), types.ToolListChangedNotification())
            return _text("tool list changed")
        if name == "test_trigger_prompt_change":
            state.extra_prompt = not state.extra_prompt
            await _announce(ctx, PromptsListChanged(), types.PromptListChangedNotification())
            return _text("prompt list changed")
        if name == "json_schema_2020_12_tool" or (name == "test_added_tool" and state.extra_tool):
            return _text(f"{name} called")
        if name in ROUNDS and name != "test_input_required_result_prompt":
            outcome = await _rounds(ctx, name, params, args)
            if isinstance(outcome, types.InputRequiredResult):
                return outcome
            if name in ("test_sampling",):
                return _text(f"LLM response: {outcome[0]}")
            if name == "test_elicitation":
                return _text(f"User response: {outcome[0]}")
            if name.startswith("test_elicitation_sep"):
                return _text(f"Elicitation completed: {outcome[0]}")
            return _text("; ".join(outcome) or "done")
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")

    async def _announce(ctx: ServerRequestContext[Any, Any], event: Any, note: Any) -> None:
        if _modern(ctx):
            await state.bus.publish(event)
        else:
            await ctx.session.send_notification(note)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(uri="test://static-text", name="static-text", mime_type="text/plain"),
                types.Resource(uri="test://static-binary", name="static-binary", mime_type="image/png"),
                types.Resource(uri="test://watched-resource", name="watched-resource", mime_type="text/plain"),
            ]
        )

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template="test://template/{id}/data", name="template", mime_type="application/json"
                )
            ]
        )

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri in ("test://static-text", "test://watched-resource"):
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text=TEXT)]
            )
        if uri == "test://static-binary":
            return types.ReadResourceResult(
                contents=[types.BlobResourceContents(uri=uri, mime_type="image/png", blob=IMAGE)]
            )
        if uri.startswith("test://template/") and uri.endswith("/data"):
            item = uri.removeprefix("test://template/").removesuffix("/data")
            text = json.dumps({"id": item, "templateTest": True, "data": f"Data for ID: {item}"})
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
            )
        raise MCPError(types.INVALID_PARAMS, "Resource not found", {"uri": uri})

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        state.subscribed.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        state.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        prompts = PROMPTS + ([EXTRA_PROMPT] if state.extra_prompt else [])
        return types.ListPromptsResult(prompts=[types.Prompt.model_validate(p) for p in prompts])

    async def get_prompt(ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams) -> Any:
        args = params.arguments or {}

        def user(content: Any) -> types.GetPromptResult:
            return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=content)])

        if params.name == "test_simple_prompt":
            return user(types.TextContent(type="text", text="This is a simple prompt for testing."))
        if params.name == "test_prompt_with_arguments":
            text = f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"
            return user(types.TextContent(type="text", text=text))
        if params.name == "test_prompt_with_embedded_resource":
            uri = str(args.get("resourceUri", "test://example-resource"))
            resource = types.TextResourceContents(
                uri=uri, mime_type="text/plain", text="Embedded resource content for testing."
            )
            return user(types.EmbeddedResource(type="resource", resource=resource))
        if params.name == "test_prompt_with_image":
            return user(types.ImageContent(type="image", data=IMAGE, mime_type="image/png"))
        if params.name == "test_input_required_result_prompt":
            outcome = await _rounds(ctx, params.name, params, {})
            if isinstance(outcome, types.InputRequiredResult):
                return outcome
            return user(types.TextContent(type="text", text="Prompt with " + "; ".join(outcome)))
        if params.name == "test_added_prompt" and state.extra_prompt:
            return user(types.TextContent(type="text", text="added"))
        raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}")

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        values = [v for v in ("paris", "park", "party") if v.startswith(params.argument.value)]
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        return types.EmptyResult()

    server: Server[Any] = Server(
        "conformance-upstream",
        version="1.0",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=ListenHandler(state.bus),
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    return server


async def serve_stdio() -> None:
    server = with_list_changed(build(State()))
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def with_list_changed(server: Server[Any]) -> Server[Any]:
    """2025-11-25: declare listChanged for tools, prompts and resources on every transport."""
    plain = server.create_initialization_options

    def options(notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
        return plain(notification_options or NotificationOptions(True, True, True), *args, **kwargs)

    server.create_initialization_options = options  # type: ignore[method-assign]
    return server


def serve_http(port: int) -> None:
    import uvicorn

    server = with_list_changed(build(State()))
    app = server.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        serve_http(int(sys.argv[2]))
    else:
        anyio.run(serve_stdio)
