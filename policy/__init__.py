"""winmcp-gateway's pure policy core: values in, decisions out (no I/O, clock or env)."""

__all__: list[str] = []
