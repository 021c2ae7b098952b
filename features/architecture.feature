Feature: The code keeps its shape: layers, no circles, declared dependencies
  The checks read the tree with ast and are tried on purpose-made violations too, so each is seen to fail.

  @S-ARCH-01
  Scenario: An import from a higher layer is reported
    Given a tree where gateway.observe imports gateway.pipeline
    When the architecture checks read it
    Then the layer check names "gateway.observe.parse -> gateway.pipeline.journey"

  @S-ARCH-02
  Scenario: A circle hidden behind a type-checking import is reported
    Given a tree where policy.a and policy.b import each other, one behind TYPE_CHECKING
    When the architecture checks read it
    Then the circle check names policy.a and policy.b

  @S-ARCH-03
  Scenario: The product's imports and its declared dependencies agree
    Given the real tree
    When the architecture checks read it
    Then no import is undeclared and no declaration is unused
