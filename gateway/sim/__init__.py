"""A simulated Windows-MCP 0.8.8 over a virtual desktop, for the demo and the tests (DESIGN §9).

It serves upstream's exact ``tools/list`` and answers in upstream's exact formats (FORMATS.md),
executes nothing on the host, records every side effect to an event log, and lets tests change
the desktop between calls through a control file. Entry points:

* :func:`build_server` — an in-process MCP server (``mcp.Client(server)``);
* :func:`main` — ``python -m gateway.sim [--scenario …] [--event-log …] [--control …]`` over stdio;
* :func:`scenario_names`, :func:`read_events`, :func:`send_control`.
"""

from gateway.sim.control import send_control
from gateway.sim.events import read_events
from gateway.sim.run import main
from gateway.sim.scenarios.builtin import scenario_names
from gateway.sim.server import build_server

__all__ = ["build_server", "main", "read_events", "scenario_names", "send_control"]
