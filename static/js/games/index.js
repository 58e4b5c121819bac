// The game tables the client knows. A game is playable in the browser once it has a module here; the lobby offers
// only games that both the server lists (/api/games) and this registry holds. See docs/client.md for the interface.
import pika from './pika.js';

export const GAMES = { pika };

export function gameModule(name) {
  return GAMES[name] || null;
}
