Feature: The winmcp-gateway command line
  @S-CLI-01
  Scenario: A real MCP client uses `winmcp-gateway serve --upstream sim` over stdio
    When a client starts "winmcp-gateway serve --upstream sim" and lists the tools
    Then it sees the 21 upstream tools and the 6 winmcp tools

  @S-CLI-02
  Scenario: A person engages and releases the kill switch from the command line
    Given an empty state dir
    When the person runs "kill engage --reason lunch"
    Then "kill status" reports engaged by a person
    When the person runs "kill release"
    Then "kill status" reports not engaged

  @S-CLI-03
  Scenario: The demo shows each incident prevented
    When the person runs "demo"
    Then the command exits 0
    And the output shows "DENIED NO_OBSERVATION", "(-1453, 350)", "DENIED KILLED" and "checks passed"

  @S-CLI-04
  Scenario: A person approves a pending request
    Given an empty state dir
    And a pending approval request for a forced Process kill
    When the person runs "approve <id> --yes"
    Then the command exits 0
    And the request is approved for one call

  @S-CLI-05
  Scenario: A missing config file stops serve with a message naming it
    Given an empty state dir
    When the person runs "serve --upstream sim --config missing.toml"
    Then the command exits 2
