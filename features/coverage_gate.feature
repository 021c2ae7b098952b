Feature: The coverage gate ties the spec, the scenarios and the tests together, both ways
  Every requirement is claimed by a test or a scenario, no claim names an id the spec does
  not define, every scenario is tagged and every feature file runs; on a full run every
  requirement must also be proven by a test that passed. The gate is tried here on a small
  project built for the purpose, so that it can be seen to fail.

  @S-GATE-01
  Scenario: A requirement nobody claims fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01
    When the static gate checks the project
    Then the gate reports S-XYZ-02 as claimed by no test or scenario
    And the gate reports no other problem

  @S-GATE-01
  Scenario: A tagged scenario is a claim too
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01
    And a feature "two.feature" with a scenario tagged @S-XYZ-02, bound by "test_two_bdd.py"
    When the static gate checks the project
    Then the gate reports no problem

  @S-GATE-01
  Scenario: A claim of an id the spec does not define fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01 and S-XYZ-09
    And a feature "two.feature" with a scenario tagged @S-XYZ-02 @S-XYZ-07, bound by "test_two_bdd.py"
    When the static gate checks the project
    Then the gate reports S-XYZ-09 as an unknown id claimed in "test_one.py"
    And the gate reports S-XYZ-07 as an unknown id claimed in "two.feature: Something happens"
    And the gate reports no other problem

  @S-GATE-01
  Scenario: An id defined twice in the spec fails the gate
    Given a project whose spec defines S-XYZ-01, S-XYZ-02 and S-XYZ-01 again
    When the static gate reads the spec
    Then the gate refuses the spec naming S-XYZ-01 as defined twice

  @S-GATE-02
  Scenario: A scenario without a requirement tag fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01 and S-XYZ-02
    And a feature "two.feature" with a scenario tagged @wip, bound by "test_two_bdd.py"
    When the static gate checks the project
    Then the gate reports "two.feature: Something happens" as a scenario without a requirement tag
    And the gate reports no other problem

  @S-GATE-02
  Scenario: A feature file no test module binds fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01
    And a feature "two.feature" with a scenario tagged @S-XYZ-02, bound by no module
    When the static gate checks the project
    Then the gate reports "two.feature" as a feature no test module binds
    And the gate reports no other problem

  @S-GATE-02
  Scenario: A feature file without scenarios fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01 and S-XYZ-02
    And a feature "two.feature" without scenarios, bound by "test_two_bdd.py"
    When the static gate checks the project
    Then the gate reports "two.feature" as a feature without scenarios
    And the gate reports no other problem

  @S-GATE-02
  Scenario: On a full run a requirement claimed only by a skipped test fails the run
    Given a runnable project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test claiming S-XYZ-01 that passes
    And a test claiming S-XYZ-02 that is skipped
    When the project's whole test suite runs
    Then the run fails saying "coverage gate: 1 requirement(s) not proven by a passing test: ['S-XYZ-02']"

  @S-GATE-02
  Scenario: On a full run where every claim passes the run succeeds, and a narrowed run is not judged
    Given a runnable project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test claiming S-XYZ-01 that passes
    And a test claiming S-XYZ-02 that passes
    When the project's whole test suite runs
    Then the run succeeds without a coverage gate message
    Given a test claiming S-XYZ-02 that is skipped
    When the project's tests run narrowed with -k "not XYZ_02"
    Then the run succeeds without a coverage gate message

  @S-GATE-03
  Scenario: A requirement with a test but no scenario fails the gate
    Given a project whose spec defines S-XYZ-01 and S-XYZ-02
    And a test module "test_one.py" claiming S-XYZ-01 and S-XYZ-02
    And a feature "two.feature" with a scenario tagged @S-XYZ-02, bound by "test_two_bdd.py"
    When the both-ways gate checks the project
    Then it reports S-XYZ-01 as having no scenario and nothing as having no test
