Feature: Configuration that can never silently weaken the gate
  One TOML file, the environment and flags, in a documented precedence. Every value the
  gateway could not use is named in a warning with what it received and what it used
  instead; nothing but four explicit switches can turn a check of the gate off; and the
  README table and config.example.toml cannot drift from the model.

  @S-CFG-01
  Scenario: A flag beats the environment, which beats the file
    Given a config file saying "max_observation_age_ms = 1000"
    And the environment variable "WINMCP_GATEWAY_MAX_OBSERVATION_AGE_MS" is "2000"
    When the gateway loads its config with the flag max_observation_age_ms = 3000
    Then "max_observation_age_ms" is 3000
    And there is no config warning

  @S-CFG-03 @S-CFG-04
  Scenario: A quoted "false" does not switch the observation requirement off
    Given a config file saying "require_observation = \"false\""
    When the gateway loads its config
    Then "require_observation" is true
    And the only config warning contains "config require_observation:", "received 'false'" and "using True"
    And a click without an observation is still refused

  @S-CFG-02
  Scenario: A misspelt key is reported and changes nothing
    Given a config file saying "require_observaton = false"
    When the gateway loads its config
    Then "require_observation" is true
    And the only config warning contains "unknown key 'require_observaton'" and "did you mean 'require_observation'?"

  @S-CFG-04
  Scenario: An explicit false is the one way to turn a check off
    Given a config file saying "require_observation = false"
    When the gateway loads its config
    Then "require_observation" is false
    And there is no config warning
    And a click without an observation is let through

  @S-CFG-05
  Scenario: A default changed in the model only is caught
    Given the model with the default of "max_observation_age_ms" changed to 30000
    When the README and config.example.toml are checked against it
    Then both documents are reported for "max_observation_age_ms"

  @S-CFG-06
  Scenario: The CLI prints every config warning to stderr when it starts
    Given a config file saying "max_observation_age_ms = \"soon\""
    And the config file also says "require_observaton = false"
    When the CLI runs "kill status" with that config file
    Then stderr has one "winmcp-gateway: warning: config" line per config warning
    And the first stderr warning names "max_observation_age_ms" and "'soon'"
    And stdout is only the kill switch status

  @S-CFG-06
  Scenario: A running gateway audits its config warnings and lists them in winmcp_state and the doctor
    Given a config file saying "max_observation_age_ms = \"soon\""
    And the config file also says "require_observaton = false"
    When a gateway starts with that config in front of the simulated desktop
    Then there are 2 config warnings
    And the audit has one "config" event per config warning, in order
    And winmcp_state lists the config warnings as "config_warnings" and in its text
    And the doctor's "config" check is WARNING with exactly the config warnings as findings

  @S-CFG-07
  Scenario: Shadow mode forwards a call the gate would refuse, and says so everywhere
    Given a config file saying "enforce = false"
    When a gateway starts with that config in front of the simulated desktop
    And the client clicks at 640, 480 without an observation
    Then the result is not an error
    And the click reached the simulated desktop
    And the result carries one note starting "[gateway] SHADOW MODE: would have refused (NO_OBSERVATION"
    And the audit's "allow" event for the click records would "deny" and code "NO_OBSERVATION"
    And the doctor's "config" check has a WARNING finding containing "enforce = false"

  @S-CFG-07
  Scenario: Shadow mode never shadows the kill switch
    Given a config file saying "enforce = false"
    When a gateway starts with that config in front of the simulated desktop
    And the kill switch is engaged
    And the client clicks at 640, 480 without an observation
    Then the result is an error starting "DENIED KILLED"
    And nothing reached the simulated desktop

  @S-CFG-08
  Scenario Outline: Environment text in the fixed syntax is used as written, without a warning
    Given the environment variable "WINMCP_GATEWAY_<VAR>" is "<text>"
    When the gateway loads its config
    Then "<key>" is <value>
    And there is no config warning

    Examples:
      | VAR                    | key                    | text                                                         | value                                                                      |
      | ENFORCE                | enforce                | FALSE                                                        | false                                                                      |
      | REQUIRE_APPROVAL       | require_approval       | True                                                         | true                                                                       |
      | MAX_OBSERVATION_AGE_MS | max_observation_age_ms | 30000                                                        | 30000                                                                      |
      | TOOLS_DENY             | tools_deny             | PowerShell, Registry                                         | ["PowerShell", "Registry"]                                                 |
      | ALLOWED_WINDOWS        | allowed_windows        | ["Report, final - Word", "* - Notepad"]                      | ["Report, final - Word", "* - Notepad"]                                    |
      | COMMAND_RULES          | command_rules          | [{id = "x-rule", pattern = "curl", risk = "net", reason = "no"}] | [{"id": "x-rule", "pattern": "curl", "risk": "net", "reason": "no"}] |

  @S-CFG-08
  Scenario Outline: Environment text outside the syntax is unusable: the safe value is used and named
    Given the environment variable "WINMCP_GATEWAY_<VAR>" is "<text>"
    When the gateway loads its config
    Then "<key>" is <value>
    And the only config warning says it received "<text>" from env "WINMCP_GATEWAY_<VAR>"

    Examples:
      | VAR                    | key                    | text        | value                                                                                |
      | ENFORCE                | enforce                | 0           | true                                                                                 |
      | REQUIRE_OBSERVATION    | require_observation    | no          | true                                                                                 |
      | REQUIRE_APPROVAL       | require_approval       | yes         | true                                                                                 |
      | MAX_OBSERVATION_AGE_MS | max_observation_age_ms | 30s         | 60000                                                                                |
      | MAX_OBSERVATION_AGE_MS | max_observation_age_ms | 0x7530      | 60000                                                                                |
      | TOOLS_ALLOW            | tools_allow            | ["Snapshot" | ["ControlStatus", "DisplayInventory", "Screenshot", "Snapshot", "Wait", "WaitFor"] |
