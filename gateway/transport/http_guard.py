"""Who may talk to the HTTP gateway: bind, token, allowed Host and Origin (S-HTTP-01 … S-HTTP-04).

The rules `resolve_settings` applies, in order:

    1. `HOST:PORT` (`[::1]:PORT` for IPv6; `PORT` alone means 127.0.0.1). Default host: loopback.
    2. `--no-auth`: refused together with `--token`, and refused on any non-loopback host.
    3. Otherwise a token is required: `--token`, else `WINMCP_GATEWAY_TOKEN`, else the state dir
       file `http-token` — created owner-only (mode 0600; on Windows an owner-only ACL) before
       the 32 random bytes are written into it, and printed once to stderr when missing;
       tightened if it was readable by others. A token shorter than `MIN_TOKEN_CHARS` is refused.
    4. A wildcard bind (0.0.0.0, ::) needs `--allow-host`: the Host check must know the names
       clients use. A non-loopback bind prints a warning (plain HTTP: the token is in clear).

What protects the file is read back from it (`gateway.files.owner_only`) and the message says
that, not what was hoped for: "only you can read it: owner-only ACL", or who else can (S-WIN-05).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from mcp.server.transport_security import TransportSecuritySettings

from gateway.config.load import GatewayConfig
from gateway.errors import ConfigError
from gateway.files.owner_only import THIS_MACHINE, FileGuard, Protection

ENV_TOKEN = "WINMCP_GATEWAY_TOKEN"
TOKEN_FILE = "http-token"
# 16 characters of a random token are ~96 bits; shorter ones are guessable over a LAN.
MIN_TOKEN_CHARS = 16
DEFAULT_HOST = "127.0.0.1"
_WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def is_loopback(host: str) -> bool:
    """Whether `host` is a loopback name or address (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _hostport(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpSettings:
    """A resolved HTTP listener: where it binds, its token (None only with --no-auth) and the allow lists."""

    host: str = DEFAULT_HOST
    port: int = 0
    token: str | None = None
    extra_hosts: tuple[str, ...] = ()
    extra_origins: tuple[str, ...] = ()

    @property
    def allowed_hosts(self) -> tuple[str, ...]:
        """Host header values this server answers to (bound host, loopback names, --allow-host)."""
        hosts = [_hostport(self.host, self.port)] if self.host not in _WILDCARDS else []
        if is_loopback(self.host):
            hosts += [f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"[::1]:{self.port}"]
        for extra in self.extra_hosts:
            hosts.append(
                extra
                if extra.rsplit(":", 1)[-1].isdigit() and not extra.endswith("]")
                else _hostport(extra.strip("[]"), self.port)
            )
        return tuple(dict.fromkeys(hosts))

    @property
    def allowed_origins(self) -> tuple[str, ...]:
        """Origin header values accepted (the allowed hosts over http/https, and --allow-origin)."""
        origins = [f"{scheme}://{h}" for h in self.allowed_hosts for scheme in ("http", "https")]
        return tuple(dict.fromkeys([*origins, *self.extra_origins]))

    def transport_security(self) -> TransportSecuritySettings:
        """The same lists as the SDK's DNS-rebinding settings."""
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=list(self.allowed_hosts),
            allowed_origins=list(self.allowed_origins),
        )

    def with_port(self, port: int) -> HttpSettings:
        return replace(self, port=port)

    def url(self, path: str) -> str:
        host = "127.0.0.1" if self.host in _WILDCARDS else self.host
        return f"http://{_hostport(host, self.port)}{path}"


def parse_bind(bind: str) -> tuple[str, int]:
    """`HOST:PORT`, `[V6]:PORT` or `PORT` → (host, port).

    Raises:
        ConfigError: not of that form, or the port is not 0-65535.
    """
    text = bind.strip()
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        port_text = rest[1:] if sep and rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif text.isdigit():
        host, port_text = DEFAULT_HOST, text
    else:
        host, port_text = "", ""
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ConfigError(f"--http {bind!r}: expected HOST:PORT (e.g. 127.0.0.1:8765, [::1]:8765)")
    return host or DEFAULT_HOST, int(port_text)


def _tighten(path: Path, stderr: TextIO, guard: FileGuard) -> Protection:
    before = guard.inspect(path)
    if before.owner_only:
        return before
    after = guard.protect_file(path)
    print(
        f"winmcp-gateway: warning: {path} was not owner-only ({before}); now {after}",
        file=stderr,
    )
    return after


def _create_token_file(path: Path, token: str, guard: FileGuard) -> Protection | None:
    # Made owner-only while still empty and under a private name, then linked into place:
    # a link fails if the name exists, so two gateways starting at once keep one token, and
    # no reader ever sees the name with no token in it. None: another gateway was first.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    try:
        protection = guard.protect_file(tmp)
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(token + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            return None
        except OSError:  # no hard links here (FAT32, exFAT): create the name exclusively instead
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                return None
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(token + "\n")
            protection = guard.protect_file(path)
        return protection
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def load_or_create_token(path: Path, stderr: TextIO, *, guard: FileGuard = THIS_MACHINE) -> str:
    """The token in `path`, or a new one written there (owner-only) and printed once to `stderr`.

    A new token is written into a private file that is made owner-only before the token goes
    in, and then linked into place, so the token is never in a file others could read and the
    name never holds a half-written token. The message names what protects it (S-WIN-05).

    Args:
        path: the token file (`<state dir>/http-token`).
        stderr: where the messages go.
        guard: how files are made owner-only (tests pass a Windows one with a fake icacls).

    Raises:
        ConfigError: the file exists but holds no usable token.
    """
    if not path.exists():
        token = secrets.token_urlsafe(32)
        guard.ensure_private_dir(path.parent)
        protection = _create_token_file(path, token, guard)
        if protection is None:
            return load_or_create_token(path, stderr, guard=guard)  # another gateway created it just now
        print(
            f"winmcp-gateway: generated an HTTP bearer token into {path} ({protection.who_can_read()}): {token}",
            file=stderr,
            flush=True,
        )
        return token
    protection = _tighten(path, stderr, guard)
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < MIN_TOKEN_CHARS:
        raise ConfigError(
            f"{path} holds no usable token (at least {MIN_TOKEN_CHARS} characters); delete it to have one generated"
        )
    print(
        f"winmcp-gateway: HTTP bearer token: the one in {path} ({protection.who_can_read()})", file=stderr, flush=True
    )
    return token


def resolve_settings(
    config: GatewayConfig,
    bind: str,
    *,
    token: str | None,
    no_auth: bool,
    allow_hosts: tuple[str, ...],
    allow_origins: tuple[str, ...],
    environ: Mapping[str, str],
    stderr: TextIO,
) -> HttpSettings:
    """Apply the module docstring's rules.

    Raises:
        ConfigError: a bad bind or a refused combination (the message says what to do).
    """
    host, port = parse_bind(bind)
    loopback = is_loopback(host)
    if no_auth:
        if token:
            raise ConfigError("--no-auth and --token contradict each other")
        if not loopback:
            raise ConfigError(
                f"refusing to serve {host} without a token: --no-auth is allowed on a loopback "
                "address only (127.0.0.1, ::1, localhost)"
            )
        resolved = None
    else:
        resolved = token or environ.get(ENV_TOKEN) or load_or_create_token(config.state_dir / TOKEN_FILE, stderr)
        if len(resolved) < MIN_TOKEN_CHARS:
            raise ConfigError(f"the HTTP token is too short: use at least {MIN_TOKEN_CHARS} random characters")
    if host in _WILDCARDS and not allow_hosts:
        raise ConfigError(
            f"--http {bind}: a wildcard address listens on every interface; name the host(s) clients "
            "use with --allow-host NAME[:PORT] so the Host check can work (DNS rebinding)"
        )
    if not loopback:
        print(
            f"winmcp-gateway: warning: serving on {host}, not loopback: plain HTTP carries the token in "
            "clear text; prefer 127.0.0.1 behind an SSH tunnel or a TLS proxy",
            file=stderr,
            flush=True,
        )
    return HttpSettings(
        host=host,
        port=port,
        token=resolved,
        extra_hosts=tuple(allow_hosts),
        extra_origins=tuple(allow_origins),
    )
