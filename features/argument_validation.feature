Feature: Arguments are validated before policy decides, and a bad one never reaches the desktop
  The gateway checks every proxied call against the upstream's own inputSchema and its own
  semantic rules (points on the observed desktop, labels 0 or more, bounded lists) before policy
  runs. A call that fails is refused with BAD_ARGUMENTS naming the field, audited as a deny, and
  never forwarded. Each call below comes after a fresh Snapshot, so only the arguments stop it.

  @S-ARG-01 @S-ARG-02 @S-ARG-03 @S-ARG-05
  Scenario Outline: Each bad shape is refused by the field it is in
    Given a gateway in front of the simulated desktop "default"
    And the model has taken a Snapshot
    When the model calls "<tool>" with <arguments>
    Then the call is refused with BAD_ARGUMENTS naming "<field>"
    And the desktop received nothing
    And the last audit line is a deny of BAD_ARGUMENTS naming "<field>"

    Examples:
      | tool        | arguments                          | field     |
      | Click       | {"loc": "not-a-point"}             | loc       |
      | Click       | {"loc": [1e308, NaN]}              | loc[0]    |
      | Click       | {"loc": [1e308, -1e308]}           | loc[0]    |
      | Click       | {"label": {"a": 1}}                | label     |
      | MultiSelect | {"labels": [{"a": 1}]}             | labels[0] |
      | Click       | {"label": -1}                      | label     |
      | Click       | {"loc": [640, 480], "label": 0}    | label     |
      | Move        | {"loc": [5000, 20]}                | loc       |
      | Click       | {"loc": "[640, NaN]"}              | loc       |

  @S-ARG-04
  Scenario: A point with ten thousand numbers is refused without echoing them
    Given a gateway in front of the simulated desktop "default"
    And the model has taken a Snapshot
    When the model calls "Click" with a loc of 10000 numbers
    Then the call is refused with BAD_ARGUMENTS naming "loc"
    And the refusal says "has 10000 items (at most 1000)"
    And the desktop received nothing

  @S-ARG-06
  Scenario: Shadow mode does not lift a BAD_ARGUMENTS refusal
    Given a gateway with config {"enforce": false} in front of the simulated desktop "default"
    When the model calls "Click" with {"loc": "not-a-point"}
    Then the call is refused with BAD_ARGUMENTS naming "loc"
    And the desktop received nothing

  @S-ARG-08
  Scenario: An allowed click is audited with the point the desktop received
    Given a gateway in front of the simulated desktop "default"
    And the model has taken a Snapshot
    When the model calls "Click" with {"loc": "[700, 500]"}
    Then the desktop received one click at 700, 500
    And the last allow line carries the point 700, 500
