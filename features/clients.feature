Feature: A newcomer connects a client and sees where things are
  `winmcp-gateway install CLIENT` writes the client's entry — the absolute path of this
  installation, the upstream, the state dir and config — into the client's own file, keeping
  everything else there, after showing the diff. `paths`, `config show` and `init` say where the
  gateway keeps its things and where each setting came from. One variable moves the per-user
  dirs, for the test suite and for portable setups, and the agent cannot set it.

  @S-CLI-20
  Scenario: paths shows every place the gateway uses
    Given an empty home
    When the person runs "paths --state-dir state"
    Then the command exits 0
    And the output names the state dir and "audit.jsonl", "http-token", "approvals", "STOP" and "upstream.stderr.log" in it
    And the output says the config file is not found and the defaults are used

  @S-CLI-21
  Scenario: init writes a commented config once and never over it
    Given an empty home
    When the person runs "init"
    Then the command exits 0
    And the user config file loads to the defaults without a warning
    When the person runs "init"
    Then the command exits 2
    And stderr names the user config file

  @S-CFG-22
  Scenario: config show says where each value came from
    Given an empty home
    And the user config file says "audit_keep = 2"
    And the environment variable "WINMCP_GATEWAY_APPROVAL_WAIT_S" is "7"
    When the person runs "config show --json"
    Then "audit_keep" is 2 from the "file"
    And "approval_wait_s" is 7 from the "environment"
    And "enforce" is true from the "default"

  @S-CLI-22 @S-CLI-26
  Scenario: install json prints an entry that runs this installation
    Given an empty home
    When the person runs "install json --state-dir state"
    Then the command exits 0
    And the printed entry runs an absolute command with "serve --upstream-cmd" and "uvx windows-mcp"
    And the printed entry's env names the absolute state dir
    And no client file was written

  @S-CLI-23 @S-CLI-24 @S-CLI-25
  Scenario: Installing into Cursor keeps the other servers, shows the diff and keeps a backup
    Given an empty home
    And Cursor's file has a server "github" and a top-level key "theme"
    When the person runs "install cursor --yes"
    Then the command exits 0
    And the output is a unified diff of Cursor's file
    And Cursor's file still has "github" and "theme" and now has "winmcp-gateway"
    And Cursor's previous file is kept as a backup

  @S-CLI-24
  Scenario: A client file that is not JSON is refused and left alone
    Given an empty home
    And Cursor's file holds "{ // my servers"
    When the person runs "install cursor --yes"
    Then the command exits 2
    And stderr says "is not valid JSON"
    And Cursor's file still holds "{ // my servers"

  @S-CLI-25
  Scenario: Without a terminal and without --yes nothing is written
    Given an empty home
    When the person runs "install vscode" without a terminal
    Then the command exits 2
    And stderr says "--yes"
    And no client file was written

  @S-CLI-23
  Scenario: VS Code's workspace file gets servers with type stdio
    Given an empty home
    When the person runs "install vscode --yes"
    Then the command exits 0
    And the workspace's VS Code file has "winmcp-gateway" under "servers" with type "stdio"

  @S-CLI-23
  Scenario Outline: On Windows each client's file is where that client reads it
    Given a Windows machine with home "C:\Users\me" and APPDATA "C:\Users\me\AppData\Roaming"
    Then the file of "<client>" is "<path>"

    Examples:
      | client         | path                                                         |
      | claude-desktop | C:\Users\me\AppData\Roaming\Claude\claude_desktop_config.json |
      | cursor         | C:\Users\me\.cursor\mcp.json                                 |
      | vscode         | C:\work\proj\.vscode\mcp.json                                |

  @S-CLI-23
  Scenario: A packaged Claude Desktop on Windows gets the file inside its package
    Given a Windows machine with home "C:\Users\me" and APPDATA "C:\Users\me\AppData\Roaming"
    And Claude Desktop is installed there as the package "Claude_pzs8sxrjxfjjc"
    Then the file of "claude-desktop" is "C:\Users\me\AppData\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json"

  @S-CLI-27
  Scenario: Claude Code gets the claude mcp add command, and nothing runs without --yes
    Given an empty home
    And "claude" is not on PATH
    When the person runs "install claude-code --state-dir state"
    Then the command exits 0
    And the output starts with "claude mcp add --transport stdio --scope user winmcp-gateway --env"
    And the output says "not on PATH"

  @S-CLI-28
  Scenario: A server that starts Windows-MCP around the gateway is pointed out
    Given an empty home
    And Cursor's file has a server "windows" running "uvx windows-mcp"
    When the person runs "install cursor --yes"
    Then the command exits 0
    And stderr warns that "windows" starts Windows-MCP itself

  @S-CFG-20
  Scenario: WINMCP_GATEWAY_HOME moves the config file and the state dir
    Given an empty home
    When the person runs "paths --json"
    Then the state dir is "state" and the config file "config.toml" in the folder WINMCP_GATEWAY_HOME names

  @S-CFG-21
  Scenario: The agent cannot set WINMCP_GATEWAY_HOME for the next start
    When the agent's PowerShell call is "setx WINMCP_GATEWAY_HOME C:\Users\me\Desktop\cfg"
    Then the rules refuse it as self-protection
    When the agent's Registry call sets "WINMCP_GATEWAY_HOME" in "HKCU:\Environment"
    Then the rules refuse it as self-protection

  @S-CFG-23
  Scenario: The example config ships inside the package
    Then the package's example.toml is what the key table renders and the repository's config.example.toml

  @S-CFG-24
  Scenario: The docs generator outside a source checkout says so
    Given a package without a source checkout around it
    When the docs generator runs with "--write"
    Then it exits 2 and says it works in a source checkout only
    And the generator wrote nothing
