"""Self-check: compare the gateway's assumptions with a live upstream (DESIGN.md §7, S-DOC).

`doctor_tool` answers `winmcp_doctor`; `run_doctor_cli` is `winmcp-gateway doctor`; the report's
shape is `Report` / `Check` (`model`).
"""

from gateway.doctor.model import Check, Report
from gateway.doctor.run import doctor_tool, run_doctor_cli

__all__ = ["Check", "Report", "doctor_tool", "run_doctor_cli"]
