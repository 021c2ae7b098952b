Feature: The gateway's own tool catalog, in a pure policy core
  The gateway judges every tool by its own table, never by upstream's annotations, and reads
  only argument names upstream really has (mode, never action). The policy core that holds
  the table does no I/O, reads no clock and imports nothing from the shell.

  @S-CAT-01
  Scenario: The gateway classifies every tool upstream lists, and its own, from its own table
    Given upstream's tools/list of Windows-MCP 0.8.8
    Then the tools upstream lists are exactly the 21 tools classified below
    And the gateway classifies the tools as
      | tool                   | class     |
      | Snapshot               | READ_ONLY |
      | Screenshot             | READ_ONLY |
      | DisplayInventory       | READ_ONLY |
      | Wait                   | READ_ONLY |
      | WaitFor                | READ_ONLY |
      | ControlStatus          | READ_ONLY |
      | Scrape                 | READ_ONLY |
      | Click                  | INPUT     |
      | Type                   | INPUT     |
      | Scroll                 | INPUT     |
      | Move                   | INPUT     |
      | Shortcut               | INPUT     |
      | MultiSelect            | INPUT     |
      | MultiEdit              | INPUT     |
      | PowerShell             | SYSTEM    |
      | Registry               | SYSTEM    |
      | FileSystem             | SYSTEM    |
      | Process                | SYSTEM    |
      | App                    | SYSTEM    |
      | Clipboard              | SYSTEM    |
      | Notification           | SYSTEM    |
      | winmcp_state           | READ_ONLY |
      | winmcp_to_screen       | READ_ONLY |
      | winmcp_screen_to_image | READ_ONLY |
      | winmcp_audit           | READ_ONLY |
      | winmcp_doctor          | READ_ONLY |
      | winmcp_kill            | CONTROL   |

  @S-CAT-01
  Scenario Outline: Upstream's hints do not decide the class
    Given upstream's tools/list of Windows-MCP 0.8.8
    Then upstream gives <tool> the hint <hint> = <value>
    And the gateway classifies <tool> as <class>

    Examples:
      | tool      | hint            | value | class     |
      | Clipboard | destructiveHint | false | SYSTEM    |
      | Scroll    | destructiveHint | false | INPUT     |
      | Scrape    | openWorldHint   | true  | READ_ONLY |

  @S-CAT-01
  Scenario Outline: Any other name, however close, is UNKNOWN
    Then the gateway classifies <name> as UNKNOWN

    Examples:
      | name                |
      | click               |
      | SNAPSHOT            |
      | Bash                |
      | winmcp_unknown      |
      | mcp__winmcp__Click  |

  @S-CAT-02
  Scenario: Every argument the catalog reads exists in upstream's inputSchema
    Given upstream's tools/list of Windows-MCP 0.8.8
    Then catalog_reads() covers exactly the tools upstream lists
    And every argument name catalog_reads() gives for a tool is in that tool's upstream inputSchema
    And no tool's reads include "action"
    And the catalog reads at least these arguments
      | tool        | arguments                       |
      | PowerShell  | command                         |
      | Registry    | mode, path, name, value         |
      | FileSystem  | mode, path, destination         |
      | Process     | mode, name, pid, force          |
      | App         | mode, name, executable, args    |
      | Click       | loc, label                      |
      | Move        | loc, from_loc, label            |
      | MultiSelect | locs, labels                    |
      | MultiEdit   | locs, labels                    |
      | Scrape      | use_dom                         |

  @S-CAT-03
  Scenario Outline: Which calls replace upstream's shared label table
    Then a call of <tool> with <arguments> <does> replace the label table

    Examples:
      | tool             | arguments                                   | does     |
      | Snapshot         | {}                                          | does     |
      | Snapshot         | {"use_vision": false, "use_ui_tree": false} | does     |
      | Screenshot       | {}                                          | does     |
      | WaitFor          | {"condition": "text", "text": "OK"}         | does     |
      | Scrape           | {"url": "https://example.com"}              | does not |
      | Scrape           | {"url": "https://example.com", "use_dom": false}   | does not |
      | Scrape           | {"url": "https://example.com", "use_dom": "false"} | does not |
      | Scrape           | {"url": "https://example.com", "use_dom": true}    | does     |
      | Scrape           | {"url": "https://example.com", "use_dom": "true"}  | does     |
      | App              | {"mode": "resize", "window_size": [800, 600]} | does   |
      | App              | {"mode": "switch", "name": "Notepad"}       | does     |
      | App              | {"mode": "launch", "name": "Notepad"}       | does not |
      | App              | {"name": "Notepad"}                         | does not |
      | Click            | {"loc": [1, 2]}                             | does not |
      | DisplayInventory | {}                                          | does not |
      | PowerShell       | {"command": "Get-Date"}                     | does not |

  @S-CAT-04
  Scenario: The observation tools and the tools that accept based_on
    Then the observation tools are exactly Snapshot, Screenshot, DisplayInventory, Wait, WaitFor and ControlStatus
    And the tools that accept based_on are exactly Click, Type, Scroll, Move, Shortcut, MultiSelect and MultiEdit
    And the tools that accept based_on are exactly the tools the gateway classifies INPUT
    And while a person's stop is engaged decide lets exactly the observation tools of upstream's through

  @S-DEC-08
  Scenario: The policy core is pure and declares its public surface
    Given the source of every module in policy/
    Then no module imports any of these, nor anything from gateway
      | module     |
      | os         |
      | sys        |
      | pathlib    |
      | io         |
      | logging    |
      | time       |
      | datetime   |
      | random     |
      | uuid       |
      | socket     |
      | subprocess |
      | threading  |
      | asyncio    |
      | anyio      |
      | mcp        |
      | httpx      |
      | filelock   |
    And the same check finds the import in "import os.path as p", "from datetime import datetime", "from gateway.state.store import X" and "x = __import__('socket')"
    And policy.__all__ lists exactly the package's public names
