Feature: Simulated Windows-MCP — the test bed that impersonates upstream 0.8.8
  The simulator answers like Windows-MCP over a virtual desktop, executes nothing on the
  host, records every side effect to an event log, and lets tests change the desktop
  between calls through a control file.

  @S-SIM-04
  Scenario: A Snapshot with vision of the default desktop is samples/01, byte for byte
    Given the simulator runs scenario "default"
    When the client calls "Snapshot" with {"use_vision": true}
    Then the text item equals sample "01_snapshot_full_desktop_scale1.txt"
    And the image is 1920 by 1080 pixels

  @S-SIM-08 @S-SIM-09
  Scenario: The focus moves between two calls and the event log says where the click landed
    Given the simulator runs scenario "default"
    When the client calls "Snapshot" with {}
    And the control file focuses window "Example Domain - Google Chrome"
    And the client calls "Click" with {"loc": [650, 330]}
    Then the last event is a "click" at 650, 330 in window "Example Domain - Google Chrome"

  @S-SIM-06
  Scenario: A Screenshot empties the label table of every session
    Given the simulator runs scenario "default"
    When the client calls "Snapshot" with {}
    And the client calls "Screenshot" with {}
    And the client calls "Click" with {"label": 0}
    Then the call fails with "Error calling tool 'Click': Failed to find element with label 0: Label 0 out of range"

  @S-SIM-02 @S-SIM-09
  Scenario: An unknown argument is refused like upstream and never reaches the desktop
    Given the simulator runs scenario "default"
    When the client calls "Click" with {"loc": [1, 2], "bogus": 1}
    Then the call fails starting with "1 validation error for call[click_tool]"
    And the event log is empty
