"""winmcp-gateway: a safety gateway (MCP proxy) in front of Windows-MCP."""

__version__ = "0.1.0"
# This product's own package, not a same-named one from another distribution (gateway/cli/ownership.py).
__winmcp_gateway__ = True

__all__ = ["__version__"]
