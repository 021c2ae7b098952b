"""Talking MCP to a server on this machine directly is refused (S-RULE-202).

Before, `Invoke-RestMethod http://localhost:8000/mcp -Method Post -Body '{"method":"tools/call", …}'` passed unless
its body happened to spell a command a text rule knew: with Windows-MCP served over HTTP, the agent would call its
tools around the gateway — no rules, no approval, no audit.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_network import local_mcp
from policy.rules.shell.ops import Operation
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps

GUARD = ("self-protection", "deny")
CALL = """'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"App"}}'"""


@requirement("S-RULE-202")
@pytest.mark.parametrize(
    "command",
    [
        "irm http://localhost:8000/mcp -Method Post -Body '{}'",
        "Invoke-RestMethod -Uri http://localhost:8000/mcp/ -Method Post -Body $b",
        "Invoke-WebRequest http://127.0.0.1:8000/sse",
        "iwr http://127.0.0.2:9000/messages/?session_id=abc -Method Post -Body $b",
        "irm http://[::1]:8000/mcp -Method Post -Body '{}'",
        "irm http://0.0.0.0:8000/mcp -Method Post -Body '{}'",
        "irm http://winmcp.localhost:8000/mcp -Method Post -Body '{}'",
        "irm http://localhost:8000/api/v1/mcp -Method Post -Body '{}'",
        f"irm http://localhost:8000/rpc -Method Post -Body {CALL}",  # any path, an MCP method in the body
        f"irm http://localhost:8000/ -Method Post -Body {CALL}",
        '$b = \'{"method":"tools/call"}\'; irm http://localhost:8000/x -Method Post -Body $b',  # folded
        "curl.exe -s http://127.0.0.1:8000/mcp -d '{}'",
        "curl http://localhost:8000/sse",
        "wget http://localhost:8000/mcp",
        "(New-Object Net.WebClient).UploadString('http://localhost:8000/mcp', '{}')",
        "$h = New-Object Net.Http.HttpClient; $h.PostAsync('http://localhost:8000/mcp', $c)",
        "[Net.Http.HttpClient]::new().PostAsync('http://localhost:8000/mcp', $c)",
        'cmd /c "curl http://localhost:8000/mcp -d {}"',
    ],
)
def test_an_mcp_server_on_this_machine_called_directly_is_refused(command: str) -> None:
    """S-RULE-202: its endpoint's path, or an MCP method beside a local address."""
    assert ps(command) == GUARD


@requirement("S-RULE-202")
@pytest.mark.parametrize(
    "command",
    [
        "Invoke-RestMethod http://localhost:3000/api/items",
        "irm http://localhost:8080/healthz",
        "irm http://localhost:8000/mcpdocs",  # not the endpoint
        "irm https://mcp.example.com/mcp -Method Post -Body '{}'",  # a remote server: not this machine's
        'irm https://api.example.com/v1/items -Method Post -Body \'{"name":"initializer"}\'',
        "Write-Output 'irm http://localhost:8000/mcp'",  # printed, not run
        "Start-Process http://localhost:8000/mcp",  # a browser opens the page: it calls no tool from there
        "msedge http://localhost:8888/lab",
    ],
)
def test_other_local_addresses_and_remote_servers_stay_as_before(command: str) -> None:
    """S-RULE-202: only an MCP endpoint, or MCP's methods, on this machine."""
    assert ps(command) is None


@requirement("S-RULE-202")
@pytest.mark.parametrize(
    ("address", "is_local"),
    [
        ("http://localhost:1/mcp", True),
        ("http://LOCALHOST:1/mcp", True),
        ("http://127.8.9.10:1/mcp", True),
        ("http://2130706433:1/mcp", True),  # 127.0.0.1 as one number
        ("http://0x7f000001:1/mcp", True),
        ("http://[::1]:1/mcp", True),
        ("http://10.0.0.5:1/mcp", False),
        ("http://example.com/mcp", False),
        ("http://localhost.example.com/mcp", False),
        ("http:///mcp", False),  # no host at all
    ],
)
def test_which_addresses_are_this_machine(address: str, is_local: bool) -> None:
    """S-RULE-202: loopback in every spelling; another host is not."""
    op = Operation(shell="powershell", name="invoke-restmethod", args=(address,), text=f"irm {address}")
    assert bool(local_mcp(op)) is is_local


@requirement("S-RULE-202")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-202: the keyboard is a shell (issue 18 item 4)."""
    text = "irm http://localhost:8000/mcp -Method Post -Body '{}'"
    assert typed_in_console(text) == GUARD


@requirement("S-RULE-13")
def test_a_method_of_an_object_made_with_new_is_the_types_method() -> None:
    """S-RULE-13: `[T]::new().M()` is read as `(New-Object T).M()` is (it was an untyped call)."""
    from policy.rules.shell.powershell import analyse_powershell

    names = [op.name for op in analyse_powershell("[Net.WebClient]::new().DownloadString('http://x')").operations]
    assert "system.net.webclient.downloadstring" in names
