Feature: The project measures what it costs, next to the peer users would otherwise pick (issue 13)
  Benchmarks report same-run ratios, never wall-clock promises: the machines are shared.

  @S-PERF-01
  Scenario: The proxy benchmark measures every target on every case, interleaved, and writes JSON
    Given the proxy benchmark without the FastMCP peer
    When it runs two rounds
    Then every case has direct, gateway, gateway+reuse, sdk and relay rows with ratios to direct
    And the peak RSS of every started process is reported
    And the CPU time per round of each proxy and of its upstream is reported
    And it leaves no scratch folder behind
