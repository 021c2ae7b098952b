"""``python -m gateway.sim`` (see :mod:`gateway.sim.run`)."""

from gateway.sim.run import main

raise SystemExit(main())
