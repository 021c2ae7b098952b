Feature: A served gateway keeps answering whatever a client sends
  The same checks as the unit scenarios, through a running gateway: the stdio child keeps
  serving after a refusal, HTTP answers a bad body with a status and the JSON-RPC error,
  generated messages and arguments never stop it, and a tool whose schema cannot be used
  is refused rather than forwarded unchecked.

  @S-MSG-06
  Scenario: After a malformed line the stdio gateway answers the next request
    Given the gateway runs as a stdio child
    When the client sends the line "not json" and then a ping
    Then the line is answered with code -32700 and the ping is answered

  @S-MSG-08
  Scenario: A malformed HTTP body gets 400 with the JSON-RPC error, then the server keeps serving
    Given the gateway serves HTTP
    When the client posts the body "not json" and then an initialize
    Then the body is answered 400 with code -32700 and the initialize is answered 200

  @S-MSG-09
  Scenario: Generated JSON-RPC messages never stop the gateway
    When 200 generated messages are thrown at a gateway in process
    Then every message that is due an answer got one and the gateway still answers a ping

  @S-ARG-07
  Scenario: A tool whose inputSchema is not a valid JSON Schema is refused, not forwarded
    Given a gateway whose upstream lists Click with an inputSchema of type "no-such-type"
    When the model clicks at 10, 10
    Then the call is refused with BAD_ARGUMENTS and nothing reached the desktop

  @S-ARG-09
  Scenario: Random arguments for every upstream tool are judged without a fault
    When 40 random argument sets per upstream tool are checked
    Then no check raised, and every set that passed conforms to upstream's own schema
