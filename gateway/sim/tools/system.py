"""System tools: App, PowerShell, Process, Clipboard, Notification, Scrape (FORMATS §9).

Nothing runs on the host (S-SIM-09): PowerShell answers from the scenario's canned table
(default: the text upstream's fake capture printed), App opens windows in the virtual desktop,
Process kills fake processes (and closes their windows), Scrape serves canned pages.
"""

from __future__ import annotations

import contextlib
import difflib
import ipaddress
import json
import posixpath
from dataclasses import replace
from urllib.parse import urlparse

from gateway.sim.calls import Call, Result, Text, ToolFailure, lenient_bool
from gateway.sim.capture import CaptureRequest
from gateway.sim.model import Process, Rect, Window
from gateway.sim.render.tables import tabulate_simple

SYSTEM_EXECUTABLES = frozenset(
    p.lower()
    for p in (
        "C:/Windows/System32/whoami.exe", "C:/Windows/System32/notepad.exe", "C:/Windows/System32/cmd.exe",
        "C:/Windows/System32/calc.exe", "C:/Windows/System32/WindowsPowerShell/v1.0/powershell.exe",
        "C:/Windows/explorer.exe",
    )
)  # fmt: skip
POWERSHELL_DEFAULT = "(fake upstream: PowerShell not executed on Linux) {command}\r\n"
PAGE_DEFAULT = (
    "Fake page\n=========\n\nThis is canned content for <{url}>; the fake upstream never touches the network."
)


def fuzzy_score(query: str, candidate: str) -> float:
    """0-100 similarity in the spirit of upstream's fuzzy matching (threshold 70)."""
    q, c = query.casefold().strip(), candidate.casefold().strip()
    if not q:
        return 0.0
    if q == c:
        return 100.0
    if q in c:
        return 90.0
    return 100.0 * difflib.SequenceMatcher(None, q, c).ratio()


def _best(query: str, names: list[str]) -> str | None:
    scored = sorted(((fuzzy_score(query, n), n) for n in names), key=lambda s: -s[0])
    return scored[0][1] if scored and scored[0][0] >= 70 else None


def _launch(call: Call, name: str | None) -> Result:
    if not name:
        raise ToolFailure("Invalid app identifier: name is required for launch mode")
    found = _best(name, [app.name for app in call.world.start_menu])
    if found is None:
        return Text(f"{name} not found in start menu.")
    app = next(a for a in call.world.start_menu if a.name == found)
    pid: int | None = None
    if app.window is not None:  # an entry without a window only records the launch
        pid = call.world.new_pid()
        call.world.processes.append(
            Process(pid=pid, name=app.process or app.window.process or f"{found.lower().replace(' ', '')}.exe")
        )
        call.world.add_window(replace(app.window, pid=pid), focus=True)
    call.effect("app_launch", None, app=found, pid=pid)
    if not app.detected:
        return Text(f"Launching {name.title()} sent, but window not detected yet.")
    return Text(f"{name.title()} launched.")


def _launch_executable(call: Call) -> Result:
    a = call.args
    exe = a["executable"]
    if not exe:
        raise ToolFailure("executable is required for launch_executable mode")
    known = exe.replace("\\", "/").lower() in SYSTEM_EXECUTABLES
    with contextlib.suppress(ValueError):  # a path outside the fake home is simply unknown
        known = known or call.world.fs.is_file(call.world.fs.resolve(exe))
    if not known:
        raise ToolFailure(f"Executable not found: {exe}")
    args = a["args"]
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            args = args.split()
    args = [str(x) for x in (args or [])]
    pid = call.world.new_pid()
    call.world.processes.append(Process(pid=pid, name=posixpath.basename(exe.replace("\\", "/"))))
    call.effect("app_launch_executable", None, pid=pid)
    return Text(json.dumps({"pid": pid, "executable": exe, "args": args, "cwd": a["cwd"]}, indent=2))


def _find_window(call: Call, name: str) -> Window | None:
    apps = [w for w in call.world.windows if w.kind == "app"]
    found = _best(name, [w.title for w in apps])
    return None if found is None else call.world.window(found)


def _refresh_labels(call: Call) -> None:
    call.capture(CaptureRequest(use_vision=False, use_annotation=False, use_ui_tree=True))


def _resize(call: Call) -> Result:
    a = call.args
    win = _find_window(call, a["name"]) if a["name"] else call.world.focused_window
    if win is None:
        if a["name"]:
            raise ToolFailure(f"Application {a['name']} not found.")
        return Text("No active window found")
    if win.status in ("Minimized", "Maximized"):
        return Text(f"{win.title} is {win.status.lower()}")
    loc, size = a["window_loc"], a["window_size"]
    if (loc is not None and len(loc) != 2) or (size is not None and len(size) != 2):
        raise ToolFailure("window_loc and window_size must be lists of exactly 2 integers")
    x, y = loc if loc is not None else (win.rect.left, win.rect.top)
    w, h = size if size is not None else (win.rect.width, win.rect.height)
    call.world.put_window(win, win.moved_to(Rect(x, y, x + w, y + h)))
    call.effect("app_resize", (x, y), window=win.title, size=[w, h])
    _refresh_labels(call)  # upstream's resize always refreshes the desktop state (FORMATS §7)
    return Text(f"{win.title} resized to {w}x{h} at {x},{y}.")


def _switch(call: Call) -> Result:
    name = call.args["name"]
    win = _find_window(call, name) if name else None
    if win is None:
        raise ToolFailure(f"Application {name} not found.")
    restored = win.status == "Minimized"
    call.effect("app_switch", None, window=win.title, restored=restored)
    if restored:
        call.world.set_status(win.title, "Normal")
    call.world.focus = win.title
    if call.world.labels is None:
        _refresh_labels(call)  # switch refreshes only when no state exists yet (FORMATS §7)
    if restored:
        return Text(f"Restored {win.title} from minimized and switched to it.")
    return Text(f"Switched to {win.title} window.")


async def app(call: Call) -> Result:
    mode = call.args["mode"]
    if mode == "launch":
        return _launch(call, call.args["name"])
    if mode == "launch_executable":
        return _launch_executable(call)
    if mode == "resize":
        return _resize(call)
    return _switch(call)


async def powershell(call: Call) -> Result:
    command = call.args["command"]
    out, code = call.world.powershell.get(command, (POWERSHELL_DEFAULT.format(command=command), 0))
    call.effect("powershell", None, command=command, status=code)
    return Text(f"Response: {out}\nStatus Code: {code}")


def _process_list(call: Call) -> Result:
    a = call.args
    procs = list(call.world.processes)
    if a["name"]:
        procs = [p for p in procs if fuzzy_score(a["name"], p.name) >= 70]
        if not procs:
            return Text(f"No processes found matching {a['name']}.")
    if a["sort_by"] == "name":
        procs.sort(key=lambda p: p.name.lower())
    elif a["sort_by"] == "cpu":
        procs.sort(key=lambda p: -p.cpu)
    else:
        procs.sort(key=lambda p: -p.memory_mb)
    procs = procs[: max(0, a["limit"])]
    rows: list[list[str | int | float]] = [[p.pid, p.name, f"{p.cpu:.1f}%", f"{p.memory_mb:.1f} MB"] for p in procs]
    return Text(f"Processes ({len(rows)} shown):\n" + tabulate_simple(["PID", "Name", "CPU%", "Memory"], rows))


def _process_kill(call: Call) -> Result:
    a = call.args
    force = lenient_bool(a["force"])
    verb = "Force killed" if force else "Terminated"
    if a["pid"] is not None:
        proc = next((p for p in call.world.processes if p.pid == a["pid"]), None)
        if proc is None:
            return Text(f"No process with PID {a['pid']} found.")
        targets = [proc]
    elif a["name"]:
        targets = [p for p in call.world.processes if p.name.lower() == a["name"].lower()]
        if not targets or all(p.protected for p in targets):
            return Text(f'No process matching "{a["name"]}" found or access denied.')
    else:
        raise ToolFailure("Either name or pid must be provided for kill mode.")
    if any(p.protected for p in targets) and a["pid"] is not None:
        return Text(f"Access denied to kill PID {a['pid']}. Try running as administrator.")
    lines = []
    for proc in [p for p in targets if not p.protected]:
        call.world.kill(proc)
        call.effect("process_kill", None, pid=proc.pid, name=proc.name, force=force)
        lines.append(f"{verb}: {proc.name} (PID {proc.pid})")
    return Text("\n".join(lines))


async def process(call: Call) -> Result:
    return _process_list(call) if call.args["mode"] == "list" else _process_kill(call)


async def clipboard(call: Call) -> Result:
    if call.args["mode"] == "get":
        value = call.world.clipboard
        return Text(f"Clipboard content:\n{value}" if value else "Clipboard is empty or contains non-text data.")
    text = call.args["text"]
    if text is None:
        raise ToolFailure("text is required for set mode")
    call.world.clipboard = text
    call.effect("clipboard_set", None, text=text)
    return Text(f"Clipboard set to: {text[:100]}{'...' if len(text) > 100 else ''}")


async def notification(call: Call) -> Result:
    a = call.args
    call.effect("notification", None, title=a["title"], message=a["message"], app_id=a["app_id"])
    return Text(f'Notification sent: "{a["title"]}" - {a["message"]}')


def _check_url(url: str) -> None:
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ToolFailure(f"Only http and https URLs are allowed: {url}")
    host = parsed.hostname
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        private = host == "localhost" or host.endswith(".local")
    else:
        private = address.is_private or address.is_loopback or address.is_link_local
    if private:
        raise ToolFailure(f"Refusing to fetch a private or local address: {host}")


async def scrape(call: Call) -> Result:
    url = call.args["url"]
    _check_url(url)
    if not lenient_bool(call.args["use_dom"]):
        page = call.world.pages.get(url, PAGE_DEFAULT.format(url=url))
        return Text(f"URL: {url}\nContent:\n{page}")
    browsers = [w for w in call.world.windows if w.is_browser and w.visible]
    if not browsers:
        return Text(f"No DOM information found. Please open {url} in browser first.")
    call.capture(CaptureRequest(use_dom=True, use_annotation=False, use_ui_tree=True))
    body = "\n".join(browsers[0].dom_text)
    return Text(f"URL: {url}\nContent:\nReached top\n{body}\nReached bottom")
