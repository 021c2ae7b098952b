Feature: Observations — what Windows-MCP printed, as data
  The gateway reads each Snapshot/Screenshot result into numbers, windows and elements.
  It takes elements only from the UI tree, keeps every bracket on its own line, and
  reports what it does not understand instead of guessing.

  @S-OBS-01 @S-OBS-07
  Scenario: A Snapshot without vision arrives JSON-wrapped and is unwrapped
    Given the upstream result of sample "07_snapshot_empty_ui_tree"
    When the gateway parses the "Snapshot" result
    Then the cursor is at 100, 100
    And the UI tree state is "empty"
    And there is no focused window

  @S-OBS-02
  Scenario: A CRLF text gives the same observation as its LF original
    When the gateway parses the prose of "06_snapshot_rich_tree_CRLF_variant_handmade.decoded.txt"
    Then it equals the parsed prose of "05_snapshot_rich_tree_no_vision.decoded.txt"

  @S-OBS-03 @S-OBS-11
  Scenario: A monitor layout with a negative origin is read from the metadata
    Given the upstream result of sample "04a_snapshot_multimonitor_negative_origin"
    When the gateway parses the "Snapshot" result
    Then the cursor is at -1000, 400
    And display 1 is "\\.\DISPLAY2" at -1920, 0, 0, 1080
    And the printed coordinate scale is 2.333333
    And the image read from the PNG header is 1920x617

  @S-OBS-04
  Scenario: Window rows with emoji are split from the right
    Given the upstream result of sample "05_snapshot_rich_tree_no_vision"
    When the gateway parses the "Snapshot" result
    Then the focused window is "Settings" with handle 5049915
    And the opened windows are
      | name                           | status    | handle  |
      | Downloads - File Explorer      | Minimized | 3935530 |
      | Notes 📝 - Notepad             | Normal    | 1706796 |
      | Example Domain - Google Chrome | Normal    | 2821150 |

  @S-OBS-05 @S-OBS-06
  Scenario: Names with quotes and brackets, and the focus flag on its own line
    Given the Snapshot prose with this UI tree
      """
      desktop
      └── window "Settings"
          ├── (870,410) button "Rename "Default Speaker""  [action: click]
          ├── (720,710) edit "Network security key"  [action: fill]  [password]  [value:"●●●●"]
          └── (1140,710) edit "Search settings"  [action: fill]  [focused]  [value:"a]  [b"]
      """
    When the gateway parses the prose
    Then element "Rename "Default Speaker"" is at 870, 410 in window "Settings"
    And only element "Search settings" is focused
    And element "Search settings" has value "a]  [b"
    And element "Network security key" is a password field
    And there are no parse warnings

  @S-OBS-09
  Scenario: A metadata line that looks like a point is never an element
    Given the Snapshot prose with metadata "Screenshot Region: (0,0,2560,1440)" and this UI tree
      """
      desktop
      └── window "Taskbar"
      """
    When the gateway parses the prose
    Then the screenshot region is 0, 0, 2560, 1440
    And the only tree line is window "Taskbar"

  @S-OBS-07
  Scenario: The "No elements" placeholder never becomes an element
    Given the Snapshot prose with this UI tree
      """
      No elements
      ├── (10,20) button "Screenshot"  [action: click]  [focused]
      """
    When the gateway parses the prose
    Then the UI tree state is "no_elements"
    And there are no elements
    And there is a parse warning about "No elements"

  @S-OBS-08
  Scenario: A truncated tree is flagged with its element limit
    Given the upstream result of sample "08_snapshot_truncated_tree"
    When the gateway parses the "Snapshot" result
    Then the tree is truncated at 12 elements
    And element "invoice_029.pdf" is at 570, 788 in window "Invoices - File Explorer"

  @S-OBS-10
  Scenario: Text the parser does not understand becomes warnings, not data
    Given the Snapshot prose with metadata "Screenshot Zoom: 3" and this UI tree
      """
      desktop
      └── window "W"
          ├── (1,2) button Start  [action: click]
          └── (3,4) button "Stop"  [action: click]
      """
    When the gateway parses the prose
    Then there is a parse warning about "Screenshot Zoom"
    And there is a parse warning about "button Start"
    And element "Stop" is at 3, 4 in window "W"

  @S-OBS-12
  Scenario: Upstream's capture error is no observation
    Given the upstream result of sample "11_snapshot_error_bad_region"
    When the gateway parses the "Snapshot" result
    Then there is no observation, because "Error capturing desktop state"

  @S-OBS-30
  Scenario: The benchmark's tree is read by the speed path and gives the values Element builds
    Given the benchmark's Snapshot text with 500 elements
    When the gateway parses the prose
    Then there are 500 element lines and no parse warnings
    And every element equals the one Element itself builds from the same fields

  @S-OBS-31
  Scenario: A tree of the shortest lines stays within its memory bound
    Given a Snapshot text whose UI tree repeats the line '├── a ""' 1000 times
    When the gateway parses the prose while tracing memory
    Then the parse peaked at no more than 8 times the text's own size plus 32 KiB

  @S-OBS-32
  Scenario: Lines the fast reading leaves alone are read by the grammar
    Given the Snapshot prose with this UI tree
      """
      desktop
      └── window "W"
          ├── (1,2) edit "Say"  [action: fill]  [value:"say "hi" now"]
          ├── (3,4) button "Rename "Default Speaker""  [action: click]  [shortcut:Ctrl+S]
          └── (5,6) button "x"  [action: click]"  [action: click]
      """
    When the gateway parses the prose
    Then element "Say" has value "say "hi" now"
    And element "Rename "Default Speaker"" is at 3, 4 in window "W"
    And element "x"  [action: click]" is at 5, 6 in window "W"
    And there are no parse warnings
