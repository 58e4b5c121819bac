// The one WebSocket (docs/protocol.md): requests with ids and their replies, table messages kept in version order,
// notices, and automatic reconnection that rejoins every watched table from the last version seen.
import { setStore } from './state.js';
import { nextTableState, shownTable } from './wire.js';

const PING_EVERY_MS = 25000; // the server pings too; this catches a connection that died without a close
const PONG_WITHIN_MS = 10000;
const MAX_BACKOFF_S = 8;
const OFFLINE_RETRY_S = 30;

/** Let go of a socket without events; one still connecting is closed once open (closing it earlier makes the
 * browser log an error). */
function discard(ws) {
  ws.onmessage = null;
  ws.onclose = null;
  if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close(1000);
  else if (ws.readyState === WebSocket.OPEN) ws.close(1000);
}

export class SocketError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

class Connection {
  constructor() {
    this.ws = null;
    this.wanted = false;
    this.ready = false; // the server said hello on the current socket
    this.opened = false; // a socket was ready once: later opens are reconnections
    this.attempt = 0;
    this.sequence = 0;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.tables = new Map(); // table id -> {version, joining, handlers, state: {public, private, legal, info, turns}}
    this.serverSkew = 0; // server clock minus this browser's, in seconds (from hello and every pong)
    this.nodeHint = null; // the server playing the table last joined: reconnect there (docs/cluster.md)
    this.noticeHandlers = new Set();
    this.retryTimer = null;
    this.countdown = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.onUnauthorized = () => {};
    window.addEventListener('online', () => {
      if (this.wanted && !this.ready) this.retryNow();
    });
    window.addEventListener('offline', () => {
      // The network is gone: the socket would take up to a ping to notice. Drop it now, so the banner says so at
      // once; 'online' reconnects and rejoins every table from its last version.
      const ws = this.ws;
      if (!this.wanted || !ws) return;
      discard(ws);
      this.closed(ws, { code: 1006 });
    });
  }

  start() {
    if (this.wanted) return;
    this.wanted = true;
    this.attempt = 0;
    this.open();
  }

  stop() {
    this.wanted = false;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.opened = false;
    if (ws) discard(ws);
    this.failPending('offline', 'Not connected.');
    this.tables.clear();
    setStore({ connection: 'offline', retryIn: 0 });
  }

  retryNow() {
    if (!this.wanted) return;
    this.clearTimers();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      this.ready = false;
      discard(ws);
      this.failPending('disconnected', 'The connection dropped before the server answered.');
    }
    this.open();
  }

  open() {
    this.clearTimers();
    setStore({ connection: this.opened ? 'reconnecting' : 'connecting', retryIn: 0, offline: false });
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // A hint for the load balancer: the server that plays our table, so our moves need no relaying.
    const hint = this.nodeHint ? `?node=${encodeURIComponent(this.nodeHint)}` : '';
    const ws = new WebSocket(`${scheme}//${location.host}/ws${hint}`);
    this.ws = ws;
    this.ready = false;
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    ws.onclose = (event) => this.closed(ws, event);
  }

  receive(message) {
    switch (message.type) {
      case 'hello':
        this.serverSkew = message.server_time - Date.now() / 1000;
        this.ready = true;
        this.opened = true;
        this.attempt = 0;
        setStore({ connection: 'open', retryIn: 0 });
        this.schedulePing();
        for (const entry of this.tables.values()) this.join(entry);
        for (const handler of [...this.noticeHandlers]) handler(message); // a new socket: who needs to know
        return;
      case 'ack':
      case 'pong':
        this.settle(message, null);
        if (message.type === 'pong') {
          clearTimeout(this.pongTimer);
          this.serverSkew = message.server_time - Date.now() / 1000;
        }
        return;
      case 'error':
        if (message.id != null && this.pending.has(message.id)) {
          this.settle(message, new SocketError(message.code, message.message));
        } else if (message.table && this.tables.has(message.table)) {
          const entry = this.tables.get(message.table);
          if (message.code === 'table_moved') {
            // The table's new owner has it: join again from the last version seen (nothing is lost).
            if (!entry.joining) this.join(entry);
            return;
          }
          if (message.code === 'not_watchable') {
            // Sent off as a spectator (a player blocked us, unfriended us or stopped letting others watch): the
            // server stopped sending this table, so a reconnection must not ask for it again.
            this.tables.delete(message.table);
            entry.handlers.onError?.(new SocketError(message.code, message.message), 'sent_off');
            return;
          }
          entry.handlers.onError?.(new SocketError(message.code, message.message));
        }
        return;
      case 'update':
      case 'catch_up':
      case 'sync':
        this.receiveTable(message);
        // An accepted move is answered by its own update, which carries the act's id (docs/protocol.md).
        if (message.type === 'update' && message.id != null) this.settle(message, null);
        return;
      default:
        for (const handler of [...this.noticeHandlers]) handler(message);
    }
  }

  /** A table message (docs/protocol.md, "Table messages"): a full state (sync, catch_up) or an update's patches,
   * applied after what its events tell (wire.js). The handlers get the whole picture every time: view (public with
   * private on top, as wire.js expands them), legal, table_info (the turn timers as wall-clock times). */
  receiveTable(message) {
    const entry = this.tables.get(message.table);
    if (!entry) return;
    const events = message.events || [];
    // Events carry no version of their own: they are the versions up to the message's, one each.
    const first = message.version - events.length + 1;
    const numbered = events.map((event, index) => ({ ...event, version: first + index }));
    const seen = entry.version;
    if (message.type === 'sync' || message.type === 'catch_up') {
      if (message.seat_token) entry.token = message.seat_token;
      if (message.node) this.nodeHint = message.node;
      entry.state = nextTableState(null, message);
      entry.version = message.version;
      // A sync's events are the whole log so far (we join with `history`); a catch_up's, what we missed.
      const fresh = message.type === 'sync' ? numbered : numbered.filter((event) => seen === null || event.version > seen);
      this.deliverTable(entry, message, fresh);
      return;
    }
    if (!entry.state || seen === null) return; // patches need the full state first (the join brings it)
    if (message.version < seen) return; // old news: already applied
    if (events.length && first > seen + 1) {
      if (!entry.joining) this.join(entry); // a gap: ask again from the last version seen
      return;
    }
    entry.state = nextTableState(entry.state, message);
    entry.version = message.version;
    this.deliverTable(entry, message, numbered.filter((event) => event.version > seen));
  }

  deliverTable(entry, message, events) {
    entry.handlers.onMessage({
      type: message.type, table: message.table, version: entry.version, events, ...shownTable(entry.state),
    });
  }

  settle(message, error) {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (error) waiting.reject(error);
    else waiting.resolve(message);
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    clearTimeout(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.failPending('disconnected', 'The connection dropped before the server answered.');
    for (const entry of this.tables.values()) entry.joining = false;
    if (!this.wanted) return;
    if (event.code === 4401) {
      this.wanted = false;
      setStore({ connection: 'offline' });
      this.onUnauthorized();
      return;
    }
    if (event.code === 4403) {
      this.wanted = false;
      setStore({ connection: 'closed' });
      return;
    }
    if (event.code === 4409) {
      // Too many tabs: the server closed this, the oldest. Reconnecting by itself would close another tab in turn.
      this.wanted = false;
      setStore({ connection: 'replaced' });
      return;
    }
    // Offline, attempts fail at once (and the browser logs each): wait for 'online', trying now and then in case
    // the browser is wrong about it.
    const offline = navigator.onLine === false;
    const base = Math.min(MAX_BACKOFF_S, 0.5 * 2 ** this.attempt);
    const delay = offline ? OFFLINE_RETRY_S : this.attempt === 0 ? 0.3 : base * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    let left = Math.ceil(delay);
    setStore({ connection: 'reconnecting', retryIn: left, offline });
    this.countdown = setInterval(() => {
      left = Math.max(0, left - 1);
      setStore({ retryIn: left });
    }, 1000);
    this.retryTimer = setTimeout(() => this.open(), delay * 1000);
  }

  clearTimers() {
    clearTimeout(this.retryTimer);
    clearInterval(this.countdown);
    clearTimeout(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  schedulePing() {
    clearTimeout(this.pingTimer);
    this.pingTimer = setTimeout(() => {
      if (!this.ready) return;
      this.request({ type: 'ping' }).catch(() => {});
      // No answer: the connection is dead without having closed. Drop it and reconnect.
      this.pongTimer = setTimeout(() => this.ws && this.ws.readyState === WebSocket.OPEN && this.ws.close(4000), PONG_WITHIN_MS);
      this.schedulePing();
    }, PING_EVERY_MS);
  }

  failPending(code, message) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(new SocketError(code, message));
  }

  /** Send one request; resolves with its `ack` (or `pong`), rejects with the server's error. */
  request(message) {
    if (!this.ready || !this.ws) {
      return Promise.reject(new SocketError('offline', 'Not connected right now: reconnecting, try again in a moment.'));
    }
    const id = ++this.sequence;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  join(entry) {
    entry.joining = true;
    // `history`: when the server cannot catch us up (first join, reload, a gap too old), its sync brings every
    // event so far, so the game's log is whole (docs/protocol.md, "The game's log").
    const join = { type: 'join', table: entry.id, since: entry.version, history: true };
    if (entry.token) join.token = entry.token; // names the server playing it: any server relays us there at once
    this.request(join)
      .then((ack) => {
        entry.joining = false;
        entry.handlers.onJoined?.(ack);
      })
      .catch((error) => {
        entry.joining = false;
        if (error.code !== 'disconnected' && error.code !== 'offline') entry.handlers.onError?.(error, 'join');
      });
  }

  /** Receive a table's messages (joining now, and again after every reconnection). Returns the way to stop. */
  watch(tableId, handlers) {
    const entry = { id: tableId, version: null, joining: false, handlers, state: null, token: null };
    this.tables.set(tableId, entry);
    if (this.ready) this.join(entry);
    return () => {
      if (this.tables.get(tableId) !== entry) return;
      this.tables.delete(tableId);
      if (this.ready) this.request({ type: 'leave', table: tableId }).catch(() => {});
    };
  }

  /** Leave the game at this table for good (docs/protocol.md, `resign`). */
  resign(tableId) {
    return this.request({ type: 'resign', table: tableId });
  }

  act(tableId, action) {
    return this.request({ type: 'act', table: tableId, action });
  }

  /** Notices that are not a reply nor a table's: `hello` (a new socket), matchmaking, invitations, rooms. */
  onNotice(handler) {
    this.noticeHandlers.add(handler);
    return () => this.noticeHandlers.delete(handler);
  }
}

export const socket = new Connection();
