Feature: An audit a person can look at
  The audit report narrows to a time span and a session in every form, writes one
  self-contained HTML page (chain result on top, counts, a filterable timeline, the screen
  geometry of each observation), and checks every line against a versioned JSON Schema that
  log shippers can rely on. Window titles come from the desktop: they stay text.

  @S-AREP-01 @S-AREP-03
  Scenario: A session and a time span narrow the summary and the check
    Given an audit with refusals in sessions "s-1" and "s-2" an hour apart
    When the person runs audit-report --check --session "s-2"
    Then it exits 1 and counts only the refusals of "s-2"
    And with --since 30m it counts only the later hour's events

  @S-AREP-02
  Scenario: A time that is not understood is refused with the forms that work
    Given an audit with refusals in sessions "s-1" and "s-2" an hour apart
    When the person runs audit-report --since "yesterday"
    Then it exits 2 naming "yesterday" and "2h"

  @S-AREP-04 @S-AREP-05
  Scenario: The HTML page is self-contained and draws where the clicks landed
    Given an audit with an observation of two displays and an allowed and a refused click
    When the person writes the HTML report
    Then the page forbids every remote load in its Content-Security-Policy
    And the page draws both displays, one green and one red point

  @S-AREP-09
  Scenario: A hostile window title stays text
    Given an audit whose window title is "</script><script>alert(1)</script>"
    When the person writes the HTML report
    Then the page has only its own two script blocks and the title appears escaped

  @S-AREP-06 @S-AREP-07
  Scenario: A line that does not conform is named by verify
    Given an audit with an observation of two displays and an allowed and a refused click
    When someone adds a line whose image item carries its data
    Then audit-report --verify exits 2 naming line 4 and "result"

  @S-AREP-08
  Scenario: Every line the gateway writes in a session conforms to the schema
    Given an audit with an observation of two displays and an allowed and a refused click
    Then every line conforms to the schema with no unnamed field
