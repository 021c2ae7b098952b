Feature: The cheap decision first, the probe last, the audit off the critical path (issue 13)
  A call is judged on what costs nothing before the gateway reads the desktop: a click that will be
  refused never pays for a probe. Audit lines are handed to one background writer that batches them;
  what changes the desktop is on disk before it is forwarded. Observation ids come in blocks.

  @S-FRESH-10
  Scenario: A click that will be refused never probes
    Given a gateway in front of the simulator
    And the kill switch is engaged after the Snapshot
    When the model takes a Snapshot and clicks citing it
    Then the click is refused "KILLED"
    And the simulator recorded "capture"

  @S-FRESH-10
  Scenario: An allowed click probes once, just before it is forwarded
    Given a gateway in front of the simulator
    When the model takes a Snapshot and clicks citing it
    Then the click went through
    And the simulator recorded "capture, capture, click"

  @S-FRESH-11
  Scenario: With probe_reuse_ms, a click right after its Snapshot is judged on it, and the next one is probed
    Given a gateway in front of the simulator with probe_reuse_ms 2000
    And the focus moves to Chrome after the first click
    When the model takes a Snapshot and clicks citing it twice
    Then the first click went through and the second is refused "PROCESS_CHANGED"
    And the simulator recorded "capture, click, capture"

  @S-AUD-13 @S-AUD-15
  Scenario: An input call's intent is on disk before it is forwarded, its outcome after
    Given a gateway in front of the simulator
    When the model takes a Snapshot and clicks citing it
    Then the audit reads "observation, allow (intent), outcome" and its chain verifies

  @S-AUD-14 @S-AUD-16
  Scenario: Queued events land in order, several per write, and closing drains them
    Given an audit writer with room for 4 events
    When 100 events are handed in and the writer is closed
    Then the audit holds the 100 events in order in fewer than 100 writes and its chain verifies

  @S-AUD-13
  Scenario: Lines nobody waits for share one write (group commit), and a write-ahead never waits
    Given an audit writer that lets a line wait up to an hour for company
    When 10 read-only lines are handed in one call at a time, then an intent is written ahead
    Then the write-ahead returns at once and the audit holds the 11 lines in one write

  @S-OBS-35
  Scenario: Observation ids are reserved in blocks and never repeat between processes
    Given two id counters sharing one state dir, blocks of 8
    When each takes 50 ids in turn
    Then the 100 ids are distinct

  @S-PERF-02
  Scenario: The gateway's own paths are canonicalised once, however many calls are judged
    Given the rules with the gateway's protected paths
    When 200 clicks are decided
    Then the protected paths were canonicalised once each

  @S-PERF-03
  Scenario: On POSIX the stdio wire moves a large line without threads and leaves the pipe blocking
    Given a pipe served by the native wire
    When a 300 kB line is written and read back
    Then it arrives whole and the pipe is blocking again

  @S-PERF-04
  Scenario: A result summary of a long Snapshot scans only what it keeps and says how long the text was
    Given a Snapshot result of 40000 characters with a bearer token at character 100 and a JWT at character 30000
    When the audit summarises it
    Then the summary is 500 characters long and notes the 40000 characters
    And the bearer token is masked
    And no part of either secret is in the summary

  @S-PERF-05
  Scenario: A plain tool call takes the lean lane, and a call that asked for progress keeps the SDK's path
    Given an upstream child that logs every line it reads
    When the gateway calls a tool for a client without a progress token and then for one with a token
    Then the first request's id is "gw-1" and the second request's id is a number carrying the token
    And both calls return the same result

  @S-PERF-06
  Scenario: The gateway's server opens no OpenTelemetry span per message
    Given a gateway server built in front of the simulator
    Then its middleware holds no OpenTelemetry span and keeps the gateway's own

  @S-PERF-07
  Scenario: An input call late in a long run is judged on the ids it names, not on every id ever issued
    Given a store that has dropped 5,000 observations of this session and issued 5,000 to another
    When a click cites the first dropped id, and another cites the other session's first id
    Then the first is refused as stale and the second as unknown
    And neither call's view listed more than two retired ids or one foreign id
