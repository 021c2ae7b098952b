Feature: A transparent proxy in front of Windows-MCP
  The client sees Windows-MCP's own tools and results, plus the gateway's six tools and one
  annotation line after every capture; refusals and upstream faults are ordinary tool results.

  @S-PRX-01
  Scenario: The client sees the upstream tools, the gateway tools and the extra arguments
    Given a gateway in front of the simulated desktop "default"
    When the client lists the tools
    Then it sees the 21 upstream tools and the 6 winmcp tools
    And the schema of "Click" accepts "based_on" and "approval_id"
    And the schema of "Snapshot" accepts neither "based_on" nor "approval_id"

  @S-PRX-02
  Scenario: An allowed call returns what the simulator returns directly
    Given a gateway in front of the simulated desktop "default"
    Then calling "PowerShell" with {"command": "Get-Date"} gives the same result as the simulator directly
    And calling "DisplayInventory" with {} gives the same result as the simulator directly

  @S-PRX-03
  Scenario: The gateway's own arguments never reach the upstream
    Given a gateway in front of the simulated desktop "default"
    When the model takes a Snapshot with {}
    And the model calls "Click" with {"loc": [640, 480]} citing the observation
    Then the desktop received one click at 640, 480
    And no desktop event carries "based_on"

  @S-PRX-04
  Scenario: A refusal is a tool result that names the code and the remedy
    Given a gateway in front of the simulated desktop "default"
    When the model calls "Click" with {"loc": [640, 480]}
    Then the result is refused with NO_OBSERVATION
    And the refusal names a remedy

  @S-PRX-05
  Scenario: An upstream that dies mid-call gives a clear failure and comes back
    Given a gateway in front of an upstream that dies on request
    When the model calls "Snapshot" with {"die": true}
    Then the result fails with UPSTREAM_DIED and shows the upstream's last words
    When the model calls "Snapshot" with {}
    Then the result text is "alive"
