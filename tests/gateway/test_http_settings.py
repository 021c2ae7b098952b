"""Who may talk to the HTTP gateway: binds, tokens, refusals, allow lists (S-HTTP-01 … -03, -08)."""

from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.errors import ConfigError
from gateway.protocol.sessions import PROCESS_NONCE, STDIO_SESSION, session_of
from gateway.transport.http_guard import (
    ENV_TOKEN,
    MIN_TOKEN_CHARS,
    TOKEN_FILE,
    HttpSettings,
    is_loopback,
    load_or_create_token,
    parse_bind,
    resolve_settings,
)
from tests._requirements import requirement

GOOD_TOKEN = "a-token-of-at-least-16-chars"


def resolve(tmp: Path, bind: str, **kw: Any) -> tuple[HttpSettings, str]:
    err = io.StringIO()
    options: dict[str, Any] = {
        "token": None,
        "no_auth": False,
        "allow_hosts": (),
        "allow_origins": (),
        "environ": {},
    }
    options.update(kw)
    settings = resolve_settings(load_config(environ={}, state_dir=tmp), bind, stderr=err, **options)
    return settings, err.getvalue()


@pytest.mark.parametrize(
    ("bind", "expected"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("8765", ("127.0.0.1", 8765)),
        (":8765", ("127.0.0.1", 8765)),
        ("localhost:0", ("localhost", 0)),
        ("[::1]:9000", ("::1", 9000)),
        ("0.0.0.0:80", ("0.0.0.0", 80)),
    ],
)
@requirement("S-HTTP-01")
def test_bind_addresses_are_parsed_with_loopback_as_the_default_host(bind: str, expected: tuple[str, int]) -> None:
    """S-HTTP-01: HOST:PORT, [V6]:PORT, PORT alone (127.0.0.1)."""
    assert parse_bind(bind) == expected


@pytest.mark.parametrize("bind", ["", "host", "host:port", "1.2.3.4:70000", "::1:80", "[::1]"])
@requirement("S-HTTP-01")
def test_a_malformed_bind_is_a_usage_error_naming_the_form(bind: str) -> None:
    """S-HTTP-01: anything else is a ConfigError that shows the expected form."""
    with pytest.raises(ConfigError, match="HOST:PORT"):
        parse_bind(bind)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("0.0.0.0", False),
        ("10.0.0.1", False),
        ("::", False),
        ("example.com", False),
    ],
)
@requirement("S-HTTP-02")
def test_loopback_is_recognised(host: str, loopback: bool) -> None:
    """S-HTTP-02: loopback = localhost, 127.0.0.0/8, ::1."""
    assert is_loopback(host) is loopback


@requirement("S-HTTP-02")
def test_no_auth_is_refused_off_loopback_and_with_a_token(tmp_path: Path) -> None:
    """S-HTTP-02: --no-auth only on loopback, never with --token."""
    settings, _ = resolve(tmp_path, "127.0.0.1:0", no_auth=True)
    assert settings.token is None
    with pytest.raises(ConfigError, match="without a token"):
        resolve(tmp_path, "10.0.0.5:8765", no_auth=True)
    with pytest.raises(ConfigError, match="contradict"):
        resolve(tmp_path, "127.0.0.1:0", no_auth=True, token=GOOD_TOKEN)
    assert not (tmp_path / TOKEN_FILE).exists()


@requirement("S-HTTP-02")
def test_a_wildcard_bind_needs_allow_host_and_off_loopback_warns(tmp_path: Path) -> None:
    """S-HTTP-02: 0.0.0.0 without --allow-host is refused; a non-loopback bind warns about clear-text
    tokens."""
    with pytest.raises(ConfigError, match="--allow-host"):
        resolve(tmp_path, "0.0.0.0:8765", token=GOOD_TOKEN)
    settings, err = resolve(tmp_path, "0.0.0.0:8765", token=GOOD_TOKEN, allow_hosts=("gw.lan",))
    assert "gw.lan:8765" in settings.allowed_hosts and "0.0.0.0:8765" not in settings.allowed_hosts
    assert "warning" in err and "clear text" in err
    _, quiet = resolve(tmp_path, "127.0.0.1:8765", token=GOOD_TOKEN)
    assert "warning" not in quiet


@requirement("S-HTTP-02", "S-HTTP-05")
def test_the_allow_lists_are_the_bound_host_its_loopback_names_and_extras(tmp_path: Path) -> None:
    """S-HTTP-02/05: Host and Origin allow lists as the guard and the SDK check them."""
    settings, _ = resolve(
        tmp_path,
        "127.0.0.1:8765",
        token=GOOD_TOKEN,
        allow_hosts=("box:9000", "gw"),
        allow_origins=("https://app.example",),
    )
    assert settings.allowed_hosts == ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "box:9000", "gw:8765")
    assert "http://localhost:8765" in settings.allowed_origins
    assert "https://app.example" in settings.allowed_origins
    assert "http://evil.example" not in settings.allowed_origins
    security = settings.transport_security()
    assert security.enable_dns_rebinding_protection is True
    assert tuple(security.allowed_hosts) == settings.allowed_hosts


@requirement("S-HTTP-03")
def test_a_missing_token_is_generated_0600_and_printed_once(tmp_path: Path) -> None:
    """S-HTTP-03: the first start writes http-token (0600) and prints the token; later starts do not
    print it."""
    settings, err = resolve(tmp_path, "127.0.0.1:0")
    path = tmp_path / TOKEN_FILE
    assert settings.token is not None and len(settings.token) >= MIN_TOKEN_CHARS
    assert path.read_text().strip() == settings.token
    assert settings.token in err and str(path) in err
    if os.name != "nt":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, err2 = resolve(tmp_path, "127.0.0.1:0")
    assert again.token == settings.token
    assert settings.token not in err2 and str(path) in err2


@requirement("S-HTTP-03")
def test_token_sources_in_order_flag_env_file(tmp_path: Path) -> None:
    """S-HTTP-03: --token beats WINMCP_GATEWAY_TOKEN beats the file; a short token is refused."""
    (tmp_path / TOKEN_FILE).write_text("file-token-0123456789\n")
    env = {ENV_TOKEN: "env-token-0123456789"}
    assert resolve(tmp_path, "127.0.0.1:0", token=GOOD_TOKEN, environ=env)[0].token == GOOD_TOKEN
    assert resolve(tmp_path, "127.0.0.1:0", environ=env)[0].token == "env-token-0123456789"
    assert resolve(tmp_path, "127.0.0.1:0")[0].token == "file-token-0123456789"
    with pytest.raises(ConfigError, match="too short"):
        resolve(tmp_path, "127.0.0.1:0", token="short")
    (tmp_path / TOKEN_FILE).write_text("tiny\n")
    with pytest.raises(ConfigError, match="no usable token"):
        resolve(tmp_path, "127.0.0.1:0")


@pytest.mark.skipif(os.name == "nt", reason="POSIX file modes; on Windows the per-user state dir ACL protects it")
@requirement("S-HTTP-03")
def test_a_token_file_readable_by_others_is_tightened(tmp_path: Path) -> None:
    """S-HTTP-03: an existing http-token with group/other bits is set to 0600, with a warning."""
    path = tmp_path / TOKEN_FILE
    path.write_text(GOOD_TOKEN)
    path.chmod(0o644)
    err = io.StringIO()
    assert load_or_create_token(path, err) == GOOD_TOKEN
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and "0644" in err.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--http", "10.1.2.3:0", "--no-auth"], "without a token"),
        (["--http", "0.0.0.0:0", "--token", GOOD_TOKEN], "--allow-host"),
        (["--http", "nonsense"], "HOST:PORT"),
    ],
)
@requirement("S-HTTP-02")
def test_serve_refuses_unsafe_http_options_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """S-HTTP-02: the CLI stops with exit 2 and the reason on stderr before starting anything."""
    code = cli_main(["serve", "--upstream", "sim", "--state-dir", str(tmp_path), *argv])
    captured = capsys.readouterr()
    assert code == 2 and message in captured.err and captured.out == ""


def _ctx(session_id: str | None = None, request: object | None = None, name: str | None = None) -> Any:
    client_info = SimpleNamespace(name=name) if name is not None else None
    session = SimpleNamespace(
        _connection=SimpleNamespace(session_id=session_id),
        client_params=SimpleNamespace(client_info=client_info) if client_info else None,
    )
    return SimpleNamespace(session=session, request=request)


@requirement("S-HTTP-08")
def test_session_keys_by_era_and_transport() -> None:
    """S-HTTP-08: hashed Mcp-Session-Id; 2026-07-28 HTTP by nonce + declared name (sanitised); else stdio:<nonce>."""
    key = session_of(_ctx(session_id="3f2a9c0d1e"))
    assert key.startswith("http:") and "3f2a9c0d1e" not in key and len(key) == len("http:") + 16
    assert session_of(_ctx(session_id="3f2a9c0d1e")) == key != session_of(_ctx(session_id="other"))
    assert session_of(_ctx(request=object(), name="agent-a")) == f"http-modern:{PROCESS_NONCE}:agent-a"
    assert session_of(_ctx(request=object(), name='x"\n y')) == f"http-modern:{PROCESS_NONCE}:x___y"
    assert session_of(_ctx(request=object())) == f"http-modern:{PROCESS_NONCE}:anonymous"
    assert re.fullmatch(r"stdio:[0-9a-f]{16}", session_of(_ctx())) and session_of(_ctx()) != STDIO_SESSION
