// How to play The Piker, written for players from shared/rules/piker.md. Data only: static/js/help/index.js renders
// it (text blocks, pictures drawn with the table's own PikerCard and PipDie, {numbers} filled in).

const inv = (sector, tier, vp, secure) => ({ piker: { kind: 'investment', sector, tier, victory_points: vp, secure_value: secure } });
const vol = (name) => ({ piker: { kind: 'volatility', name, effect: '' } });

export default {
  game: 'piker',
  // piker.md; the table's view replaces what it carries (the rounds, the After Market's spots).
  numbers: { min_seats: 2, max_seats: 4, rounds: 6, dice: 5, after_market_spots: null },
  fromView: (view) => ({ rounds: view.rounds, after_market_spots: view.after_market.spots }),
  derive: (n) => ({
    spots_text: n.after_market_spots === null ? 'one spot per player plus 2' : `${n.after_market_spots} spots at this table (players + 2)`,
  }),
  sections: [
    {
      title: 'The goal',
      blocks: [
        'Over {rounds} rounds, bid secret dice on face-down investment cards, then *secure* what you win. At the end only secured cards score: the most points wins. {min_seats} to {max_seats} players.',
      ],
    },
    {
      title: 'The words',
      blocks: [
        { items: [
          { pics: [inv('tech', 'growth', 4, 8)], name: 'VP, victory points', text: 'What a card is worth at the end: the big number on its face.' },
          { pics: [{ back: 'blue_chip' }, { back: 'growth' }, { back: 'speculative' }], name: 'Tiers', text: 'Blue chip, growth, speculative: printed on a face-down card’s back. The riskier the tier, the more VP and the harder to secure. The face shows only once the card is won.' },
          { pics: [inv('energy', 'blue_chip', 1, 3)], name: 'Secure value', text: 'The pips of After Market dice it takes to secure the card (“secure 3”).' },
          { pics: [inv('mining', 'speculative', 5, 10), { ...inv('mining', 'speculative', 5, 10), secured: true }], name: 'Unsecured, secured', text: 'A card you win arrives unsecured (upright). Securing turns it sideways. *Only secured cards score at the end*; unsecured ones can still be lost.' },
          { pics: [{ die: 5 }, { die: 3 }], name: 'After Market', text: 'A card in the middle with {spots_text} for single dice. A die placed there bids on nothing: it comes back in step 4 to secure your cards.' },
          { name: 'The Piker', text: 'After each round but the last, the player with the fewest VP on the table (secured, unsecured and Dividends) takes the Piker card: one extra die next round, may add an extra face-down card to the market, and plays first.' },
        ] },
      ],
    },
    {
      title: 'A round, in six steps',
      blocks: [
        { steps: [
          '*Generate Income*: everyone rolls their dice ({dice}, plus any extra) behind a screen. Only you see yours.',
          '*Invest*: in turn, each player places one die, face as rolled, on a market card or an open After Market spot, until every die is placed. Placed dice are public.',
          '*Collect Investments*: on each card the highest total of pips wins it (tied players reroll those dice). Cards nobody bid on are discarded.',
          '*The After Market*: take back your After Market dice and secure your unsecured cards with them: dice adding up to at least the card’s secure value, using no die the total does not need; a die serves one card. Unused dice are lost. Everyone chooses in secret; the choices show together.',
          '*Refill the Market*: every die goes home; a new face-down market is dealt (4 cards for 2 players, 5 for 3 or 4).',
          '*The Piker* takes the card (above). Everyone who won no card this round also rolls one extra die next round.',
        ] },
      ],
    },
    {
      title: 'The investment cards',
      blocks: [
        '40 cards: five sectors (Tech, Energy, Shipping, Real Estate, Mining), each with these eight.',
        { pics: [inv('tech', 'blue_chip', 1, 3), inv('tech', 'blue_chip', 1, 4), inv('tech', 'blue_chip', 2, 5), inv('tech', 'growth', 3, 6), inv('tech', 'growth', 3, 7), inv('tech', 'growth', 4, 8), inv('tech', 'speculative', 5, 10), inv('tech', 'speculative', 7, 12)] },
        { table: {
          caption: 'One sector’s eight cards',
          head: ['Tier', 'VP', 'Secure value'],
          rows: [['Blue chip', '1, 1, 2', '3, 4, 5'], ['Growth', '3, 3, 4', '6, 7, 8'], ['Speculative', '5, 7', '10, 12']],
        } },
      ],
    },
    {
      title: 'Market Volatility cards',
      blocks: [
        'Eight cards with a speculative back, won like the others. “Now” cards act at once; the others are kept and played later.',
        { items: [
          { pics: [vol('Bull Run')], name: 'Bull Run (now)', text: 'Secure one of your unsecured cards for free.' },
          { pics: [vol('Margin Call')], name: 'Margin Call (now)', text: 'Every opponent with 2 or more unsecured cards discards the lowest-VP one (the oldest among equals).' },
          { pics: [vol('Dividend')], name: 'Dividend (now)', text: 'Worth 3 VP; counts as secured, belongs to no sector.' },
          { pics: [vol('Leveraged Buyout')], name: 'Leveraged Buyout (2, kept)', text: 'In an After Market step, adds 3 pips to the dice you use on one card.' },
          { pics: [vol('Hostile Takeover')], name: 'Hostile Takeover (kept)', text: 'At the end of a Collect Investments step, take one unsecured card from an opponent.' },
          { pics: [vol('Extra Capital')], name: 'Extra Capital (kept)', text: 'At Generate Income, roll one extra die this round.' },
          { pics: [vol('Insider Tip')], name: 'Insider Tip (kept)', text: 'At the start of an Invest step, look at two face-down market cards; only you see them.' },
        ] },
      ],
    },
    {
      title: 'Scoring at the end',
      blocks: [
        { list: [
          'The VP of your *secured* cards, plus 3 per Dividend. Unsecured cards score nothing.',
          '*Sector sets*, secured cards of one sector: 2 cards +2, 3 cards +5, 4 cards +9, 5 or more +14.',
          '*Diversified portfolio*: +8 for every five secured cards from five different sectors (a card may count in its sector set and in one portfolio).',
          'Highest total wins; a tie for first is settled by rolling two dice.',
        ] },
      ],
    },
    {
      title: 'Examples',
      blocks: [
        { example: { pics: [inv('tech', 'growth', 4, 8), { die: 5 }, { die: 4 }, { die: 2 }], text: 'You won Tech 4 VP, secure 8, and your After Market dice are 5, 4 and 2. 5 + 4 = 9 secures it. 5 + 4 + 2 is not allowed: the 2 is not needed. Without a Leveraged Buyout the 2 secures nothing alone (every secure value is at least 3), so it is lost.' } },
        { example: { pics: [{ ...inv('tech', 'growth', 4, 8), secured: true }, { ...inv('tech', 'blue_chip', 1, 3), secured: true }, { ...inv('energy', 'growth', 3, 6), secured: true }, vol('Dividend'), inv('mining', 'speculative', 7, 12)], text: 'At the end you hold secured Tech 4 VP, Tech 1 VP and Energy 3 VP, a Dividend, and an unsecured Mining 7 VP: 4 + 1 + 3 + 3 (Dividend) + 2 (two Tech cards) = 13. The Mining card scores nothing.' } },
      ],
    },
  ],
};
