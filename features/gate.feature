Feature: The gate refuses input actions that rely on a wrong view of the desktop
  Input actions need a fresh observation of this session, taken with the same window in
  front; labels must name the table the model saw; the kill switch leaves only observation;
  approvals cover one identical call.

  @S-FRESH-01
  Scenario: A click before any observation is refused
    Given a session with no observation
    When the model calls Click at 100,200
    Then the call is refused with NO_OBSERVATION
    And the refusal tells the model to take a Snapshot

  @S-FRESH-04
  Scenario: A click on the latest observation with the same window in front is allowed
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And the probe sees "notes.txt - Notepad" in front
    When the model calls Click at 100,200 based on "obs-2"
    Then the call is allowed

  @S-FRESH-04
  Scenario: A click citing a superseded observation is refused
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And the probe sees "notes.txt - Notepad" in front
    When the model calls Click at 100,200 based on "obs-1"
    Then the call is refused with STALE_OBSERVATION

  @S-FRESH-02
  Scenario: Citing another session's observation reveals nothing about it
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And another session owns obs-7 showing "Secret Bank - Chrome"
    When the model calls Click at 100,200 based on "obs-7"
    Then the call is refused with UNKNOWN_OBSERVATION
    And the refusal does not mention "Secret Bank"

  @S-FRESH-05
  Scenario: A label after another session captured the desktop is refused
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And another session has captured the desktop since
    When the model clicks label 3
    Then the call is refused with STALE_OBSERVATION

  @S-FRESH-06
  Scenario: A click after the focused window changed is refused
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And the probe sees "Settings" in front
    When the model calls Click at 100,200
    Then the call is refused with PROCESS_CHANGED

  @S-KILL-01
  Scenario: While a person's stop is engaged, observation works and actions are refused
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And the probe sees "notes.txt - Notepad" in front
    And a person engaged the kill switch
    When the model calls Snapshot
    Then the call is allowed
    When the model calls Click at 100,200
    Then the call is refused with KILLED
    When the model runs PowerShell "Get-Date"
    Then the call is refused with KILLED

  @S-KILL-02
  Scenario: A model cannot release a stop a person engaged
    Given a person engaged the kill switch
    Then the model may not release the stop
    And a person may release the stop

  @S-VIS-02
  Scenario: The observe-only profile leaves observation only
    Given a session with observations obs-1 and obs-2 of "notes.txt - Notepad"
    And the profile is observe-only
    When the model calls Screenshot
    Then the call is allowed
    When the model runs PowerShell "Get-Date"
    Then the call is refused with TOOL_NOT_ALLOWED

  @S-APR-03
  Scenario: An approved call runs once and its replay is refused
    Given system tools need a person's approval
    When the model runs PowerShell "Get-Date"
    Then the call asks for approval as "apr-1"
    When a person approves "apr-1" once
    And the model runs PowerShell "Get-Date" with approval "apr-1"
    Then the call is allowed
    When the model runs PowerShell "Get-Date" with approval "apr-1"
    Then the call is refused with APPROVAL_DENIED
