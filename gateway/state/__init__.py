"""State shared across gateway processes through the state dir: observations, kill switch, approvals.

`ObservationStore` and `KillSwitch` (`store`), `ApprovalStore` (`approvals`; a person answers through
`gateway.cli.approvals`),
`StateSigner` for what the gateway hands out and must recognise (`signer`).
"""

from gateway.state.approvals import ApprovalStore
from gateway.state.signer import StateSigner
from gateway.state.store import KillStatus, KillSwitch, ObservationStore, SharedCounter

__all__ = [
    "ApprovalStore",
    "KillStatus",
    "KillSwitch",
    "ObservationStore",
    "SharedCounter",
    "StateSigner",
]
