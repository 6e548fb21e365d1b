"""Deck enrolment on the rig: the screen asks for each card in turn, the worker cuts the
card out of the camera frame, and at the end the deck is enrolled from those pictures
(contract 2: the same as `companion deck enrol DIR`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.paths import data_dir
from companion.rules.cards import ALL_CARDS

from . import widgets  # noqa: F401 - shared widget rules
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

FACE_W, FACE_H = 630, 880      # 10 px per mm: a card face, upright


class EnrolError(CompanionError, ValueError):
    """No single card could be found in the camera frame."""


def crop_card(frame: np.ndarray) -> np.ndarray:
    """The one card lying in `frame`, warped straight and upright (its top towards north).

    The card is the largest bright four-cornered shape; the table must be darker than the
    card's margin (as on the reference rig's dark cloth).
    """
    import cv2

    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    _, mask = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        if cv2.contourArea(c) < 0.002 * frame.shape[0] * frame.shape[1]:
            break
        x, y, w, h = cv2.boundingRect(c)
        if x <= 1 or y <= 1 or x + w >= frame.shape[1] - 1 or y + h >= frame.shape[0] - 1:
            continue   # touches the edge: the cloth or the light, not a card lying in view
        quad = cv2.approxPolyDP(c, 0.03 * cv2.arcLength(c, True), True)
        if len(quad) == 4:
            best = quad.reshape(4, 2).astype(np.float32)
            break
    if best is None:
        raise EnrolError("no single card found under the camera: lay one card alone, face up, "
                         "on the dark cloth")
    # Corners in order top-left, top-right, bottom-right, bottom-left (y grows south).
    s, d = best.sum(axis=1), np.diff(best, axis=1).ravel()
    tl, br, tr_, bl = best[np.argmin(s)], best[np.argmax(s)], best[np.argmin(d)], best[np.argmax(d)]
    width = np.linalg.norm(tr_ - tl)
    height = np.linalg.norm(bl - tl)
    src = np.array([tl, tr_, br, bl], dtype=np.float32)
    if width > height:
        # Lying across: turn it so that its long side is upright, top towards north.
        src = np.array([bl, tl, tr_, br], dtype=np.float32)
    dst = np.array([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]],
                   dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(frame, matrix, (FACE_W, FACE_H))


def enrol_dir() -> Path:
    path = data_dir() / "enrol"
    path.mkdir(parents=True, exist_ok=True)
    return path


class EnrolScreen(Screen):
    """Asks for `ALL_CARDS[app.enrol_index]`; Capture saves it and moves on."""

    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(lang=self.ask)
        self.ask()

    def on_leave(self, *_: Any) -> None:
        App.get_running_app().unbind(lang=self.ask)

    def ask(self, *_: Any) -> None:
        app = App.get_running_app()
        i = int(app.enrol_index)
        if i < len(ALL_CARDS):
            card = ALL_CARDS[i]
            app.enrol_text = tr("enrol.ask", app.lang, card=card.name(app.naming), i=i + 1,
                                n=len(ALL_CARDS))

    def capture(self) -> None:
        app = App.get_running_app()
        session = app.session
        i = int(app.enrol_index)
        if session is None or i >= len(ALL_CARDS):
            return
        card = ALL_CARDS[i]

        def work(_referee: Any) -> str:
            import cv2

            frame = session.last_frame
            if frame is None:
                raise EnrolError(tr("calib.no_frame", app.lang))
            face = crop_card(frame)
            if not cv2.imwrite(str(enrol_dir() / f"{card.code}.png"), face):
                raise EnrolError(f"cannot write {enrol_dir() / card.code}.png")
            return card.code

        session.call(work, lambda code: self._captured(code), app._refused)

    def skip(self) -> None:
        app = App.get_running_app()
        app.enrol_index = min(len(ALL_CARDS), int(app.enrol_index) + 1)
        self._maybe_finish()

    def _captured(self, code: str) -> None:
        app = App.get_running_app()
        app.say(tr("enrol.captured", app.lang, card=code))
        app.enrol_index = int(app.enrol_index) + 1
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        app = App.get_running_app()
        if int(app.enrol_index) < len(ALL_CARDS):
            self.ask()
            return
        target = Path(app.deck_path) if app.deck_path else data_dir() / "deck.npz"

        def work(_referee: Any) -> int:
            from companion.vision import deck as deck_module  # the vision part's enrolment

            from .reader_process import ReaderProcess

            deck = deck_module.enrol(enrol_dir())
            deck.save(target)
            app.session.set_reader(ReaderProcess(target))   # the table is read from now on
            return len(list(enrol_dir().glob("*.png")))

        def done(n: int) -> None:
            app.enrol_text = tr("enrol.done", app.lang, n=n, path=str(target))
        app.session.call(work, done, app._refused)
