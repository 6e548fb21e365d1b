"""Reading the cards of one column: find each card's top band, then name it against the deck.

Works on a zone rectified upright for the column's owner (`Layout.strip_matrix`) and turned
into reflectance with the nearest tile's white and black, so colours compare with the
enrolled deck whatever the light.  Two measures of a top band are compared with the deck:
its *ink* (1 - the darkest channel: how far a pixel is from white paper, whatever its colour)
for the value's or the mark's shape, and its *hue* (the ink-weighted mean of two opponent
colour channels) for the colour.  Both come from the same cells for the deck and the frame.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import NamedTuple

import cv2
import numpy as np

from companion.rules.cards import Card

from . import bandnet, cvcompat, geometry
from .config import load_config


# Settings whose name in config.yaml ("reading") is not the field's own.
_CONFIG_KEYS = {"inset_mm": "band_inset_mm", "coarse_mm": "coarse_cell_mm",
                "overlap_mm": "tile_overlap_mm"}
# Settings the enrolled deck gives, not config.yaml.
_DECK_FIELDS = ("card_w", "card_h")


@dataclass(frozen=True, slots=True)
class ReadingSettings:
    px_per_mm: float
    band_mm: float
    inset_mm: float
    cell_mm: float
    coarse_mm: float
    card_delta: float
    paper_delta: float
    close_mm: float
    table_rows_mm: float
    row_cover: float
    row_middle_mm: float
    min_run_mm: float
    top_search_mm: float
    ink_start_share: float
    gap_mm: float
    scan_step_mm: float
    force_min: float
    min_step_mm: float
    peak_min: float
    past_end_min: float
    marks_min: float
    marks_row_min: float
    follow_min_mm: float
    memory_cell_mm: float
    memory_tolerance: float
    memory_shift_px: float
    end_slack_mm: float
    overlap_mm: float
    refine_mm: float
    side_search_mm: float
    scales: tuple[float, ...]
    refine_x_mm: float
    colour_weight: float
    colour_cap: float
    colour_neutral_share: float
    colour_neutral_max: float
    colour_ref_min: float
    colour_gain_max: float
    colour_doubt: float
    colour_doubt_unmapped: float
    colour_doubt_glare: float
    recolour_min_spread: float
    colour_min_vivid: float
    grey_min_reads: int
    grey_strip_spread: float
    stock_switch: float
    floor_delta: float
    floor_share: float
    stock_near: float
    stock_table_min: float
    seen_free_min: float
    seen_stock_min: float
    doubt_margin: float
    doubt_min_score: float
    not_a_card_score: float
    card_colour_cost: float
    edge_check_below: float
    edge_step: float
    edge_cover_min: float
    edge_search_mm: float
    doubt_low_margin: float
    doubt_floor: float
    table_far_delta: float
    glare_lift_min: float
    glare_white_ratio: float
    glare_rows_min_mm: float
    glare_smooth_mm: float
    glare_clip: float
    glare_lift_edge: float
    recolour_min_shape: float
    recolour_min_reads: int
    recolour_few_reads: int
    recolour_stiffness: float
    recolour_turns: tuple[float, ...]
    recolour_rounds: int
    recolour_robust_scale: float
    recolour_robust_rounds: int
    card_shape_min: float
    fine_margin: float
    fine_delta: float
    fine_search_mm: float
    fine_weight: float
    fine_overturn: float
    fine_noise: float
    net_weight: float
    net_doubt_lead: float
    cells_tie: float
    cells_clear_lead: float
    net_settle_lead: float
    net_sep_ref: float
    net_sep_floor: float
    net_trust_min: float
    settle_min_score: float
    net_card_min: float
    card_net_shape: float
    body_slack: float
    body_fit_min: float
    face_scales: tuple[float, ...]
    face_shift_mm: float
    face_end_mm: float
    face_cover_mm: float
    face_fit_min: float
    face_close: float
    face_lead_min: float
    face_share: float
    net_sure_min: float
    net_place_mm: float
    lone_gap_mm: float
    lone_net_min: float
    lean_min_deg: float
    lean_span: float
    lean_min_rows_mm: float
    lean_step_mm: float
    lean_max_deg: float
    lean_agree_deg: float
    across_edge_mm: float
    off_column_cells: int
    off_column_rows: float
    off_column_tol_mm: float
    off_column_min_mm: float
    card_lead_min: float
    net_named_min: float
    face_lead_ref: float
    card_sure_shape: float
    fallback_drop: float
    contest_gap: float
    cast_ratio_min: float
    # The enrolled printing's card size (mm), not a threshold: `sized` sets it from the deck.
    card_w: float = geometry.CARD_W
    card_h: float = geometry.CARD_H

    @classmethod
    @functools.lru_cache(maxsize=1)
    def load(cls) -> ReadingSettings:
        c = load_config()["reading"]
        values: dict[str, object] = {}
        for f in fields(cls):
            if f.name in _DECK_FIELDS:
                continue
            raw = c[_CONFIG_KEYS.get(f.name, f.name)]
            values[f.name] = (tuple(float(x) for x in raw)
                              if f.name in ("scales", "recolour_turns", "face_scales")
                              else int(raw) if f.type == "int" else float(raw))
        return cls(**values)  # type: ignore[arg-type]

    def px(self, mm: float) -> int:
        return int(round(mm * self.px_per_mm))

    def sized(self, card_w: float, card_h: float) -> ReadingSettings:
        """These settings for cards of the given size (mm): the same object when it is
        already theirs, so caches keyed on the settings stay warm."""
        if card_w == self.card_w and card_h == self.card_h:
            return self
        return _sized(self, float(card_w), float(card_h))


@functools.lru_cache(maxsize=8)
def _sized(s: ReadingSettings, card_w: float, card_h: float) -> ReadingSettings:
    return replace(s, card_w=card_w, card_h=card_h)


# -- measures -----------------------------------------------------------------------------------
def reflectance(bgr: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """BGR pixels as reflectance (0 = the tile's black, 1 = its white), per channel, float32."""
    white = np.asarray(white, np.float32)
    black = np.asarray(black, np.float32)
    gain = 1.0 / np.maximum(white - black, 8.0)
    m = np.zeros((3, 4), np.float32)
    m[[0, 1, 2], [0, 1, 2]] = gain
    m[:, 3] = -black * gain
    # One pass of cv2.transform: per channel (x - black) / (white - black).
    return cv2.transform(bgr.astype(np.float32), m)


def ink(refl: np.ndarray, stock: np.ndarray | None = None) -> np.ndarray:
    """How far each pixel is from the card's stock, whatever its hue and whichever is darker:
    the largest of its channels' differences from `stock[0]` (the enrolled printing's stock
    colour, reflectance BGR), from white paper when no stock is given (1 - its darkest
    channel).  Reflectance above `stock[1]` (the brightest the enrolled faces get) is taken
    as that: it is glare, not print.  Reflectance below `stock[2]`, where given, is taken as
    that: nothing of the printing is darker than its stock (`stock_floor`), so a camera
    whose black lies under the tile's (a webcam's blurred code reads grey) shows the stock
    darker than black, not as ink."""
    if stock is None:
        b, g, r = cv2.split(refl)
        darkest = cv2.min(cv2.min(b, g), r)
        return cv2.min(cv2.max(cv2.subtract(1.0, darkest), 0.0), 1.0)
    base, top = stock[0], stock[1]
    clipped = cv2.min(refl, (float(top[0]), float(top[1]), float(top[2]), 0.0))
    if len(stock) > 2:
        floor = stock[2]
        clipped = cv2.max(clipped, (float(floor[0]), float(floor[1]), float(floor[2]), 0.0))
    d = cv2.absdiff(clipped, (float(base[0]), float(base[1]), float(base[2]), 0.0))
    b, g, r = cv2.split(d)
    return cv2.min(cv2.max(cv2.max(b, g), r), 1.0)


def stock_floor(base: np.ndarray, pixels: np.ndarray, s: ReadingSettings) -> np.ndarray:
    """Per channel, the reflectance below which a pixel counts as `base` (`ink`): the base
    itself where under `s.floor_share` of the faces' pixels (N x 3) lie more than
    `s.floor_delta` darker than it (a dark stock printed in lighter inks only), else none
    (`NO_FLOOR`: dark ink's blurred core, darker than the tile's black, still tells shapes
    apart)."""
    darker = (pixels < base[None, :] - s.floor_delta).mean(axis=0)
    return np.where(darker < s.floor_share, base, NO_FLOOR).astype(np.float32)


NO_FLOOR = -8.0     # a `stock` floor that no reflectance reaches


@dataclass(slots=True)
class Maps:
    """Per-strip measures, blurred once so that any band's cells are read by indexing."""

    s: ReadingSettings
    ink_fine: np.ndarray      # ink box-filtered over a fine cell
    ink_coarse: np.ndarray    # ... over a coarse cell
    ink: np.ndarray
    refl: np.ndarray          # the strip itself: colour is measured on a band's pixels only
    # Cell grids by (coarse, stretch), looked up once per strip rather than once per gather.
    grids: dict[tuple[bool, float], tuple[np.ndarray, np.ndarray]] = \
        field(default_factory=dict)
    # Per channel (gain, offset) from `refl` to the scale colours are read on (`read_strip`).
    to_colour: tuple[np.ndarray, np.ndarray] | None = None
    # The strip shows no colour at all (`no_colour`): its reads are ranked on shape alone.
    grey: bool = False

    @classmethod
    def of(cls, refl: np.ndarray, s: ReadingSettings, stock: np.ndarray | None = None) -> Maps:
        """The measures of a strip; `stock`: the printing's stock colour (see `ink`)."""
        k = ink(refl, stock)
        f, c = s.px(s.cell_mm), s.px(s.coarse_mm)
        return cls(s, cv2.blur(k, (f, f)), cv2.blur(k, (c, c)), k, refl)

    def grid(self, coarse: bool, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """`_grid` stretched by `scale` (row and column offsets of the cell centres, px)."""
        key = (coarse, scale)
        g = self.grids.get(key)
        if g is None:
            rows, cols = _grid(self.s, coarse)
            if scale != 1.0:
                rows = np.round(rows * scale).astype(np.int64)
                cols = np.round(cols * scale).astype(np.int64)
            g = self.grids[key] = (rows, cols)
        return g


@functools.lru_cache(maxsize=8)
def _grid(s: ReadingSettings, coarse: bool) -> tuple[np.ndarray, np.ndarray]:
    """Row and column offsets (px, from the card's top-left) of the descriptor's cell centres."""
    cell = s.px(s.coarse_mm if coarse else s.cell_mm)
    x0 = s.px(s.inset_mm)
    width = s.px(s.card_w - 2 * s.inset_mm)
    nx = width // cell
    ny = s.px(s.band_mm) // cell
    rows = np.arange(ny) * cell + cell // 2
    cols = x0 + np.arange(nx) * cell + cell // 2
    return rows, cols


def _row_mean(v: np.ndarray) -> np.ndarray:
    """`v.mean(axis=-1, keepdims=True)` of a float array, the same sum and division without
    the Python layers around `ndarray.mean` (which cost more than the sum on short rows)."""
    total = np.add.reduce(v, axis=-1, keepdims=True)
    return np.true_divide(total, v.shape[-1], out=total, casting="unsafe")


def _normalise(v: np.ndarray) -> np.ndarray:
    """Rows made zero-mean and unit-length (so a product of two is their correlation)."""
    v = v - _row_mean(v)
    n = np.sqrt(np.einsum("...i,...i->...", v, v))[..., None]
    return v / np.maximum(n, 1e-6)


@dataclass(frozen=True, slots=True)
class Correlator:
    """Templates (rows, zero-mean and unit-length) and the cell weights of the descriptors
    compared with them, folded together: the correlations of `_normalise(raw * weights)` with
    the templates, without that normalised copy of the descriptors.

    A zero-mean template sees no offset, so each correlation is the raw cells' product with
    the weighted template over the weighted cells' spread, and the spread comes from two
    more products (the weighted sum and the sum of squares).
    """

    folded: np.ndarray      # (templates + 1, cells): templates x weights, then the weights
    squares: np.ndarray     # (cells,) the weights squared

    @classmethod
    def of(cls, templates: np.ndarray, weights: np.ndarray) -> Correlator:
        w = np.asarray(weights, np.float32)
        return cls(np.ascontiguousarray(np.vstack([templates * w, w[None]]), np.float32),
                   np.ascontiguousarray(w * w, np.float32))

    def spread(self, raw: np.ndarray, dots: np.ndarray) -> np.ndarray:
        """Length of each weighted, centred descriptor (the `_normalise` divisor)."""
        total = dots[:, -1]
        var = (raw * raw) @ self.squares - total * total * np.float32(1.0 / raw.shape[1])
        return np.maximum(np.sqrt(np.maximum(var, 0.0)), 1e-6)

    def sims(self, raw: np.ndarray) -> np.ndarray:
        """Correlations of raw descriptors (rows) with every template (descriptors x templates)."""
        dots = raw @ self.folded.T
        return dots[:, :-1] / self.spread(raw, dots)[:, None]

    def best(self, raw: np.ndarray) -> np.ndarray:
        """Each raw descriptor's best correlation with any template."""
        dots = raw @ self.folded.T
        return dots[:, :-1].max(axis=1) / self.spread(raw, dots)


def raw_cells(m: Maps, tops: np.ndarray, lefts: np.ndarray, coarse: bool,
              scale: float = 1.0) -> np.ndarray:
    """Ink of the bands' cells (one row per band) for card top-left corners given in px;
    `scale` stretches the grid (a card seen a little larger or smaller than nominal)."""
    src = m.ink_coarse if coarse else m.ink_fine
    r, c = _cell_axes(m, src, tops, lefts, coarse, scale)
    idx = r[:, :, None] + c[:, None, :]
    return src.ravel().take(idx.ravel()).reshape(len(tops), -1)


def _cell_axes(m: Maps, src: np.ndarray, tops: np.ndarray, lefts: np.ndarray, coarse: bool,
               scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Flat row offsets (n, rows) and columns (n, cols) of the bands' cells in `src`.

    Flat indices and one `take`: much cheaper than 2-D fancy indexing.  Corners outside the
    strip are clipped per axis (a card at the strip's edge).
    """
    rows, cols = m.grid(coarse, scale)
    h, w = src.shape
    r = np.minimum(np.maximum(tops[:, None] + rows[None, :], 0), h - 1) * w
    c = np.minimum(np.maximum(lefts[:, None] + cols[None, :], 0), w - 1)
    return r, c


def _window_stride(rows: np.ndarray, cols: np.ndarray, along: np.ndarray, across: np.ndarray
                   ) -> int | None:
    """For bands placed at every step of `along` (rows) and of `across` (columns) on a cell
    grid: how many steps along make one cell, when each band's cells are a window onto one
    shared gather (the grid evenly spaced the same both ways, `along` stepping evenly by a
    divisor of the cell and `across` by the cell); None when they are not."""
    if min(len(rows), len(cols), len(along), len(across)) < 2:
        return None
    cell = int(rows[1] - rows[0])
    sy, sx = int(along[1] - along[0]), int(across[1] - across[0])
    if cell <= 0 or int(cols[1] - cols[0]) != cell or sy <= 0 or cell % sy or sx != cell or \
            np.any(np.diff(along) != sy) or np.any(np.diff(across) != sx):
        return None
    return cell // sy


def _windows(m: Maps, coarse: bool, tops: np.ndarray, lefts: np.ndarray, along: np.ndarray,
             across: np.ndarray) -> np.ndarray | None:
    """The cells of the bands at every (top + a, left + c), a in `along`, c in `across`, for
    each (top, left) of `tops` and `lefts`: an array (places, along, across, cell rows, cell
    columns) of windows onto one gather per place; None unless `_window_stride` allows it.

    Clipping a row or column to the strip depends on its position alone, so the windows stay
    shifts of one another at the strip's edges too (as `raw_cells` clips them).
    """
    rows, cols = m.grid(coarse)
    q = _window_stride(rows, cols, along, across)
    if q is None:
        return None
    src = m.ink_coarse if coarse else m.ink_fine
    h, w = src.shape
    cell = int(cols[1] - cols[0])
    tall = q * (len(rows) - 1) + 1
    urow = np.clip((tops + along[0] + rows[0])[:, None]
                   + (cell // q) * np.arange(len(along) - 1 + tall), 0, h - 1)
    ucol = np.clip((lefts + across[0] + cols[0])[:, None]
                   + cell * np.arange(len(across) + len(cols) - 1), 0, w - 1)
    shared = src[urow[:, :, None], ucol[:, None, :]]
    win = np.lib.stride_tricks.sliding_window_view(shared, (tall, len(cols)), axis=(1, 2))
    return win[..., ::q, :]


def shifted_cells(m: Maps, ys: np.ndarray, lefts: np.ndarray) -> np.ndarray | None:
    """`raw_cells` (coarse) of every band with its top at a row of `ys` and its left edge at
    one of `lefts`, rows in (ys, lefts) order; None unless `ys` and `lefts` step evenly by
    divisors of the coarse cell, the usual scan.  Neighbouring bands then share their cells:
    the cells are gathered once, and each band's are a window onto them (no index array per
    band, which costs more than the cells themselves)."""
    zero = np.zeros(1, np.int64)
    win = _windows(m, True, zero, zero, np.asarray(ys, np.int64), np.asarray(lefts, np.int64))
    return None if win is None else win[0].reshape(len(ys) * len(lefts), -1)


def colour_cells(refl: np.ndarray, top: int, left: int, s: ReadingSettings) -> np.ndarray:
    """A band's mean colour per cell over the card's whole width (cells x 3, `cell_mm`
    cells, row-major); a band partly outside the strip takes the strip's edge."""
    bh, bw = s.px(s.band_mm), s.px(s.card_w)
    h, w = refl.shape[:2]
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + bh), min(w, left + bw)
    if y1 <= y0 or x1 <= x0:
        band = np.zeros((bh, bw, 3), np.float32)
    else:
        band = refl[y0:y1, x0:x1]
        if (y1 - y0, x1 - x0) != (bh, bw):
            band = cv2.copyMakeBorder(np.ascontiguousarray(band), y0 - top, top + bh - y1,
                                      x0 - left, left + bw - x1, cv2.BORDER_REPLICATE)
    cell = max(1, s.px(s.cell_mm))
    small = cv2.resize(np.ascontiguousarray(band, np.float32), (bw // cell, bh // cell),
                       interpolation=cv2.INTER_AREA)
    return small.reshape(-1, 3)


def _opponent(cells: np.ndarray) -> np.ndarray:
    """Opponent colour of BGR cells (..., 3): red - green, yellow - blue (grey is 0, 0)."""
    b, g, r = cells[..., 0], cells[..., 1], cells[..., 2]
    return np.stack([r - g, 0.5 * (r + g) - b], axis=-1)


@dataclass(frozen=True, slots=True)
class ColourModel:
    """Where the enrolled printing shows a card's colour, and its own colour reference.

    Learnt from the deck: per class (a Troop value), the cells where its six colours differ
    (a numeral, a banner, a gem, a border stripe, the whole card) say the colour, and the
    cells where they do not (stock, frame, the common art) are the card's own reference: a
    band's colour is measured on the first after scaling its channels so that the second
    look as they did at enrolment (a cast over this card, another print run's paper).
    Tactics cards use the Troops' mean layout.  The same code measures the deck and the frame.
    """

    weights: np.ndarray       # (classes, cells) where the colours differ, each row sums to 1
    neutral: np.ndarray       # (classes, cells) the reference cells, each row sums to 1 (or 0)
    reference: np.ndarray     # (classes, 3) the reference cells' enrolled colour

    @classmethod
    def learn(cls, cells: np.ndarray, class_of: np.ndarray, troop: np.ndarray,
              s: ReadingSettings) -> ColourModel:
        """`cells`: (cards, cells, 3) colour cells of every enrolled face; `troop`: per
        class, whether it is a Troop value (six colours)."""
        n_cls = int(class_of.max()) + 1
        opp = _opponent(cells)
        weights = np.zeros((n_cls, cells.shape[1]), np.float32)
        neutral = np.zeros_like(weights)
        for k in range(n_cls):
            if not troop[k]:
                continue
            members = opp[class_of == k]
            spread = ((members - members.mean(axis=0)) ** 2).sum(axis=2).mean(axis=0)
            weights[k] = spread / max(float(spread.sum()), 1e-9)
            calm = spread <= np.quantile(spread, s.colour_neutral_share)
            # A printing coloured all over (full bleed) has no reference cells to trust.
            if calm.any() and float(spread[calm].mean()) <= s.colour_neutral_max * float(
                    spread[~calm].mean() if (~calm).any() else spread.mean()):
                neutral[k] = calm / float(calm.sum())
        troops = np.flatnonzero(troop)
        if len(troops):
            mean_w = weights[troops].mean(axis=0)
            mean_n = neutral[troops].mean(axis=0)
            total = float(mean_n.sum())
            for k in np.flatnonzero(~troop):
                weights[k] = mean_w
                neutral[k] = mean_n / total if total > 0 else 0.0
        else:
            weights[:] = 1.0 / cells.shape[1]
        reference = np.zeros((n_cls, 3), np.float32)
        for k in range(n_cls):
            reference[k] = (neutral[k] @ cells[class_of == k].mean(axis=0))
        return cls(weights, neutral, reference)

    def vividness(self, cells: np.ndarray, k: int) -> float:
        """How colourful a band (its `colour_cells`) is where class `k` shows its colour, as
        the camera gave it (no channel rescaled): a greyscale frame gives none."""
        return float(np.linalg.norm(self.weights[k] @ _opponent(cells)))

    def hue(self, cells: np.ndarray, k: int, s: ReadingSettings) -> np.ndarray:
        """The colour of a band (its `colour_cells`) read as class `k`: opponent colour where
        the class shows it, its channels scaled to match the class's reference cells."""
        gain = np.ones(3, np.float32)
        if float(self.neutral[k].sum()) > 0:
            seen = self.neutral[k] @ cells
            ref = self.reference[k]
            # Reference cells brighter than enrolled in every channel have white light
            # added (glare): added, it is taken away before the channels are scaled;
            # scaled away, it would wash the colour out (an orange read as yellow).
            white = max(0.0, float((seen - ref).min()))
            cells, seen = cells - np.float32(white), seen - white
            # A dark reference (black stock) tells the print run's black, not the light: a
            # copy printed darker shows it at half its shade while its inks darken far less,
            # and scaled to it every colour came out twice as vivid (`colour_ref_min`).
            if float(seen.min()) > s.colour_ref_min and float(ref.min()) > s.colour_ref_min:
                gain = np.clip(ref / seen, 1.0 / s.colour_gain_max, s.colour_gain_max)
        return (self.weights[k] @ _opponent(cells * gain)).astype(np.float32)


# -- the deck's side ------------------------------------------------------------------------------
# Where two classes differ most in the band (rows, columns) and each one's ink there.
Patches = tuple[tuple[int, int, int, int], dict[int, np.ndarray]]


@dataclass(frozen=True, slots=True)
class Templates:
    """The enrolled deck's descriptors, ready for matrix products (computed once per deck)."""

    cards: tuple[Card, ...]
    fine: np.ndarray        # (cards, cells) normalised weighted ink, fine cells
    coarse: np.ndarray      # (classes, cells) normalised plain ink, coarse cells
    hues: np.ndarray        # (cards, 2)
    fine_w: np.ndarray      # per-cell weights: where the deck's bands differ from each other
    coarse_w: np.ndarray
    halves: tuple[np.ndarray, np.ndarray]   # (classes, cells) left and right halves, normalised
    half_cols: int          # fine cells per row in the left half
    class_of: np.ndarray    # per card, its shape class (a Troop value, or the Tactics card)
    class_ink: np.ndarray   # (classes, band px, card px) each class's mean ink, full resolution
    pairs: dict[tuple[int, int], Patches | None]   # see `_pair_patches`
    half_w: tuple[np.ndarray, np.ndarray]   # fine_w cut into the band's left and right halves
    coarse_c: Correlator                    # coarse with coarse_w, folded
    halves_c: tuple[Correlator, Correlator]  # halves with half_w, folded
    colour: ColourModel                     # where and how the printing shows colour
    vivid: np.ndarray                       # (cards,) each face's `ColourModel.vividness`
    stock: np.ndarray                       # what ink is measured from (`stock_colour`, `ink`)
    bodies: np.ndarray                      # (cards, rows, cols) each whole face's fine cells
    own_faces: np.ndarray                   # (cards, rows x cols) what each has of its own,
    face_common: np.ndarray                 # and what they share (`_own_faces`)
    paper: np.ndarray                       # the printing's stock: its faces' median colour
    card_w: float                           # the printing's card size (mm)
    card_h: float
    protos: np.ndarray                      # (classes, dims) the band network's prototypes
    net_sep: float = 0.0                    # how far apart the network puts this printing's
                                            # classes (`bandnet.separation`; 0: no network)
    net_trust: float = 0.0                  # how well it tells them apart in camera-like
                                            # views (`bandnet.self_test`)
    face_lead: float = 0.0                  # how far a Troop's band leads the deck's median
                                            # class on the cells (`_face_lead`)
    blank_top_mm: float = 0.0               # how far below its top a card's ink may start
                                            # (`_blank_top`)
    alike: frozenset[tuple[int, int]] = frozenset()   # cards (indices, both ways) whose
                                            # bands this printing does not tell apart
                                            # (`Deck.pairs`): their reads ask the face

    def settings(self) -> ReadingSettings:
        """The reading settings for this deck's cards."""
        return ReadingSettings.load().sized(self.card_w, self.card_h)


def face_maps(face_refl: np.ndarray, s: ReadingSettings, stock: np.ndarray | None = None
              ) -> Maps:
    """Measures of an upright card face already at `s.px_per_mm` and in reflectance."""
    return Maps.of(face_refl, s, stock)


def _pixels(faces_refl: list[np.ndarray]) -> np.ndarray:
    """A sample of the faces' pixels (N x 3 reflectance): plenty for a median or a share."""
    step = max(1, faces_refl[0].shape[0] // 60)
    return np.concatenate([f[::step, ::step].reshape(-1, 3) for f in faces_refl])


def stock_colour(cards: tuple[Card, ...], faces_refl: list[np.ndarray], s: ReadingSettings,
                 pixels: np.ndarray | None = None) -> np.ndarray:
    """The colour a printing's ink is measured from, the brightest its faces get and the
    floor under which all is stock (`ink`, `stock_floor`; 3 x BGR reflectance): of white,
    black and the median colour of all its faces, the one whose measure tells its values
    apart best (the mean, over Troop values, of how unlike its nearest other value each one
    is; white unless another does `stock_switch` times better).  Dark ink on light stock,
    light numerals on dark stock: the enrolment finds which contrast carries the value, the
    code does not assume one.  `pixels`: `_pixels(faces_refl)`, if already sampled."""
    if pixels is None:
        pixels = _pixels(faces_refl)
    median = np.median(np.minimum(pixels, 1.0), axis=0).astype(np.float32)
    top = np.minimum(np.percentile(pixels, 99.5, axis=0), 1.0).astype(np.float32)
    candidates = [np.stack([c, top, stock_floor(c, pixels, s)])
                  for c in (np.ones(3, np.float32), np.zeros(3, np.float32), median)]
    troop = [i for i, c in enumerate(cards) if c.is_troop]
    values = np.array([cards[i].value for i in troop])
    if not troop:
        return candidates[0]
    zero = np.zeros(1, np.int64)
    best, best_sep = candidates[0], -1.0
    for stock in candidates:
        raw = np.array([raw_cells(face_maps(faces_refl[i], s, stock), zero, zero, False)[0]
                        for i in troop], np.float32)
        means = np.array([raw[values == v].mean(axis=0) for v in sorted(set(values))])
        tpl = _normalise(means * _cell_weights(means))
        sim = tpl @ tpl.T
        np.fill_diagonal(sim, -1.0)
        sep = float(np.mean(1.0 - sim.max(axis=1)))
        # White first, and kept unless another tells the values clearly better: over white
        # paper, light brighter than the paper (glare) is no ink.
        if best_sep < 0 or sep > best_sep * s.stock_switch:
            best, best_sep = stock, sep
    return best


def _cell_weights(raw: np.ndarray, within: np.ndarray | None = None) -> np.ndarray:
    """Weight of each cell: its spread over the deck (cells alike on every card tell nothing),
    against its spread `within` a class, if given (the colour's name printed beside a value
    differs from card to card of that value: it tells the colour, not the value).

    Learned from whatever deck is enrolled, so a printing's own layout decides where to look
    (the digit's corner, the mark, the name) without the code knowing that layout.
    """
    spread = raw.std(axis=0)
    if within is not None:
        spread = spread * spread / np.sqrt(spread * spread + within * within + 1e-12)
    return (spread / max(float(spread.max()), 1e-6)).astype(np.float32)


def _within_spread(raw: np.ndarray, class_of: np.ndarray) -> np.ndarray:
    """Each cell's spread among the cards of one class (rows of `raw`), over the classes of
    more than one card."""
    var = [raw[class_of == k].var(axis=0) for k in range(int(class_of.max()) + 1)
           if int((class_of == k).sum()) > 1]
    return np.sqrt(np.mean(var, axis=0)) if var else np.zeros(raw.shape[1], np.float32)


def build_templates(cards: tuple[Card, ...], faces_refl: list[np.ndarray],
                    card_size: tuple[float, float] = (geometry.CARD_W, geometry.CARD_H),
                    stock: np.ndarray | None = None, net_trust: float | None = None
                    ) -> Templates:
    """The deck's descriptors.  Shapes are compared per *class*: a Troop's value (the mean of
    its six colours' bands) or a Tactics card, so the value is read from what differs between
    values, and the colour from where the printing shows it (`ColourModel`), separately.
    `card_size`: the printing's card width and height (mm); `stock`: the colour its ink is
    measured from (`stock_colour`, worked out when not given); `net_trust`: the band
    network's `self_test` on this printing, when it is already known."""
    s = ReadingSettings.load().sized(*card_size)
    fine, coarse, cells, inks = [], [], [], []
    zero = np.zeros(1, np.int64)
    bh, bw = s.px(s.band_mm), s.px(s.card_w)
    pixels = _pixels(faces_refl)
    if stock is None:
        stock = stock_colour(cards, faces_refl, s, pixels)
    elif len(stock) == 2:
        # A deck file enrolled before the stock had its floor.
        stock = np.vstack([stock, stock_floor(stock[0], pixels, s)[None]])
    paper = np.median(np.minimum(pixels, 1.0), axis=0).astype(np.float32)
    bodies = []
    grid_rows, grid_cols = _grid(s, False)
    body_rows = _face_rows(s)
    for face in faces_refl:
        m = face_maps(face, s, stock)
        bodies.append(m.ink_fine[np.minimum(body_rows, m.ink_fine.shape[0] - 1)][:, grid_cols])
        inks.append(_soft(m.ink[:bh, :bw]))
        fine.append(raw_cells(m, zero, zero, False)[0])
        coarse.append(raw_cells(m, zero, zero, True)[0])
        cells.append(colour_cells(face, 0, 0, s))
    fine_a, coarse_a = np.array(fine, np.float32), np.array(coarse, np.float32)
    keys = [str(c.value) if c.is_troop else c.code for c in cards]
    classes = sorted(set(keys), key=keys.index)
    class_of = np.array([classes.index(k) for k in keys])
    troop = np.array([k.isdigit() for k in classes])
    cells_a = np.array(cells, np.float32)
    colour = ColourModel.learn(cells_a, class_of, troop, s)
    hues = np.array([colour.hue(c, int(k), s) for c, k in zip(cells_a, class_of)], np.float32)
    vivid = np.array([colour.vividness(c, int(k)) for c, k in zip(cells_a, class_of)],
                     np.float32)
    class_raw = np.array([fine_a[class_of == i].mean(axis=0) for i in range(len(classes))],
                         np.float32)
    fw = _cell_weights(class_raw, _within_spread(fine_a, class_of))
    inks_a = np.array(inks, np.float32)
    class_ink = np.array([inks_a[class_of == i].mean(axis=0) for i in range(len(classes))],
                         np.float32)
    rows, cols = _grid(s, False)
    half = len(cols) // 2
    left, right = _split(class_raw * fw, len(rows), half)
    w_left, w_right = _split(fw[None], len(rows), half)
    # Finding tops wants what all bands share (the band itself): the coarse cells stay plain,
    # one template per class (a value's six colours look alike in ink), which is cheaper.
    coarse_cls = np.array([coarse_a[class_of == i].mean(axis=0) for i in range(len(classes))],
                          np.float32)
    # Half plain, half weighted: the band's common look finds it, its differences pin it.
    cw = (0.5 + 0.5 * _cell_weights(coarse_cls)).astype(np.float32)
    coarse_t = _normalise(coarse_cls * cw).astype(np.float32)
    halves = (_normalise(left).astype(np.float32), _normalise(right).astype(np.float32))
    half_w = (np.ascontiguousarray(w_left[0]), np.ascontiguousarray(w_right[0]))
    protos = np.zeros((len(classes), 0), np.float32)
    trust = 0.0
    if s.net_weight > 0.0:
        net_in = face_net_inputs(faces_refl, s, stock)
        protos = bandnet.prototypes(bandnet.shared().embed(net_in), class_of, len(classes))
        trust = bandnet.self_test(net_in, class_of, protos) if net_trust is None else net_trust
    return Templates(cards, _normalise(fine_a * fw).astype(np.float32), coarse_t,
                     hues, fw, cw, halves, half, class_of, class_ink, {},
                     half_w, Correlator.of(coarse_t, cw),
                     (Correlator.of(halves[0], half_w[0]), Correlator.of(halves[1], half_w[1])),
                     colour, vivid, stock, np.array(bodies, np.float32),
                     *_own_faces(np.array(bodies, np.float32)), paper,
                     float(s.card_w), float(s.card_h), protos, bandnet.separation(protos),
                     trust, _face_lead(fine_a * fw, class_of, troop, len(rows), half),
                     _blank_top(class_ink, s))


def _blank_top(class_ink: np.ndarray, s: ReadingSettings) -> float:
    """How far below its top a card of this printing may show no ink (mm): over the classes,
    the most rows before a class's band first reaches `ink_start_share` of its inkiest row
    (mean ink across the card). Where the stock is the table's own shade, the mask sees a
    card from its ink on, and its top lies up to this far before."""
    rows = class_ink.mean(axis=2)
    first = np.argmax(rows >= s.ink_start_share * rows.max(axis=1, keepdims=True), axis=1)
    return float(first.max()) / s.px_per_mm


def _face_lead(weighted: np.ndarray, class_of: np.ndarray, troop: np.ndarray, n_rows: int,
               half: int) -> float:
    """How far an enrolled Troop's band leads the deck's median card on the cells, as the
    reader scores a band (each half on its own, then their mean), against its value's
    template made of the value's other colours: a band seen on the table is never the very
    face the template was made of. The median over the Troops. A printing whose values share
    most of their band (a colour's name beside a small value) leads by little; the line a
    band's lead must pass to be a card (`card_lead_min`) is scaled by it (`lead_min`)."""
    troops = np.flatnonzero(troop[class_of])
    if len(troops) == 0:
        return 0.0
    halves = _split(weighted, n_rows, half)
    n_cls = int(class_of.max()) + 1
    means = [np.array([part[class_of == c].mean(axis=0) for c in range(n_cls)], np.float32)
             for part in halves]
    leads = []
    for i in troops:
        k = int(class_of[i])
        rest = class_of == k
        rest[i] = False                 # a Troop's value has its five other colours
        by_class = np.zeros(n_cls, np.float32)
        for part, tpls in zip(halves, means):
            tpls = tpls.copy()
            tpls[k] = part[rest].mean(axis=0)
            by_class += 0.5 * (_normalise(tpls) @ _normalise(part[i][None])[0])
        leads.append(float(by_class[k] - np.median(by_class[class_of])))
    return float(np.median(leads))


def net_input(ink_px: np.ndarray, top: int, left: int, s: ReadingSettings) -> np.ndarray:
    """The band network's input for the card whose top-left corner is (top, left) px in the
    ink map `ink_px` (`bandnet.band_input`: the band less its insets, as the cells see it)."""
    return bandnet.band_input(ink_px, top, left, s.px(s.band_mm), s.px(s.inset_mm),
                              s.px(s.card_w - 2 * s.inset_mm))


def face_net_inputs(faces_refl: Sequence[np.ndarray], s: ReadingSettings, stock: np.ndarray
                    ) -> np.ndarray:
    """The band network's inputs for enrolled faces (reflectance, upright): each face's own
    band, as `net_input` cuts a band on the table."""
    return np.array([net_input(face_maps(f, s, stock).ink, 0, 0, s) for f in faces_refl],
                    np.float32)


def _net_sims(m: Maps, tpl: Templates, tops: np.ndarray, lefts: np.ndarray
              ) -> np.ndarray | None:
    """The band network's say on the bands at (tops, lefts): their similarities with each
    class's prototype (cards read x classes); None without a network (`net_weight` 0).
    `identify_many` folds them into the class scores: each class loses `net_weight` times
    how much further the network puts the band from that class's prototype than from the
    nearest one. Where the network agrees with the cells, the best class keeps its score and
    the others fall behind (a surer read); where it disagrees, the two come closer or change
    places."""
    s = m.s
    if s.net_weight <= 0.0 or len(tops) == 0 or tpl.protos.shape[1] == 0:
        return None
    points = bandnet.shared().embed(np.array([net_input(m.ink, int(t), int(lf), s)
                                              for t, lf in zip(tops, lefts)], np.float32))
    return bandnet.similarities(points, tpl.protos)


def looks_disagree(r: CardRead, card: Card, tpl: Templates, s: ReadingSettings,
                   held: Sequence[Card] = (), settle_behind: bool = False) -> bool:
    """Whether the two looks at a read's band, the cells and the band network, do not both
    name `card`'s class: the cells put another class first, or the network puts the band
    less than `net_doubt_lead` nearer it than any other (relative to how far apart the
    network puts this printing's classes: `lead_scale`). Made apart, they are wrong together
    far less often than either alone; a network confidently wrong cannot make a read sure.

    Cells that put another class first by less than `cells_tie` name neither: they tie (a
    second print run's ink a little thicker makes a 6 fit an 8's cells as well as its own).
    Then the network alone names the class, when it puts the band at least
    `net_settle_lead` nearer it than any other and the read fits its card well
    (`settle_min_score`); otherwise the tie stays a doubt.

    Cells that name the class clearly (by `cells_clear_lead` or more) have the network's
    lead held against how far it puts *this* class from the rival it puts next (`_rival_sep`)
    where that is less than the printing's usual separation: two cards alike but for a
    detail (a Schotten Totten printing's two Jokers, the same word over crowns that differ
    by their jewels) lie close for the network however clearly the cells tell them apart,
    and a band on its class's prototype leads the other by no more than that.

    `held`: the cards the read put before `card`, which other reads hold for sure: their
    classes are out of the running, and the two looks must name `card` among the rest (a
    read's next card is taken for it only when both do: `pipeline`).

    A column's last card shows its whole face, an echelon's card its face down to the next
    card's top (`_with_face`): where that names a class clearly (`face_class`), it is the
    answer whatever the band's two looks say: they need not agree on `card`, and cannot
    make a read of another class sure.

    `settle_behind` (the doubt a read's card is given, `pipeline`; not whether a band is a
    card): cells that put another class first by less than `cells_clear_lead` do not name
    it clearly either; the network then names the read's class where it puts the band
    `net_settle_lead` nearer it than any other, on a printing it reads (`net_trust_min`),
    the read is no weak fit (`doubt_floor`), and the read's face, looked at (`_with_face`)
    though it names no class, fits the read's class better than the cells' first: a third
    look siding with the network (a network confidently wrong, its prototypes rolled one
    class on, has the face side with the cells)."""
    if r.net is None or r.cells is None:
        return False
    j = tpl.cards.index(card)
    rivals = _rivals(card, tpl, held)
    k = int(tpl.class_of[j])
    named = face_class(r, tpl, s, rivals | (np.arange(len(rivals)) == k))
    if named is not None:
        return named != k
    other = rivals[tpl.class_of]
    cells_lead = float(r.cells[j]) - float(r.cells[other].max()) if other.any() else 1.0
    lead = net_lead(r, card, tpl, held)
    if cells_lead >= 0.0:
        pair = _rival_sep(r, card, tpl, held) if cells_lead >= s.cells_clear_lead else None
        return lead * lead_scale(tpl, s, pair) < s.net_doubt_lead
    if settle_behind and r.face is not None and cells_lead > -s.cells_clear_lead \
            and lead >= s.net_settle_lead and r.score >= s.doubt_floor \
            and tpl.net_trust >= s.net_trust_min:
        first = int(tpl.class_of[np.flatnonzero(other)[np.argmax(r.cells[other])]])
        if float(r.face[k]) > float(r.face[first]):
            return False
    return not (cells_lead >= -s.cells_tie and lead >= s.net_settle_lead
                and r.score >= s.settle_min_score)


def looks_agree_without(r: CardRead, card: Card, tpl: Templates, s: ReadingSettings,
                        sure: Collection[Card]) -> bool:
    """Whether the two looks at a read's band name `card` once the cards they hold against
    it are out of the running because other reads hold them for sure (`sure`): each card
    exists once. Against each look, the class it puts first; the card held against it is
    that class's card in `card`'s colour (a red 6 whose band the network finds nearer an 8
    is no red 8 while the red 8 lies at another flag), or its one card (a Tactics card). A
    rival whose card is not held for sure keeps the doubt, and so do looks that still
    disagree without those: a band both looks can hardly read (a banner printing's purple
    10 whose cells fit every value alike and which the network put nearest a 9, then a 6)
    would otherwise be named by whichever class is left after a chain of rivals taken away.
    """
    if not looks_disagree(r, card, tpl, s):          # they agree, or a look is missing
        return False
    assert r.cells is not None
    other = _rivals(card, tpl)[tpl.class_of]
    if not other.any():
        return False
    against = {_net_rival(r, card, tpl)[1]}
    if float(r.cells[other].max()) > float(r.cells[tpl.cards.index(card)]):
        against.add(int(tpl.class_of[np.flatnonzero(other)[np.argmax(r.cells[other])]]))
    held = [c for k in against if k is not None and (c := _twin(k, card, tpl)) in sure]
    return len(held) == len(against) and not looks_disagree(r, card, tpl, s, held)


def _twin(k: int, card: Card, tpl: Templates) -> Card | None:
    """Class `k`'s card that a read of `card` could be instead: its one card (a Tactics
    card), or its card in `card`'s colour; None when it has none."""
    members = [tpl.cards[i] for i in np.flatnonzero(tpl.class_of == k)]
    if len(members) == 1:
        return members[0]
    same = [c for c in members if card.colour is not None and c.colour == card.colour]
    return same[0] if same else None


def _without(v: np.ndarray, common: np.ndarray) -> np.ndarray:
    """Rows of `v` less their part along the unit row `common`."""
    return v - (v @ common)[:, None] * common[None, :]


def _face_rows(s: ReadingSettings) -> np.ndarray:
    """Row offsets (px, from the card's top) of a whole face's fine cells, down the card's
    height: where enrolment keeps each face's cells (`Templates.bodies`) and `face_look`
    reads a card's."""
    cell = s.px(s.cell_mm)
    return np.arange(s.px(s.card_h) // cell) * cell + cell // 2


def _own_faces(bodies: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What each enrolled face has of its own (its fine cells, `Templates.bodies`,
    normalised, less their part along the deck's mean face, normalised again), and that
    mean face: a printing's faces share their frame, a picture's layout, a hexagon, and
    correlate 0.95 or more whole; what tells two apart is what is left."""
    faces = _normalise(bodies.reshape(len(bodies), -1))
    common = _normalise(faces.mean(axis=0, keepdims=True))[0]
    return _normalise(_without(faces, common)).astype(np.float32), common.astype(np.float32)


def face_look(m: Maps, tpl: Templates, r: CardRead, rows_seen: int | None = None
              ) -> np.ndarray | None:
    """How well a card's whole face, as the strip shows it below the read's top, fits each
    class's enrolled faces (`Templates.own_faces`: what each face's fine cells have of
    their own; per class the best of its cards), free to move `face_shift_mm` either
    way and to stretch along the card by `face_scales` (a tilted camera shows a card a few
    per cent short). None when the face runs past the strip's end.

    `rows_seen`: only the face's first rows of fine cells show (an echelon's card, the next
    one lying over the rest): those are matched with the same rows of the enrolled faces,
    less what those share (`_own_part`)."""
    s = m.s
    h, w = m.ink_fine.shape
    top = int(round(r.top_mm * s.px_per_mm))
    left = int(round(r.centre_mm * s.px_per_mm - s.px(s.card_w) / 2))
    rows = _face_rows(s)[:rows_seen]
    own, common = _own_part(tpl, rows_seen)
    if top + int(rows[-1] * min(s.face_scales)) >= h:
        return None
    cols = _grid(s, False)[1]
    shift = s.px(s.face_shift_mm)
    moves = sorted({-shift, 0, shift})
    ys = np.concatenate([np.round(rows * sc).astype(np.int64) + top + dy
                         for sc in s.face_scales for dy in moves])
    xs = np.concatenate([cols + left + dx for dx in moves])
    got = m.ink_fine[np.clip(ys, 0, h - 1)][:, np.clip(xs, 0, w - 1)]
    n_r, n_c = len(rows), len(cols)
    seen = got.reshape(-1, n_r, len(moves), n_c).transpose(0, 2, 1, 3).reshape(-1, n_r * n_c)
    sims = _normalise(_without(_normalise(seen), common)) @ own.T
    per_card = sims.max(axis=0)
    out = np.full(int(tpl.class_of.max()) + 1, -1.0, np.float32)
    np.maximum.at(out, tpl.class_of, per_card.astype(np.float32))
    return out


def _own_part(tpl: Templates, rows_seen: int | None) -> tuple[np.ndarray, np.ndarray]:
    """`Templates.own_faces` and `face_common` for the faces' first `rows_seen` rows of fine
    cells (all: None)."""
    if rows_seen is None or rows_seen >= tpl.bodies.shape[1]:
        return tpl.own_faces, tpl.face_common
    return _own_faces(tpl.bodies[:, :rows_seen])


def face_class(r: CardRead, tpl: Templates, s: ReadingSettings,
               allowed: np.ndarray | None = None) -> int | None:
    """The class the read's face (`CardRead.face`: a column's last card's whole, an
    echelon's card's down to the next card's top) names, among the `allowed` classes (a
    mask; all by default), or None where it names none clearly: it must fit it at least
    `face_fit_min`, and better than any other by `face_lead_min` and by `face_share` of how
    far apart the two classes' enrolled faces lie, on the rows looked at (one less the best
    correlation between a face of each): a printing whose faces differ only by a corner's
    numeral leads by as little as that difference, and needs no more."""
    if r.face is None:
        return None
    classes = np.flatnonzero(np.ones(len(r.face), bool) if allowed is None else allowed)
    if len(classes) < 2:
        return None
    order = classes[np.argsort(-r.face[classes])]
    k, rival = int(order[0]), int(order[1])
    lead = float(r.face[k] - r.face[rival])
    if float(r.face[k]) < s.face_fit_min or lead < s.face_lead_min:
        return None
    faces = _own_part(tpl, r.face_rows)[0]
    apart = 1.0 - float((faces[tpl.class_of == k] @ faces[tpl.class_of == rival].T).max())
    return k if lead >= s.face_share * apart else None


def _class_index(tpl: Templates, card: Card) -> int:
    """`card`'s shape class (its row of `protos` and of the band network's similarities)."""
    return int(tpl.class_of[tpl.cards.index(card)])


def _rivals(card: Card, tpl: Templates, held: Sequence[Card] = ()) -> np.ndarray:
    """The classes (a mask) a read of `card` is weighed against: all but its own and those
    of the cards `held` elsewhere that the read put before it."""
    rivals = np.ones(int(tpl.class_of.max()) + 1, bool)
    for c in (card, *held):
        rivals[_class_index(tpl, c)] = False
    return rivals


def _net_rival(r: CardRead, card: Card, tpl: Templates, held: Sequence[Card] = ()
               ) -> tuple[int, int | None]:
    """`card`'s class, and the class the band network puts the read's band next nearest to
    among its rivals (`_rivals`; None when there is none)."""
    assert r.net is not None
    k = _class_index(tpl, card)
    others = np.flatnonzero(_rivals(card, tpl, held))
    return k, (int(others[int(np.argmax(r.net[others]))]) if len(others) else None)


def _rival_sep(r: CardRead, card: Card, tpl: Templates, held: Sequence[Card] = ()) -> float:
    """How far the band network puts `card`'s class's prototype from that of the class it
    puts the read's band next nearest to (`held` as in `looks_disagree`): one less their
    cosine similarity."""
    k, rival = _net_rival(r, card, tpl, held)
    return 1.0 if rival is None else 1.0 - float(tpl.protos[k] @ tpl.protos[rival])


def lead_scale(tpl: Templates, s: ReadingSettings, pair: float | None = None) -> float:
    """What the band network's lead on this printing is multiplied by before it is held
    against `net_doubt_lead`, when the cells name the same class: that line is a lead on a
    printing whose classes the network puts `net_sep_ref` apart (the tuning families' usual
    separation), and a band lying on its class's prototype leads by about that separation.
    A printing the network puts closer together (a border stripe that fills the band's ink)
    gives every read a smaller lead: measured against its own separation
    (`Templates.net_sep`, at enrolment), not against another printing's.

    Only on a printing the network tells apart as well as those it was tuned on (its
    `self_test`, `Templates.net_trust`, at least `net_trust_min`): where it often puts a
    camera's view of a card nearest another class, a small lead is its noise, and scaled up
    it let wrong reads through silently (1 for 10 on a border-stripe printing whose classes
    it put 0.09 apart and told apart in 69% of camera-like views). Nor the lead that lets
    the network alone settle a tie of the cells (`net_settle_lead`).

    `pair`: the separation of the read's class from its rival's (`_rival_sep`), which is
    used where it is the smaller (cells that name the class clearly: `looks_disagree`)."""
    if tpl.net_trust < s.net_trust_min:
        return 1.0
    sep = tpl.net_sep if pair is None else min(tpl.net_sep, pair)
    return s.net_sep_ref / max(sep, s.net_sep_floor)


def net_lead(r: CardRead, card: Card, tpl: Templates, held: Sequence[Card] = ()) -> float:
    """How far the band network puts the read's band nearer `card`'s class than any other
    class (but `held`'s: `looks_disagree`; cosine similarity; negative when another class
    is nearer; 1.0 without a network)."""
    if r.net is None or len(r.net) < 2:
        return 1.0
    k, rival = _net_rival(r, card, tpl, held)
    return 1.0 if rival is None else float(r.net[k] - r.net[rival])


def _soft(ink_px: np.ndarray) -> np.ndarray:
    """Ink softened by a pixel or so: what a camera a little out of focus would see."""
    return cv2.GaussianBlur(np.ascontiguousarray(ink_px, np.float32), (0, 0), 0.8)


def _pair_patches(tpl: Templates, a: int, b: int, s: ReadingSettings) -> Patches | None:
    """Where in the band two classes differ most (rows and columns, px from the card's
    top-left: the bounding box of the largest patch of pixels whose ink differs by
    `fine_delta`, widened a little), and each class's ink there.  None when they differ
    nowhere that much, or one of them shows no ink there to match.  Worked out once per
    pair of classes and kept with the templates."""
    key = (min(a, b), max(a, b))
    if key not in tpl.pairs:
        d = (np.abs(tpl.class_ink[a] - tpl.class_ink[b]) > s.fine_delta).astype(np.uint8)
        d = cv2.dilate(d, np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(d)
        got: Patches | None = None
        if n > 1:
            j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            x, y, w, h, area = (int(v) for v in stats[j])
            if area >= 8:
                pad = s.px(1.0)
                hh, ww = d.shape
                y0, y1 = max(0, y - pad), min(hh, y + h + pad)
                x0, x1 = max(0, x - pad), min(ww, x + w + pad)
                patches = {c: np.ascontiguousarray(tpl.class_ink[c][y0:y1, x0:x1])
                           for c in key}
                if all(float(p.std()) >= 1e-3 for p in patches.values()):
                    got = ((y0, y1, x0, x1), patches)
        tpl.pairs[key] = got
    return tpl.pairs[key]


def _fine_look(m: Maps, tpl: Templates, top: int, left: int, a: int, b: int
               ) -> tuple[float, float] | None:
    """A second look at full resolution where classes `a` and `b` differ (a 6 and an 8
    differ by a stroke smaller than the descriptor's cells): each class's patch is matched,
    free to move a little, against the band's ink; their best normalised correlations."""
    s = m.s
    pair = _pair_patches(tpl, a, b, s)
    if pair is None:
        return None
    (y0, y1, x0, x1), patches = pair
    r = s.px(s.fine_search_mm)
    h, w = m.ink.shape
    ty0, tx0 = top + y0 - r, left + x0 - r
    ty1, tx1 = top + y1 + r, left + x1 + r
    if ty0 < 0 or tx0 < 0 or ty1 > h or tx1 > w:
        return None
    seen = _soft(m.ink[ty0:ty1, tx0:tx1])
    out = [float(cv2.matchTemplate(seen, patches[c], cv2.TM_CCOEFF_NORMED).max())
           for c in (a, b)]
    return out[0], out[1]


def _split(cells: np.ndarray, n_rows: int, half: int) -> tuple[np.ndarray, np.ndarray]:
    """Left and right halves of band descriptors (rows of cells, row-major)."""
    g = cells.reshape(len(cells), n_rows, -1)
    return (g[:, :, :half].reshape(len(cells), -1), g[:, :, half:].reshape(len(cells), -1))


# -- one column -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CardRead:
    """One card found in a column: its ranked candidates with scores, and where it lies."""

    candidates: tuple[tuple[Card, float], ...]   # best first
    top_mm: float                                # its top edge, mm from the strip's top
    centre_mm: float                             # its centre across the strip
    shape: np.ndarray | None = None              # per deck card, its shape similarity
    hue: np.ndarray | None = None                # the band's measured colour
    edge: float = 1.0                            # share of its width showing a top edge
    colour_t: float = 0.0                        # its colour from its own (0) to the next (1)
    vivid: float = 0.0                           # how colourful its band is (`vividness`)
    net: np.ndarray | None = None                # per class, the band network's similarity
    cells: np.ndarray | None = None              # per deck card, the cells' own shape
                                                 # similarity (`shape` before the network)

    cells_best: float | None = None              # the best score on the cells alone (shape
                                                 # and colour, without the network's say)
    colour_rivals: tuple[Card, ...] | None = None   # the other colours of its value its
                                                 # colour lies `colour_doubt_glare` of the way
                                                 # towards or more; None: its colour was not
                                                 # measured (greyscale, an unmapped frame)
    face: np.ndarray | None = None               # per class, how well its face fits
                                                 # (`face_look`); None: not looked at
    face_rows: int | None = None                 # the face's rows of fine cells it was
                                                 # looked at on (None: all of them)

    @property
    def cells_score(self) -> float:
        """How well the band fits its best card on the cells alone: whether it is a card at
        all is the cells' question (the network can only veto one: `_unlike_any`)."""
        return self.score if self.cells_best is None else self.cells_best

    @property
    def best(self) -> Card:
        return self.candidates[0][0]

    @property
    def score(self) -> float:
        return self.candidates[0][1]


def true_runs(flags: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of True in a 1-D array, end exclusive."""
    d = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return [(int(a), int(b)) for a, b in zip(starts, ends) if b - a >= min_len]


def card_mask(refl: np.ndarray, table: np.ndarray, s: ReadingSettings,
              paper: np.ndarray | None = None) -> np.ndarray:
    """Pixels unlike the bare table: cards (and anything else laid or held over it).

    `table` is the table's reflectance per row (rows x 3), so light falling off along the
    zone does not turn the table into card.  Paper is also brighter than any table a card
    game is played on, which catches pale tables whose colour is close to the paper's; and a
    pixel much nearer the printing's own stock (`paper`, reflectance BGR) than the table is
    card too, which catches dark stock on a dark table.
    Worked out at half resolution: the mask only says roughly where cards lie.
    """
    h, w = refl.shape[:2]
    # Halving by linear interpolation samples midway between pixel pairs: the 2 x 2 mean
    # (as INTER_AREA gives it) at a third of the cost.
    small = cv2.resize(refl, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
    t = np.asarray(table, np.float32)
    t = cv2.resize(t[:, None, :], (1, h // 2), interpolation=cv2.INTER_AREA) if t.ndim == 2 \
        else t[None, None, :]
    # The table's row spread across the strip, then one plain subtraction (a broadcast over
    # a length-1 axis costs several times both).
    d = cv2.subtract(small, cv2.resize(np.broadcast_to(t, (t.shape[0], 1, 3)),
                                       (w // 2, h // 2), interpolation=cv2.INTER_NEAREST))
    d2 = cv2.transform(d * d, np.ones((1, 3), np.float32))
    d2 = d2[:, :, 0] if d2.ndim == 3 else d2
    brighter = cv2.transform(d, np.full((1, 3), 1 / 3, np.float32))
    brighter = brighter[:, :, 0] if brighter.ndim == 3 else brighter
    card = (d2 > s.card_delta ** 2) | (brighter > s.paper_delta)
    if paper is not None:
        p = cv2.subtract(small, np.full_like(small, 1.0) * np.asarray(paper, np.float32))
        p2 = cv2.transform(p * p, np.ones((1, 3), np.float32))
        p2 = p2[:, :, 0] if p2.ndim == 3 else p2
        card |= (d2 > s.stock_table_min ** 2) & (p2 < (s.stock_near ** 2) * d2)
    raw = card.astype(np.uint8)
    # On a table close to the paper's colour only the cards' edges and ink stand out: close
    # the outlines and fill them, so each card (or echelon) becomes one solid region.
    k = max(3, (s.px(s.close_mm) // 2) | 1)
    closed = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    filled = np.zeros_like(closed)
    min_area = s.px(s.card_w) * s.px(s.band_mm) // 8
    big = [c for c in cvcompat.find_contours(closed) if cv2.contourArea(c) >= min_area]
    if big:
        cv2.drawContours(filled, big, -1, 1, thickness=cv2.FILLED)
    half = (filled | raw).astype(np.uint8)
    return cv2.resize(half, (w, h), interpolation=cv2.INTER_NEAREST).astype(bool)


def seen_stock(refl: np.ndarray, mask: np.ndarray, runs: list[tuple[int, int]],
               table: np.ndarray, paper: np.ndarray, s: ReadingSettings) -> np.ndarray | None:
    """The cards' stock as this camera shows it (reflectance BGR), where the mask saw the
    column only by its ink: the median of the pixels it left uncovered in the middle of the
    column's runs, when they are at least `seen_free_min` of it, lie `seen_stock_min` or
    more from the table, and their hue is nearer the enrolled stock's (`paper`) than the
    table's is. None otherwise (the mask saw the cards whole, or what it left is table: a
    patch of it lit more brightly than the margins keeps the table's hue).

    The enrolled stock is not what a camera shows: a dark stock a few hundredths above the
    tile's black at enrolment lay below it at a webcam under uneven light, nearer the table
    than the enrolled colour, and was no card to the mask."""
    if not runs:
        return None
    rows = np.concatenate([np.arange(a, b) for a, b in runs])
    middle = _middle(refl.shape[1], s)
    free = ~mask[rows, middle]
    if np.count_nonzero(free) < s.seen_free_min * free.size:
        return None
    seen = np.median(refl[rows, middle][free], axis=0)
    tab = np.median(table[rows], axis=0)
    if float(np.linalg.norm(seen - tab)) < s.seen_stock_min:
        return None

    def hue(c: np.ndarray) -> np.ndarray:
        return np.asarray(c, np.float32) - float(np.mean(c))

    if np.linalg.norm(hue(seen) - hue(paper)) >= np.linalg.norm(hue(tab) - hue(paper)):
        return None
    return seen.astype(np.float32)


def table_margins(refl: np.ndarray, s: ReadingSettings) -> tuple[np.ndarray, np.ndarray]:
    """The strip's left and right margins (where no centred card reaches), per row (rows x 3)."""
    w = refl.shape[1]
    edge = max(2, s.px(4.0))
    # Column by column: a mean over a short strided axis costs several times this.
    left = functools.reduce(np.add, (refl[:, i] for i in range(edge)))
    right = functools.reduce(np.add, (refl[:, w - 1 - i] for i in range(edge)))
    return (left * np.float32(1.0 / edge), right * np.float32(1.0 / edge))


def table_colour(refl: np.ndarray, s: ReadingSettings, ref: np.ndarray | None = None,
                 margins: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The bare table's reflectance along a strip (rows x 3): its outer margins, averaged over
    a stretch of rows.

    `ref` (rows x 3), the table's shade at the same distances from the line elsewhere (the
    other zones of that side), picks per row what of the margins is table: a column laid
    off-centre, or a neighbouring one, covers one margin or both over some rows.  Per row the
    left margin, the right one or their mean is taken, whichever is nearest `ref`; where none
    is near (both covered), `ref` itself.  `margins`: `table_margins` of the strip, if known.
    """
    left, right = table_margins(refl, s) if margins is None else margins
    if ref is None:
        per_row = 0.5 * (left + right)
    else:
        cands = np.stack([left, right, 0.5 * (left + right)])       # 3 x rows x 3
        dist = np.abs(cands - ref[None]).max(axis=2)
        k = dist.argmin(axis=0)
        idx = np.arange(len(k))
        per_row = np.where((dist[k, idx] > s.table_far_delta)[:, None], ref, cands[k, idx])
    per_row = np.ascontiguousarray(per_row, np.float32)
    # Barely smoothed: wood grain runs along the line, i.e. along the strip's rows, and each
    # row's own margins know its shade.
    k = max(3, s.px(s.table_rows_mm) | 1)
    return cv2.blur(per_row[:, None, :], (1, k))[:, 0, :]


class _RowEdges(NamedTuple):
    """Per row of a strip's mask: whether it has card, its first and last card pixel (0 and
    the last column where it has none), and the strip's width."""

    any: np.ndarray
    left: np.ndarray
    right: np.ndarray
    width: int


def _row_edges(mask: np.ndarray) -> _RowEdges:
    """The mask's rows' edges (`_RowEdges`)."""
    w = mask.shape[1]
    # The last card pixel of each row: the first of the row mirrored (by OpenCV: numpy's
    # argmax walks a reversed view, or copies it, several times slower).
    mirrored = cv2.flip(np.ascontiguousarray(mask).view(np.uint8), 1).view(bool)
    return _RowEdges(mask.any(axis=1), np.argmax(mask, axis=1),
                     w - 1 - np.argmax(mirrored, axis=1), w)


def _band_lefts(edges: _RowEdges, s: ReadingSettings) -> tuple[np.ndarray, np.ndarray]:
    """For a band starting on each row, two guesses of its card's left edge (px).

    Over a band's rows the mask is the union of the card and the one beneath it, so its
    left edge is this card's or the other's, and likewise its right edge: one of "the left
    edge" and "the right edge less a card's width" is this card's (medians over the band).
    """
    w, h = edges.width, len(edges.any)
    card_w = s.px(s.card_w)
    left = np.where(edges.any, edges.left, w // 2 - card_w // 2).astype(np.float32)
    right = np.where(edges.any, edges.right, w // 2 + card_w // 2).astype(np.float32)
    band = s.px(s.band_mm)
    # Means over the band's rows (cumulative sums: no per-row work in Python).
    cl = np.concatenate([[0.0], np.cumsum(left)])
    cr = np.concatenate([[0.0], np.cumsum(right)])
    idx = np.arange(h)
    end = np.minimum(h, idx + band)
    n = np.maximum(end - idx, 1)
    from_left = (cl[end] - cl[idx]) / n
    from_right = (cr[end] - cr[idx]) / n + 1 - card_w
    return (np.round(from_left).astype(np.int64), np.round(from_right).astype(np.int64))


def _middle(width: int, s: ReadingSettings) -> slice:
    """A strip's middle columns (`row_middle_mm` either side of its centre), where a
    centred column's cards lie whatever the table does at its sides."""
    mid, half = width // 2, s.px(s.row_middle_mm)
    return slice(mid - half, mid + half)


def _middle_cover(mask: np.ndarray, s: ReadingSettings) -> np.ndarray:
    """Per row of a strip's mask, the share of its middle (`_middle`) that is card."""
    middle = _middle(mask.shape[1], s)
    return np.count_nonzero(mask[:, middle], axis=1) / (middle.stop - middle.start)


def _card_rows(mask: np.ndarray, s: ReadingSettings) -> np.ndarray:
    """Per row of a strip's mask, whether its middle is card over more than `row_cover` of
    it (`_middle_cover`)."""
    return _middle_cover(mask, s) > s.row_cover


def column_runs(mask: np.ndarray, s: ReadingSettings) -> list[tuple[int, int]]:
    """Where the column runs along a strip: (first, end) rows of each stretch whose middle
    the mask covers, gaps shorter than a band closed; none where the mask shows only specks
    (wood grain, a crumb), and then there is no card to look for."""
    rows = _card_rows(mask, s)
    # Close gaps shorter than a band: ink of the table's own colour across a card (a grey
    # band on a grey table) is no gap, and cards laid apart are split by the band finder.
    gap = s.px(s.gap_mm)
    closed = cv2.morphologyEx(rows.astype(np.uint8)[:, None], cv2.MORPH_CLOSE,
                              np.ones((gap, 1), np.uint8))[:, 0].astype(bool)
    # Only gaps between two stretches: bare table between a column and the strip's ends is
    # no gap. Closed, a column ending a few mm before the strip's end ran to it, and its
    # last card's top was looked for that far past where it lies (and missed).
    card = np.flatnonzero(rows)
    if not len(card):
        return []
    if closed[0] and not rows[0]:
        closed[:card[0]] = False
    if closed[-1] and not rows[-1]:
        closed[card[-1] + 1:] = False
    return true_runs(closed, s.px(s.min_run_mm))


def find_tops(m: Maps, mask: np.ndarray, tpl: Templates, reliable_end: bool,
              limit_mm: float | None = None, runs: list[tuple[int, int]] | None = None,
              start_mm: float = 0.0, sure_only: bool = False,
              outlined: list[tuple[int, int] | None] | None = None,
              crowded: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    # `limit_mm`: where a claimed tile begins along the strip (mm), if one lies behind it;
    # `start_mm`: no card begins before this (the flag tile's edge, nothing over it);
    # `sure_only`: the mask says nothing of where cards lie (`_marks_only`): only tops that
    # fit surely (`past_end_min`) count, and none is placed for the mask's sake;
    # `outlined`: if given, gets for each top returned the rows (first, last) where the
    # mask's outline demands a card's top, if it lies there (the column's start, a whole
    # column's last card), else None;
    # `crowded`: if given, gets the peaks above the bar that a stronger top within a step
    # kept out (strongest first), should that top turn out to be no card.
    """Top-left corners (px) of every card in a strip's column, nearest the line first.

    The mask (pixels unlike the table) says roughly where the column runs (`runs`, if
    known: `column_runs`); the card tops are the rows where a band of the deck fits best
    (coarse cells), at least a step apart.
    """
    s = m.s
    h, w = mask.shape
    gap = s.px(s.gap_mm)
    card_h = s.px(s.card_h)
    band = s.px(s.band_mm)
    edges = _row_edges(mask)
    lefts_all = _band_lefts(edges, s)
    step = max(1, s.px(s.scan_step_mm))
    min_step = s.px(s.min_step_mm)
    slack = s.px(s.end_slack_mm)
    search = s.px(s.top_search_mm)
    # A run may begin at the first card's ink, not its top (a stock of the table's shade).
    before = search + s.px(tpl.blank_top_mm)
    tops: list[tuple[int, int]] = []
    for a, b in column_runs(mask, s) if runs is None else runs:
        # Before the mask's start a card's band may be the table's colour, but not before
        # the flag tile's edge; with the tile's edge clear (`start_mm`) and bare table down
        # to the column, the first card begins where the mask shows it (or up to its blank
        # top before, where the mask sees only its ink), within the usual search (a band
        # over bare table fits some cards' shapes fairly).
        lo = max(0, a - gap) if start_mm <= 0.0 else \
            max(s.px(start_mm), a - (before if not tops else gap))
        # A column that runs into a claimed tile lying behind it has no clean end: its last
        # card may lie partly on the tile.
        into_tile = limit_mm is not None and b >= s.px(limit_mm) - s.px(2.0)
        # A run shorter than a card is no whole column: the mask lost part of it (a card's
        # stock close to the table's colour), so its end says nothing of the last card.
        whole = reliable_end and not sure_only and not into_tile and b - a >= card_h - slack
        # Past the last card's top the outline demands, a whole column is that card's body,
        # unless the mask ended the run early (a picture of the table's colour, glare on the
        # table): tops are looked for there too, but only a sure fit counts.
        past = (b - card_h + slack) if whole else None
        if past is not None and not _card_follows(mask, b, card_h, s):
            hi, past = past, None           # the run ends at the last card's foot
        elif whole:
            hi = b - band
        else:
            # A run shorter than a card ends where the mask lost the card (a picture of the
            # table's colour across it), not at a band's foot: a top may lie within half a
            # band of its end.
            hi = b - band // 2
        hi = min(h - band, max(hi, a + search)) + 1
        if into_tile and limit_mm is not None:
            hi = min(hi, s.px(limit_mm) - card_h + s.px(s.overlap_mm))
        if hi <= lo:
            continue
        ys = np.arange(lo, hi, step)
        # Both guesses of the card's left edge from the mask, and places across the column
        # every coarse cell either side of its nominal one, as far as the strip allows
        # (cards are laid centred on their flag's tile, within a few mm, and a claimed
        # tile's line position is a guess): where the mask's edges mislead (a seam in the
        # wood, a shade the table reference missed), the band's own fit finds the card.
        nominal = (w - s.px(s.card_w)) // 2
        cell = s.px(s.coarse_mm)
        reach = max(0, ((w - s.px(s.card_w)) // 2 - s.px(s.across_edge_mm)) // cell)
        k_lo, k_hi = -reach, reach
        # A column laid off the strip's middle (a claimed tile's zone anchored on an
        # extrapolated line, an off-line area, a mislocated tile): the cells across are
        # searched around the column's own centre too, as its mask shows it.
        centre = _column_centre(edges, a, b, s)
        if centre is not None:
            k = int(round((centre - s.px(s.card_w) / 2 - nominal) / cell))
            if abs(k) > reach:          # beyond the cells searched around the middle
                k_lo = min(k_lo, k - s.off_column_cells)
                k_hi = max(k_hi, k + s.off_column_cells)
        across = nominal + cell * np.arange(k_lo, k_hi + 1)
        cand = np.stack([lefts_all[0][ys], lefts_all[1][ys]], axis=1)
        prof, lefts = _profile(m, tpl, ys, cand, across)
        # Half a cell either side of each row's best: a band of small marks (a row of dots)
        # fits only within a pixel or two of its place.
        half_cell = max(1, cell // 2)
        nudged = np.stack([lefts - half_cell, lefts + half_cell], axis=1)
        p2, l2 = _profile(m, tpl, ys, nudged)
        better = p2 > prof
        prof, lefts = np.where(better, p2, prof), np.where(better, l2, lefts)
        chosen: list[int] = []

        def free(i: int) -> bool:
            return all(abs(int(ys[i]) - int(ys[j])) >= min_step for j in chosen)

        # Local maxima (over +-2 samples) above the bar, strongest first.
        padded = np.pad(prof, 2, constant_values=-9.0)
        neigh = np.max(np.stack([padded[k:k + len(prof)] for k in range(5)]), axis=0)
        bar = np.full(len(ys), s.past_end_min if sure_only else s.peak_min, np.float32)
        if past is not None:
            bar[ys > past] = s.past_end_min
        peaks = np.flatnonzero((prof >= neigh) & (prof >= bar))
        for i in peaks[np.argsort(-prof[peaks])]:
            if free(int(i)):
                chosen.append(int(i))
            elif crowded is not None:
                crowded.append((int(ys[i]), int(lefts[i])))
        # Where the mask shows a card beginning, a card begins: keep the best top there
        # (not where the mask shows no column: `sure_only`, never `whole` either).
        first = (ys >= a - before) & (ys <= a + search)
        if not sure_only and first.any() and \
                not any(ys[j] <= a + search for j in chosen):
            i = int(np.argmax(np.where(first, prof, -9)))
            if prof[i] >= s.force_min:
                _demanded(m, tpl, chosen, i, ys, lefts, min_step)
        last = np.zeros(len(ys), bool)
        want = b - card_h
        if whole and b - a > card_h:
            # The last card shows whole: its top is one card height above the run's end.
            last = np.abs(ys - want) <= slack
            if last.any() and not any(last[j] for j in chosen):
                i = int(np.argmax(np.where(last, prof, -9)))
                if prof[i] >= s.force_min:
                    _demanded(m, tpl, chosen, i, ys, lefts, min_step)
        for j in sorted(chosen, key=lambda j: ys[j]):
            tops.append((int(ys[j]), int(lefts[j])))
            if outlined is not None:
                outlined.append((a - before, a + search) if first[j] and not sure_only
                                else (want - slack, want + slack) if last[j] else None)
    return tops


def _column_centre(edges: _RowEdges, a: int, b: int, s: ReadingSettings) -> float | None:
    """The column's centre across the strip (px) over rows `a`..`b` of its mask (`edges`):
    the median over the rows where the mask spans one card's width (within
    `off_column_tol_mm`) clear of the strip's sides (their middle), or is cut by one side and
    spans half a card to a card (its inner edge and half the card's width). None when fewer
    than `off_column_rows` of the rows, or `off_column_min_mm` of them, show one: a mask over
    two columns, or split, says nothing."""
    w, h = edges.width, len(edges.any)
    rows = slice(max(0, a), min(h, b))
    anyc, left, right = edges.any[rows], edges.left[rows], edges.right[rows]
    if not len(anyc):
        return None
    cw = s.px(s.card_w)
    width = right - left + 1
    tol = s.px(s.off_column_tol_mm)
    inner = anyc & (left > 0) & (right < w - 1) & (np.abs(width - cw) <= tol)
    cut_r = anyc & (left > 0) & (right >= w - 1) & (width >= cw // 2) & (width <= cw + tol)
    cut_l = anyc & (left <= 0) & (right < w - 1) & (width >= cw // 2) & (width <= cw + tol)
    cs = np.concatenate([0.5 * (left[inner] + right[inner]), left[cut_r] + cw / 2.0,
                         right[cut_l] - cw / 2.0])
    if len(cs) < max(s.px(s.off_column_min_mm), s.off_column_rows * len(anyc)):
        return None
    return float(np.median(cs))


def _demanded(m: Maps, tpl: Templates, chosen: list[int], i: int, ys: np.ndarray,
              lefts: np.ndarray, min_step: int) -> None:
    """Add sample `i`, a top the mask's outline demands (the column's start, its last
    card's top), to the `chosen` tops. A single peak within a step of it (a picture's edge
    in the first card's body, a word in the last card's band) crowds it out only if it
    reads better as a card (`_better_top`); two or more keep it out."""
    rivals = [j for j in chosen if abs(int(ys[j]) - int(ys[i])) < min_step]
    if not rivals:
        chosen.append(i)
    elif len(rivals) == 1 and _better_top(m, tpl, (int(ys[i]), int(lefts[i])),
                                          (int(ys[rivals[0]]), int(lefts[rivals[0]]))):
        chosen.remove(rivals[0])
        chosen.append(i)


def _card_follows(mask: np.ndarray, end: int, card_h: int, s: ReadingSettings) -> bool:
    """Whether card shows again within a card's height after a column's run ends at row
    `end`: a run that looks whole may then end inside a card (a picture of the table's
    colour, glare on the table beside it), not at the last card's foot."""
    return int(np.count_nonzero(_card_rows(mask[end:end + card_h], s))) >= \
        s.px(s.follow_min_mm)


def _profile(m: Maps, tpl: Templates, ys: np.ndarray, cand: np.ndarray,
             across: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For card tops at rows `ys`, each with candidate left edges (rows of `cand`, then the
    left edges `across` shared by every row): the best similarity to any band of the deck
    (coarse cells), and the left edge giving it."""
    yy = np.repeat(ys, cand.shape[1])
    sims = tpl.coarse_c.best(raw_cells(m, yy, cand.ravel(), True)).reshape(len(ys), -1)
    if across is not None and len(across):
        raw = shifted_cells(m, ys, across)
        if raw is None:
            raw = raw_cells(m, np.repeat(ys, len(across)), np.tile(across, len(ys)), True)
        more = tpl.coarse_c.best(raw)
        sims = np.concatenate([sims, more.reshape(len(ys), -1)], axis=1)
        cand = np.concatenate([cand, np.broadcast_to(across[None, :], (len(ys), len(across)))],
                              axis=1)
    k = sims.argmax(axis=1)
    return sims[np.arange(len(ys)), k], cand[np.arange(len(ys)), k]


def _better_top(m: Maps, tpl: Templates, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether a card top at corner `a` reads better as a card than one at `b`: a band the
    band network puts unlike any of the printing's (`_unlike_any`: the foot of the card
    before, a word in its body) reads worse than one it does not, whatever the cells say,
    and so does one it puts clearly further from the card its cells name; otherwise the
    cells decide."""
    s = m.s
    ra, rb = identify_many(m, [a, b], tpl, net=False)
    # The network's say on each band where the cells aligned it.
    half_w = s.px(s.card_w) / 2
    sims = _net_sims(m, tpl, np.array([round(r.top_mm * s.px_per_mm) for r in (ra, rb)]),
                     np.array([round(r.centre_mm * s.px_per_mm - half_w) for r in (ra, rb)]))
    if sims is not None:
        ra, rb = replace(ra, net=sims[0]), replace(rb, net=sims[1])
        va, vb = _unlike_any(ra, s), _unlike_any(rb, s)
        if va != vb:
            return vb
        # A band the network puts clearly nearer (`net_settle_lead`) the card its cells
        # name than the other band to its own reads better, on a printing the network
        # reads: the cells' colour-weighted fit can favour a top a few mm off the card's
        # (a wood grain's marks lengthening the column's outline by half a card).
        if tpl.net_trust >= s.net_trust_min:
            na, nb = (float(row[_class_index(tpl, r.best)])
                      for r, row in zip((ra, rb), sims))
            if abs(na - nb) >= s.net_settle_lead:
                return na > nb
    return ra.cells_score > rb.cells_score


def identify(m: Maps, top: int, left: int, tpl: Templates) -> CardRead:
    """Name the card whose top-left corner is near (top, left) (see `identify_many`)."""
    return identify_many(m, [(top, left)], tpl)[0]


def _half_sims(m: Maps, tpl: Templates, sets: list[tuple[np.ndarray, np.ndarray, float]]
               ) -> tuple[np.ndarray, np.ndarray]:
    """Similarities of the left and right halves of bands with the classes' halves, for
    every corner of every (tops, lefts, stretch) set, the sets' rows one after the other.

    Each half is gathered on its own (the same cells `_split` would cut from the whole band)
    and all sets go through one gather and one product.
    """
    src = m.ink_fine
    half = tpl.half_cols
    li, ri = [], []
    for tops, lefts, scale in sets:
        r, c = _cell_axes(m, src, tops, lefts, False, scale)
        li.append((r[:, :, None] + c[:, None, :half]).ravel())
        ri.append((r[:, :, None] + c[:, None, half:]).ravel())
    n = sum(len(t) for t, _, _ in sets)
    flat = src.ravel()
    lh = flat.take(li[0] if len(li) == 1 else np.concatenate(li)).reshape(n, -1)
    rh = flat.take(ri[0] if len(ri) == 1 else np.concatenate(ri)).reshape(n, -1)
    return tpl.halves_c[0].sims(lh), tpl.halves_c[1].sims(rh)


def _shifted_halves(m: Maps, tpl: Templates, top0: np.ndarray, left0: np.ndarray,
                    dys: np.ndarray, dxs: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """`_half_sims` at every corner (top0 + dy, left0 + dx), cards by dy by dx; None unless
    the offsets step evenly by divisors of the fine cell across and along (the usual
    alignment).  As in `shifted_cells`, each card's cells are gathered once and every
    offset's are a window onto them."""
    win = _windows(m, False, top0, left0, dys, dxs)        # cards x dy x dx x rows x cols
    if win is None:
        return None
    n = len(top0) * len(dys) * len(dxs)
    half = tpl.half_cols
    lh = win[..., :half].reshape(n, -1)
    rh = win[..., half:].reshape(n, -1)
    return tpl.halves_c[0].sims(lh), tpl.halves_c[1].sims(rh)


def identify_many(m: Maps, corners: list[tuple[int, int]], tpl: Templates, net: bool = True
                  ) -> list[CardRead]:
    """Name the cards whose top-left corners (px) are near `corners`, all at once.

    First each card is centred sideways on coarse cells (the mask's edges may belong to the
    card beneath); then each half of the band is aligned on its own with every candidate,
    which absorbs a card turned by a few degrees; last, the cell grid is stretched a little
    (lens distortion and perspective leave a card a few per cent off the strip's scale).
    Then the band network has its say on the aligned bands (`_net_sims`; not with
    `net=False`, when only the cells' fit is wanted).
    Everything is batched over the cards: one gather and one product per stage.
    """
    if not corners:
        return []
    s = m.s
    n = len(corners)
    top0 = np.array([c[0] for c in corners], np.int64)
    left0 = np.array([c[1] for c in corners], np.int64)
    wide = s.px(s.side_search_mm)
    offs = np.arange(-wide, wide + 1)
    coarse = tpl.coarse_c.best(raw_cells(m, np.repeat(top0, len(offs)),
                                         (left0[:, None] + offs).ravel(), True))
    left0 = left0 + offs[coarse.reshape(n, -1).argmax(axis=1)]
    # Stage 1, nominal scale: every offset along the column, every other one across.
    ry, rx = s.px(s.refine_mm), s.px(s.refine_x_mm)
    dy, dx = np.meshgrid(np.arange(-ry, ry + 1), np.arange(-rx, rx + 1, 2), indexing="ij")
    k1 = dy.size
    tops = (top0[:, None] + dy.ravel()).ravel()
    lefts = (left0[:, None] + dx.ravel()).ravel()
    both = _shifted_halves(m, tpl, top0, left0, np.arange(-ry, ry + 1),
                           np.arange(-rx, rx + 1, 2))
    sl, sr = both if both is not None else _half_sims(m, tpl, [(tops, lefts, 1.0)])
    ncls = sl.shape[1]
    sl, sr = sl.reshape(n, k1, ncls), sr.reshape(n, k1, ncls)
    tops, lefts = tops.reshape(n, k1), lefts.reshape(n, k1)
    every = np.arange(n)
    k0 = (sl + sr).max(axis=2).argmax(axis=1)
    t0, l0 = tops[every, k0], lefts[every, k0]
    # Stage 2, around each best offset: the odd offsets across, and the stretches.
    extra = [(t0, l0 - 1, 1.0), (t0, l0 + 1, 1.0)]
    extra += [(t0, l0, sc) for sc in s.scales if sc != 1.0]
    xl, xr = _half_sims(m, tpl, extra)                       # (len(extra) * n, classes)
    sl = np.concatenate([sl, xl.reshape(len(extra), n, ncls).transpose(1, 0, 2)], axis=1)
    sr = np.concatenate([sr, xr.reshape(len(extra), n, ncls).transpose(1, 0, 2)], axis=1)
    tops = np.concatenate([tops, np.stack([t for t, _, _ in extra], axis=1)], axis=1)
    lefts = np.concatenate([lefts, np.stack([l for _, l, _ in extra], axis=1)], axis=1)
    by_class = 0.5 * (sl.max(axis=1) + sr.max(axis=1))            # (cards, classes)
    # Per card: its best class's best offset, and there its colour.
    best = by_class.argmax(axis=1)
    k = (sl[every, :, best] + sr[every, :, best]).argmax(axis=1)
    tk, lk = tops[every, k], lefts[every, k]
    _second_look(m, tpl, by_class, tk, lk)
    sims = _net_sims(m, tpl, tk, lk) if net else None
    cells_only = by_class[:, tpl.class_of]
    if sims is not None:
        by_class += np.float32(s.net_weight) * (sims - sims.max(axis=1, keepdims=True))
    best = by_class.argmax(axis=1)          # the looks may have changed it: its colour cells
    cells = [colour_cells(m.refl, int(t), int(lf), s) for t, lf in zip(tk, lk)]
    if m.to_colour is not None:
        gain, offset = m.to_colour
        cells = [c * gain + offset for c in cells]
    colours = np.array([tpl.colour.hue(c, int(b), s) for c, b in zip(cells, best)], np.float32)
    vivid = [tpl.colour.vividness(c, int(b)) for c, b in zip(cells, best)]
    shape = by_class[:, tpl.class_of]                             # (cards read, deck cards)
    order, score, between, rivals = _ranked(tpl, s, shape, colours)
    half_w = s.px(s.card_w) / 2
    out = []
    for i in range(n):
        o = order[i]
        sc = score[i]
        cands = tuple((tpl.cards[j], float(sc[j])) for j in o)
        out.append(CardRead(cands, float(tk[i]) / s.px_per_mm,
                            (float(lk[i]) + half_w) / s.px_per_mm, shape[i], colours[i],
                            colour_t=float(between[i]), vivid=vivid[i],
                            net=None if sims is None else sims[i], cells=cells_only[i],
                            cells_best=float((sc - shape[i] + cells_only[i]).max()),
                            colour_rivals=rivals[i]))
    return [_colourless(r, tpl) for r in out] if m.grey else out


def no_colour(refl: np.ndarray, s: ReadingSettings) -> bool:
    """Whether a strip shows no colour at all: fewer than one pixel in a hundred has
    channels `grey_strip_spread` apart (a greyscale camera's frame; a colour camera's noise
    alone and any coloured ink or wood pass that). Its reads are ranked on their shape alone
    from the first (`_colourless`): scored against the enrolled colours before the frame is
    known to be grey (`recolour`), a grey band fits every card too poorly to be found."""
    if refl.ndim < 3:
        return True
    h, w = refl.shape[:2]
    # Every other pixel, and OpenCV's per-pixel max and min (numpy's over the channel axis
    # of a strided view cost a millisecond a strip).
    b, g, r = cv2.split(cv2.resize(refl, (max(1, w // 2), max(1, h // 2)),
                                   interpolation=cv2.INTER_NEAREST))
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    coloured = cv2.countNonZero(cv2.compare(spread, s.grey_strip_spread, cv2.CMP_GT))
    return coloured < 0.01 * spread.size


def _ranked(tpl: Templates, s: ReadingSettings, shape: np.ndarray, hues: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[Card, ...]]]:
    """Every deck card's score for reads of shape similarities `shape` (reads x deck cards)
    and colours `hues` (reads x 2): the five best per read, all scores, how far each read's
    colour lies towards its nearest other colour, and the other colours it lies near enough
    to be a doubt under glare (`colour_doubt_glare`) or anywhere (`_between`)."""
    # Capped: a colour gone wrong (light the tiles did not see) must not swamp the shape.
    dist = np.minimum(np.linalg.norm(tpl.hues[None, :, :] - hues[:, None, :], axis=2),
                      s.colour_cap)
    score = shape - s.colour_weight * dist
    order = np.argsort(-score, axis=1)[:, :5]
    between, rivals = _between(tpl, hues, order[:, 0],
                               min(s.colour_doubt, s.colour_doubt_glare))
    return order, score, between, rivals


def _between(tpl: Templates, hues: np.ndarray, best: np.ndarray, near: float
             ) -> tuple[np.ndarray, list[tuple[Card, ...]]]:
    """For each read of colour `hues[i]` named `best[i]` (a deck index): where its colour
    lies between the best card's enrolled colour (0) and that of the nearest card of the same
    class in another colour (1), along the line joining them; 0 when the class has one colour.
    And the cards of the same class whose colours it lies `near` of the way towards or more.

    Near 0.5 the frame cannot tell the two colours apart (a greyscale frame, a strong cast,
    yellow and orange under warm light): the colour of that read is a guess.
    """
    out = np.zeros(len(best), np.float32)
    rivals: list[tuple[Card, ...]] = []
    for i, b in enumerate(best):
        same = np.flatnonzero(tpl.class_of == tpl.class_of[b])
        others = same[same != b]
        if not len(others):
            rivals.append(())
            continue
        hb = tpl.hues[b]
        d = tpl.hues[others] - hb                                   # (others, 2)
        length2 = np.maximum((d * d).sum(axis=1), 1e-9)
        tt = (d @ (hues[i] - hb)) / length2
        # Two colours the enrolment itself could not tell apart: no colour can decide.
        tt[length2 <= 1e-8] = 1.0
        out[i] = float(tt.max())
        rivals.append(tuple(tpl.cards[j] for j in others[tt >= near]))
    return out, rivals


def _second_look(m: Maps, tpl: Templates, by_class: np.ndarray, tops: np.ndarray,
                 lefts: np.ndarray) -> None:
    """Where two classes are within `fine_margin` on the cells, look again at full
    resolution (`_fine_look`) and change `by_class` (cards read x classes) in place: the
    class that fits worse where the two differ loses by that much; the second look overturns
    the cells only when it is clearly surer, and otherwise leaves the two level (a doubt)."""
    s = m.s
    if len(by_class) == 0 or by_class.shape[1] < 2:
        return
    two = np.argsort(-by_class, axis=1)[:, :2]
    rows = np.arange(len(by_class))
    close = by_class[rows, two[:, 0]] - by_class[rows, two[:, 1]] < s.fine_margin
    for i in np.flatnonzero(close):
        a, b = int(two[i, 0]), int(two[i, 1])
        fine = _fine_look(m, tpl, int(tops[i]), int(lefts[i]), a, b)
        if fine is None:
            continue
        diff = fine[0] - fine[1]
        if -s.fine_noise < diff < 0:
            continue        # within what blur and noise make of one patch: no say
        if diff >= 0:
            by_class[i, b] -= s.fine_weight * diff
        elif -diff >= s.fine_overturn:
            by_class[i, a] -= s.fine_weight * -diff
        else:
            by_class[i, a] = by_class[i, b]


def _scored(r: CardRead, tpl: Templates, s: ReadingSettings, h: np.ndarray) -> CardRead:
    """The read scored again with the colour `h`."""
    return _scored_all([r], tpl, s, np.asarray(h, np.float32)[None, :])[0]


def _scored_all(reads: list[CardRead], tpl: Templates, s: ReadingSettings, hues: np.ndarray
                ) -> list[CardRead]:
    """The reads scored again with the colours `hues` (one row each), all at once."""
    shape = np.stack([r.shape for r in reads])                    # type: ignore[misc]
    order, score, between, rivals = _ranked(tpl, s, shape, hues)
    return [CardRead(tuple((tpl.cards[j], float(sc[j])) for j in o), r.top_mm, r.centre_mm,
                     r.shape, r.hue, r.edge, float(t), r.vivid, r.net, r.cells,
                     None if r.cells is None or r.shape is None
                     else float((sc - r.shape + r.cells).max()), rival, r.face, r.face_rows)
            for r, o, sc, t, rival in zip(reads, order, score, between, rivals)]


def _colourless(r: CardRead, tpl: Templates) -> CardRead:
    """A read of a frame that shows no colour (greyscale): ranked on its shape alone, its
    colour a doubt. Scored against the enrolled colours, a grey band lay far from every
    vivid colour and fitted too poorly to be a card: its card was lost, not doubted."""
    if r.hue is None or r.shape is None:
        return r
    order = np.argsort(-r.shape, kind="stable")
    cands = tuple((tpl.cards[j], float(r.shape[j])) for j in order)
    return replace(r, candidates=cands, colour_t=1.0, colour_rivals=None,
                   cells_best=None if r.cells is None else float(r.cells.max()))


_NO_CHANGE = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
_NO_CHANGE.setflags(write=False)
"""The colour map that changes nothing (rows: the colour plane's two coordinates and 1)."""


def _fit_map(x: np.ndarray, y: np.ndarray, start: np.ndarray, s: ReadingSettings
             ) -> tuple[np.ndarray, float]:
    """The frame's colour map (`recolour`) sending the reads' colours `x` (rows: the colour
    plane's two coordinates and 1) to `y`, drawn towards no change (`recolour_stiffness`)
    but for a saturation gain (light, exposure and a camera's processing make a frame's
    colours duller or brighter alike, every hue kept): towards `gain` times no change, the
    gain free within `colour_gain_max`.  The map and its cost.

    A read the map leaves further than `recolour_robust_scale` from its card's colour counts
    for less and less (a Cauchy fit, reweighted `recolour_robust_rounds` times): a few bands
    whose colours are far from every card's (a zone whose light its tiles misjudged, twice
    as vivid as any card) otherwise shrink the map for the whole frame and take the other
    cards off their colours. The first weights are the reads' distances through `start` (a
    least-squares start would already be shrunk)."""
    w0 = _NO_CHANGE
    lam, far = s.recolour_stiffness, s.recolour_robust_scale

    def weights(res: np.ndarray) -> np.ndarray:
        # Measured against the reads' usual distance too: a cast that takes every read far
        # from its card leaves them all their say.
        c = max(far, 2.0 * float(np.median(res)))
        return 1.0 / (1.0 + (res / c) ** 2)

    res = np.linalg.norm(x @ start - y, axis=1)
    wmat, gain = start, 1.0
    for _ in range(s.recolour_robust_rounds):
        wts = weights(res)
        xw = x * wts[:, None]
        gram = xw.T @ x + lam * np.eye(3)
        # The map is part_y + gain * part_g; part_g is the pull towards no change.
        part_g = np.linalg.solve(gram, lam * w0)
        step, pull = x @ part_g, part_g - w0
        ends = float((wts[:, None] * step * step).sum()) + lam * float((pull * pull).sum())
        part_y = np.linalg.solve(gram, xw.T @ y)
        miss = x @ part_y - y
        gain = -(float((wts[:, None] * miss * step).sum())
                 + lam * float((part_y * pull).sum())) / max(ends, 1e-12)
        gain = min(max(gain, 1.0 / s.colour_gain_max), s.colour_gain_max)
        wmat = part_y + gain * part_g
        res = np.linalg.norm(x @ wmat - y, axis=1)
    loss = far * far * np.log1p((res / far) ** 2)
    return wmat, float(loss.sum() + lam * ((wmat - gain * w0) ** 2).sum())


def _once_each(score: np.ndarray) -> np.ndarray:
    """For reads scored against every deck card (`score`: reads x cards), the card each
    names when no card is named twice: each card exists once.  Where two reads name the
    same card, the one that prefers it by more over its own next card keeps it and the other
    takes its best card still free, as many times as it takes (the reads that lead by most
    first).

    A warm light turns the frame's oranges towards red: fitted as each read names its card
    alone, the map could explain all of a frame's oranges as reds (R1 read twice, O1 never),
    and read them so, surely, wherever the red card of that value was not on the table."""
    best = score.argmax(axis=1)
    if len(np.unique(best)) == len(best):
        return best
    top2 = -np.partition(-score, 1, axis=1)[:, :2] if score.shape[1] > 1 else \
        np.hstack([score, score])
    free = np.ones(score.shape[1], bool)
    out = np.empty(len(best), np.int64)
    for i in np.argsort(-(top2[:, 0] - top2[:, 1]), kind="stable"):
        row = np.where(free, score[i], -np.inf)
        j = int(row.argmax()) if free.any() else int(best[i])
        out[i] = j
        free[j] = False
    return out


def recolour(reads: list[CardRead], tpl: Templates) -> list[CardRead]:
    """The frame's reads scored again with their colours mapped onto the deck's.

    Every band of a frame went through the same camera: a white balance the tiles do not
    undo (a channel clipped on the tiles' white but not on the inks) shifts all colours
    alike.  An affine map of the colour plane, fitted from the confident reads to the colours
    of the cards they name (drawn towards no change), takes that shift out.
    """
    s = ReadingSettings.load()
    # A camera that gives no colour (greyscale) leaves every band grey, whatever it is read
    # as: measured against the deck's usual Troop, not against the cards the bands were
    # named (a Troop misread as a Tactics card in a grey frame would pass for grey).
    troop = np.array([c.is_troop for c in tpl.cards])
    usual = float(np.median(tpl.vivid[troop])) if troop.any() else 0.0
    seen_all = np.array([r.vivid for r in reads if r.hue is not None])
    if usual > 1e-3 and len(seen_all) >= s.grey_min_reads and \
            float(np.median(seen_all)) < s.colour_min_vivid * usual:
        return [_colourless(r, tpl) for r in reads]
    # A band the network puts only faintly near any class (glare, wood, a picture's edge
    # the cells fit) is no card to learn the frame's colours from: two such bands of a
    # colour no card has can turn the map one colour on for every card of the frame.
    fit = [r for r in reads if r.hue is not None and r.shape is not None
           and float(r.shape.max()) >= s.recolour_min_shape and not faint_band(r, s)]
    few = len(fit) < s.recolour_min_reads
    if len(fit) < s.recolour_few_reads:
        return _unmapped(reads, s)
    idx = {c: i for i, c in enumerate(tpl.cards)}
    todo = [i for i, r in enumerate(reads) if r.hue is not None and r.shape is not None]
    x = np.array([[*r.hue, 1.0] for r in fit])                             # type: ignore[misc]
    every = np.array([[*reads[i].hue, 1.0] for i in todo])                 # type: ignore[misc]
    # A frame whose colours hardly differ (greyscale, a cast that swamps them) has nothing
    # to map from: fitted anyway, the map would send every band to one colour, surely.
    aim = np.array([tpl.hues[idx[r.best]] for r in fit], np.float64)
    enrolled = np.array([tpl.vivid[idx[r.best]] for r in fit])
    seen = np.array([r.vivid for r in fit])
    keep = (enrolled > 1e-3) & np.array([r.best.is_troop for r in fit])
    # How much more vivid than the enrolled faces the frame shows its colours (a camera's
    # saturation, exposure): the map's fit starts with that taken out.
    vivid_ratio = float(np.median(seen[keep] / enrolled[keep])) if keep.any() else 1.0
    dull = bool(keep.sum() >= s.recolour_min_reads // 2) and vivid_ratio < s.colour_min_vivid
    if dull or float(np.sqrt(x[:, :2].var(axis=0).sum())) < \
            s.recolour_min_spread * float(np.sqrt(aim.var(axis=0).sum())):
        if few:
            return _unmapped(reads, s)
        # Nor can any read of it name a colour: each is as near the grey of a pale colour
        # as it would be to any other colour with the frame's colours restored.
        return [replace(r, colour_t=1.0, colour_rivals=None) if r.hue is not None else r
                for r in reads]
    # The map is fitted as the reads name their cards and the reads named again through the
    # map, until the names settle, from a few starting turns of the colour plane (a scanner's
    # or a print run's hue shift turns every colour alike): the fit that explains the reads
    # best, drawn towards no change, wins.
    shape = np.stack([r.shape for r in fit])                      # type: ignore[misc]

    def named(wmat: np.ndarray) -> np.ndarray:
        """The enrolled colours of the cards the fitted reads name through the map, each
        card named once (`_once_each`)."""
        hues = x @ wmat
        dist = np.minimum(np.linalg.norm(tpl.hues[None, :, :] - hues[:, None, :], axis=2),
                          s.colour_cap)
        return tpl.hues[_once_each(shape - s.colour_weight * dist)].astype(np.float64)

    best_cost, best_map = np.inf, _NO_CHANGE
    # Started as the frame is vivid: a colour twice as vivid as enrolled lies further than
    # `colour_cap` from its own colour and the next one alike, and the names would follow
    # the shapes alone.
    gain0 = min(max(1.0 / max(vivid_ratio, 1e-6), 1.0 / s.colour_gain_max), s.colour_gain_max)
    for turn in s.recolour_turns:
        a = np.radians(turn)
        wmat = gain0 * np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)], [0.0, 0.0]])
        y = named(wmat)
        for _ in range(s.recolour_rounds):
            wmat, cost = _fit_map(x, y, wmat, s)
            now = named(wmat)
            if np.array_equal(now, y):
                break
            y = now
        else:       # the names still moving: the map for the last ones
            wmat, cost = _fit_map(x, y, wmat, s)
        if cost < best_cost:
            best_cost, best_map = cost, wmat
    cur = list(reads)
    for i, r in zip(todo, _scored_all([reads[i] for i in todo], tpl, s,
                                      (every @ best_map).astype(np.float32))):
        cur[i] = r
    if few:
        # A map fitted from a few reads (`recolour_few_reads` or more) checks a colour only
        # where it agrees with the colour as the camera gave it: both name the same card,
        # the mapped colour within the wider margin (`colour_doubt_unmapped`), the camera's
        # within a mapped frame's (`colour_doubt`). Otherwise the read keeps its colour.
        cur = [m if m.hue is not None and m.best == r.best and r.colour_t < s.colour_doubt
               and m.colour_t < s.colour_doubt_unmapped else r for r, m in zip(reads, cur)]
        return _unmapped(cur, s)
    return cur


def _unmapped(reads: list[CardRead], s: ReadingSettings) -> list[CardRead]:
    """A frame's reads whose colours no map checked (too few reads to fit one from: a
    second print run's orange turned towards yellow is left in them): a read's colour needs
    a wider margin (`colour_doubt_unmapped`), or it is a doubt."""
    return [replace(r, colour_t=1.0, colour_rivals=None) if r.hue is not None
            and r.colour_t >= s.colour_doubt_unmapped else r for r in reads]


def edge_cover(refl: np.ndarray, top_mm: float, centre_mm: float, s: ReadingSettings
               ) -> float:
    """How much of a card's width shows a straight edge at its top: the share of columns
    (inside the card's width) whose colour steps by `edge_step` or more in some channel,
    across the same row near `top_mm`.

    A card's top edge is a straight line across its whole width (over the table, or over the
    paper of the card beneath); a "top" inside a card's body (its art, a value printed again)
    steps only where the art does.
    """
    h, w = refl.shape[:2]
    top = int(round(top_mm * s.px_per_mm))
    left = int(round(centre_mm * s.px_per_mm)) - s.px(s.card_w) // 2
    x0, x1 = max(0, left + s.px(4.0)), min(w, left + s.px(s.card_w - 4.0))
    reach = s.px(s.edge_search_mm)
    if x1 - x0 < s.px(10.0) or top - reach < 2 or top + reach + 1 >= h:
        return 1.0        # too little of the card in the strip, or its edge cut off: no veto
    rows = refl[top - reach - 2:top + reach + 2, x0:x1]
    # Colour steps, not just brightness: an orange band on a brown table is an edge too.
    step = np.abs(rows[3:] - rows[:-3]).max(axis=2)
    return float((step > s.edge_step).mean(axis=1).max())


def colour_unsure(r: CardRead, s: ReadingSettings, glare: bool = False) -> bool:
    """Whether the frame could not tell this read's colour from another one's; `glare`:
    the read lies under glare (`vision.glare`), whose white light washes a colour towards
    grey and the duller colours (a yellow towards green), and needs a wider margin."""
    return r.colour_t >= (s.colour_doubt_glare if glare else s.colour_doubt)


def is_card(r: CardRead, s: ReadingSettings, tpl: Templates | None = None) -> bool:
    """Whether a read is a card: a "top" that fits no card at all is a card's body, a shadow
    or a hand; one that fits only fairly (a washed-out colour, or a shape not sure) must
    also show a card's straight top edge, unless the band network surely names its class
    (`_net_sure`, with the deck's templates `tpl`): a white card laid on a white card, or a
    dark one on a dark one, shows no step at its top."""
    score = r.cells_score
    plain = _plain(r)
    if plain is not None:
        # Its colour counts for at most `card_colour_cost` against it: a card whose colour
        # the frame misjudges (a zone's light, a print run's) is a colour doubt, not lost.
        score = max(score, float(plain.max()) - s.card_colour_cost)
    return score >= s.not_a_card_score and (score >= s.edge_check_below
                                            or _sure_shape(r, s)
                                            or r.edge >= s.edge_cover_min
                                            or (tpl is not None and _net_sure(r, tpl, s)))


def _plain(r: CardRead) -> np.ndarray | None:
    """The read's shape similarities on the cells alone: whether a band is a card's is the
    cells' question first (the network, whose push towards its nearest class would make a
    card of bare wood, can only take a band away: `_unlike_any`)."""
    return r.cells if r.cells is not None else r.shape


def _sure_shape(r: CardRead, s: ReadingSettings) -> bool:
    """Whether a read's band fits some value or mark so well that it is a card's."""
    plain = _plain(r)
    return plain is not None and float(plain.max()) >= s.card_sure_shape


def _unlike_any(r: CardRead, s: ReadingSettings) -> bool:
    """Whether the band network puts a read's band far from every class's prototype: no top
    band of this printing lies there, however well the cells fit it (wood grain fits
    templates softened for a soft frame well, every one of them about as well)."""
    return r.net is not None and float(r.net.max()) < s.net_card_min


def lone_last(r: CardRead, before: CardRead | None, s: ReadingSettings) -> bool:
    """Whether `r`, a column's last read, lies inside the body of the card `before` it (its
    top `lone_gap_mm` or more below that card's) and the band network puts its band less
    alike than `lone_net_min` to its nearest class: a picture's edge across the last card
    (a sky over a field) fits some card's band fairly and shows a straight "top edge";
    the network puts a card's band there far less alike than the column's own cards (about
    0.75 against 0.95). Such a read is a doubt (`faint`), not a card taken silently."""
    return before is not None and r.net is not None and \
        r.top_mm - before.top_mm >= s.lone_gap_mm and float(r.net.max()) < s.lone_net_min


def lone_faint(r: CardRead, before: CardRead, s: ReadingSettings) -> bool:
    """Whether `r`, a column's last read, lies `lone_gap_mm` or more below the card `before`
    it with its whole band inside that card's body (which an echelon's next card would
    cover from a step below its top), and the band network puts it only faintly near its
    class (`faint_band`): a picture's or a banner's edge across the last card's face, no
    card.  (Less faint, it is a doubt: `lone_last`.)  A band reaching past that card's
    bottom may be a card laid apart from it, and is left a doubt."""
    gap = r.top_mm - before.top_mm
    return s.lone_gap_mm <= gap <= s.card_h - s.band_mm and faint_band(r, s)


def faint_band(r: CardRead, s: ReadingSettings) -> bool:
    """Whether the band network puts a read's band only faintly near its nearest class (below
    `net_sure_min`; under `net_card_min` it is taken away, `_unlike_any`): glare over wood, a
    picture's edge or a tabletop the colour of a banner may look like a top band that far,
    and the cards of the tuning families very seldom do.  Such a read is a doubt."""
    return r.net is not None and float(r.net.max()) < s.net_sure_min


def lead_min(tpl: Templates, s: ReadingSettings) -> float:
    """The lead over the deck's median card a band's best fit must show to be a card's:
    `card_lead_min` on a printing whose Troops' bands lead by `face_lead_ref` or more at
    enrolment (`Templates.face_lead`), less on one whose values share nearly their whole
    band (a colour's name beside a small value: its cards led the median by a few
    hundredths, and one in ten was lost). A line scaled on every printing by its lead let
    a glare spot over grained wood through on the classic printing."""
    return s.card_lead_min * min(1.0, max(0.0, tpl.face_lead) / s.face_lead_ref)


def _fits_a_card(r: CardRead, s: ReadingSettings, lead: float | None = None) -> bool:
    """Whether a band's shape is a card's: it fits some value or mark well, and that one
    clearly better than the deck's average (by `lead`, or `card_lead_min`: `lead_min`)
    unless it fits very well, and the band network does not put it far from every class.
    A soft glare edge or wood grain across the column fits the band's layout (ink above,
    paper below) about as well for every card."""
    plain = _plain(r)
    if plain is None:
        return False
    if _unlike_any(r, s):
        # Wood grain, a picture's edge in a card's body, the table beside a tile: not one
        # of this printing's top bands, whatever the cells make of its ink.
        return False
    best = float(plain.max())
    return best >= s.card_shape_min and (
        _sure_shape(r, s) or best - float(np.median(plain)) >= (
            s.card_lead_min if lead is None else lead))


def _net_named_card(r: CardRead, tpl: Templates, s: ReadingSettings) -> bool:
    """Whether a band is a card's though its cells lead the deck's median too little
    (`_fits_a_card`'s lead): the band network puts it `net_named_min` alike or more to the
    class its cells name, and the two looks agree. A thin numeral (a centred 1) or a pale
    band under a picture fits every card's cells about as well as its own; the network tells
    this printing's bands from wood and pictures, and a band it puts that near the cells'
    own class is one of them."""
    return r.net is not None and float(r.net.max()) >= s.net_named_min and \
        _fits_a_card(r, s, 0.0) and not looks_disagree(r, r.best, tpl, s)


def _any_top_card(r: CardRead, tpl: Templates, s: ReadingSettings, lead: float) -> bool:
    """Whether a band is a card on the terms of any top, one the mask's outline demands or
    not: its cells fit a card clearly (`_fits_a_card` with `lead`), or the network names the
    class its cells name (`_net_named_card`)."""
    return _fits_a_card(r, s, lead) or _net_named_card(r, tpl, s)


def _outlined_card(r: CardRead, s: ReadingSettings) -> bool:
    """Whether a band where the mask's outline demands a card's top (`find_tops`) is one:
    it fits some value or mark (`card_shape_min`) and the band network puts it near its
    nearest class (`net_sure_min`), however little its cells lead the deck's median. A
    picture reaching into every card's band fits every card's cells about as well; the
    mask's outline already says a card lies there."""
    plain = _plain(r)
    return plain is not None and r.net is not None and float(plain.max()) >= s.card_shape_min \
        and not faint_band(r, s)


def _net_placed(m: Maps, tpl: Templates, r: CardRead, rows: tuple[int, int],
                others: list[int]) -> CardRead | None:
    """The card the mask's outline demands between `rows` (its top's first and last row; or
    the rows near a top inside the column: `_net_nudged`), read where the band network finds
    a band of this printing there best, when the top the cells chose reads as no card: a
    picture reaching into the band may fit the cells best a few mm off the card's top.
    None when the network finds no band near a class (`net_sure_min`) there, or where
    another top (`others`, rows) lies within a step."""
    s = m.s
    left = int(round(r.centre_mm * s.px_per_mm - s.px(s.card_w) / 2))
    lo, hi = max(0, rows[0]), min(m.ink.shape[0] - 1, rows[1])
    # Every `scan_step_mm`, then half a step either side of the best (each band costs the
    # network a fifth of a millisecond, and the outline's rows may span tens of them).
    step = max(1, s.px(s.scan_step_mm))
    ys = np.arange(lo, hi + 1, step)
    sims = _net_sims(m, tpl, ys, np.full(len(ys), left))    # None without a network
    if sims is None:
        return None
    near = sims.max(axis=1)
    i = int(np.argmax(near))
    half = step // 2
    if half:
        nys = np.array([y for y in (ys[i] - half, ys[i] + half) if lo <= y <= hi], np.int64)
        if len(nys):
            more = _net_sims(m, tpl, nys, np.full(len(nys), left))
            assert more is not None
            ys, near = np.concatenate([ys, nys]), np.concatenate([near, more.max(axis=1)])
            i = int(np.argmax(near))
    if near[i] < s.net_sure_min or any(abs(int(ys[i]) - o) < s.px(s.min_step_mm)
                                       for o in others):
        return None
    return identify_many(m, [(int(ys[i]), left)], tpl)[0]


def _net_nudged(m: Maps, tpl: Templates, i: int, tops: list[tuple[int, int]],
                every: list[CardRead]) -> CardRead | None:
    """Top `i` of a column (`tops`, read as `every`), one the outline does not demand, read
    where the band network finds a band of this printing best within `net_place_mm` of it
    (`_net_placed`), when it reads as no card: a picture's edge or glare may fit the cells
    best a few mm off the card's top.  The other tops keep it a step away, but those the
    network vetoed (`_unlike_any`: no band of this printing there; such a top, a picture's
    edge, may be what kept the card's own top out)."""
    s = m.s
    near = s.px(s.net_place_mm)
    return _net_placed(m, tpl, every[i], (tops[i][0] - near, tops[i][0] + near),
                       [t for k, (t, _) in enumerate(tops)
                        if k != i and not _unlike_any(every[k], s)])


def read_strip(refl: np.ndarray, tpl: Templates, reliable_end: bool = True,
               table: np.ndarray | None = None, limit_mm: float | None = None,
               final: bool = True, start_mm: float = 0.0,
               to_colour: tuple[np.ndarray, np.ndarray] | None = None) -> list[CardRead]:
    """Every card of the column in an upright reflectance strip, nearest the line first.

    `to_colour`: per channel (gain, offset) from the strip's reflectance to the scale its
    colours are read on, when the two differ (`zones.colour_scale`): shapes are read on the
    tile's black where its drawing is black, colours on its darkest pixels.

    With `final` False the reads are only sifted by shape (the colour term of their scores
    may still be corrected by `recolour` over the whole frame): `is_card` decides later.
    """
    s = tpl.settings()
    tab = table_colour(refl, s) if table is None else table

    def column(refl: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
        mask = card_mask(refl, tab, s, tpl.paper)
        runs = column_runs(mask, s) if mask.any() else []
        seen = seen_stock(refl, mask, runs, tab, tpl.paper, s)
        if seen is not None:
            mask |= card_mask(refl, tab, s, seen)
            runs = column_runs(mask, s)
        return mask, runs

    mask, runs = column(refl)
    marks_only = not runs and _marks_only(mask, s)
    if marks_only:
        # Marks but no column: cards whose stock is the table's own shade (dark stock on a
        # dark table) show only their ink. They are looked for along the whole strip, and
        # only a sure fit counts.
        runs = [(0, refl.shape[0])]
    if not runs:
        return []                  # an empty zone: the commonest case, and the cheapest
    lean = 0.0 if marks_only else column_lean(mask, runs, s)
    if abs(lean) >= s.lean_min_deg:
        # A column laid askew: the strip turned upright about its top's middle, so each
        # band lies across it as the enrolled ones do.
        refl = upright(refl, lean)
        mask, runs = column(refl)
        if not runs:
            return []
    m = Maps.of(refl, s, tpl.stock)
    m.to_colour = to_colour
    m.grey = no_colour(refl, s)
    outlined: list[tuple[int, int] | None] = []
    crowded: list[tuple[int, int]] = []
    tops = find_tops(m, mask, tpl, reliable_end, limit_mm, runs, start_mm, marks_only, outlined,
                     None if marks_only else crowded)
    # Marks reaching the column's start from above: the bands of an echelon whose stock is
    # the table's shade, above the first pips the mask sees. Only sure reads count there.
    above = None if marks_only else _marks_above(mask, runs[0][0], s, s.px(start_mm))
    more = [] if above is None else \
        find_tops(m, mask, tpl, reliable_end, limit_mm, [above], start_mm, True)
    lead = lead_min(tpl, s)
    every = identify_many(m, tops + more, tpl)

    def card(r: CardRead, rows: tuple[int, int] | None) -> bool:
        return _any_top_card(r, tpl, s, lead) or (rows is not None and _outlined_card(r, s))

    reads, demanded, lost = [], set(), []
    for i, (r, rows) in enumerate(zip(every, outlined)):
        if not card(r, rows):
            # The network may find the card's band where the outline demands a top, or
            # near where the cells put any other.
            got = _net_placed(m, tpl, r, rows, [t for k, (t, _) in enumerate(tops) if k != i]) \
                if rows is not None else _net_nudged(m, tpl, i, tops, every)
            if got is None or not card(got, rows):
                lost.append((tops[i][0], _unlike_any(r, s)))
                continue
            r = got
        if not marks_only or _sure_read(r, tpl, s):
            reads.append(r)
            if rows is not None:
                demanded.add(r.top_mm)
    if lost and crowded:
        reads = _crowded_out(m, tpl, reads, lost, crowded, lead)
    reads = _with_sure_above(reads, [r for r in every[len(tops):] if _fits_a_card(r, s, lead)],
                             tpl, s)
    reads = _not_bodies(m, tpl, reads, demanded)
    if reads and not marks_only:
        reads = [_with_face(m, tpl, r, runs, below)
                 for r, below in zip(reads, reads[1:] + [None])]
    # Only a read short of a sure shape may need its top edge (`is_card`).
    reads = [r if _sure_shape(r, s) else replace(r, edge=edge_cover(refl, r.top_mm,
                                                                  r.centre_mm, s))
             for r in reads]
    return [r for r in reads if is_card(r, s, tpl)] if final else reads


def _with_face(m: Maps, tpl: Templates, r: CardRead, runs: list[tuple[int, int]],
               below: CardRead | None = None) -> CardRead:
    """A read with its face looked at (`face_look`), where the band's two looks do not name
    its card (`looks_disagree`) or a card of another class scores within `face_close` of it
    (`_close_call`). A column's last read (`below` None) is looked at whole where the
    column's outline ends where that card's face does, give or take `face_end_mm`: past it
    a card lies below (one the reader lost) or something covers the face. A read with a
    card `below` it in the column (an echelon's) is looked at down to that card's top, less
    `face_cover_mm`, where that shows more than the band (`band_mm`).

    Where the face names a class (`face_class`), every card of another class loses how
    much less well the face fits it: the face, the fullest look at the card, ranks the
    read's candidates (a blurred 2 whose band fits a 6 as well, its face a 2's)."""
    s = m.s
    if r.shape is None or not (looks_disagree(r, r.best, tpl, s) or _close_call(r, tpl, s)):
        return r
    top = int(round(r.top_mm * s.px_per_mm))
    rows_seen = None
    if below is None:
        end = next((b for a, b in runs if a <= top < b), None)
        if end is None or abs(end - (top + s.px(s.card_h))) > s.px(s.face_end_mm):
            return r
    else:
        shown = below.top_mm - r.top_mm - s.face_cover_mm
        if shown <= s.band_mm:
            return r
        rows_seen = int(np.searchsorted(_face_rows(s) + s.px(s.cell_mm) / 2,
                                        s.px(shown), side="right"))
    face = face_look(m, tpl, r, rows_seen)
    if face is None:
        return r
    r = replace(r, face=face, face_rows=rows_seen)
    named = face_class(r, tpl, s)
    if named is None:
        return r
    r = replace(r, shape=(r.shape + np.minimum(face[tpl.class_of] - face[named], 0.0)
                          ).astype(np.float32))
    if m.grey or r.hue is None:
        return _colourless(r, tpl)
    return _scored_all([r], tpl, s, r.hue[None, :])[0]


def _close_call(r: CardRead, tpl: Templates, s: ReadingSettings) -> bool:
    """Whether a card of another class than the read's first scores within `face_close` of
    it among its next candidates (the settle may take it where the first is held
    elsewhere, or doubt the read for its margin), or is one whose band this printing does
    not tell from the first's (`Templates.alike`: the read is a doubt unless its face
    names it, `pipeline`)."""
    j = tpl.cards.index(r.best)
    k = tpl.class_of[j]
    for c, sc in r.candidates[1:4]:
        i = tpl.cards.index(c)
        if tpl.class_of[i] != k and (r.score - sc < s.face_close or (j, i) in tpl.alike):
            return True
    return False


def _crowded_out(m: Maps, tpl: Templates, reads: list[CardRead],
                 lost: list[tuple[int, bool]], crowded: list[tuple[int, int]], lead: float
                 ) -> list[CardRead]:
    """`reads` with the cards a top that read as no card kept out: a band inside a card's
    body (a picture's stripes) can fit the deck's bands better than the next card's own
    band a little below it, and a peak within a step of a stronger one is not looked at.
    Each peak it crowded out (`crowded`, strongest first) within a step of a top read as no
    card (`lost`: rows, and whether the band network vetoed it) but half a band or more from
    it (nearer, it is that band again, as the naming aligned it), and a step clear of every
    card read, is read; a card there is kept, on the terms of any top (`_any_top_card`: a
    picture in the band may leave the cells' lead short where the network names the class).

    Nearer than half a band to a top the network vetoed (`_unlike_any`: no band of this
    printing) the peak is read too, and kept only where the network surely names it
    (`_net_sure`): the band window shifted a few mm onto a dark table above a column's first
    card fits the deck's bands better than the card's own top, and keeps that out."""
    s = m.s
    step, half = s.px(s.min_step_mm), s.px(s.band_mm / 2)
    taken = [int(round(r.top_mm * s.px_per_mm)) for r in reads]
    tried: list[tuple[int, int]] = []
    near: list[bool] = []           # each tried peak: only near a vetoed top
    for y, left in crowded:
        if any(abs(y - t) < step for t in taken + [t for t, _ in tried]):
            continue
        if any(half <= abs(y - t) < step for t, _ in lost):
            near.append(False)
        elif any(abs(y - t) < half for t, vetoed in lost if vetoed):
            near.append(True)
        else:
            continue
        tried.append((y, left))
    if not tried:
        return reads
    found = [r for r, n in zip(identify_many(m, tried, tpl), near)
             if ((_fits_a_card(r, s, lead) and _net_sure(r, tpl, s)) if n
                 else _any_top_card(r, tpl, s, lead))]
    return sorted(reads + found, key=lambda r: r.top_mm)


def _with_sure_above(reads: list[CardRead], above: list[CardRead], tpl: Templates,
                     s: ReadingSettings) -> list[CardRead]:
    """`reads` with the sure ones (`_sure_read`) of `above`, the reads found above the
    column's run (`_marks_above`), nearest the line first. A sure read there replaces the
    unsure ones within a step of it (placed by the run's start); a sure one keeps it out."""
    for r in above:
        if _sure_read(r, tpl, s):
            near = [k for k in reads if abs(r.top_mm - k.top_mm) < s.min_step_mm]
            if not any(_sure_read(k, tpl, s) for k in near):
                reads = [k for k in reads if k not in near] + [r]
    return sorted(reads, key=lambda r: r.top_mm)


def _sure_read(r: CardRead, tpl: Templates, s: ReadingSettings) -> bool:
    """Whether a band found without the mask's help is surely a card: the cells and the band
    network both name its class (`looks_disagree`; wood grain fits softened templates
    surely, but the two disagree), and the cells fit it by `card_sure_shape` — or by
    `card_net_shape` where the network surely sees a band of this printing there (`_net_sure`):
    a dark stock in a greyscale frame, its shade the table's, shows only its ink, and its
    band fits its cells a little less well than a band the mask outlines."""
    plain = _plain(r)
    best = -1.0 if plain is None else float(plain.max())
    if best < min(s.card_sure_shape, s.card_net_shape) or looks_disagree(r, r.best, tpl, s):
        return False
    return _sure_shape(r, s) or (best >= s.card_net_shape and _net_sure(r, tpl, s))


def _net_sure(r: CardRead, tpl: Templates, s: ReadingSettings) -> bool:
    """Whether the band network surely sees a band of this printing's `r.best`: it reads this
    printing (`net_trust_min`), puts the band at least `net_sure_min` alike to that class
    and `net_settle_lead` nearer it than any other."""
    return r.net is not None and tpl.net_trust >= s.net_trust_min \
        and float(r.net.max()) >= s.net_sure_min and net_lead(r, r.best, tpl) >= s.net_settle_lead


def _marks_only(mask: np.ndarray, s: ReadingSettings) -> bool:
    """Whether a strip's mask, with no column in it, still marks `marks_min` of the strip's
    middle: ink on cards the table's own shade (or glare, a crumb: only sure fits count)."""
    return float(_middle_cover(mask, s).mean()) >= s.marks_min


def _marks_above(mask: np.ndarray, start: int, s: ReadingSettings, floor: int
                 ) -> tuple[int, int] | None:
    """The run (first, end) to search for sure tops above a column starting at row `start`:
    from the first of the marks reaching it from above (rows whose middle the mask marks
    `marks_row_min`, gaps shorter than `gap_mm`, none before row `floor`) to a band past
    `start` (the band just before the pips may begin at their start); None when the marks
    span less than a band."""
    if start - floor < s.px(s.band_mm):
        return None
    cover = _middle_cover(mask[floor:start], s)
    gap = s.px(s.gap_mm)
    first = start
    for row in np.flatnonzero(cover >= s.marks_row_min)[::-1] + floor:
        if first - row > gap:
            break
        first = int(row)
    band = s.px(s.band_mm)
    return (first, start + band) if start - first >= band else None


def column_lean(mask: np.ndarray, runs: list[tuple[int, int]], s: ReadingSettings) -> float:
    """How far the cards in a strip's mask lean off the strip's axis (degrees, positive when
    an edge drifts towards higher columns further down the strip): the mean slope of the
    column's two long edges over short stretches (`lean_step_mm`) of rows where the mask spans
    about one card's width. Stretches that jump (one card lying a little aside of the one
    before it: a step, not a lean) are left out. 0.0 when too few stretches are left, or
    the two edges do not agree."""
    w = mask.shape[1]
    card_w = s.px(s.card_w)
    k = max(2, s.px(s.lean_step_mm))
    most = k * np.tan(np.radians(s.lean_max_deg))
    slopes: list[list[np.ndarray]] = [[], []]
    for a, b in runs:
        sub = mask[a:b]
        if len(sub) <= k:
            continue
        # A row without card gives 0 and w - 1: off the strip's edges, left out below.
        left = np.argmax(sub, axis=1)
        right = w - 1 - np.argmax(sub[:, ::-1], axis=1)
        ok = (np.abs(right - left - card_w) <= s.lean_span * card_w) & (left > 0) & \
            (right < w - 1)
        both = ok[:-k] & ok[k:]
        for i, x in enumerate((left, right)):
            d = (x[k:] - x[:-k])[both].astype(np.float64)
            slopes[i].append(d[np.abs(d) <= most] / k)
    got = [np.concatenate(v) if v else np.zeros(0) for v in slopes]
    if min(len(g) for g in got) < s.px(s.lean_min_rows_mm):
        return 0.0
    a, b = (float(np.degrees(np.arctan(g.mean()))) for g in got)
    return 0.5 * (a + b) if abs(a - b) <= s.lean_agree_deg else 0.0


def upright(refl: np.ndarray, lean_deg: float) -> np.ndarray:
    """The strip turned by `lean_deg` about its top's middle: a column leaning that far
    comes upright (the rows turned in from outside the strip repeat its edge)."""
    h, w = refl.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2.0, 0.0), -lean_deg, 1.0)
    return cv2.warpAffine(refl, rot, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _not_bodies(m: Maps, tpl: Templates, reads: list[CardRead],
                demanded: Collection[float] = ()) -> list[CardRead]:
    """The reads less those that are an earlier card's own face: a band found inside a
    card's body (a picture's straight top edge, a value printed again) that the enrolled
    face of a card read above it explains, at that distance below its top (give or take
    `body_slack` of it), better than the card it was read as explains it at its top.  Every
    card kept above whose face reaches that far is asked, not only the one just before: a
    picture can hold two such bands, and the first, kept as a doubt, must not shield the
    second.  A top the mask's outline demands (`demanded`, mm) is asked at that distance
    only: the outline says a card begins there, and the card above is hidden below it.

    Nor is a band within a face above a card where the network puts it only faintly near
    its class (`faint_band`), no enrolled card's top fits it better than chance
    (`body_fit_min`) and no straight top edge crosses it (`edge_cover`), in a frame that
    shows colour: the face above, asked at its own centre, misses a card lying turned or a
    few mm off it, and a plain ground of a face explains nothing, but no card lies where
    no card's top and no card's edge does."""
    s = m.s
    if len(reads) < 2:
        return reads
    idx = {c: i for i, c in enumerate(tpl.cards)}
    cell = s.px(s.cell_mm)
    rows = len(_grid(s, False)[0])
    half_w = s.px(s.card_w) / 2

    def cells_at(tops: np.ndarray, centre_mm: float) -> np.ndarray:
        """The normalised fine cells of bands at rows `tops` (one gather), a row each."""
        left = int(round(centre_mm * s.px_per_mm - half_w))
        return _normalise(raw_cells(m, tops, np.full(len(tops), left), False))

    def fits_no_top(band: np.ndarray) -> bool:
        """Whether no enrolled card's top fits any row of `band` better than chance (asked
        of few reads: the tops are normalised only then)."""
        tops = _normalise(tpl.bodies[:, :rows].reshape(len(tpl.cards), -1))
        return float((band @ tops.T).max()) < s.body_fit_min

    kept = [reads[0]]
    for r in reads[1:]:
        top = int(round(r.top_mm * s.px_per_mm))
        as_card: float | None = None
        for prev in kept:
            ptop = int(round(prev.top_mm * s.px_per_mm))
            if top <= ptop:
                continue
            off = (top - ptop) // cell
            body = tpl.bodies[idx[prev.best]]
            # Give or take the strip's foreshortening: a tilted camera shows a card a few
            # per cent short, and 65 mm down its face that is 3 mm.
            slack = 0 if r.top_mm in demanded else int(round(off * s.body_slack))
            offs = np.arange(max(0, off - slack), min(off + slack, len(body) - rows) + 1)
            if not len(offs):
                continue
            if as_card is None:
                own = _normalise(tpl.bodies[idx[r.best], :rows].ravel()[None])[0]
                # The card itself with as much give or take as any face asked (the first,
                # furthest above, has the most): the larger of two maxima over places is
                # not a fair win.
                places = top + cell * np.arange(-slack, slack + 1)
                band = cells_at(places, r.centre_mm)
                as_card = float((band @ own).max())
                # Inside a face above, a faint band no card's top fits better than chance and
                # that shows no card's straight top edge is a card's top only by the
                # network's word: no card lies there (a picture's edge, a value printed
                # again, the face's plain ground).  Any card, not the one read.  Not in a
                # frame without colour: there a band fits every top poorly.  Glare washing a
                # real card's band out leaves its edge.
                if not m.grey and faint_band(r, s) and fits_no_top(band) and \
                        edge_cover(m.refl, r.top_mm, r.centre_mm, s) < s.edge_cover_min:
                    break
            as_body = float((_normalise(np.stack([body[o:o + rows].ravel() for o in offs]))
                             @ cells_at(np.array([top]), prev.centre_mm)[0]).max())
            # A face that fits the band no better than chance explains nothing of it.
            if as_body > as_card and as_body >= s.body_fit_min:
                break
        else:
            kept.append(r)
    return kept


__all__ = ["CardRead", "Correlator", "Maps", "ReadingSettings", "Templates", "build_templates",
           "ColourModel", "card_mask", "colour_cells", "colour_unsure", "column_lean", "column_runs",
           "edge_cover", "find_tops",
           "identify",
           "identify_many", "ink", "is_card", "lone_faint", "lone_last", "looks_agree_without", "read_strip",
           "recolour",
           "reflectance", "shifted_cells", "stock_colour", "stock_floor", "table_colour",
           "table_margins", "true_runs", "upright"]
