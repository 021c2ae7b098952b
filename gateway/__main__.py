"""`python -m gateway` is `winmcp-gateway`."""

from gateway.cli import main

raise SystemExit(main())
