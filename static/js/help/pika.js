// How to play Pika, written for players from shared/rules/pika.md. Data only: static/js/help/index.js renders it
// (text blocks, pictures drawn with the table's own Card, {numbers} filled in; see docs/client.md, "How to play").

export default {
  game: 'pika',
  // pika.md; replaced by what the server says: /api/games (seats, the table option's default) and the table's view.
  numbers: { min_seats: 2, max_seats: 4, alert_seconds: 3 },
  fromView: (view) => ({ alert_seconds: view.alert_seconds }),
  sections: [
    {
      title: 'The goal',
      blocks: [
        'Be the first to get rid of every card in your hand. {min_seats} to {max_seats} players, each for themselves, seven cards each. One round is the whole game.',
      ],
    },
    {
      title: 'Your turn',
      blocks: [
        { list: [
          '*Play* one card that matches the top of the discard by *colour* or by *number or symbol* (a 7 on a 7, a Skip on a Skip). After a black card, match the colour its player chose.',
          '*Or draw* one card (you may, even holding a card that fits). If the drawn card fits, you may play it at once; otherwise your turn ends.',
          'Play starts clockwise from a player drawn at random.',
        ] },
      ],
    },
    {
      title: 'The cards',
      blocks: [
        '108 cards: four colours, each with one 0, two of every 1 to 9, two Skips, two Reverses and two +2; and eight black cards, four Jokers and four +4.',
        { items: [
          { pics: [{ pika: 'red-7' }, { pika: 'blue-0' }], name: 'Numbers 0 to 9', text: 'Match by colour or by number.' },
          { pics: [{ pika: 'green-skip' }], name: 'Skip', text: 'The next player loses their turn.' },
          { pics: [{ pika: 'yellow-reverse' }], name: 'Reverse', text: 'Play changes direction. With two players it works as a Skip: you play again.' },
          { pics: [{ pika: 'blue-+2' }], name: '+2', text: 'The next player draws 2, unless they chain (below).' },
          { pics: [{ pika: 'joker' }], name: 'Joker (wild)', text: 'Always playable, except on a pending stack. You choose the colour in play.' },
          { pics: [{ pika: '+4' }], name: '+4 (wild)', text: 'You choose the colour, and the next player draws 4 unless they chain.' },
        ] },
      ],
    },
    {
      title: 'Stacking +2 and +4',
      blocks: [
        { list: [
          'Draw cards add up. While a stack is pending you may only chain or take it.',
          'On a pending +2: any +2 of any colour, or any +4.',
          'On a pending +4: only a +2 of the colour chosen with that +4, or another +4 (you choose a new colour).',
          'Whoever cannot or will not chain draws the whole stack, and their turn ends.',
        ] },
      ],
    },
    {
      title: '“Pika!”',
      blocks: [
        'Down to exactly one card? Press *Pika!* within {alert_seconds} seconds (a table setting), or draw 2 penalty cards. You can also call it together with the play that leaves you one card. Play does not wait for it, and nobody can call it for or against you.',
      ],
    },
    {
      title: 'The end and the placings',
      blocks: [
        { list: [
          'The first player to play their last card wins, at once.',
          'If that last card is a +2 or a +4, the round goes on until somebody takes the stack; then every player holding no cards is first, equal.',
          'The others are placed by cards left in hand, fewest first; equal counts share a place (1, 2, 2, 4).',
          'An empty draw pile is refilled from the discard. If a whole turn of the table passes with nothing to draw and no card played, the round ends: fewest cards first.',
        ] },
      ],
    },
    {
      title: 'Examples',
      blocks: [
        { example: { pics: [{ pika: 'red-7' }], text: 'The discard shows a red 7: you may play any red card, any 7 (a blue 7, say), a Joker or a +4.' } },
        { example: { pics: [{ pika: 'blue-+2' }, { pika: 'green-+2' }], text: 'Ann plays a blue +2, Ben chains a green +2: 4 are pending. Cleo holds no +2 or +4, so she draws 4 and play goes on from the next player.' } },
        { example: { pics: [{ pika: '+4' }, { pika: 'blue-+2' }], text: 'Ann plays a +4 and chooses blue. Ben may only chain a blue +2 (6 pending) or another +4 (8 pending).' } },
      ],
    },
  ],
};
