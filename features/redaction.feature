Feature: Redaction keeps secrets and image data out of the audit, and everything else readable
  Values under secret-named keys and secret-shaped text are masked with a label saying what
  was masked; results are summarised without image data; redaction never changes its input
  and never fails open; ordinary titles, paths and commands pass unchanged; and an argument's
  masked secret is masked again wherever upstream echoes it.

  @S-RED-01
  Scenario Outline: A value under a secret-named key is replaced at any depth
    When the value {"<key>": "s3cr3t-value-42", "outer": [{"inner": {"<key>": "s3cr3t-value-42"}}], "keep": "visible"} is redacted
    Then "s3cr3t-value-42" appears nowhere in it
    And its "<key>", at the top and nested inside "outer", reads "[REDACTED]"
    And its "keep" reads "visible"

    Examples:
      | key               |
      | Authorization     |
      | proxy-authorization |
      | Set-Cookie        |
      | X-API-KEY         |
      | client_secret     |
      | refresh.token     |
      | Secret.Access.Key |
      | passwd            |
      | jwt               |
      | signature         |
      | DB_PASSWORD       |
      | github_token      |
      | my-private-key    |
      | user_credentials  |
      | MyPassphrase      |

  @S-RED-01
  Scenario Outline: A key that only looks like a secret name keeps its value
    When the value {"<key>": "plain-value-7"} is redacted
    Then its "<key>" reads "plain-value-7"

    Examples:
      | key       |
      | author    |
      | tokenizer |
      | keyboard  |

  @S-RED-01
  Scenario: The value of a name/value pair whose name is secret is replaced
    When the Registry arguments {"mode": "set", "path": "HKCU:/Software/App", "name": "Password", "value": "regSecretValue"} are redacted
    Then "regSecretValue" appears nowhere in it
    And its "value" reads "[REDACTED]"
    And its "name" reads "Password"

  @S-RED-02
  Scenario Outline: A secret-shaped value inside text is masked with a label
    When the text "<text>" is redacted
    Then it no longer contains "<secret>"
    And it contains "<label>"
    And the mask names what it masked

    Examples:
      | text                                                                  | secret                                      | label                    |
      | token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLXZhbHVl ok | eyJzdWIiOiJib2IifQ                          | [REDACTED:jwt]           |
      | the header was Bearer opaqueTok3nValue99 yesterday                    | opaqueTok3nValue99                          | Bearer [REDACTED         |
      | sent Basic dXNlcjpwYXNzd29yZA== to the proxy                          | dXNlcjpwYXNzd29yZA==                        | Basic [REDACTED          |
      | aws AKIAIOSFODNN7EXAMPLE here                                         | AKIAIOSFODNN7EXAMPLE                        | [REDACTED                |
      | aws ASIAY34FZKBOKMUTVV7A here                                         | ASIAY34FZKBOKMUTVV7A                        | [REDACTED                |
      | git ghp_16C7e42F292c6912E7710c838347Ae178B4a x                        | 16C7e42F292c6912E7710c838347Ae178B4a        | [REDACTED                |
      | git github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvw x          | 11ABCDEFG0123456789_abcdef                  | [REDACTED                |
      | slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl x                  | 1234567890123-AbCdEfGhIjKl                  | [REDACTED                |
      | key sk-ant-api03-AbCdEf0123456789GhIjKlMnOp x                         | AbCdEf0123456789GhIjKlMnOp                  | [REDACTED                |
      | maps AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe x                        | SyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe         | [REDACTED                |
      | img data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB end        | iVBORw0KGgo                                 | [REDACTED                |
      | sum 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  | 9f86d081884c7d659a2f                        | [REDACTED                |
      | blob U2VjcmV0S2V5TWF0ZXJpYWwxMjM0NTY3ODkwQUJDRA== end                 | U2VjcmV0S2V5TWF0ZXJpYWwxMjM0NTY3ODkw        | [REDACTED                |

  @S-RED-02
  Scenario: A private key block is masked even when it is cut before its end
    When this text is redacted
      """
      key follows
      -----BEGIN RSA PRIVATE KEY-----
      MIIEowIBAAKCAQEA7secretline
      """
    Then it no longer contains "MIIEowIBAAKCAQEA7secretline"
    And it contains "[REDACTED"

  @S-RED-05
  Scenario: A Snapshot result keeps its text, and its image only as type, size and digest
    Given the upstream result of sample "02_snapshot_downscaled_2560x1440" with its PNG
    When the result is summarised for the audit
    Then the image item is the PNG's mime type, byte size and SHA-256
    And no run of base64 characters longer than 256 remains
    And every text item is at most 500 characters long
    And is_error is false

  @S-RED-05
  Scenario: Structured content is kept only when it adds to the text, and then redacted
    When the result {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"result": "ok"}} is summarised for the audit
    Then the summary has no structured content
    When the result {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"api_key": "k-123", "n": 2}, "isError": true} is summarised for the audit
    Then the summary's structured content is {"api_key": "[REDACTED]", "n": 2}
    And is_error is true

  @S-RED-05
  Scenario: No image data reaches the audit file
    Given an audit log in a fresh state dir
    And the upstream result of sample "02_snapshot_downscaled_2560x1440" with its PNG
    When the gateway records the result of a Snapshot call
    Then the audit file holds no run of base64 characters longer than 256
    And the audit file does not hold the first 64 base64 characters of the PNG

  @S-RED-06
  Scenario: Redaction returns a new structure and leaves its input unchanged
    When the value {"password": "p", "list": [{"token": "t"}], "cmd": "Connect -Token abc123def456"} is redacted
    Then the value it was given is unchanged
    And the result is a new structure

  @S-RED-06
  Scenario: A long string is cut to 2,000 characters with its length noted
    When a text of 5000 characters is redacted
    Then it is at most 2000 characters long
    And it contains "5000 chars"

  @S-RED-06
  Scenario: A value that cannot be redacted is masked, never kept raw
    When a string whose length cannot be read, holding "Bearer abcdefgh12345", is redacted
    Then it is "[REDACTED:error]"
    When a structure that contains itself is redacted
    Then it contains "too deep"

  @S-RED-07
  Scenario Outline: Ordinary content passes unchanged
    When the text "<text>" is redacted
    Then it is unchanged

    Examples:
      | text                                                              |
      | notes.txt - Notepad                                               |
      | Example Domain - Google Chrome                                    |
      | C:/Users/Alice/AppData/Local/Programs/Microsoft VS Code/Code.exe  |
      | Get-ChildItem -Path C:/Temp -Recurse \| Sort-Object Length        |
      | Open the basic settings page; the bearer of good news arrived     |
      | {3F2504E0-4F89-11D3-9A0C-0305E82C3301}                            |
      | Start-Process notepad.exe -PassThru                               |

  @S-RED-07
  Scenario: A Windows path with backslashes passes unchanged
    When this text is redacted
      """
      C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe -NoProfile
      """
    Then it is unchanged

  @S-RED-07
  Scenario: The arguments of every real upstream call pass unchanged
    Given the recorded upstream calls in tool_outputs.json
    Then redacting each call's arguments changes nothing

  @S-RED-08
  Scenario: A cut-short echo of a masked argument is masked in the same record
    Given an audit log in a fresh state dir
    When the gateway records a Clipboard set of a 320-character base64 blob whose result echoes its first 100 characters and "..."
    Then the audit file does not contain "QUJDRA==QUJDRA=="
    And the recorded result text starts with "Clipboard set to: data [REDACTED"

  @S-RED-08
  Scenario: A masked token echoed in the result is masked there too, even cut short
    Given an audit log in a fresh state dir
    When the gateway records PowerShell "gh auth login -Token abc123def456ghi789 -Verbose" whose result says "logged in with abc123def456ghi7..."
    Then the audit file does not contain "abc123def456ghi7"
    And the recorded result text starts with "logged in with [REDACTED"

  @S-RED-08
  Scenario: An argument that was not masked stays in the result
    Given an audit log in a fresh state dir
    When the gateway records PowerShell "Get-ChildItem C:/Users/demo/Documents/reports" whose result says "Directory: C:/Users/demo/Documents/reports"
    Then the recorded result text is "Directory: C:/Users/demo/Documents/reports"
