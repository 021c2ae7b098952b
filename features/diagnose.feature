Feature: A newcomer can see what runs, answer approvals and diagnose a failed start
  `serve` says once on stderr what is running and, with -v, one line per call; stdout stays
  protocol only. A person lists the approval requests waiting for them, finds them in the state
  dir the refusal names, and every answer is in the audit with who gave it. The doctor names why
  an upstream did not start, is bounded by --timeout, and prints each check as it runs. The kill
  switch speaks in words, the demo's commands can be pasted, and the shell completes the commands.

  @S-CLI-40 @S-CLI-41
  Scenario: serve says what runs on stderr, and stdout carries only JSON-RPC
    When a raw client talks to "winmcp-gateway -v serve --upstream sim" and clicks without a Snapshot
    Then stderr names the version, upstream, protocol, state dir, config "none, defaults", audit and mode once
    And stderr has the line "Click DENIED NO_OBSERVATION" for the call
    And every stdout line is a JSON-RPC message

  @S-APR-30 @S-APR-31 @S-APR-32
  Scenario: A person finds the request, answers it from the command line, and the audit says who
    Given a gateway on a state dir of its own
    When the model force-kills notepad.exe without an approval
    Then the refusal tells the person to run approve with --state-dir of that state dir
    And "winmcp-gateway approvals" lists the request with its tool and session
    When the person approves it with --yes
    Then the audit has an approval event by "cli"

  @S-DOC-20
  Scenario: The doctor shows why the upstream did not start
    When the person runs the doctor against an upstream that crashes on start
    Then the upstream check is SEVERE naming "MCPError: Connection closed" and the traceback's last line
    And no exception group appears in what the doctor printed

  @S-DOC-22
  Scenario: A silent upstream costs the doctor's timeout, not minutes
    When the person runs the doctor with "--timeout 2" against an upstream that never answers
    Then the upstream check is SEVERE saying it did not finish starting within 2 s

  @S-DOC-21 @S-DOC-23
  Scenario: The doctor prints each check as it runs and names the upstream's server
    When the person runs the doctor against the simulator
    Then the upstream, schema and pins lines were printed before the doctor's capture began
    And the upstream check names "windows-mcp 4.0.10"

  @S-CLI-43 @S-CLI-44
  Scenario: The kill switch answers in words, and in JSON for machines
    Given an empty state dir
    When the person runs "kill release"
    Then it prints "kill switch was not engaged; nothing to release"
    When the person runs "kill engage --reason lunch"
    And the person runs "kill status"
    Then it prints a line starting "kill switch ENGAGED by person since"
    When the person runs "kill status --json"
    Then it prints JSON with engaged true

  @S-CLI-46 @S-CLI-48
  Scenario: Help names the command as typed, and every error has one prefix
    When the person runs "sim --help"
    Then it prints a line starting "usage: winmcp-gateway sim"
    When the person runs "approve not-an-id --yes"
    Then the command exits 2 with an error starting "winmcp-gateway: error: "

  @S-CLI-47
  Scenario: bash completes the commands from the parser
    When bash completes "winmcp-gateway ki" with the script of "completion bash"
    Then it offers "kill"
    When bash completes "winmcp-gateway kill " with the script of "completion bash"
    Then it offers "engage release status"

  @S-CLI-42 @S-CLI-45
  Scenario: The demo's commands paste as shown and its incidents run once, in order
    When the person runs the demo
    Then the command to engage the kill switch is quoted "kill engage --reason 'demo: the person pressed stop'"
    And the incident headings are numbered 1, 2, 3, 4, each once
