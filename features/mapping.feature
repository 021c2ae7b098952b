Feature: Mapping — image pixels to screen points, multiplied exactly once
  screen = origin + image_px × scale, per axis. The origin comes from the printed region
  or the displays, the scale from the printed source size over the PNG's own size, and
  nothing is multiplied on top. The gateway states it in one line after each capture.

  @S-MAP-01 @S-MAP-05
  Scenario: A full-desktop capture with a monitor left of the primary
    Given the observation of sample "04a_snapshot_multimonitor_negative_origin"
    Then the mapping origin is -1920, 0
    And image pixel 200, 150 is screen loc -1453, 350
    And upstream's own hint for that pixel says 467, 350

  @S-MAP-01
  Scenario: A region capture starts at the region's corner
    Given the observation of sample "03_snapshot_region_nonzero_origin"
    Then the mapping origin is 2000, 100
    And image pixel 0, 0 is screen loc 2000, 100

  @S-MAP-02 @S-MAP-06
  Scenario: The seed's measured anchors on a 2560x1440 desktop
    Given the observation of sample "02_snapshot_downscaled_2560x1440"
    Then screen point 2520, 35 is image pixel 1890, 26.25
    And screen point 2000, 720 is image pixel 1500, 540
    And image pixel 1920, 1080 is screen loc 2560, 1440

  @S-MAP-03
  Scenario: The printed scale is checked against upstream's truncation
    Given a capture of 4480x1440 printed with scale 2.333333 and a PNG of 1920x600
    Then the mapping warns that the printed scale does not explain "y"

  @S-MAP-07
  Scenario: A screen point between two monitors is flagged
    Given the observation of sample "04a_snapshot_multimonitor_negative_origin"
    Then screen point -1000, 400 is on a display
    And screen point -1000, 1200 is on no display

  @S-MAP-08
  Scenario: A Snapshot without an image has no mapping
    Given the observation of sample "05_snapshot_rich_tree_no_vision"
    Then there is no mapping

  @S-MAP-09 @S-MAP-04
  Scenario: The annotation line states the mapping
    Given the observation of sample "02_snapshot_downscaled_2560x1440" as "obs-3"
    Then the annotation line is
      """
      [gateway] obs=obs-3 origin=0,0 scale=1.333333 image=1920x1080 source=2560x1440 focused="notes.txt - Notepad" | screen = origin + image_px × scale | cite based_on="obs-3"
      """
    And image pixel 1234.5, 678.25 maps to the screen and back unchanged
