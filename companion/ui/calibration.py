"""The calibration screen: the live camera picture with the flag tiles and their card zones
drawn over it, and what to fix when a tile is missing.  Pictures come from the worker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.vision import geometry

from . import widgets  # noqa: F401 - shared widget rules
from .widgets import show_picture
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CalibrationScreen(Screen):
    texture = ObjectProperty(None, allownone=True)
    verdict = StringProperty("")
    advice = StringProperty("")
    ok = BooleanProperty(False)        # all nine tiles found in the last picture

    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(preview=self.show, lang=self.show, status=self.show)
        self.ids.picture.bind(size=self.show, pos=self.show)
        self.show()

    def on_leave(self, *_: Any) -> None:
        App.get_running_app().unbind(preview=self.show, lang=self.show, status=self.show)

    def show(self, *_: Any) -> None:
        app = App.get_running_app()
        p = app.preview
        no_deck = "" if app.status.deck else tr("calib.no_deck", app.lang)
        if p is None:
            # Before the first picture: say so, never an empty white box.
            self.verdict = tr("calib.waiting", app.lang)
            self.advice = no_deck
            return
        show_picture(self, p.image)
        self.ok = not p.missing and not p.error
        if p.missing:
            self.verdict = tr("calib.missing", app.lang, app.match_edition, flags=", ".join(map(str, p.missing)))
            self.advice = tr("calib.fix_missing", app.lang)
        else:
            self.verdict = tr("calib.ok", app.lang, app.match_edition)
            self.advice = ""
        if p.error:
            self.advice = (self.advice + "\n" if self.advice else "") + \
                (tr("calib.error", app.lang, message=p.error) if app.lang == "en" else
                 tr("wait.tiles", app.lang, app.match_edition))   # the vision's detail is in English only
        if no_deck:
            self.advice = no_deck + ("\n" + self.advice if self.advice else "")
        h, w = p.image.shape[:2]
        self._overlay(p, w, h)

    def _overlay(self, p: Any, w: int, h: int) -> None:
        picture = self.ids.picture
        picture.canvas.after.clear()
        iw, ih = picture.norm_image_size
        if iw <= 0 or ih <= 0:
            return
        k = iw / w
        x0 = picture.center_x - iw / 2
        y0 = picture.center_y - ih / 2

        def at(x: float, y: float) -> tuple[float, float]:
            return x0 + x * k, y0 + (h - y) * k   # preview y grows down, Kivy's up

        with picture.canvas.after:
            for flag, (cx, cy), (ux, uy), ppm in p.tiles:
                # The tile, and each player's card zone reaching ZONE_DEPTH from its centre.
                half_w, half_h = geometry.TILE_W / 2 * ppm, geometry.TILE_H / 2 * ppm
                ex, ey = -uy, ux    # east of the tile: the up vector turned a quarter
                Color(0.2, 1.0, 0.3, 1)
                corners = [(cx + sx * half_w * ex + sy * half_h * ux,
                            cy + sx * half_w * ey + sy * half_h * uy)
                           for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1))]
                Line(points=[c for pt in corners for c in at(*pt)], width=2)
                depth, zw = geometry.ZONE_DEPTH * ppm, geometry.CARD_W / 2 * ppm
                for sign, rgba in ((1, (0.9, 0.2, 0.2, 1)), (-1, (0.2, 0.7, 0.3, 1))):
                    Color(*rgba)
                    zone = [(cx + sx * zw * ex + sign * d * ux, cy + sx * zw * ey + sign * d * uy)
                            for sx, d in ((-1, half_h), (1, half_h), (1, depth), (-1, depth),
                                          (-1, half_h))]
                    Line(points=[c for pt in zone for c in at(*pt)], width=1.2)
