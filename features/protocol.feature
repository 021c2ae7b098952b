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

  @S-PROTO-02
  Scenario: An upstream's refusal of a forwarded request keeps its code
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client reads the resource "proto://missing"
    Then the client gets the JSON-RPC error -32002 "Resource not found: proto://missing"

  @S-PROTO-02 @S-UPS-04
  Scenario: With the upstream down the gateway still explains itself
    Given a gateway whose upstream cannot start
    And a legacy client of the gateway
    Then the client lists only the gateway's own tools
    And a call to "Snapshot" fails with "FAILED UPSTREAM_UNREACHABLE"
    When the client reads the resource "proto://greeting"
    Then the client gets a JSON-RPC error starting "UPSTREAM_UNREACHABLE:"

  @S-PROTO-03
  Scenario: The client is offered what the upstream offers, and tools always
    Given a gateway in front of the protocol upstream
    And a auto client of the gateway
    Then the client is offered tools with list changes, prompts, resources, logging and completions
    And the client is offered nothing experimental

  @S-PROTO-04
  Scenario: Upstream progress reaches the client under its own token
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client calls "progress" with 3 steps, watching progress
    Then the client saw the progress messages "step 1 of 3, step 2 of 3, step 3 of 3"

  @S-PROTO-06
  Scenario: A client's log floor filters the upstream's log messages
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client sets its log level to "error"
    And the client has the upstream log "a warning" at "warning" and "an error" at "error"
    Then the client received only the log "an error"

  @S-PROTO-07
  Scenario: A subscribed client hears of resource updates and the upstream is subscribed once
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client subscribes to "proto://greeting"
    And the upstream touches "proto://greeting"
    Then the client is told "notifications/resources/updated"
    And the upstream holds the subscriptions "proto://greeting"
    When the client unsubscribes from "proto://greeting"
    Then the upstream holds no subscriptions

  @S-PROTO-08
  Scenario: A new upstream tool is announced and listed
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the upstream adds a tool
    Then the client is told "notifications/tools/list_changed"
    And the client's tool list includes "extra"

  @S-PROTO-10
  Scenario Outline: Cancelling a call cancels it upstream
    Given a gateway in front of the protocol upstream
    And a <era> client of the gateway
    When the client cancels a sleeping call
    Then the upstream counts 1 cancellation

    Examples:
      | era    |
      | legacy |
      | auto   |

  @S-PROTO-11
  Scenario: The MCP Inspector CLI drives the gateway over stdio
    When the MCP Inspector CLI lists the tools of "winmcp-gateway serve --upstream sim" over stdio
    Then it sees the 21 upstream tools and the 6 gateway tools

  @S-UPS-01
  Scenario: A call past the upstream timeout fails and is cancelled upstream
    Given a gateway in front of the protocol upstream with a 1 second timeout
    And a legacy client of the gateway
    When the client calls "sleep"
    Then the answer begins "FAILED UPSTREAM_TIMEOUT"
    And the upstream counts 1 cancellation

  @S-UPS-03
  Scenario: An observation is stale once the upstream is lost, even while idle
    Given a gateway in front of the protocol upstream that can take Snapshots
    And a legacy client of the gateway
    When the client takes a Snapshot
    And the upstream process is killed while idle
    And the client clicks based on that Snapshot
    Then the answer begins "DENIED STALE_OBSERVATION"

  @S-UPS-05
  Scenario: An upstream protocol error on a tool call keeps its code
    Given a gateway in front of the protocol upstream
    And a legacy client of the gateway
    When the client calls the unknown tool "no_such_tool"
    Then the client gets the JSON-RPC error -32602 "Unknown tool: no_such_tool"

  @S-UPS-06
  Scenario: The upstream inherits the gateway's environment
    Given the gateway's environment sets "PROTO_UPSTREAM_ECHO" to "inherited"
    And a gateway in front of the protocol upstream
    And a legacy client of the gateway
    Then the upstream sees "PROTO_UPSTREAM_ECHO" as "inherited"
