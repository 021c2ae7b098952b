"""The simulated Windows-MCP 0.8.8 as an MCP server (DESIGN §9; S-SIM-01, S-SIM-02, S-SIM-07).

One call travels: apply pending control-file operations → desktop-control gate (everything but
ControlStatus refused with upstream's raw ``USER_CONTROL`` JSON) → known tool? → pydantic
argument validation → the tool → upstream's result envelope:

* Snapshot / Screenshot: ``[text, image]`` with an image, else the JSON-serialised ``["text"]``;
* tools with a wrapped ``outputSchema``: text + ``structuredContent {"result": …}`` +
  ``_meta {"fastmcp": {"wrap_result": true}}``; ControlStatus: text + the dict itself;
* Shortcut, App: text only; errors: ``isError`` with ``Error calling tool '{Tool}': {exc}``.

The server identifies itself as upstream does on the wire: ``windows-mcp`` / ``4.0.10``
(FastMCP reports its own version; see the samples' ``serverInfo``).
"""

from __future__ import annotations

import base64
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from pydantic import ValidationError

from gateway.sim.calls import Call, Data, Listed, Result, Text, ToolFailure
from gateway.sim.control import ControlReader, apply_pending
from gateway.sim.events import EventLog
from gateway.sim.render.text import json_list
from gateway.sim.scenarios.files import load_scenario
from gateway.sim.schema import ServedTools, served_tools
from gateway.sim.tools import files as tools_files
from gateway.sim.tools import input as tools_input
from gateway.sim.tools import observe as tools_observe
from gateway.sim.tools import system as tools_system
from gateway.sim.validation import make_validator
from gateway.sim.variants import apply_variants
from gateway.sim.world import World

log = logging.getLogger(__name__)

SERVER_NAME = "windows-mcp"
SERVER_VERSION = "4.0.10"
UPSTREAM_VERSION = "0.8.8"
WRAP_META = {"fastmcp": {"wrap_result": True}}

Handler = Callable[[Call], Awaitable[Result]]
HANDLERS: dict[str, Handler] = {
    "Click": tools_input.click,
    "Type": tools_input.type_,
    "Scroll": tools_input.scroll,
    "Move": tools_input.move,
    "Shortcut": tools_input.shortcut,
    "MultiSelect": tools_input.multi_select,
    "MultiEdit": tools_input.multi_edit,
    "Snapshot": tools_observe.snapshot,
    "Screenshot": tools_observe.screenshot,
    "Wait": tools_observe.wait,
    "WaitFor": tools_observe.wait_for,
    "DisplayInventory": tools_observe.display_inventory,
    "ControlStatus": tools_observe.control_status,
    "App": tools_system.app,
    "PowerShell": tools_system.powershell,
    "Process": tools_system.process,
    "Clipboard": tools_system.clipboard,
    "Notification": tools_system.notification,
    "Scrape": tools_system.scrape,
    "FileSystem": tools_files.filesystem,
    "Registry": tools_files.registry,
}


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult.model_validate({"content": [{"type": "text", "text": text}], "isError": True})


def envelope(result: Result, tool: Mapping[str, Any]) -> types.CallToolResult:
    """Upstream's FastMCP result shape for ``result`` of ``tool`` (FORMATS §1, §9)."""
    out_schema = tool.get("outputSchema")
    wrapped = bool(out_schema and out_schema.get("x-fastmcp-wrap-result"))
    if isinstance(result, Listed):
        if result.png is None:
            content: list[dict[str, Any]] = [{"type": "text", "text": json_list(result.text)}]
        else:
            content = [
                {"type": "text", "text": result.text},
                {
                    "type": "image",
                    "data": base64.b64encode(result.png).decode("ascii"),
                    "mimeType": "image/png",
                },
            ]
        return types.CallToolResult.model_validate({"content": content, "isError": False})
    if isinstance(result, Data):
        text = json.dumps(result.value, ensure_ascii=False, separators=(",", ":"))
        payload: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        if wrapped:
            payload.update({"_meta": WRAP_META, "structuredContent": {"result": result.value}})
        elif out_schema:
            payload["structuredContent"] = result.value
        return types.CallToolResult.model_validate(payload)
    payload = {"content": [{"type": "text", "text": result.text}], "isError": False}
    if wrapped:
        payload.update({"_meta": WRAP_META, "structuredContent": {"result": result.text}})
    return types.CallToolResult.model_validate(payload)


class Simulator:
    """The state behind one server: world, served tools, event log, control reader."""

    def __init__(
        self,
        world: World,
        tools: ServedTools,
        *,
        event_log: Path | None,
        control: Path | None,
        real_waits: bool = False,
    ) -> None:
        self.world, self.tools = world, tools
        self.events = EventLog(event_log)
        self.control = ControlReader(control)
        self.real_waits = real_waits
        self.validators = {t["name"]: make_validator(t["name"], t["inputSchema"]) for t in tools.tools}

    def refresh(self) -> None:
        apply_pending(self.world, self.control)

    def label_table(self) -> list[dict[str, Any]] | None:
        """Upstream's label table in the shape of the samples' ``*.labels.json`` (None: no capture yet)."""
        if self.world.labels is None:
            return None
        return [
            {
                "label": i, "kind": e.kind, "window": e.window, "control_type": e.control_type,
                "name": e.name, "center": list(e.center), "bbox_ltrb": e.bbox.as_list(),
            }
            for i, e in enumerate(self.world.labels)
        ]  # fmt: skip

    async def sleep(self, seconds: float) -> None:
        if self.real_waits and seconds > 0:
            await anyio.sleep(seconds)

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        """Serve one ``tools/call`` (see the module docstring for the order of checks)."""
        self.refresh()
        raw = dict(arguments or {})
        if self.world.user_control and name != "ControlStatus":
            status = self.world.control.as_dict()
            return _error(json.dumps({"code": self.world.control_code, "status": status}))
        tool = self.tools.get(name)
        if tool is None:
            return _error(f"Unknown tool: {name}")
        try:
            args = self.validators[name](raw)
        except ValidationError as exc:
            return _error(str(exc))
        if name in self.tools.added_tools:
            return envelope(Text(f"{name} is simulated by --mutate-schema and does nothing."), tool)
        for served, original in self.tools.renames.get(name, {}).items():
            args[original] = args.pop(served)
        for extra in self.tools.added_args.get(name, ()):
            args.pop(extra, None)
        for prop, default in _original_props(name).items():
            args.setdefault(prop, default)  # a dropped argument reads as its default
        call = Call(
            tool=name, args=args, raw_args=raw, world=self.world, events=self.events,
            refresh=self.refresh, sleep=self.sleep,
        )  # fmt: skip
        try:
            result = await HANDLERS[name](call)
        except ToolFailure as exc:
            return _error(f"Error calling tool '{name}': {exc}")
        except Exception as exc:  # an upstream tool raising anything else looks the same
            log.exception("simulated %s failed", name)
            return _error(f"Error calling tool '{name}': {exc}")
        return envelope(result, tool)


_DEFAULTS: dict[str, dict[str, Any]] = {}


def _original_props(name: str) -> dict[str, Any]:
    if not _DEFAULTS:
        for tool in served_tools().tools:
            props = tool["inputSchema"].get("properties", {})
            _DEFAULTS[tool["name"]] = {k: v.get("default") for k, v in props.items()}
    return _DEFAULTS.get(name, {})


def _env_path(env: Mapping[str, str], key: str) -> Path | None:
    value = env.get(key)
    return Path(value) if value else None


def build_simulator(
    scenario: str | Path = "default",
    *,
    event_log: Path | None = None,
    control: Path | None = None,
    mutations: tuple[str, ...] = (),
    environ: Mapping[str, str] | None = None,
    real_waits: bool = False,
) -> Simulator:
    """The simulator state without the MCP layer (used by :func:`build_server` and tests).

    ``environ`` None means the process environment: ``WINMCP_SIM_EVENT_LOG`` and
    ``WINMCP_SIM_CONTROL`` then stand in for missing paths, and upstream's ``WINDOWS_MCP_*``
    variables apply, as they would to a real Windows-MCP started with that environment.
    """
    env: Mapping[str, str] = os.environ if environ is None else environ
    event_log = event_log or _env_path(env, "WINMCP_SIM_EVENT_LOG")
    control = control or _env_path(env, "WINMCP_SIM_CONTROL")
    world = World(load_scenario(scenario), environ=env)
    tools = apply_variants(served_tools(mutations), env)  # WINMCP_SIM_TOOL_VARIANT (S-PIN-09)
    return Simulator(world, tools, event_log=event_log, control=control, real_waits=real_waits)


def build_server(
    scenario: str | Path = "default",
    *,
    event_log: Path | None = None,
    control: Path | None = None,
    mutations: tuple[str, ...] = (),
    environ: Mapping[str, str] | None = None,
    real_waits: bool = False,
) -> Server[Any]:
    """An MCP server impersonating Windows-MCP 0.8.8 over a virtual desktop (S-SIM-01).

    Args:
        scenario: a built-in scenario name (:func:`scenario_names`) or a JSON/TOML file.
        event_log: JSON-lines file receiving every side effect and capture (S-SIM-09).
        control: JSON-lines file of world changes applied before each call (S-SIM-08).
        mutations: ``--mutate-schema`` specs applied to the served tools (S-SIM-10).
        environ: where ``WINMCP_SIM_EVENT_LOG`` / ``WINMCP_SIM_CONTROL`` (used when the path
            arguments are None) and upstream's ``WINDOWS_MCP_SCREENSHOT_SCALE`` /
            ``WINDOWS_MCP_MAX_TREE_ELEMENTS`` are read; default ``os.environ``.
        real_waits: make Wait and WaitFor really sleep (default: virtual time).

    Returns:
        A lowlevel ``Server``; all its sessions share one desktop and one label table.

    Raises:
        gateway.sim.scenarios.files.ScenarioError: unknown scenario or bad scenario file.
        ValueError: a malformed mutation spec.
    """
    sim = build_simulator(
        scenario,
        event_log=event_log,
        control=control,
        mutations=mutations,
        environ=environ,
        real_waits=real_waits,
    )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in sim.tools.tools])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await sim.call(params.name, params.arguments)

    server: Server[Any] = Server(SERVER_NAME, version=SERVER_VERSION, on_list_tools=list_tools, on_call_tool=call_tool)
    server.simulator = sim  # type: ignore[attr-defined]  # for in-process tests and the demo
    return server
