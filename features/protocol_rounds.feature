Feature: Protocol complete in both eras
  What the upstream needs from the client travels through the gateway in either era — rounds of
  InputRequiredResult at 2026-07-28, requests during the call at 2025-11-25 — with one policy
  decision per logical call; a client without a needed capability is told so; streams resume after
  a broken connection; and the official conformance suite measures the whole.

  @S-PROTO-20
  Scenario: The official conformance suite passes through the gateway wherever it passes directly
    Given the pinned conformance suite and everything server
    When the suite runs in both eras against both upstreams directly and through the gateway
    Then no check is worse through the gateway than directly
    And both eras report P/T for each upstream directly and through the gateway

  @S-PROTO-20
  Scenario: A missing conformance suite fails the run instead of skipping it
    When the conformance script runs without the suite installed
    Then it exits 2 naming what is not installed

  @S-PROTO-23
  Scenario Outline: An upstream tool asks for elicitation, sampling and roots through several rounds
    Given a gateway in front of the rounds upstream for a <era> client
    When the client calls "interview" with <rounds> rounds
    Then the result equals the same call made directly by a <era> client
    And the client was asked <questions> questions
    And the upstream completed the tool once
    And the audit holds one decision for "interview"

    Examples:
      | era    | rounds | questions |
      | auto   | 1      | 3         |
      | auto   | 3      | 9         |
      | legacy | 2      | 6         |

  @S-PROTO-24
  Scenario: The gateway's own approval round and the upstream's round share one call
    Given a gateway in front of the rounds upstream that requires approval
    When the client runs "PowerShell" answering every round
    Then the rounds were the gateway's approval, then the upstream's question
    And the audit holds one ask and one allow for "PowerShell"

  @S-PROTO-21
  Scenario: A 2026-07-28 client that did not declare sampling is told so
    Given a gateway in front of the rounds upstream for a auto client without sampling
    When the client calls "interview" asking only for sampling
    Then the call fails with -32021 naming the "sampling" capability
    And the upstream completed the tool 0 times

  @S-PROTO-22
  Scenario: inputResponses that are not an object are a protocol error
    When a 2026-07-28 call arrives with inputResponses null
    Then it is refused with -32602 and no work ran

  @S-PROTO-26
  Scenario: Every round has a fresh request state and an earlier round's state is refused
    Given a gateway in front of the rounds upstream for a auto client
    When the client answers 3 rounds, replaying round 1's state once
    Then every round carried a fresh gateway state
    And the replayed state was refused without reaching the upstream
    And the upstream completed the tool once
    And the audit holds one decision for "interview"

  @S-PROTO-27
  Scenario: Input responses on a first call reach the upstream without the gateway's own key
    Given a gateway in front of the rounds upstream for a auto client
    When the client's first call carries its answer, an unknown key and the approval key
    Then the call completed in one upstream round that saw every key but the approval key
    And the audit holds one decision for "interview"

  @S-PROTO-28
  Scenario: A 2026-07-28 upstream is told only the capabilities the calling client declared
    Given a gateway in front of the rounds upstream for a auto client without sampling
    When the client calls "interview" asking for elicitation and roots
    Then the upstream was told of elicitation and roots only, in every round of the call

  @S-PROTO-25
  Scenario: A client that only listens hears of a tool change
    Given a gateway in front of the protocol upstream served over HTTP
    And a 2026-07-28 HTTP client listening for tool changes
    When the upstream changes its tools
    Then the listen stream carries tools/list_changed

  @S-HTTP-20
  Scenario: A client that lost its stream gets the missed result on reconnecting
    Given a gateway in front of the protocol upstream served over HTTP
    And a raw 2025-11-25 HTTP session
    When the session calls "echo" and reconnects with the priming event's id
    Then the missed result is replayed
    And another session presenting that id gets nothing

  @S-HTTP-21
  Scenario: A session's replay buffer stays within its bounds
    Given a session's replay buffer
    When three times its event bound of messages are stored
    Then it holds at most 512 events and 1 MiB
    And the first event's id replays nothing
