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
