// How to play Piraten Kapern, written for players from shared/rules/kapern.md. Data only: static/js/help/index.js
// renders it (text blocks, pictures drawn with the table's own DieFace and CardArt, {numbers} filled in).

export default {
  game: 'kapern',
  // kapern.md; /api/games and the table's view replace what they carry (the winning score, the deck option).
  numbers: { min_seats: 2, max_seats: 5, target: 8000, published_deck: false },
  fromView: (view) => ({ target: view.target, published_deck: view.deck.published_deck }),
  derive: (n) => ({
    deck_note: n.published_deck
      ? 'This table plays the published 35 cards: no Peace, Zombie attack or Shipwreck.'
      : 'All 41 cards; a table option plays the published 35 alone (without Peace, Zombie attack and Shipwreck).',
  }),
  sections: [
    {
      title: 'The goal',
      blocks: [
        'Roll eight pirate dice, push your luck for sets, diamonds and gold, and be the first to {target} points. {min_seats} to {max_seats} players. Scores can go below zero.',
      ],
    },
    {
      title: 'Your turn',
      blocks: [
        { steps: [
          'Turn up a pirate card: it changes this turn (below).',
          'Roll all eight dice.',
          '*Skulls* are set aside and never rerolled. Three skulls (dice plus skulls on the card) end the turn at once: disqualified, 0 points.',
          'Otherwise *stop* and score, or *reroll* any two or more dice that are not skulls (never one die alone), and look again.',
        ] },
      ],
    },
    {
      title: 'The faces',
      blocks: [
        { items: [
          { pics: [{ face: 'skull' }], name: 'Skull', text: 'Three of them and the turn is lost. Never part of a set.' },
          { pics: [{ face: 'diamond' }, { face: 'coin' }], name: 'Diamond, gold coin', text: 'Each scores 100 on its own, and they make sets too.' },
          { pics: [{ face: 'monkey' }, { face: 'parrot' }], name: 'Monkey, parrot', text: 'Score only in sets.' },
          { pics: [{ face: 'saber' }], name: 'Saber', text: 'Scores in sets, and wins sea battles.' },
        ] },
      ],
    },
    {
      title: 'Scoring a turn',
      blocks: [
        { table: {
          caption: 'Sets of identical faces (skulls never count)',
          head: ['Same faces', '3', '4', '5', '6', '7', '8'],
          rows: [['Points', '100', '200', '500', '1,000', '2,000', '4,000']],
        } },
        { list: [
          'Each diamond and gold coin also scores 100 on its own, so a set of them scores twice.',
          '*Full chest*: when every one of the eight dice scores (in a set, a diamond or coin, or a saber of a won sea battle), add 500. A skull die rules it out.',
          '*Pirate magic*: nine of a kind (eight coins or diamonds plus the matching card) wins the game at once.',
        ] },
      ],
    },
    {
      title: 'The pirate cards',
      blocks: [
        '{deck_note}',
        { items: [
          { pics: [{ kcard: 'treasure_island', name: 'Treasure Island' }], name: 'Treasure Island (4)', text: 'After any roll, put non-skull dice on the card or take them back. They are not rerolled, and still score if you are disqualified.' },
          { pics: [{ kcard: 'pirate', name: 'Pirate' }], name: 'Pirate (4)', text: 'The turn’s score is doubled.' },
          { pics: [{ kcard: 'guardian', name: 'Guardian' }], name: 'Guardian (4)', text: 'Once per turn, reroll one skull (even alone). On a third skull you may use it to reroll one instead of being disqualified.' },
          { pics: [{ kcard: 'skull_1', name: 'Dead head, 1 skull' }], name: 'Dead head, 1 or 2 skulls (3 and 2)', text: 'The turn starts with that many skulls.' },
          { pics: [{ kcard: 'sea_battle_3', name: 'Pirate vessel, 3 sabers' }], name: 'Pirate vessel, 2, 3 or 4 sabers (2 each)', text: 'A sea battle: stop with at least that many sabers to win a bonus of 300, 500 or 1,000. Stop short or be disqualified: score 0 and lose the bonus.' },
          { pics: [{ kcard: 'gold_coin', name: 'Gold coin' }, { kcard: 'diamond', name: 'Diamond' }], name: 'Gold coin, Diamond (4 each)', text: 'The turn starts with one coin or diamond: it scores 100 and counts in its set (it is not a die).' },
          { pics: [{ kcard: 'animals', name: 'Animals' }], name: 'Animals (4)', text: 'Monkeys and parrots count together as one kind.' },
          { pics: [{ kcard: 'peace', name: 'Peace' }], name: 'Peace (2)', text: 'End with no saber showing and the score is doubled; with sabers showing, score 0 and lose 500 per saber.' },
          { pics: [{ kcard: 'zombie_attack', name: 'Zombie attack' }], name: 'Zombie attack (2)', text: 'Keep rolling every die that shows neither skull nor saber until all do (single dice too). 5 or more sabers: you score 1,200; otherwise the 1,200 is shared among the others.' },
          { pics: [{ kcard: 'shipwreck', name: 'Shipwreck' }], name: 'Shipwreck (2)', text: 'Two rolls at most, skulls never end the turn, and only diamonds and coins score: 200 each.' },
        ] },
      ],
    },
    {
      title: 'Skull Island',
      blocks: [
        'Four or more skulls on the *first* roll (card skulls count) take you to Skull Island: keep rolling any non-skull dice while each roll adds a skull. You score nothing, but every opponent loses 100 per skull (200 with the Pirate). Not with a sea battle, Zombie attack or Shipwreck, and the Guardian does not work there.',
      ],
    },
    {
      title: 'The end',
      blocks: [
        'When a player ends a turn at {target} or more, every other player takes one last turn (if one of them passes that score, the first player gets one more turn too). Then the highest score wins; equal scores share the place. If nobody holds {target} by then, play goes on and the next to reach it wins at once.',
      ],
    },
    {
      title: 'Examples',
      blocks: [
        { example: { pics: [{ kcard: 'gold_coin', name: 'Gold coin' }, { face: 'monkey' }, { face: 'monkey' }, { face: 'monkey' }, { face: 'saber' }, { face: 'saber' }, { face: 'saber' }, { face: 'parrot' }, { face: 'parrot' }], text: 'Gold coin card; 3 monkeys, 3 sabers, 2 parrots; stop: 100 (monkeys) + 100 (sabers) + 100 (the card’s coin) = 300.' } },
        { example: { pics: [{ kcard: 'diamond', name: 'Diamond' }, { face: 'diamond' }, { face: 'diamond' }, { face: 'parrot' }, { face: 'parrot' }, { face: 'parrot' }, { face: 'skull' }, { face: 'skull' }, { face: 'monkey' }], text: 'Diamond card; 2 diamonds, 3 parrots, 2 skulls, 1 monkey; stop: 3 diamonds × 100 + their set 100 = 400, parrots 100: 500.' } },
        { example: { pics: [{ kcard: 'pirate', name: 'Pirate' }, { face: 'saber' }, { face: 'saber' }, { face: 'saber' }, { face: 'saber' }, { face: 'coin' }, { face: 'coin' }, { face: 'coin' }, { face: 'coin' }], text: 'Pirate card; 4 sabers, 4 coins; stop: (200 + 200 + 400 + 500 full chest) × 2 = 2,600.' } },
      ],
    },
  ],
};
