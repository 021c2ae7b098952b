"""winmcp-gateway: a safety gateway (MCP proxy) in front of Windows-MCP."""

__version__ = "0.1.0"

__all__ = ["__version__"]
