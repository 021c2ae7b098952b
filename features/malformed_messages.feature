Feature: Malformed client messages get an answer
  A message the gateway cannot use is answered as JSON-RPC requires, logged once on stderr,
  and the gateway keeps serving; size and nesting depth are bounded before anything is parsed.

  @S-MSG-01 @S-MSG-02 @S-MSG-03 @S-MSG-07
  Scenario Outline: Each malformed message earns its JSON-RPC error
    When the client sends <message>
    Then it is refused with code <code> and id <id>
    And one log line says why without the message's content

    Examples:
      | message                                                         | code   | id   |
      | not json                                                        | -32700 | null |
      | 42                                                              | -32600 | null |
      | [{"jsonrpc":"2.0","id":1,"method":"ping"}]                      | -32600 | null |
      | {"jsonrpc":"2.0","id":5}                                        | -32600 | 5    |
      | {"jsonrpc":"2.0","id":null,"method":"ping"}                     | -32600 | null |
      | {"jsonrpc":"2.0","id":6,"method":"tools/call","params":[1]}     | -32602 | 6    |

  @S-MSG-03
  Scenario: A malformed notification is logged but never answered
    When the client sends {"jsonrpc":"2.0","method":"notifications/x","params":"p"}
    Then it is refused without an answer

  @S-MSG-04
  Scenario: Arguments nested 300 levels deep are refused with the request's id
    When the client sends a tools/call with id 7 whose arguments nest 300 levels deep
    Then it is refused with code -32602 and id 7

  @S-MSG-05
  Scenario: A message over max_message_bytes is refused, not buffered
    Given max_message_bytes is 4096
    When the client sends a ping with id 8 padded to 100000 bytes
    Then it is refused with code -32600 and id 8
