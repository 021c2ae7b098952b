Feature: Mutation testing of policy/ reports an honest kill rate
  scripts/mutation runs mutmut on policy/ with the fast policy tests and folds its results into a
  per-module report; equivalent mutants are listed with a reason and left out of the rate.

  @S-ARCH-10
  Scenario: The report counts each outcome and leaves listed equivalents out of the kill rate
    Given mutmut results with 8 killed, 1 survived, 1 timeout and 1 not checked mutants in policy.kill
    And the survivor is listed as equivalent
    When the mutation report is made
    Then policy.kill shows 11 total, 8 killed, 1 survived, 1 timeout and 1 not checked
    And the kill rate is 8 of 9, with only the timeout left to look at

  @S-ARCH-10
  Scenario: An equivalent-list entry that a test now kills is reported
    Given mutmut results with 8 killed, 1 survived, 1 timeout and 1 not checked mutants in policy.kill
    And a killed mutant is listed as equivalent
    When the mutation report is made
    Then the report names that entry to be removed

  @S-ARCH-11
  Scenario: Every listed equivalent mutant is a mutant of a function policy/ still has
    Given the equivalent-mutant list in scripts/
    Then each entry has a reason and names a function of a policy/ module in the mutation scope

  @S-ARCH-12
  Scenario: A random sample of the mutants not yet run estimates the kill rate of all of policy/
    Given 40 mutants of which 10 were run for their own sake, 9 of them killed
    And 20 of the other 30 were drawn at random and run, 18 of them killed
    When the mutation report is made with the sample
    Then the sample's kill rate is 90.0% with its 95% Wilson interval
    And the estimate for all of policy/ counts the 10 mutants without a result at the sample's rate

  @S-ARCH-13
  Scenario: Hunting the sample's survivors does not raise the estimate
    Given 40 mutants of which 10 were run for their own sake, 9 of them killed
    And 20 of the other 30 were drawn at random and run, 18 of them killed
    When the mutation report is made with the sample
    And tests written since kill the two drawn survivors
    Then the estimate still counts them as the survivors they were when drawn
    And a fresh draw measures again
