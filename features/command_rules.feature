Feature: Command rules read what a SYSTEM call would do and refuse or ask for the dangerous
  The rules read upstream's real argument names (mode, never action), normalise every
  spelling of a command, look into nested and encoded commands, and say what to do instead.
  They are a tripwire, not a sandbox.

  @S-RULE-02 @S-RULE-04
  Scenario: An obfuscated recursive delete is refused
    Given the built-in command rules
    When PowerShell is asked to run "Re`move-It`em   C:\Data -rec -FO"
    Then the call hits rule "recursive-delete" with action "deny"

  @S-RULE-03
  Scenario: An encoded command is decoded and its content matched
    Given the built-in command rules
    When PowerShell is asked to run the encoded command "Stop-Computer -Force"
    Then the call hits rule "shutdown-restart" with action "deny"

  @S-RULE-03
  Scenario: A harmless encoded command is still refused for hiding what it runs
    Given the built-in command rules
    When PowerShell is asked to run the encoded command "Get-Date"
    Then the call hits rule "encoded-command" with action "deny"

  @S-RULE-01 @S-RULE-05
  Scenario: FileSystem recursive delete is caught with recursive as the string "true"
    Given the built-in command rules
    When FileSystem is called with mode "delete", path "Projects" and recursive "true"
    Then the call hits rule "recursive-delete" with action "deny"

  @S-RULE-05
  Scenario: App may launch Notepad but not a shell
    Given the built-in command rules
    When App is called with mode "launch" and name "notepad"
    Then the call hits no rule
    When App is called with mode "launch" and name "Windows PowerShell"
    Then the call hits rule "app-launch-interpreter" with action "deny"

  @S-RULE-05 @S-RULE-07
  Scenario: A force-kill asks, but killing a critical process is refused
    Given the built-in command rules
    When Process is called with mode "kill", name "notepad.exe" and force "true"
    Then the call hits rule "force-kill" with action "ask"
    When Process is called with mode "kill", name "lsass.exe" and force "true"
    Then the call hits rule "kill-critical-process" with action "deny"

  @S-RULE-09
  Scenario: An exempted rule is skipped and reported for the audit
    Given the command rules with allow_rules "force-kill"
    When Process is called with mode "kill", name "notepad.exe" and force "true"
    Then the call hits no rule
    And the exempted rules are "force-kill"

  @S-RULE-08
  Scenario: A custom rule written with Windows separators and capitals is rejected
    When a custom rule "no-secrets" with pattern "C:\\Secrets" is loaded
    Then loading fails naming "no-secrets"

  @S-RULE-08
  Scenario: A custom rule in normalised form refuses every spelling
    Given the command rules with a custom rule "no-secrets" and pattern "c:/secrets\b"
    When PowerShell is asked to run "Get-Content 'C:\SECRETS\key.txt'"
    Then the call hits rule "no-secrets" with action "deny"

  @S-RULE-10
  Scenario: The agent cannot delete the gateway's STOP file
    Given the command rules protecting "C:\Users\me\AppData\Local\winmcp-gateway"
    When PowerShell is asked to run "Remove-Item $env:LOCALAPPDATA\winmcp-gateway\STOP"
    Then the call hits rule "self-protection" with action "deny"

  @S-RULE-06
  Scenario: The whole corpus: every dangerous call hits its rule, no ordinary call hits any
    Given the built-in command rules
    When the dangerous and the ordinary corpus are matched
    Then every dangerous call hit its expected rule
    And no ordinary call hit a rule
    And every built-in rule was hit by the corpus

  @S-RULE-11
  Scenario: Odd argument shapes and hostile nesting are judged without raising
    Given the built-in command rules
    When calls with missing, null, numeric, list and deeply nested arguments are matched
    Then matching raised nothing
    And a command nested 200 layers deep hits rule "uninspectable-command" with action "deny"
