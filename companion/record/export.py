"""Export a recorded match's camera frames as a labelled folder for `companion vision evaluate`.

Each frame saved with an entry becomes `NAME.jpg` with `NAME.json` beside it, the JSON being
the observation the referee saved with the frame (its confirmed read of the table).  Frames
saved without an observation are not labels and are left out, and so are the frames of
actions a later correction or undo superseded (their labels name what the players took back).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .model import RecordError
from .replay import effective_entries, split_rounds
from .store import MatchStore


@dataclass(frozen=True, slots=True)
class FrameExport:
    """What an export wrote: the image paths, and how many frames had no observation."""

    written: tuple[Path, ...]
    unlabelled: int
    superseded: int = 0


def frame_name(match_id: int, seq: int) -> str:
    return f"match{match_id:04d}-{seq:05d}"


def export_frames(store: MatchStore, match_id: int, directory: str | os.PathLike[str]
                  ) -> FrameExport:
    """Write the match's labelled frames into `directory` (created if needed).

    Refuses to overwrite: if any target file already exists nothing is written.
    """
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise RecordError(f"{out} exists and is not a directory")
    for seq in store.frame_seqs(match_id):
        base = out / frame_name(match_id, seq)
        for suffix in (".jpg", ".json"):
            if base.with_suffix(suffix).exists():
                raise RecordError(f"{base.with_suffix(suffix)} already exists; "
                                  "export into an empty folder")
    out.mkdir(parents=True, exist_ok=True)
    entries = store.entries(match_id)
    kinds = {e.seq: e.kind for e in entries}
    in_force = {e.seq for part in split_rounds(entries) for e in effective_entries(part)}
    written: list[Path] = []
    unlabelled = superseded = 0
    for frame in store.frames(match_id):
        if frame.observation is None:
            unlabelled += 1
            continue
        if kinds.get(frame.seq) in ("action", "pass", "claim", "correction") and \
                frame.seq not in in_force:
            superseded += 1
            continue
        base = out / frame_name(match_id, frame.seq)
        base.with_suffix(".jpg").write_bytes(frame.jpeg)
        base.with_suffix(".json").write_text(
            json.dumps(frame.observation, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8")
        written.append(base.with_suffix(".jpg"))
    return FrameExport(tuple(written), unlabelled, superseded)
