Feature: Packaging — what a user installs is the product, licensed, complete and nothing more
  Users install winmcp-gateway with pipx or uvx on Windows. The wheel they get must carry the
  licence, declare exactly the libraries the code imports, hold nothing of the source tree's tests
  or tools, and run from its own venv outside the source tree.

  @S-WIN-10
  Scenario: The project is MIT-licensed and declares it the SPDX way
    Given the project's pyproject.toml and LICENSE
    Then the licence is "MIT" as an SPDX string with LICENSE as its file and no licence classifier
    And the metadata names Windows, Python 3.11 and the mcp SDK pinned below major 3

  @S-WIN-11
  Scenario: The declared runtime dependencies are exactly what the code imports
    Given the third-party imports of gateway/ and policy/
    Then each maps through the installed distributions' file lists to a declared dependency, and every declared dependency is imported
    And httpx is a test dependency only

  @S-WIN-12
  Scenario: The sdist holds the product and none of the tree's tests or tools
    When the sdist is built from the tree
    Then its top level is gateway, policy, LICENSE, README.md, pyproject.toml, config.example.toml and setuptools' metadata
    And it holds no bytecode

  @S-WIN-14
  Scenario: The built wheel runs from a fresh venv outside the source tree
    Given the wheel built from the tree is installed into a fresh venv
    When "winmcp-gateway demo" runs from that venv in a directory outside the tree
    Then it exits 0 saying "checks passed: each incident was prevented"
    And the gateway and policy it imports are the venv's own
