Feature: Private windows stay private
  Password managers, banking and the gateway's own terminal are masked in every image, table and
  tree the gateway forwards, and input aimed at them is refused PRIVATE_WINDOW. The person's
  private_windows patterns extend the built-in list. The simulator's "private" scenario paints
  the password manager with a checkerboard of two exact colours, so every forwarded pixel can be
  checked.

  @S-PRIV-01
  Scenario Outline: The built-in list names password managers, banking and the gateway
    Then the window "<title>" is private

    Examples:
      | title                                 |
      | Passwords.kdbx - KeePassXC            |
      | My Vault - Bitwarden                  |
      | Online Banking - Google Chrome        |
      | Administrator: winmcp-gateway serve   |

  @S-PRIV-01 @S-PRIV-02 @S-PRIV-09
  Scenario: A person's patterns extend the list; a bad one masks more and the doctor names it
    Given private_windows is "Payroll" and "*"
    Then the window "Q3 payroll.xlsx - Excel" is private
    And the window "notes.txt - Notepad" is private
    And the doctor's private check warns about "*"

  @S-PRIV-03 @S-PRIV-07 @S-PRIV-08
  Scenario Outline: No pixel of the password manager leaves the gateway
    Given the gateway in front of the simulator's "<scenario>" scenario
    When the client takes a <tool>
    Then no forwarded pixel has a colour of the password manager's pattern
    And the annotation line says masked=1

    Examples:
      | scenario           | tool       |
      | private            | Snapshot   |
      | private            | Screenshot |
      | private-background | Snapshot   |

  @S-PRIV-04 @S-PRIV-05 @S-PRIV-08
  Scenario: Its names never leave and a click into it never arrives
    Given the gateway in front of the simulator's "private" scenario
    When the client takes a Snapshot
    And the client clicks at 1300,400
    Then the click is refused PRIVATE_WINDOW
    And the simulator's event log shows no click
    And neither the text nor the audit holds the password manager's title or element names

  @S-PRIV-06
  Scenario: A window renamed to a banking title after the Snapshot gets no keys
    Given the gateway in front of the simulator's "default" scenario
    When the client takes a Snapshot
    And Notepad is renamed "Online Banking - Notepad"
    And the client types "hello" at 600,500
    Then the typing is refused PRIVATE_WINDOW
    And the simulator's event log shows no typing
