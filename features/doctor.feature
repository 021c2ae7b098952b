Feature: The doctor knows when the gateway's assumptions about upstream are wrong
  The prior art's most expensive bug was a rule keyed on a guessed field name that never
  matched a real call. The doctor compares every argument the catalog and the rules read
  with the live upstream, and says UNKNOWN, never OK, about what it could not check.

  @S-DOC-02
  Scenario: A renamed PowerShell argument kills the rules, and the doctor says so
    Given the simulator serves "rename:PowerShell.command=cmd"
    When the doctor runs against it
    Then the doctor exits 1
    And "schema.read_args" is SEVERE naming "PowerShell" "command"
    And the finding names the rules "recursive-delete, encoded-command, download-execute"

  @S-DOC-05
  Scenario: The faithful simulator has nothing severe
    Given the simulator serves upstream's own tools
    When the doctor runs against it
    Then the doctor exits 0
    And no check is SEVERE

  @S-DOC-02 @S-DOC-03 @S-DOC-04
  Scenario Outline: Each kind of schema drift gets its own verdict
    Given upstream's tools with "<mutation>"
    When the schema is compared
    Then "<check>" is <verdict> naming "<tool>" "<field>"

    Examples:
      | mutation                  | check               | verdict | tool     | field   |
      | drop:Registry.mode        | schema.read_args    | SEVERE  | Registry | mode    |
      | add:App.extra             | schema.unknown_args | WARNING | App      | extra   |
      | add:Notification.priority | schema.unknown_args | WARNING | Notification | priority |
      | add-tool:Teleport         | schema.tools        | WARNING | Teleport | -       |

  @S-DOC-06
  Scenario: An upstream that cannot be reached leaves the schema unknown, not OK
    Given an upstream command that does not exist
    When the doctor runs against it
    Then the doctor exits 1
    And "upstream" is SEVERE
    And "schema.read_args" is UNKNOWN
