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

  @S-AUD-01
  Scenario: An audit line is canonical JSON whose ts is UTC with milliseconds and Z
    Given an audit log in a fresh state dir whose clock reads 1796207462.9996
    When the gateway records a refusal "STALE_OBSERVATION" because "café ☕ – obs-3 is older than 60 s"
    Then every line of "audit.jsonl" is its record written with sorted keys and no spaces, as UTF-8 text
    And the last record's ts is "2026-12-02T10:31:02.999Z"

  @S-AUD-01
  Scenario Outline: A value JSON cannot hold falls back explicitly, and serialising never raises
    When a record whose "v" is <value> is serialised as an audit line
    Then the line's "v" reads <expected>

    Examples:
      | value                                    | expected                                                                                      |
      | the bytes "abc"                          | {"bytes": 3, "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}   |
      | the set of 3, 1 and 2                    | [1, 2, 3]                                                                                     |
      | the enum member whose value is "alpha"   | "alpha"                                                                                       |
      | a dataclass with w = 2 and h = 3         | {"w": 2, "h": 3}                                                                              |
      | the datetime 2026-12-02 10:31:02.123 UTC | "2026-12-02T10:31:02.123000+00:00"                                                            |
      | NaN                                      | "nan"                                                                                         |
      | minus infinity                           | "-inf"                                                                                        |
      | an object whose repr raises              | "<unrepresentable Hostile>"                                                                   |

  @S-AUD-03
  Scenario: Several processes appending at once keep one linear chain
    Given an audit log in a fresh state dir
    When 3 processes each record 60 events at the same time, rotating at 16384 bytes
    Then the audit holds 180 records across more than one file, with seq 1 to 180
    And every process's 60 events are there exactly once
    And the chain verifies

  @S-AUD-04 @S-AUD-11
  Scenario: The audit rotates before a file would pass audit_max_bytes and keeps audit_keep files
    Given an audit log in a fresh state dir rotating at 2048 bytes and keeping 2 files
    When the gateway records 60 events
    Then the state dir holds the audit files "audit.jsonl", "audit.jsonl.1" and "audit.jsonl.2"
    And no audit file is larger than 2048 bytes
    And the reader lists them as "audit.jsonl.2", "audit.jsonl.1", "audit.jsonl"
    And the first line of each file chains to the last line of the file before it
    And the chain verifies, starting mid-way after rotated files were dropped

  @S-AUD-04
  Scenario: Files left over from a larger audit_keep are dropped at the next rotation
    Given an audit log in a fresh state dir rotating at 1024 bytes and keeping 6 files
    When the gateway records 30 events
    Then the state dir holds "audit.jsonl.5"
    When the gateway restarts keeping 2 files and records 10 events
    Then the state dir holds the audit files "audit.jsonl", "audit.jsonl.1" and "audit.jsonl.2"
    And the chain verifies

  @S-AUD-07
  Scenario: Audit files are created owner-only
    Given an audit log in a state dir that does not exist yet
    When the gateway records 1 event
    Then the audit file exists
    And on POSIX the audit file is mode 0o600 and the state dir it created is mode 0o700

  @S-AUD-11
  Scenario: The reader lists rotated files oldest first and skips an over-long line without holding it
    Given an audit log in a fresh state dir
    When the gateway records 3 events
    And a line of 40 MiB is appended to "audit.jsonl"
    Then reading the audit streams 4 lines, reporting line 4 of "audit.jsonl" as unparseable
    And a line over the 16 MiB cap is skipped without being held, so reading peaks below two caps however long it is
    Given a state dir holding "audit.jsonl", "audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.9", "audit.jsonl.10" and "audit.jsonl.bak"
    Then the reader lists them as "audit.jsonl.10", "audit.jsonl.9", "audit.jsonl.2", "audit.jsonl.1", "audit.jsonl"
