Feature: Audit you can trust
  Every observation, allow, deny, approval, kill and failure lands in one append-only,
  redacted, hash-chained JSONL file. Secrets never reach the disk, a crash is told apart
  from tampering, and a broken audit never breaks the tool call it records.

  @S-AUD-02 @S-AUD-08
  Scenario: A restarted gateway continues one verifiable chain
    Given an audit log in a fresh state dir
    When the gateway records 3 events
    And the gateway restarts and records 2 events
    Then the audit holds 5 records with seq 1 to 5
    And the chain verifies

  @S-AUD-05
  Scenario: A line torn by a crash is reported as torn, not as tampering
    Given an audit log in a fresh state dir
    When the gateway records 3 events
    And a writer is killed halfway through its line
    And the gateway restarts and records 1 event
    Then the chain verifies
    And line 4 of "audit.jsonl" is reported as torn
    And the audit holds a "failure" event with code "AUDIT_TORN_LINE"

  @S-AUD-08 @S-AUD-10
  Scenario: A changed byte is found and named by its line
    Given an audit log in a fresh state dir
    When the gateway records 6 events
    And someone changes one byte of line 4 of "audit.jsonl"
    Then audit-report --verify exits 2 naming "audit.jsonl:4" and "hash mismatch"

  @S-AUD-06
  Scenario: An audit that cannot be written does not fail the call
    Given an audit log whose directory is a file
    When the gateway records 2 events
    Then recording raised nothing
    And the audit counts 2 failures

  @S-RED-03 @S-AUD-12
  Scenario: A bearer token in a PowerShell command never reaches the file
    Given an audit log in a fresh state dir
    When the gateway records a PowerShell call with command "Invoke-RestMethod -Uri https://api.example.com -Headers @{Authorization='Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLXZhbHVl'}"
    Then the audit file does not contain "eyJzdWIiOiJib2IifQ"
    And the audit file contains "[REDACTED:jwt]"

  @S-RED-03 @S-AUD-12
  Scenario: A token passed as a PowerShell parameter never reaches the file
    Given an audit log in a fresh state dir
    When the gateway records a PowerShell call with command "Connect-Thing -Token abc123def456ghi -Verbose"
    Then the audit file does not contain "abc123def456ghi"
    And the audit file contains "-Token [REDACTED:token]"

  @S-RED-04
  Scenario: Text typed into a password field is never stored
    Given an audit log in a fresh state dir
    When the gateway records typing "Sw0rdfish!" into a password field
    Then the audit file does not contain "Sw0rdfish!"
    And the audit file contains "[REDACTED password field: 10 chars]"

  @S-AUD-10 @S-AUD-09
  Scenario: audit-report --check fails when there are refusals
    Given an audit log in a fresh state dir
    When the gateway records a refusal "STALE_OBSERVATION" because "obs-3 was superseded by obs-4"
    Then audit-report --check exits 1
    And the audit-report summary shows "STALE_OBSERVATION" and "obs-3 was superseded by obs-4"
