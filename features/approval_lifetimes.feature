Feature: An approval lives no longer than the session and the ttl it was given for
  A grant "for this session" binds to a session key no other process or later run repeats,
  and ends approval_ttl_ms after the grant. Approval files nobody can use any more are
  deleted, a call reads only its own session's grants, and a single-use approval is spent
  by compare-and-set: however many calls cite it at once, it runs one.

  @S-APR-09
  Scenario Outline: A grant for this session is not honoured by the next gateway process
    Given a person approved the force kill "for this session" in one gateway process in the <era> era
    When a new gateway process on the same state dir is asked for the identical call twice
    Then both calls are refused with APPROVAL_REQUIRED
    And the second simulator recorded no kill
    And the two processes audited two different random stdio session keys

    Examples:
      | era        |
      | legacy     |
      | 2026-07-28 |

  @S-APR-09
  Scenario: A grant for this session is not honoured by a gateway running beside it
    When two gateways share a state dir and the first one's client approves the force kill for its session
    Then the second gateway's identical call is refused with APPROVAL_REQUIRED
    And the first gateway's simulator recorded 1 kill and the second's none

  @S-APR-10
  Scenario: A session grant ends approval_ttl_ms after it was given
    Given a gateway with approval_ttl_ms = 5000 and a client that approves "for this session"
    When the force kill is called, again 4 s later, and again 6 s after the grant
    Then the person was asked once for the first two calls and again for the third

  @S-APR-11 @S-APR-12
  Scenario: Stale approval files cost a Snapshot nothing, and the next request sweeps them
    Given a state dir holding 2000 approvals nobody can use, among them a never-ending "stdio" grant of the force kill
    When a Snapshot is taken and then the force kill is called
    Then the Snapshot opened and listed as many approval files as with an empty state dir
    And the force kill is refused with APPROVAL_REQUIRED and the simulator recorded no kill
    And only the request just written is left in the approvals dir

  @S-APR-13
  Scenario: Six calls citing one single-use approval at once kill once
    Given a person approved the force kill once
    When six identical calls cite the approval at the same time
    Then one call runs and five are refused with APPROVAL_DENIED
    And the simulator recorded exactly 1 kill

  @S-APR-14
  Scenario: An answer to a request that changed meanwhile writes nothing
    Given a pending approval request
    When a person approves it while another answer denies it
    Then approve exits with 2 saying the request changed
    And the stored request says denied

  @S-APR-15
  Scenario: A revoked session grant stops covering calls at once
    Given a person approved the force kill for the session from the command line
    When the person denies the same approval id
    Then the identical call asks again and citing the id is refused with APPROVAL_DENIED
    And the simulator recorded exactly 1 kill
