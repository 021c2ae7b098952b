Feature: The gate fails closed
  A fault in the policy is a refusal, never a skipped check. (The prior art's gate once
  received {} from its policy, recognised neither allow nor deny, and skipped the whole
  freshness check: a click without any observation went through.)

  Background:
    Given a session with no observation

  @S-DEC-02
  Scenario: A policy step that returns an empty mapping denies
    Given a policy step that returns an empty mapping
    When the model calls Click at 100,200
    Then the call is refused with POLICY_ERROR

  @S-DEC-02
  Scenario: A policy step that returns a string denies
    Given a policy step that returns a string
    When the model calls Click at 100,200
    Then the call is refused with POLICY_ERROR

  @S-DEC-02
  Scenario: A policy step that returns an unknown verdict denies
    Given a policy step that returns an unknown verdict
    When the model calls Click at 100,200
    Then the call is refused with POLICY_ERROR

  @S-DEC-04
  Scenario: A chain in which no step decides denies
    Given a policy chain in which no step decides
    When the model calls Snapshot
    Then the call is refused with POLICY_ERROR

  @S-DEC-05
  Scenario: A policy step that raises denies
    Given a policy step that raises
    When the model calls Click at 100,200
    Then the call is refused with POLICY_ERROR

  @S-DEC-05
  Scenario: A config value that cannot be read denies
    Given a config whose values cannot be read
    When the model calls Click at 100,200
    Then the call is refused with POLICY_ERROR

  @S-DEC-05 @S-DEC-06
  Scenario: Command rules whose match raises deny system calls
    Given command rules whose match raises
    When the model runs PowerShell "Get-Date"
    Then the call is refused with POLICY_ERROR

  @S-DEC-06
  Scenario: Command rules that failed to load leave observation working
    Given command rules that failed to load
    When the model calls Snapshot
    Then the call is allowed
    When the model runs PowerShell "Get-Date"
    Then the call is refused with POLICY_ERROR

  @S-DEC-01
  Scenario Outline: Only a well-formed decision can be built
    When a decision is built with verdict <verdict>, code <code>, reason "<reason>", remedy "<remedy>" and digest "<digest>"
    Then the decision <outcome>

    Examples:
      | verdict | code              | reason            | remedy          | digest | outcome         |
      | DENY    | STALE_OBSERVATION | obs-1 is too old. | take a Snapshot |        | is built        |
      | DENY    | none              | obs-1 is too old. | take a Snapshot |        | cannot be built |
      | DENY    | STALE_OBSERVATION |                   | take a Snapshot |        | cannot be built |
      | DENY    | STALE_OBSERVATION | obs-1 is too old. |                 |        | cannot be built |
      | DENY    | MAYBE_LATER       | obs-1 is too old. | take a Snapshot |        | cannot be built |
      | ASK     | APPROVAL_REQUIRED | needs a person.   | approve it      | ab12   | is built        |
      | ASK     | APPROVAL_REQUIRED | needs a person.   | approve it      |        | cannot be built |
      | ASK     | COMMAND_RULE      | needs a person.   | approve it      | ab12   | cannot be built |
      | ALLOW   | none              |                   |                 |        | is built        |
      | ALLOW   | KILLED            |                   |                 |        | cannot be built |

  @S-DEC-01
  Scenario: A refusal that is always enforced cannot be built as shadowed
    When a DENY KILLED decision is built with enforced = false
    Then the decision cannot be built
    When a DENY STALE_OBSERVATION decision is built with enforced = false
    Then the decision is built
    And it does not block
