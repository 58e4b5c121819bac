"""The dice faces and the pirate cards of Piraten Kapern (kapern.md, "Table" and "The deck: 41 cards").

Rules as data: one row per card, read by the engine, the scoring function, the view and the bots alike.
"""

from __future__ import annotations

from dataclasses import dataclass

# kapern.md: eight dice, each with six faces; a die roll of 1..6 shows these faces in this order.
FACES: tuple[str, ...] = ("skull", "diamond", "coin", "monkey", "parrot", "saber")
SKULL, DIAMOND, COIN, MONKEY, PARROT, SABER = FACES
DICE = 8
# kapern.md, "A turn": three skulls disqualify, a reroll takes two or more dice, four skulls on the first roll go to
# Skull Island; a Shipwreck turn has two rolls at most.
DISQUALIFYING_SKULLS = 3
SMALLEST_REROLL = 2
GUARDIAN_SKULLS = 1  # kapern.md: the Guardian rerolls one skull (once per turn)
SKULL_ISLAND_SKULLS = 4
SHIPWRECK_ROLLS = 2
PLURAL = {
    SKULL: "skulls",
    DIAMOND: "diamonds",
    COIN: "gold coins",
    MONKEY: "monkeys",
    PARROT: "parrots",
    SABER: "sabers",
}


@dataclass(frozen=True)
class Card:
    id: str  # stable name, used in actions, views, events and test scripts
    name: str  # as the rules page calls it
    count: int  # copies in the 41-card deck
    published: bool  # part of the published 35-card deck
    effect: str  # one line a player reads at the table
    skulls: int = 0  # kapern.md: a skull card starts the turn with 1 or 2 skulls
    sabers_needed: int = 0  # kapern.md: a sea battle needs at least this many sabers
    bonus: int = 0  # kapern.md: won or lost with a sea battle
    extra_face: str | None = None  # kapern.md: the Gold coin / Diamond card adds one coin / diamond
    skull_island: bool = True  # kapern.md: no Skull Island with a sea battle, Zombie attack or Shipwreck

    @property
    def sea_battle(self) -> bool:
        return self.sabers_needed > 0


TREASURE_ISLAND = "treasure_island"
PIRATE = "pirate"
GUARDIAN = "guardian"
SKULL_1 = "skull_1"
SKULL_2 = "skull_2"
SEA_BATTLE_2 = "sea_battle_2"
SEA_BATTLE_3 = "sea_battle_3"
SEA_BATTLE_4 = "sea_battle_4"
GOLD_COIN = "gold_coin"
DIAMOND_CARD = "diamond"
ANIMALS = "animals"
PEACE = "peace"
ZOMBIE_ATTACK = "zombie_attack"
SHIPWRECK = "shipwreck"

CARD_LIST: tuple[Card, ...] = (
    Card(TREASURE_ISLAND, "Treasure Island", 4, True,
         "after any roll, put dice on the card or take them back; dice on the card score even if you are disqualified"),
    Card(PIRATE, "Pirate", 4, True,
         "the turn's score is doubled; on Skull Island every opponent loses 200 per skull"),
    Card(GUARDIAN, "Guardian", 4, True,
         "once this turn you may reroll one skull, alone or with other dice, even to escape a third skull"),
    Card(SKULL_1, "Dead head, 1 skull", 3, True, "the turn starts with 1 skull", skulls=1),
    Card(SKULL_2, "Dead head, 2 skulls", 2, True, "the turn starts with 2 skulls", skulls=2),
    Card(SEA_BATTLE_2, "Pirate vessel, 2 sabers", 2, True,
         "stop with at least 2 sabers for a 300 bonus, or lose 300", sabers_needed=2, bonus=300, skull_island=False),
    Card(SEA_BATTLE_3, "Pirate vessel, 3 sabers", 2, True,
         "stop with at least 3 sabers for a 500 bonus, or lose 500", sabers_needed=3, bonus=500, skull_island=False),
    Card(SEA_BATTLE_4, "Pirate vessel, 4 sabers", 2, True,
         "stop with at least 4 sabers for a 1000 bonus, or lose 1000", sabers_needed=4, bonus=1000,
         skull_island=False),
    Card(GOLD_COIN, "Gold coin", 4, True, "the turn starts with one gold coin", extra_face=COIN),
    Card(DIAMOND_CARD, "Diamond", 4, True, "the turn starts with one diamond", extra_face=DIAMOND),
    Card(ANIMALS, "Animals", 4, True, "monkeys and parrots count together as one kind"),
    Card(PEACE, "Peace", 2, False,
         "end the turn without a saber showing for double points; each saber showing costs 500"),
    Card(ZOMBIE_ATTACK, "Zombie attack", 2, False,
         "roll until every die shows skull or saber; 5 sabers win 1200, else the others share it",
         skull_island=False),
    Card(SHIPWRECK, "Shipwreck", 2, False,
         "two rolls only; only diamonds and gold coins score, 200 each, whatever the skulls", skull_island=False),
)

CARDS: dict[str, Card] = {card.id: card for card in CARD_LIST}


def deck_cards(published_deck: bool) -> list[str]:
    """The deck in its fixed, unshuffled order: the 41 cards, or the published 35 (kapern.md, "The deck")."""
    return [card.id for card in CARD_LIST if card.published or not published_deck for _ in range(card.count)]
