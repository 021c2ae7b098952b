Feature: A person approves one exact call, or the calls of one session
  Config (require_approval for system tools, require_approval_for_input for input tools)
  or a command rule that asks makes a call wait for a person. The approval is bound to the
  call's digest and to the client session that asked; its life is a few pure transitions.

  @S-APR-01
  Scenario Outline: Config decides which classes of call need a person's approval
    Given a session with a fresh observation
    And the config sets <key> = true
    When the model calls <tool> with <arguments>
    Then the decision is <verdict>

    Examples:
      | key                        | tool         | arguments                                    | verdict |
      | require_approval           | PowerShell   | {"command": "Get-Date"}                      | ASK     |
      | require_approval           | Notification | {"title": "t", "message": "m", "app_id": "a"} | ASK     |
      | require_approval           | Click        | {"loc": [100, 200]}                          | ALLOW   |
      | require_approval           | Snapshot     | {}                                           | ALLOW   |
      | require_approval_for_input | Click        | {"loc": [100, 200]}                          | ASK     |
      | require_approval_for_input | PowerShell   | {"command": "Get-Date"}                      | ALLOW   |

  @S-APR-01
  Scenario: A rule that asks makes the call wait, and the refusal says how a person approves it
    Given a session with a fresh observation
    And a command rule "force-kill" asks about PowerShell commands containing "stop-process"
    When the model calls PowerShell with {"command": "Stop-Process -Name notepad -Force"}
    Then the decision is ASK naming rule "force-kill"
    And the decision is bound to the digest of the call
    When the shell turns the ASK into pending approval "apr-7"
    Then the refusal starts "DENIED APPROVAL_REQUIRED: "
    And the refusal names "winmcp-gateway approve apr-7" and 'approval_id="apr-7"'
    And approval "apr-7" is pending for this session and tool PowerShell

  @S-APR-02
  Scenario: The digest is SHA-256 over canonical JSON without the gateway's own arguments
    When the digest of PowerShell with {"timeout": 5, "command": "Get-Date", "approval_id": "apr-1", "based_on": "obs-1"} is computed
    Then it is the SHA-256 of the UTF-8 text {"args":{"command":"Get-Date","timeout":5},"tool":"PowerShell"}

  @S-APR-02
  Scenario Outline: Any changed argument changes the digest
    Then the digests of <first> and <second> differ

    Examples:
      | first                                                  | second                                                   |
      | PowerShell {"command": "Get-Date"}                     | PowerShell {"command": "Get-Date "}                      |
      | PowerShell {"command": "x", "timeout": 1}              | PowerShell {"command": "x", "timeout": 1.0}              |
      | FileSystem {"mode": "delete", "recursive": true}       | FileSystem {"mode": "delete", "recursive": "true"}       |
      | PowerShell {"command": "x"}                            | Registry {"command": "x"}                                |
      | Click {"loc": [1, 2]}                                  | Click {"loc": [2, 1]}                                    |

  @S-APR-02
  Scenario: An approval cited for a changed call is refused
    Given a session with a fresh observation
    And the config sets require_approval = true
    And a person approved PowerShell {"command": "Get-Date"} once as "apr-1"
    When the model calls PowerShell with {"command": "Get-Date; Remove-Item C:/Data -Recurse"} citing "apr-1"
    Then the decision is DENY APPROVAL_DENIED
    When the model calls PowerShell with {"command": "Get-Date"} citing "apr-1"
    Then the decision is ALLOW

  @S-APR-04
  Scenario: A session approval covers identical calls of that session for the rest of the session
    Given a session with a fresh observation
    And the config sets require_approval = true
    And a person approved PowerShell {"command": "Get-Date"} for the session as "apr-1"
    When the model calls PowerShell with {"command": "Get-Date"}
    Then the decision is ALLOW using approval "apr-1"
    When the model calls PowerShell with {"command": "Get-Date"} citing "apr-1"
    Then the decision is ALLOW using approval "apr-1"
    When ten times approval_ttl_ms pass
    And the model calls PowerShell with {"command": "Get-Date"}
    Then the decision is ALLOW using approval "apr-1"
    And approval "apr-1" has been used 3 times
    When the model calls PowerShell with {"command": "Get-Process"}
    Then the decision is ASK

  @S-APR-04
  Scenario: Another session cannot use a session approval
    Given a session with a fresh observation
    And the config sets require_approval = true
    And a person approved PowerShell {"command": "Get-Date"} for the session as "apr-1"
    When another session calls PowerShell with {"command": "Get-Date"}
    Then the decision is ASK
    When another session calls PowerShell with {"command": "Get-Date"} citing "apr-1"
    Then the decision is DENY APPROVAL_DENIED

  @S-APR-05
  Scenario Outline: Approval transitions are pure; any other transition raises ApprovalError
    Given approval "apr-1" for PowerShell {"command": "Get-Date"} that is <state>
    When a person tries to <action> it
    Then the transition <outcome>
    And the approval it started from is unchanged

    Examples:
      | state               | action                  | outcome                   |
      | pending             | grant once              | gives an approved value   |
      | pending             | grant for the session   | gives an approved value   |
      | pending             | deny                    | gives a denied value      |
      | pending and expired | grant once              | raises ApprovalError      |
      | approved            | grant once              | raises ApprovalError      |
      | approved            | deny                    | gives a denied value      |
      | denied              | grant once              | raises ApprovalError      |
      | denied              | deny                    | raises ApprovalError      |
      | used                | grant once              | raises ApprovalError      |
      | used                | deny                    | raises ApprovalError      |
