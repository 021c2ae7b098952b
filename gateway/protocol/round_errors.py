"""The two protocol errors of 2026-07-28 input rounds (S-PROTO-21, S-PROTO-22).

* A call needs a client capability the client did not declare: -32021
  (MissingRequiredClientCapabilityError; the SDK answers it with HTTP 400 over streamable HTTP),
  naming the capability in `data.requiredCapabilities`.
* A call's `inputResponses` is present but not an object: -32602, before anything runs. A
  retry with the wrong keys is not an error: the open questions are asked again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import MISSING_REQUIRED_CLIENT_CAPABILITY


def missing_capability(method: str, wanted: types.ClientCapabilities) -> MCPError:
    """The -32021 error for a `method` request the client declared no capability for."""
    data = types.MissingRequiredClientCapabilityErrorData(required_capabilities=wanted)
    return MCPError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        f"the upstream needs the client's {method.split('/')[0]} capability, which the client did not declare",
        data=data.model_dump(by_alias=True, mode="json", exclude_none=True),
    )


def check_round_params(params: Any) -> None:
    """Refuse `inputResponses` that are present but not an object.

    Raises:
        MCPError: INVALID_PARAMS.
    """
    raw = params if isinstance(params, Mapping) else {}
    if "inputResponses" in raw and not isinstance(raw["inputResponses"], Mapping):
        raise MCPError(types.INVALID_PARAMS, "inputResponses must be an object of input responses")
