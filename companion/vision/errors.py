"""The vision pipeline's exceptions: one per failing stage, each message naming the bad input.

All are `VisionError`, itself a `CompanionError`, so the commands turn them into one line on
stderr and exit status 2.
"""

from __future__ import annotations

from companion.errors import CompanionError


class VisionError(CompanionError):
    """Base of every error the camera pipeline raises on purpose."""


class CameraError(VisionError, OSError):
    """A camera (or frame source) that is missing, unplugged or unreadable."""


class EndOfStream(VisionError):
    """A finite frame source (video file, folder of frames) has no more frames."""


class ImageError(VisionError, ValueError):
    """An image file that cannot be read, or a frame that is not a BGR uint8 array."""


class TileError(VisionError, ValueError):
    """The flag tiles cannot give the table's layout (none, too few, one twice)."""


class NoTilesError(TileError):
    """No flag tile can be read in the frame."""


class MissingTilesError(TileError):
    """Some flag tiles cannot be found when the layout is first acquired."""


class DuplicateTileError(TileError):
    """The same flag tile appears twice in the frame."""


class DeckError(VisionError, ValueError):
    """An enrolment folder or a deck file that cannot give an enrolled deck."""


class CardError(VisionError, ValueError):
    """A card image that cannot be a Battle Line card."""


class ConfigError(VisionError, ValueError):
    """A vision configuration file that is missing a threshold or has a wrong one."""


__all__ = ["CameraError", "CardError", "ConfigError", "DeckError", "DuplicateTileError",
           "EndOfStream", "ImageError", "MissingTilesError", "NoTilesError", "TileError",
           "VisionError"]
