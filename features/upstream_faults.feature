Feature: Upstream faults — a frozen, slow, verbose or oversized upstream never takes the gateway with it
  After a call times out the gateway asks the upstream for a ping. An upstream that answers
  neither is killed and restarted, and every observation goes stale. An answer over
  max_result_bytes is dropped unread; the connection stays. The upstream's stderr log rotates
  like the audit. Each fault is a FAILED result, an audit event, and the next call works.

  @S-UPS-07 @S-UPS-09
  Scenario: A frozen upstream is killed, restarted, and what was observed before is stale
    Given a gateway in front of the faulty upstream with a 1 s timeout and a 300 ms ping
    And a Snapshot was observed
    When the upstream freezes and the next call is made
    Then that call is "FAILED UPSTREAM_HUNG" within the timeout and the ping deadline
    And a Click citing the old observation is "DENIED STALE_OBSERVATION"
    And the next echo answers from a new upstream process
    And the audit records "UPSTREAM_HUNG" and its chain verifies

  @S-UPS-08
  Scenario: One hung call is a timeout; the upstream that answers the ping is kept
    Given a gateway in front of the faulty upstream with a 1 s timeout and a 300 ms ping
    When a call hangs in the upstream
    Then that call is "FAILED UPSTREAM_TIMEOUT"
    And the next echo answers from the same upstream process

  @S-UPS-10 @S-UPS-09
  Scenario: An answer over max_result_bytes fails and the next call works
    Given a gateway in front of the faulty upstream with max_result_bytes 100000
    When the upstream answers 300000 bytes
    Then that call is "FAILED RESULT_TOO_LARGE"
    And the next echo answers from the same upstream process
    And the doctor's config check names the limit 100000
    And the audit records "RESULT_TOO_LARGE" and its chain verifies

  @S-UPS-11
  Scenario: A stderr flood is rotated like the audit
    Given a gateway in front of the faulty upstream with audit_max_bytes 262144 and audit_keep 2
    When the upstream writes 4000000 bytes to stderr
    Then the stderr log is 3 files of at most 262144 bytes each

  @S-UPS-12
  Scenario: Lines are split in linear time and an oversized one is never held
    Given a line splitter with a limit of 1000 bytes
    When messages of 100, 1000, 1001 and 50000 bytes arrive in 7-byte chunks
    Then the first two come out whole and the last two as oversize with their ids and sizes
