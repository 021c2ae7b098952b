Feature: Tool-definition pinning, the "rug pull" check
  A person trusts the tools upstream offered when the gateway first met it. A later definition
  that differs — an upgrade, or a compromised server that rewrites Click's description into an
  instruction or drops an argument a rule reads — is withheld until a person accepts it.

  @S-PIN-01
  Scenario: The first connection pins every offered tool by the digest of its five pinned fields
    Given a fresh state dir
    When the gateway records upstream's tool list
    Then every offered tool is pinned "first-connection" with the sha256 of its canonical pinned fields
    And a change to the title or _meta of a tool leaves its digest as it was

  @S-PIN-02
  Scenario: A changed tool is changed, a tool that appears later is new and pinned on first sight, a missing one removed
    Given a state dir whose pins were made from upstream's tool list
    When the gateway records a list where Click's description changed, "Teleport" was added and "Notification" is gone
    Then the statuses are "changed" for Click, "new" for Teleport and "removed" for Notification
    And Teleport is pinned "first-sight" and the catalog still hides it as unknown

  @S-PIN-03
  Scenario: pin show diffs what changed and pin accept records a person's acceptance
    Given a state dir whose pins were made from upstream's tool list
    And the gateway recorded the "click-rug-pull" variant
    When a person runs "pin show"
    Then it exits 1 and shows the description word diff, "- argument label" and SEVERE
    When a person runs "pin accept Click" without a terminal and without --yes
    Then it exits 2 and Click is still changed
    When a person runs "pin accept Click --yes"
    Then it exits 0, Click is pinned "cli" and the audit has an approval by "cli" for Click

  @S-PIN-04
  Scenario: A changed tool is refused TOOL_CHANGED, with a remedy naming pin show and pin accept
    Given a pin gate that withholds Click
    Then a call to Click is refused TOOL_CHANGED naming "winmcp-gateway pin show" and "winmcp-gateway pin accept Click"
    And a call to Snapshot is not refused by the pins
    And Click is hidden from tools/list but winmcp_state is not

  @S-PIN-05
  Scenario Outline: The doctor's pins check
    Given a state dir whose pins were made from upstream's tool list
    When the doctor's pins check sees the "<variant>" variant
    Then the pins check is <verdict>

    Examples:
      | variant        | verdict |
      | none           | OK      |
      | click-reworded | WARNING |
      | click-rug-pull | SEVERE  |

  @S-PIN-06
  Scenario: An unusable pin file withholds every upstream tool and is never overwritten
    Given a state dir whose pins were made from upstream's tool list
    And the pin file is replaced by "not json"
    When the gateway records upstream's tool list
    Then every upstream tool is withheld and winmcp_kill is not
    And the pin file still reads "not json"
    When a person runs "pin accept --yes"
    Then it exits 0 and the bad file is kept beside a usable pin file

  @S-PIN-07
  Scenario: The pin file is owner-only and written under a lock
    Given a fresh state dir
    When the gateway records upstream's tool list
    Then the pin file and the offered file are owner-only
    And no temporary file is left beside them

  @S-PIN-08
  Scenario: pin_mode = "warn" only reports, and counts as a weakening
    Given a pin gate in "warn" mode that has Click changed
    Then a call to Click is not refused by the pins
    And "pin_mode = warn" is among the weakened settings

  @S-PIN-09
  Scenario: The simulator offers a changed Click when asked
    Given the simulator's environment names the variant "click-rug-pull"
    Then the simulator's Click has no label argument and its description tells the model to run a command
    And an unknown variant name is a usage error

  @S-PIN-10
  Scenario: A tool list changed mid-session is compared again
    Given a gateway serving an upstream whose tool list is as pinned
    When the upstream changes Click's description and says its tool list changed
    Then the clients' tool list no longer has Click
