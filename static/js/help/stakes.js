// How to play Stakes, written for players from shared/rules/stakes.md. Data only: static/js/help/index.js renders it
// (text blocks, pictures drawn with the table's own PlayingCard and PipDie, {numbers} filled in).

export default {
  game: 'stakes',
  // stakes.md; the table's view replaces what it carries (target_base, rounds, wins_needed).
  numbers: {
    min_seats: 2, max_seats: 6, target_base: 10, rounds: 5, wins_needed: 4, leverage_dice: 3, duel_leverage_dice: 4,
    exact_bonus: 5,
  },
  fromView: (view) => ({
    target_base: view.target_base,
    ...(view.rounds ? { rounds: view.rounds } : {}),
    ...(view.duel ? { wins_needed: view.duel.wins_needed } : {}),
  }),
  derive: (n) => ({
    target_low: 2 + n.target_base,
    target_high: 12 + n.target_base,
    example_target: 4 + 6 + n.target_base,
    example_twisted: 2 + 6 + n.target_base,
    example_exact: 2 + 6 + n.target_base + n.exact_bonus,
    example_room: 4 + 6 + n.target_base - 17,
    example_bust: 4 + 6 + n.target_base - 17 + 1,
    example_rival: 2 + 6 + n.target_base + 1,
  }),
  sections: [
    {
      title: 'The goal',
      blocks: [
        'Flip cards to bring your total as close to the *target* as you dare, without going over it.',
        { list: [
          '3 to {max_seats} players: {rounds} rounds; your round scores add up and the highest total wins.',
          '2 players, *the Duel*: rounds are won, not scored; the first to {wins_needed} round wins takes the match.',
        ] },
      ],
    },
    {
      title: 'The target',
      blocks: [
        { pics: [{ die: 4 }, { die: 6 }] },
        'Two center dice, A and B, set it: *target = A + B + {target_base}*, so from {target_low} to {target_high}. The dice can move during a round, and the target with them.',
      ],
    },
    {
      title: 'Your turn',
      blocks: [
        'Do exactly one of these:',
        { list: [
          '*Flip*: the top card joins your row and your total grows by its value. Your first turn of every round must be a Flip.',
          '*Bank*: your total becomes your round score and you are out of the round (not at total 0).',
          '*Twist*: pay one of your leverage dice into the pot, then reroll the center die of your choice. Everyone starts with {leverage_dice} leverage dice ({duel_leverage_dice} in the Duel).',
        ] },
        '*Bust*: whenever a live player’s total is above the target, they bust at once: round score 0, out of the round. A Twist or a Nudge that lowers the target can bust other players, and you. Banked players never bust.',
      ],
    },
    {
      title: 'The cards',
      blocks: [
        'One 52-card deck; suits never matter.',
        { items: [
          { pics: [{ card: 'AS' }], name: 'Ace', text: 'Worth 1.' },
          { pics: [{ card: '2D' }, { card: '7H' }, { card: '10C' }], name: '2 to 10', text: 'Worth their number.' },
          { pics: [{ card: 'JC' }], name: 'Jack: Peek', text: 'Worth 0. You see the top two cards of the deck and put them back in the order you choose; only you know them.' },
          { pics: [{ card: 'QD' }], name: 'Queen: Shield', text: 'Worth 0. The next card that would bust you is discarded instead. Shields add up and expire at the end of the round; they never help against a moved target.' },
          { pics: [{ card: 'KS' }], name: 'King: Nudge', text: 'Worth 0. You must turn one center die up or down by exactly 1 (staying 1 to 6). It is free: not a Twist.' },
        ] },
      ],
    },
    {
      title: 'Scoring',
      blocks: [
        { list: [
          '3 or more players: a banked total is your round score. Banking *exactly on the target* scores total + {exact_bonus} and takes one die back from the pot, if it holds any.',
          'The round ends when everyone has banked or busted; the center dice are rerolled and the next player to the left starts.',
          'After round {rounds}, the highest total wins; equal totals share the place.',
        ] },
      ],
    },
    {
      title: 'The Duel',
      blocks: [
        { list: [
          'When the round ends: a banked total at or under the target beats one over it; in the same group the closer to the target wins; banked beats busted. Both busted, or equal totals: nobody wins the round.',
          'Once banked, you still take turns while your opponent is live: Twist (with a die) or pass.',
          'An exact hit takes one leverage die from your opponent (instead of the bonus and the pot die).',
          '*Pressure*: the round’s loser pays one die into the pot; after a dead round (both busted) both pay; a player who banked exactly on the target never pays.',
        ] },
      ],
    },
    {
      title: 'Examples',
      blocks: [
        { example: { pics: [{ die: 4 }, { die: 6 }, { card: '9S' }, { card: '8H' }], text: 'Dice 4 and 6: the target is 4 + 6 + {target_base} = {example_target}. Your row 9 + 8 = 17 leaves room for {example_room}: a card worth {example_bust} or more would bust you. You bank 17.' } },
        { example: { pics: [{ die: 2 }, { die: 6 }], text: 'You hold {example_twisted}, a rival holds {example_rival}. You Twist die A from 4 to 2: the target drops to {example_twisted}, so the rival busts and you stand exactly on it. With 3 or more players, if the target holds, banking next turn scores {example_twisted} + {exact_bonus} = {example_exact}.' } },
      ],
    },
  ],
};
