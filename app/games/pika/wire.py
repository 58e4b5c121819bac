"""Pika's views on the wire (app/games/wire.py; the twin of `pika` in static/js/wire.js).

Left out of the public view: `to_act` (the seat in `turn`, none once over), `discard_size` (the sum of
`discard_cards`) and `passed` (bots' memory: the engine's own view keeps it). Left out of the private view: `alerts`
(the public `alerts` with `may_call` true for this seat). The events tell the rest of a move: a play sets the discard
top, the colour, the player's hand count and (by the direction, a skip, a reverse) the turn; draws, stacks taken and
penalties move cards from the pile to a hand, a reshuffle back; and a seat's own copies say which card left or joined
its hand. A drawn card is guessed unplayable (the turn passes): the patch says otherwise when it was.
"""

from __future__ import annotations

from typing import Any

from app.games.base import Game, View
from app.games.wire import Wire


class PikaWire(Wire):
    bot_only = frozenset({"passed"})

    def public(self, game: Game) -> View:
        view = game.public_view()
        del view["to_act"], view["discard_size"], view["passed"]
        return view

    def private(self, game: Game, seat: int) -> View:
        view = game.private_view(seat)
        view.pop("alerts", None)
        return view

    def follow_public(self, public: View, events: list[dict[str, Any]]) -> View:
        if not events:
            return public
        view = dict(public)
        counts = list(view["hand_counts"])
        view["hand_counts"] = counts
        seats = view["seats"]

        def after(seat: int) -> int:
            return (seat + (1 if view["direction"] == "clockwise" else -1)) % seats

        def hand_grew(seat: int, count: int) -> None:
            counts[seat] += count
            view["draw_pile"] -= count
            if counts[seat] != 1:  # pika.md: an alert (and a call) lasts while the hand is exactly one card
                view["alerts"] = [alert for alert in view["alerts"] if alert["seat"] != seat]
                view["called_pika"] = [called for called in view["called_pika"] if called != seat]

        for event in events:
            kind = event["type"]
            seat = event.get("seat")
            if kind == "play":
                card = event["card"]
                view["discard_top"] = card
                view["colour"] = event["colour"]
                counts[seat] = event["cards_left"]
                discard = dict(view["discard_cards"])
                discard[card] = discard.get(card, 0) + 1
                view["discard_cards"] = discard
                view["idle_turns"] = 0
                view["deciding_drawn_card"] = False
                if event.get("pika"):
                    view["called_pika"] = sorted({*view["called_pika"], seat})
                if "stack" in event and view["stack"] is not None:
                    view["stack"] = {**view["stack"], "amount": event["stack"]}
                if "direction" in event:
                    view["direction"] = event["direction"]
                view["turn"] = after(event["skipped"]) if "skipped" in event else after(seat)
            elif kind == "draw":
                hand_grew(seat, event["count"])
                view["idle_turns"] = 0 if event["count"] else view["idle_turns"] + 1
                view["turn"] = after(seat)
            elif kind == "keep":
                view["deciding_drawn_card"] = False
                view["turn"] = after(seat)
            elif kind == "take_stack":
                hand_grew(seat, event["count"])
                view["idle_turns"] = 0 if event["count"] else view["idle_turns"] + 1
                view["stack"] = None
                view["turn"] = after(seat)
            elif kind == "penalty":
                view["alerts"] = [alert for alert in view["alerts"] if alert["seat"] != seat]
                hand_grew(seat, event["count"])
            elif kind == "pika_alert":
                view["alerts"] = [*view["alerts"], {"seat": seat, "may_call": False}]
            elif kind == "pika":
                view["alerts"] = [alert for alert in view["alerts"] if alert["seat"] != seat]
                view["called_pika"] = sorted({*view["called_pika"], seat})
            elif kind == "reshuffle":
                view["draw_pile"] += event["cards"]
                view["discard_cards"] = {view["discard_top"]: 1}
            elif kind == "game_end":
                view["over"] = True
                view["end"] = event["reason"]
                view["placings"] = event["placings"]
                view["turn"] = None
                view["alerts"] = []
                view["deciding_drawn_card"] = False
        return view

    def follow_private(self, private: View, events: list[dict[str, Any]], seat: int) -> View:
        view = private
        for event in events:
            kind = event["type"]
            if kind == "game_end":
                view = {**view, "drawn_card": None}
            if event.get("seat") != seat:
                continue
            if kind == "play":
                hand = list(view["hand"])
                card = event["card"]
                if card in hand:
                    # A drawn card went to the right end: the engine plays the rightmost copy of it.
                    del hand[len(hand) - 1 - hand[::-1].index(card) if view["drawn_card"] else hand.index(card)]
                view = {**view, "hand": hand, "drawn_card": None}
            elif kind == "draw" and "card" in event:
                view = {**view, "hand": [*view["hand"], event["card"]],
                        "drawn_card": event["card"] if event["playable"] else None}
            elif kind == "keep":
                view = {**view, "drawn_card": None}
            elif kind in ("take_stack", "penalty") and "cards" in event:
                view = {**view, "hand": [*view["hand"], *event["cards"]]}
            elif kind == "hand_reordered" and "hand" in event:
                view = {**view, "hand": list(event["hand"])}
        return view

    def expand(self, public: View, private: View, seat: int | None) -> View:
        view = dict(public)
        turn = public["turn"]
        view["to_act"] = [] if turn is None else [turn]
        view["discard_size"] = sum(public["discard_cards"].values())
        if seat is not None:
            view.update(private)
            alerts = public["alerts"]
            if any(alert["seat"] == seat for alert in alerts):
                view["alerts"] = [{"seat": alert["seat"], "may_call": alert["seat"] == seat} for alert in alerts]
        return view
