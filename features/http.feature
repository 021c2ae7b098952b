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

  @S-HTTP-01
  Scenario Outline: The bind address defaults to loopback
    When the bind "<bind>" is parsed
    Then the gateway listens on host "<host>" port <port>

    Examples:
      | bind           | host      | port |
      | 8765           | 127.0.0.1 | 8765 |
      | 127.0.0.1:9000 | 127.0.0.1 | 9000 |
      | [::1]:9001     | ::1       | 9001 |

  @S-HTTP-03
  Scenario: A missing token is generated once, privately
    Given an empty state dir
    When the HTTP settings are resolved twice
    Then the token file "http-token" holds the token with mode 0600
    And the token was printed the first time only

  @S-HTTP-06
  Scenario: The health check says nothing sensitive
    Given the gateway served over HTTP with a token
    When /healthz is fetched without a token
    Then it is answered with status 200
    And the body is exactly status "ok" and upstream "up"

  @S-HTTP-08
  Scenario Outline: Each kind of request has its session key
    When the session key is computed for a request <kind>
    Then its session key is "<key>"

    Examples:
      | kind                                         | key                            |
      | over stdio                                   | stdio:<process>                |
      | over 2026-07-28 HTTP from a client "agent-a" | http-modern:<process>:agent-a  |
      | over 2026-07-28 HTTP from an unnamed client  | http-modern:<process>:anonymous |

  @S-HTTP-08
  Scenario: A 2025-11-25 session key never contains the session id
    When the session key is computed for a request over 2025-11-25 HTTP in session "3f2a9c0d1e"
    Then its session key starts with "http:" and does not contain "3f2a9c0d1e"
