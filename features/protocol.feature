Feature: A complete MCP proxy
  The gateway forwards every message kind both ways — not only tools — in both protocol
  eras, routes what the upstream asks back to the client whose call caused it, and keeps
  the upstream's crashes from becoming the client's puzzle.

  @S-PROTO-01 @S-PROTO-09
  Scenario Outline: A resource read through the gateway equals the direct read
    Given a gateway in front of the protocol upstream
    And a <era> client of the gateway
    When the client reads the resource "proto://greeting"
    Then it reads "hello from the protocol upstream"
    And the read equals a direct read by a <era> client

    Examples:
      | era    |
      | legacy |
      | auto   |

  @S-PROTO-05
  Scenario Outline: The upstream's sampling request is answered by the client that made the call
    Given a gateway in front of the protocol upstream
    And a <era> client of the gateway that answers sampling
    When the client calls "sample" with the prompt "summarise the window"
    Then the client was asked to sample "summarise the window"
    And the result text is "sampled by m1: sampled!"

    Examples:
      | era    |
      | legacy |
      | auto   |

  @S-UPS-02
  Scenario: An upstream killed mid-call gives a clear error and the next call works
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client calls "die"
    Then the result starts with "FAILED UPSTREAM_DIED" and quotes the upstream's last words "dying on request"
    And a call to "echo" answers again
    And the upstream was restarted once
