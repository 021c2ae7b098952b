Feature: Windows — the upstream command as Windows reads it, owner-only state files, a stop that holds
  Windows is the only production platform. An upstream command in one string is split by the
  rules Windows programs use, or given after `--` word for word. The token, audit, approvals and
  STOP are made owner-only (mode 0600, or an ACL set with icacls) and every message says what
  really protects them. Another process reading STOP does not make stopping fail: refused reads,
  replaces and deletes are retried, and a read that keeps failing counts as a stop.

  @S-UPS-20
  Scenario Outline: An upstream command line is split as Windows splits it
    When the upstream command line <line> is split with Windows rules
    Then there are <count> words, the program is <program> and the last word is <last>

    Examples: (a table cell reads \\ as one backslash)
      | line                                              | count | program                         | last            |
      | C:\tools\uvx.exe windows-mcp                      | 2     | C:\tools\uvx.exe                | windows-mcp     |
      | "C:\Program Files\uv\uvx.exe" windows-mcp          | 2     | C:\Program Files\uv\uvx.exe     | windows-mcp     |
      | \\\\server\share\uvx.exe windows-mcp              | 2     | \\\\server\share\uvx.exe        | windows-mcp     |
      | uvx.exe --dir "C:\My Dir\" next                   | 3     | uvx.exe                         | C:\My Dir" next |
      | uvx.exe --dir "C:\My Dir\\\\"                      | 3     | uvx.exe                         | C:\My Dir\\      |

  @S-UPS-22
  Scenario: The upstream command is shown in the quoting that reads it back
    Given the upstream words "C:\Program Files\uv\uvx.exe|windows-mcp|a b"
    Then on Windows it is shown as "C:\Program Files\uv\uvx.exe" windows-mcp "a b"
    And splitting that line with Windows rules gives the same words

  @S-UPS-21
  Scenario: The upstream after -- is taken word for word
    When the doctor is started with the upstream after -- as "C:\Program Files\uv\uvx.exe|windows-mcp|--dir|C:\My Dir\"
    Then the doctor checks exactly those words

  @S-UPS-21
  Scenario: An upstream named twice is refused before anything starts
    When serve is started with --upstream-cmd "uvx windows-mcp" and the upstream after -- as "uvx|windows-mcp"
    Then it exits 2 saying "the upstream is named twice"

  @S-WIN-02 @S-WIN-03
  Scenario: A Windows state file gets an owner-only ACL from System32's icacls, without a shell
    Given a Windows machine whose user is "desktop-x\alice"
    When the gateway makes "D:\gateway state\http-token" owner-only
    Then icacls ran as C:\Windows\System32\icacls.exe "D:\gateway state\http-token" /inheritance:r /grant:r *S-1-5-21-1004336348-1177238915-682003330-1001:F
    And the file's protection reads "owner-only ACL"

  @S-WIN-01
  Scenario: On Linux and macOS a state file becomes mode 0600 and says so
    Given a state file of mode 0644
    When the gateway makes it owner-only on Linux
    Then its mode is 0600 and its protection reads "owner-only (mode 600)"

  @S-WIN-04
  Scenario: STOP is made owner-only before it is put in place
    Given a Windows machine whose user is "desktop-x\alice"
    When a person engages the kill switch on that machine
    Then icacls set STOP's temporary file, which already held the stop, and STOP is there

  @S-WIN-05
  Scenario: The token message tells who else can read the token
    Given a Windows machine whose ACLs also list "BUILTIN\Users"
    When a new HTTP token is generated
    Then the message says "OTHER USERS CAN READ IT" and never "only you can read it"

  @S-WIN-06
  Scenario: The doctor reports a token other users can read as SEVERE, with the command that fixes it
    Given a Windows machine whose ACLs also list "BUILTIN\Users"
    And the state dir holds an HTTP token
    When the doctor's files check runs
    Then the check is SEVERE naming "http token" and "icacls"

  @S-WIN-07
  Scenario: The audit rotation waits for a reader that holds the file
    Given an audit file due for rotation
    When a reader holds the rotated name for 4 tries
    Then the rotation still moves the file after 4 waits

  @S-WIN-08
  Scenario: A STOP that another process holds open for three tries is still read
    Given a person engaged the kill switch because "lunch"
    When another process holds STOP open for 3 tries
    Then the kill switch reads engaged by person because "lunch"

  @S-WIN-09
  Scenario: A STOP that stays unreadable counts as a person's stop
    Given the model engaged the kill switch because "self-stop"
    When another process holds STOP open for good
    Then the kill switch reads engaged by person because "STOP file unreadable after 8 tries"
    And the model cannot release it

  @S-WIN-13
  Scenario: A policy package that is not ours stops the command line, naming it and the remedy
    Given a "policy" package without the marker is what Python finds
    When winmcp-gateway --version runs
    Then it stops with exit 2 saying "is not winmcp-gateway's own" and "pipx install winmcp-gateway"
