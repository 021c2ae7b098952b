Feature: Streamable HTTP with a bearer token
  Over HTTP the gateway answers only to the holder of its token, only under its own name
  (Host) and never to a foreign web page (Origin); each client session keeps its own
  observations while all of them share one upstream.

  @S-HTTP-04 @S-HTTP-05
  Scenario Outline: The guard lets in only the token holder under the gateway's own name
    Given the gateway served over HTTP with a token
    When a request arrives <how>
    Then it is answered with status <status>

    Examples:
      | how                                  | status |
      | without a token                      | 401    |
      | with a wrong token                   | 401    |
      | with the token and a forged Origin   | 403    |
      | with the token and a foreign Host    | 421    |
      | with the token                       | 200    |

  @S-HTTP-07
  Scenario: Two clients cannot cite each other's observations
    Given the gateway in front of the simulator served over HTTP
    And two clients connected with the token
    When the first client takes a Snapshot
    And the second client clicks based on the first client's observation
    Then the second client is refused with "UNKNOWN_OBSERVATION"

  @S-HTTP-02
  Scenario: Serving without authentication off loopback is refused
    When the gateway is started with "--http 10.1.2.3:0 --no-auth"
    Then it exits with 2 saying "without a token"
