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

  @S-SIM-01
  Scenario Outline: tools/list is upstream's, field by field, and the server names itself as upstream does
    Given the simulator runs scenario "default"
    When the client lists the tools in the "<era>" protocol era
    Then the tools listed equal upstream's tools_list.json field by field, in upstream's order
    And every listed inputSchema forbids additional properties
    And the server names itself as upstream's sample 07 says: "windows-mcp" version "4.0.10"

    Examples:
      | era    |
      | legacy |
      | auto   |

  @S-SIM-03
  Scenario: No tool touches the host; files and the clipboard live in the virtual world
    Given the simulator runs scenario "default" in a working directory holding only a marker file
    When the client calls "PowerShell" with {"command": "Remove-Item 'MARKER'"}
    And the client calls "FileSystem" with {"mode": "delete", "path": "MARKER"}
    And the client calls "FileSystem" with {"mode": "write", "path": "demo.txt", "content": "x"}
    And the client calls "Clipboard" with {"mode": "set", "text": "copied text"}
    Then the marker file still holds "keep" and nothing else was written to the working directory
    When the client calls "FileSystem" with {"mode": "read", "path": "demo.txt"}
    Then the text item is "File: C:/Users/demo/Desktop/demo.txt\nx"
    When the client calls "Clipboard" with {"mode": "get"}
    Then the text item is "Clipboard content:\ncopied text"

  @S-SIM-03
  Scenario: Displays may have a negative origin
    Given the simulator runs scenario "dual-negative"
    When the client calls "DisplayInventory" with {}
    Then a display's bounds start left of zero

  @S-SIM-05
  Scenario: The built-in scenarios are listed, and each serves a Snapshot
    Then the built-in scenarios are default, hidpi, dual-right, dual-negative, settings, empty, truncated, browser, user-control, console-powershell, console-cmd, windows-terminal, run-box, taskmgr-run, explorer-address, explorer-system32, browser-address, uac-prompt, notepad, python-repl, remote-desktop, vscode-terminal, jupyter-notebook, large, private, private-background and private-dual
    And every built-in scenario but user-control answers Snapshot with upstream's Cursor Position line

  @S-SIM-05
  Scenario: A scenario file extends a built-in and overrides keys
    Given a scenario file "moved.json" holding {"extends": "empty", "cursor": [5, 6]}
    And the simulator runs that scenario file
    When the client calls "Snapshot" with {}
    Then the text item starts with the Cursor Position line "Cursor Position: (5, 6)"

  @S-SIM-05
  Scenario: The example TOML scenario that ships with the simulator loads
    Given the simulator runs the example scenario shipped in gateway/sim/data
    When the client calls "DisplayInventory" with {}
    Then a display's bounds start left of zero

  @S-SIM-05
  Scenario Outline: An unknown scenario or an invalid scenario file is an error naming the problem
    When the simulator is started with <source>
    Then it refuses with a ScenarioError saying "<problem>"

    Examples:
      | source                                                                   | problem                                     |
      | scenario "no-such-world"                                                 | unknown scenario 'no-such-world'            |
      | a scenario file holding {"extends": "nowhere"}                           | extends: unknown scenario 'nowhere'         |
      | a scenario file holding {"extends": "default", "focus": "No Such Window"} | focus 'No Such Window' names no window      |
      | a scenario file holding {"cursor": [1, 2]}                               | displays: required                          |

  @S-SIM-07
  Scenario: python -m gateway.sim serves over stdio with nothing but protocol on stdout
    Given a simulator child process "python -m gateway.sim --scenario empty"
    When the client calls "Snapshot" over stdio
    Then the text item equals sample "07_snapshot_empty_ui_tree.txt"

  @S-SIM-07
  Scenario: python -m gateway.sim stops when stdin closes, and a bad option exits 2 with the reason on stderr
    When "python -m gateway.sim --scenario default" runs with stdin closed
    Then it exits 0 with nothing on stdout
    When "python -m gateway.sim --scenario no-such-world" runs with stdin closed
    Then it exits 2 with nothing on stdout and "unknown scenario 'no-such-world'" on stderr
    When "python -m gateway.sim --mutate-schema explode:Click.loc" runs with stdin closed
    Then it exits 2 with nothing on stdout

  @S-SIM-07
  Scenario: Upstream's environment variables act as they do on upstream
    Given the simulator runs scenario "default" with WINDOWS_MCP_SCREENSHOT_SCALE=0.5 and WINDOWS_MCP_MAX_TREE_ELEMENTS=3
    When the client calls "Snapshot" with {"use_vision": true}
    Then the image is 960 by 540 pixels
    And the text item says "reached the 3-element capture limit"

  @S-SIM-10
  Scenario: A mutated schema is served and calls are validated against it
    Given the simulator runs scenario "default" with schema mutations "rename:PowerShell.command=cmd", "add:Click.speed=integer" and "drop-tool:Notification" applied
    When the client lists the tools in the "legacy" protocol era
    Then "PowerShell" requires "cmd" and has no "command"
    And "Click" accepts an integer "speed"
    And "Notification" is not listed
    When the client calls "PowerShell" with {"cmd": "Get-Date"}
    Then the call succeeds
    When the client calls "PowerShell" with {"command": "Get-Date"}
    Then the call fails starting with "2 validation errors for call[powershell_tool]"
    And the failure names "Missing required argument" and "Unexpected keyword argument"

  @S-SIM-10
  Scenario Outline: A malformed mutation spec is an error
    When the simulator is started with schema mutation "<spec>"
    Then it refuses with a ValueError

    Examples:
      | spec                 |
      | frobnicate:Click.loc |
      | rename:Nope.x=y      |
      | drop:Click.nope      |
      | add:Click            |

  @S-SIM-11
  Scenario Outline: The other tools answer with upstream's recorded results, whole
    Given the simulator runs scenario "default"
    When the client replays call <index> of tool_outputs.json
    Then the whole result equals the recorded one
    And the result <shape>

    Examples:
      | index | shape                                                   |
      | 1     | wraps its text as structuredContent result with _meta   |
      | 28    | wraps its text as structuredContent result with _meta   |
      | 15    | has no structuredContent and no _meta                   |
      | 23    | has no structuredContent and no _meta                   |
      | 51    | carries its JSON list as structuredContent result with _meta |
      | 52    | carries its JSON object as structuredContent without _meta   |
      | 5     | is an error saying "Error calling tool 'Click': "       |
      | 27    | is an error saying "Error calling tool 'App': "         |

  @S-SIM-11
  Scenario: While the user holds control only ControlStatus answers normally
    Given the simulator runs scenario "user-control"
    When the client calls "Click" with {"loc": [1, 1]}
    Then the call fails with upstream's USER_CONTROL JSON
    When the client calls "Snapshot" with {}
    Then the call fails with upstream's USER_CONTROL JSON
    When the client calls "ControlStatus" with {}
    Then the call succeeds with state "user"
    And the event log is empty
