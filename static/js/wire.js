// Views on the wire (docs/protocol.md, "Patches"; the server's app/games/wire.py, which these rules must match
// exactly: tests/browser/test_wire.py runs both on the same games). Before an update's patches the client works out
// what its events tell (followPublic, followPrivate); the view it shows is expandView of what it then holds.
// A game without rules here sends its views as they are.
import { applyPatch } from './patch.js';

function pikaFollowPublic(publicView, events) {
  if (!events.length) return publicView;
  const view = { ...publicView };
  const counts = [...view.hand_counts];
  view.hand_counts = counts;
  const seats = view.seats;
  const after = (seat) => (((seat + (view.direction === 'clockwise' ? 1 : -1)) % seats) + seats) % seats;
  const handGrew = (seat, count) => {
    counts[seat] += count;
    view.draw_pile -= count;
    if (counts[seat] !== 1) { // an alert (and a call) lasts while the hand is exactly one card
      view.alerts = view.alerts.filter((alert) => alert.seat !== seat);
      view.called_pika = view.called_pika.filter((called) => called !== seat);
    }
  };
  const called = (seat) => [...new Set([...view.called_pika, seat])].sort((a, b) => a - b);
  for (const event of events) {
    const { seat } = event;
    switch (event.type) {
      case 'play': {
        view.discard_top = event.card;
        view.colour = event.colour;
        counts[seat] = event.cards_left;
        view.discard_cards = { ...view.discard_cards, [event.card]: (view.discard_cards[event.card] || 0) + 1 };
        view.idle_turns = 0;
        view.deciding_drawn_card = false;
        if (event.pika) view.called_pika = called(seat);
        if ('stack' in event && view.stack !== null) view.stack = { ...view.stack, amount: event.stack };
        if ('direction' in event) view.direction = event.direction;
        view.turn = 'skipped' in event ? after(event.skipped) : after(seat);
        break;
      }
      case 'draw':
        handGrew(seat, event.count);
        view.idle_turns = event.count ? 0 : view.idle_turns + 1;
        view.turn = after(seat);
        break;
      case 'keep':
        view.deciding_drawn_card = false;
        view.turn = after(seat);
        break;
      case 'take_stack':
        handGrew(seat, event.count);
        view.idle_turns = event.count ? 0 : view.idle_turns + 1;
        view.stack = null;
        view.turn = after(seat);
        break;
      case 'penalty':
        view.alerts = view.alerts.filter((alert) => alert.seat !== seat);
        handGrew(seat, event.count);
        break;
      case 'pika_alert':
        view.alerts = [...view.alerts, { seat, may_call: false }];
        break;
      case 'pika':
        view.alerts = view.alerts.filter((alert) => alert.seat !== seat);
        view.called_pika = called(seat);
        break;
      case 'reshuffle':
        view.draw_pile += event.cards;
        view.discard_cards = { [view.discard_top]: 1 };
        break;
      case 'game_end':
        view.over = true;
        view.end = event.reason;
        view.placings = event.placings;
        view.turn = null;
        view.alerts = [];
        view.deciding_drawn_card = false;
        break;
      default:
    }
  }
  return view;
}

function pikaFollowPrivate(privateView, events, me) {
  let view = privateView;
  for (const event of events) {
    if (event.type === 'game_end') view = { ...view, drawn_card: null };
    if (event.seat !== me) continue;
    if (event.type === 'play') {
      const hand = [...view.hand];
      // A drawn card went to the right end: the server plays the rightmost copy of it.
      const index = view.drawn_card ? hand.lastIndexOf(event.card) : hand.indexOf(event.card);
      if (index >= 0) hand.splice(index, 1);
      view = { ...view, hand, drawn_card: null };
    } else if (event.type === 'draw' && 'card' in event) {
      view = { ...view, hand: [...view.hand, event.card], drawn_card: event.playable ? event.card : null };
    } else if (event.type === 'keep') {
      view = { ...view, drawn_card: null };
    } else if ((event.type === 'take_stack' || event.type === 'penalty') && 'cards' in event) {
      view = { ...view, hand: [...view.hand, ...event.cards] };
    } else if (event.type === 'hand_reordered' && 'hand' in event) {
      view = { ...view, hand: [...event.hand] };
    }
  }
  return view;
}

function pikaExpand(publicView, privateView, seat) {
  const view = { ...publicView };
  view.to_act = publicView.turn === null ? [] : [publicView.turn];
  view.discard_size = Object.values(publicView.discard_cards).reduce((sum, count) => sum + count, 0);
  if (seat === null || seat === undefined) return view;
  Object.assign(view, privateView);
  const { alerts } = publicView;
  if (alerts.some((alert) => alert.seat === seat)) {
    view.alerts = alerts.map((alert) => ({ seat: alert.seat, may_call: alert.seat === seat }));
  }
  return view;
}

const AS_SENT = {
  followPublic: (publicView) => publicView,
  followPrivate: (privateView) => privateView,
  expand: (publicView, privateView, seat) => (seat === null || seat === undefined
    ? { ...publicView } : { ...publicView, ...privateView }),
};

// Views whose `to_act` is mostly the seat in `turn` (or nobody once `turn` is null): it is sent only when not.
const TURN = {
  ...AS_SENT,
  expand: (publicView, privateView, seat) => {
    const view = AS_SENT.expand(publicView, privateView, seat);
    if (!('to_act' in view)) view.to_act = publicView.turn === null ? [] : [publicView.turn];
    return view;
  },
};

const WIRES = {
  pika: { followPublic: pikaFollowPublic, followPrivate: pikaFollowPrivate, expand: pikaExpand },
  stakes: TURN,
  piker: TURN,
};

function wireFor(game) {
  return WIRES[game] || AS_SENT;
}

/** A table's state after one of its messages (docs/protocol.md, "Table messages"): a sync or catch_up replaces it
 * whole; an update's patches apply after what its events tell. The state holds views and info as sent. */
export function nextTableState(state, message) {
  if (message.type === 'sync' || message.type === 'catch_up') {
    return {
      public: message.public, private: message.private, legal: message.legal,
      info: { ...message.info, my_seat: message.seat }, turns: message.turns || {},
    };
  }
  const wire = wireFor(state.info.game);
  const events = message.events || [];
  const seat = state.info.my_seat;
  const next = { ...state, public: applyPatch(wire.followPublic(state.public, events), message.public || {}) };
  if (seat !== null && seat !== undefined) {
    next.private = applyPatch(wire.followPrivate(state.private, events, seat), message.private || {});
  }
  if ('legal' in message) next.legal = message.legal;
  if ('info' in message) next.info = applyPatch(state.info, message.info);
  if ('turns' in message) next.turns = message.turns;
  return next;
}

/** What a table's screen is given: the seat's view, its legal moves, and the table's info with the turn timers as
 * wall-clock times (`turns` counts tenths of a second after the clock's `base`). */
export function shownTable(state) {
  const { base, ...clock } = state.info.clock;
  clock.turn_ends_at = Object.fromEntries(
    Object.entries(state.turns).map(([seat, tenths]) => [seat, (base * 10 + tenths) / 10]),
  );
  return {
    view: wireFor(state.info.game).expand(state.public, state.private, state.info.my_seat),
    legal: state.legal,
    table_info: { ...state.info, clock },
  };
}
