"""The Battle Line companion: a camera referee for Reiner Knizia's Battle Line."""

import os as _os

# Every matrix the companion solves is tiny (a 3x3 colour map, nine tile centres): a BLAS
# thread pool woken for them goes on spinning on the other cores, where the zone worker and
# the screen need them.  Set before numpy is first imported; a value set outside stands.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
