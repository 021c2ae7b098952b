"""State shared across gateway processes through the state dir: observations, kill switch, approvals.

`ObservationStore` and `KillSwitch` (`store`), `ApprovalStore` and the CLI's answer (`approvals`),
`StateSigner` for what the gateway hands out and must recognise (`signer`).
"""

from gateway.state.approvals import ApprovalStore, answer_cli
from gateway.state.signer import StateSigner
from gateway.state.store import KillStatus, KillSwitch, ObservationStore, SharedCounter

__all__ = [
    "ApprovalStore",
    "KillStatus",
    "KillSwitch",
    "ObservationStore",
    "SharedCounter",
    "StateSigner",
    "answer_cli",
]
