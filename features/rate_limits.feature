Feature: A brake for runaway agents (issue 15, capability 2)
  Per client session and per class, a token bucket limits how fast input and system calls reach the
  desktop, and a loop detector stops the same call repeated without a look, or refusal after refusal.
  The remedy tells the model to observe and rethink; a person's kill switch still outranks everything;
  observation and the gateway's own tools are never braked.

  @S-RATE-01 @S-RATE-02
  Scenario: A burst of clicks is rate limited, never reaches the desktop, and recovers after time
    Given a gateway whose config file says rate_limits = { input = "3/min" }
    When the model takes a Snapshot and clicks five times at once, then twenty seconds later once more
    Then the clicks answer "ok, ok, ok, RATE_LIMITED, RATE_LIMITED" and then "ok"
    And the simulator recorded 4 clicks
    And the audit has 3 "RATE_LIMITED" denials

  @S-RATE-03 @S-RATE-05
  Scenario: The same click again and again is a loop until the model observes
    Given a gateway whose config file says rate_limits = { identical_calls = 3 }
    When the model clicks the same point four times on one Snapshot, then tries something else, then observes
    Then the clicks answer "ok, ok, ok, LOOP_DETECTED" and then "ok"
    And the simulator recorded 4 clicks

  @S-RATE-04 @S-RATE-05
  Scenario: Refusal after refusal is a loop until the model observes
    Given a gateway whose config file says rate_limits = { refusals_in_a_row = 4 }
    When the model clicks five times without an observation, then observes and clicks
    Then the clicks answer "NO_OBSERVATION, NO_OBSERVATION, NO_OBSERVATION, NO_OBSERVATION, LOOP_DETECTED" and then "ok"
    And the simulator recorded 1 clicks

  @S-RATE-06
  Scenario: A person's kill outranks the brake, and its refusals do not count
    Given a gateway whose config file says rate_limits = { input = "1/min", refusals_in_a_row = 2 }
    When the bucket is empty and a person engages the kill switch with winmcp-gateway kill
    Then the clicks answer "KILLED, KILLED, KILLED" and then "RATE_LIMITED"
    And the simulator recorded 2 clicks

  @S-RATE-07
  Scenario: An unusable entry of rate_limits takes its default, with a warning
    Given a config file with rate_limits = { input = "lots", system = "5/min" }
    When the config is loaded
    Then rate_limits.input is "10/s" and rate_limits.system is "5/min"
    And a warning names rate_limits.input and "lots"

  @S-RATE-08
  Scenario: The doctor reports the effective limits
    Given a config file with rate_limits = { system = "off" }
    When the config is loaded
    Then the doctor's config check says "input 10/s, system off, unknown 30/min"
    And the doctor warns "rate_limits.system = 'off': this brake is off"

  @S-RATE-09
  Scenario: A braked call never asks a person
    Given require_approval is on and this session's system bucket is empty
    When the model calls PowerShell
    Then the decision is "RATE_LIMITED", not an ask, and no command rule was consulted
