"""The flag screen: a flag's claim proofs for both players, as the rules core writes them,
with the formations drawn as cards; claim and "prove it" buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ProofPanel(BoxLayout):
    """One player's side of the question "may I claim this flag now?"."""

    side = StringProperty("north")
    verdict = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    proof = StringProperty("")
    mine = ListProperty([])          # the claimant's formation, wildcards shown as what they are
    mine_title = StringProperty("")
    theirs = ListProperty([])        # the opponent's formation or best possible one (+ to add)
    theirs_title = StringProperty("")
    valid = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        if app is not None:
            app.bind(lang=self.refresh, naming=self.refresh, north_name=self.refresh,
                     south_name=self.refresh, match_edition=self.refresh)
        self.bind(verdict=self.refresh, side=self.refresh)

    def refresh(self, *_: Any) -> None:
        app = App.get_running_app()
        v = self.verdict
        if app is None:
            return
        lang, naming = app.lang, app.naming
        name = app.side_name(self.side)
        other = "south" if self.side == "north" else "north"
        if v is None:
            self.title, self.proof, self.valid = tr("proof.pending", lang), "", False
            self.mine, self.theirs, self.mine_title, self.theirs_title = [], [], "", ""
            return
        self.valid = bool(v.valid)
        won = app.view.flag(v.flag).claimed == self.side and v.valid
        key = "proof.won" if won else ("proof.valid" if v.valid else "proof.invalid")
        self.title = tr(key, lang, app.match_edition, name=name, n=v.flag)
        self.proof = v.proof(lang, naming)
        self.mine = v.claimant.codes() if v.claimant is not None else []
        self.mine_title = (v.claimant.describe(naming, lang) if v.claimant is not None else "")
        if v.opponent is not None:
            self.theirs = v.opponent.codes()
            label = v.opponent.describe(naming, lang)
            if v.opponent.added:
                self.theirs_title = tr("proof.opponent_best", lang, name=app.side_name(other),
                                       formation=label)
            else:
                self.theirs_title = tr("proof.formation", lang, name=app.side_name(other),
                                       formation=label)
        else:
            self.theirs, self.theirs_title = [], ""


class FlagScreen(Screen):
    """Shows `app.proofs` for `app.selected_flag`; the buttons ask the referee."""

    def on_kv_post(self, base_widget: Any) -> None:
        app = App.get_running_app()
        if app is not None:
            app.bind(proofs=self._show)
        self._show()

    def _show(self, *_: Any) -> None:
        app = App.get_running_app()
        proofs = app.proofs if app is not None else {}
        self.ids.north.verdict = proofs.get("north")
        self.ids.south.verdict = proofs.get("south")
