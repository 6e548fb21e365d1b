"""The reference rig's geometry, in millimetres on the table (DESIGN.md, "physical set-up").

The synthetic renderer lays tables out with these numbers; the pipeline uses them only as
priors (zone sizes relative to the detected tiles), never as fixed pixel positions.
Image axes: x grows east (to the south player's right), y grows south (towards the south
player), as the camera sees the table with north at the top of the frame.  Frames are BGR.
"""

FRAME_W, FRAME_H = 2304, 1296          # main stream
LORES_W, LORES_H = 320, 180            # low-resolution stream for motion
PX_PER_MM = 2.3                        # about 23 px per cm at 75-80 cm

CARD_W, CARD_H = 63.0, 88.0            # a card, portrait: its long side across the line
TILE_W, TILE_H = 50.0, 70.0            # flag tile, its top edge towards north
QR_SIZE = 36.0                         # QR symbol with its quiet zone, on the tile
FLAG_PITCH = 90.0                      # nominal distance between neighbouring tile centres
FIRST_CARD_GAP = 10.0                  # from the tile's edge to the first card's near edge
ECHELON_STEP = 20.0                    # visible top band of a card under a later one
ZONE_DEPTH = 240.0                     # a zone reaches this far from the tile centre
CLAIMED_OFFSET = 255.0                 # a claimed tile's centre, from the line, on the winner's side
CLAIMED_MIN_OFFSET = 60.0              # a tile this far off the line has been moved (claimed)
OFFLINE_GAP = 25.0                     # off-line areas start this far beyond flag 1 / flag 9 zones
