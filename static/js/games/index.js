// The game tables the client knows. A game is playable in the browser once it has a module here; the lobby offers
// only games that both the server lists (/api/games) and this registry holds. See docs/client.md for the interface.
import kapern from './kapern.js';
import pika from './pika.js';
import piker from './piker.js';
import stakes from './stakes.js';

export const GAMES = { pika, stakes, kapern, piker };

export function gameModule(name) {
  return GAMES[name] || null;
}
