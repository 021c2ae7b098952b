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

  @S-DOC-01
  Scenario Outline: Nine checks in a fixed order; the worst verdict is the overall one and decides the exit
    Given the simulator started with "<simulator>"
    When the doctor runs against it
    Then the report is "winmcp-doctor/1" with the checks "upstream, schema.read_args, schema.unknown_args, schema.tools, pins, mapping, rules, config, private, audit, kill, files" in that order
    And no check is better than its worst finding
    And the overall verdict is <overall>, the worst of OK < WARNING < UNKNOWN < SEVERE
    And the doctor exits <exit>

    Examples:
      | simulator                                          | overall | exit |
      | --scenario default                                 | OK      | 0    |
      | --mutate-schema add-tool:Teleport                  | WARNING | 0    |
      | --scenario user-control                            | UNKNOWN | 1    |
      | --mutate-schema rename:PowerShell.command=cmd      | SEVERE  | 1    |

  @S-DOC-01
  Scenario: The text report has one line per check with its findings under it
    Given the simulator started with "--mutate-schema drop:Registry.mode --mutate-schema rename:PowerShell.command=cmd"
    When the doctor runs against it as text
    Then the doctor exits 1
    And the text has one line per check, in the order "upstream, schema.read_args, schema.unknown_args, schema.tools, pins, mapping, rules, config, private, audit, kill, files"
    And the "schema.read_args" line is SEVERE with the findings "PowerShell.command" and "Registry.mode" under it
    And the last line is "overall: SEVERE" ending "exit 1"

  @S-DOC-07
  Scenario Outline: The mapping check judges upstream's own captures
    Given the "<tool>" text of sample "<sample>" with <image>
    When the mapping check reads it
    Then "mapping" is <verdict> saying "<says>"

    Examples:
      | tool       | sample                                    | image                                      | verdict | says                                                  |
      | Snapshot   | 04a_snapshot_multimonitor_negative_origin | its PNG                                    | OK      | origin -1920,0 scale 2.333333 image 1920x617 source 4480x1440 |
      | Screenshot | 04b_screenshot_display_1_negative_origin  | its PNG                                    | OK      | origin -1920,0 scale 1.000000 image 1920x1080         |
      | Snapshot   | 04a_snapshot_multimonitor_negative_origin | its PNG and a second text item             | WARNING | parser: result has 2 text items                       |
      | Snapshot   | 04a_snapshot_multimonitor_negative_origin | the PNG of 09_screenshot_tool_full_desktop | WARNING | does not explain y                                    |
      | Snapshot   | 04a_snapshot_multimonitor_negative_origin | no image                                   | SEVERE  | no readable PNG                                       |
      | Snapshot   | 05_snapshot_rich_tree_no_vision           | no image                                   | UNKNOWN | has no image                                          |

  @S-DOC-07
  Scenario Outline: A capture the desktop refused is UNKNOWN; a result the parser does not recognise is SEVERE
    Given upstream's recorded <result>
    When the mapping check reads it
    Then "mapping" is <verdict> saying "<says>"

    Examples:
      | result                                            | verdict | says                                 |
      | Snapshot while a person holds the desktop         | UNKNOWN | USER_CONTROL                         |
      | Snapshot of sample "11_snapshot_error_bad_region" | UNKNOWN | does not overlap the virtual screen  |
      | Click answer, offered as a Snapshot               | SEVERE  | the parser does not recognise        |

  @S-DOC-07
  Scenario: The CLI doctor maps a negative-origin desktop with one read-only capture
    Given the simulator started with "--scenario dual-negative" and an event log
    When the doctor runs against it
    Then "mapping" is OK saying "origin -1920,0"
    And the simulator saw exactly one capture and nothing else

  @S-DOC-08
  Scenario Outline: The rules and config checks list every weakening
    Given the simulator serves upstream's own tools
    And the doctor's config file says "<line>"
    When the doctor runs against it
    Then "<check>" is <verdict> saying "<says>"
    And the doctor exits <exit>

    Examples:
      | line                                        | check  | verdict | says                                         | exit |
      | command_rules = [{id = "no-pattern"}]      | rules  | SEVERE  | SYSTEM and INPUT calls are refused           | 1    |
      | command_rules_enabled = false               | rules  | WARNING | command rules are off                        | 0    |
      | allow_rules = ["force-kill"]                | rules  | WARNING | 'force-kill' is exempted by allow_rules      | 0    |
      | require_process_match = false               | config | WARNING | require_process_match = false                | 0    |
      | enforce = false                             | config | WARNING | shadow mode                                  | 0    |
      | unknown_tools = "allow"                     | config | WARNING | unknown_tools = "allow"                      | 0    |
      | audit_keep = "many"                         | config | WARNING | config audit_keep:                           | 0    |

  @S-DOC-09
  Scenario: A broken hash chain is SEVERE naming file and line, and the doctor writes no audit line
    Given the state dir holds an audit log of 3 records
    And line 2 of the audit log was edited
    And the simulator serves upstream's own tools
    When the doctor runs against it
    Then "audit" is SEVERE saying "audit.jsonl:2"
    And the audit log is byte for byte what it was before the doctor ran
    And the doctor exits 1

  @S-DOC-09
  Scenario: A state dir that cannot be written is SEVERE
    Given the state dir is below a regular file
    And the simulator serves upstream's own tools
    When the doctor runs against it
    Then "audit" is SEVERE saying "is not writable"

  @S-DOC-09
  Scenario Outline: Audit switched off, or writes that failed, are WARNING
    Given <situation>
    When the audit check runs
    Then "audit" is WARNING saying "<says>"

    Examples:
      | situation                                                 | says                             |
      | the config says "auto_audit = false"                      | auto_audit = false               |
      | an audit log whose lock file cannot be created            | audit write(s) failed            |

  @S-DOC-09
  Scenario: An engaged kill switch is a WARNING naming who engaged it, when and why
    Given the kill switch was engaged by "person" because "lunch break"
    And the simulator serves upstream's own tools
    When the doctor runs against it
    Then "kill" is WARNING saying "ENGAGED by person"
    And the "kill" summary names when it was engaged and "lunch break"
    And the doctor exits 0

  @S-DOC-10 @S-DOC-07
  Scenario: winmcp_doctor through a client: text and structuredContent, mapping from the latest observation
    Given a gateway in front of the simulator "--scenario dual-negative"
    When the client calls winmcp_doctor
    Then the result is not an error and has the report as text and as structuredContent
    And the structuredContent matches winmcp_doctor's outputSchema
    And "mapping" is UNKNOWN saying "no observation with an image yet"
    When the client takes a Snapshot with use_vision
    And the client calls winmcp_doctor
    Then "mapping" is OK saying "origin -1920,0"
    And the "mapping" summary starts with the Snapshot's observation id
    And the doctor wrote no audit line

  @S-DOC-10
  Scenario: winmcp_doctor answers while the kill switch is engaged
    Given a gateway in front of the simulator "--scenario default"
    When the client engages the kill switch through winmcp_kill
    And the client calls winmcp_doctor
    Then the result is not an error and has the report as text and as structuredContent
    And "kill" is WARNING saying "ENGAGED by model"

  @S-DOC-10 @S-DOC-02
  Scenario: winmcp_doctor sees the live upstream's schema
    Given a gateway in front of the simulator "--mutate-schema rename:PowerShell.command=cmd"
    When the client calls winmcp_doctor
    Then the result is not an error and has the report as text and as structuredContent
    And "schema.read_args" is SEVERE naming "PowerShell" "command"

  @S-DOC-11
  Scenario: The live probe of a faithful upstream prints the parsed Snapshot and exits 0
    Given the simulator started with "--scenario dual-negative"
    When the live probe runs against it with --json
    Then the probe exits 0 with overall OK
    And the probe's checks are "upstream, schema.read_args, schema.unknown_args, schema.tools, mapping"
    And the probe's Snapshot has 2 displays, one left of the origin, a focused window, elements and an image size
    And the probe's Snapshot has no parser warning

  @S-DOC-11
  Scenario: The live probe of a drifted upstream prints SEVERE and exits 1
    Given the simulator started with "--mutate-schema rename:Registry.path=key"
    When the live probe runs against it
    Then the probe exits 1
    And the probe's text has "SEVERE", "Registry.path", "snapshot (use_vision=true):" and "focused window:"

  @S-DOC-11
  Scenario: The live probe of a desktop held by a person cannot check the mapping and exits 1
    Given the simulator started with "--scenario user-control"
    When the live probe runs against it with --json
    Then the probe exits 1 with overall UNKNOWN
    And the probe's "mapping" check is UNKNOWN
