// A friends room: seats, invitations by username, bots, and the start (host); leaving (guests). Live over the socket.
import { del, get, post } from '../api.js';
import { gameModule } from '../games/index.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { go } from '../router.js';
import { socket } from '../socket.js';
import { ActionButton, ErrorNote, Loading, Page, UsernameForm, useLoad } from '../ui.js';

const EVENT_NOTES = {
  joined: 'Someone joined the room.',
  declined: 'An invitation was declined.',
  left: 'Someone left the room.',
  bot_added: 'A bot took a seat.',
  seat_emptied: 'A seat was emptied.',
};

function seatLabel(seat) {
  if (!seat) return null;
  if (seat.bot) return { name: seat.name, kind: `bot · ${seat.bot}` };
  return { name: seat.name, kind: 'player' };
}

function InviteForm({ room }) {
  const send = async (username) => {
    await post(`/api/rooms/${room.id}/invitations`, { username });
    return `Invitation sent to ${username}.`;
  };
  return html`<${UsernameForm} id="invite-name" label="Invite by username" button="Invite"
    emptyMessage="Enter the username of the person to invite." send=${send} />`;
}

function AddBot({ room, onRoom }) {
  const [level, setLevel] = useState('medium');
  return html`<div class="row add-bot">
    <label for="bot-level">Bot level</label>
    <select id="bot-level" value=${level} onChange=${(e) => setLevel(e.currentTarget.value)}>
      <option value="easy">Easy</option><option value="medium">Medium</option><option value="hard">Hard</option>
    </select>
    <${ActionButton} class="btn" onAction=${async () => onRoom(await post(`/api/rooms/${room.id}/bots`, { level }))}>
      Add a bot<//>
  </div>`;
}

export function RoomScreen({ params, me }) {
  const loaded = useLoad(() => get(`/api/rooms/${params.id}`), [params.id]);
  const [room, setRoom] = useState(null);
  const [note, setNote] = useState('');
  const current = room || loaded.data;

  const latest = useRef(null);
  latest.current = current;
  useEffect(() => socket.onNotice((message) => {
    if (message.type !== 'room' || message.data.room.id !== params.id) return;
    const { event, room: fresh } = message.data;
    const names = (r) => (r ? r.seats.filter(Boolean).map((s) => s.name) : []);
    const before = names(latest.current);
    const came = names(fresh).filter((n) => !before.includes(n));
    const went = before.filter((n) => !names(fresh).includes(n));
    setRoom(fresh);
    if (event === 'joined' && came.length) {
      setNote(`${came.join(', ')} joined the room.`);
      return;
    }
    if ((event === 'left' || event === 'seat_emptied') && went.length && fresh.seats.some((s) => s && s.user_id === me.id)) {
      setNote(`${went.join(', ')} left the room.`);
      return;
    }
    if (event === 'closed') {
      setNote(message.data.reason === 'idle'
        ? 'This room was closed: nothing changed in it for a long time.'
        : 'The host closed this room.');
    }
    else if (event === 'seat_emptied' && !fresh.seats.some((s) => s && s.user_id === me.id) && fresh.host_id !== me.id) {
      setNote('The host removed you from this room.');
    } else if (EVENT_NOTES[event]) setNote(EVENT_NOTES[event]);
  }), [params.id]);

  if (!current) {
    return html`<${Page} title="Room">
      ${loaded.loading && html`<${Loading} what="Opening the room" />`}
      <${ErrorNote} error=${loaded.error} />
      <p><a href="#/lobby">Back to the lobby</a></p>
    <//>`;
  }

  const module = gameModule(current.game);
  const host = current.host_id === me.id;
  const taken = current.seats.filter(Boolean).length;
  const people = current.seats.filter((seat) => seat && seat.user_id !== undefined).length;
  const free = current.seats.length - taken;
  const open = current.status === 'open';
  const amSeated = current.seats.some((s) => s && s.user_id === me.id);
  const hostName = current.seats.find((s) => s && s.user_id === current.host_id)?.name || 'the host';
  const optionText = (module?.options || []).map((o) => o.describe(current.options[o.key])).join(' · ');
  const pending = current.invitations.filter((i) => i.status === 'pending');

  return html`<${Page} title=${`${current.title} room`}
      subtitle=${`Hosted by ${host ? 'you' : hostName} · ${current.seats.length} seats · ${current.turn_seconds} s per turn${optionText ? ` · ${optionText}` : ''}`}>
    ${note && html`<p class="banner banner-info" role="status">${note}</p>`}
    ${current.status === 'started' && current.table_id && html`<p class="banner banner-info">
      The game has started. <a class="btn btn-primary btn-small" href=${`#/table/${current.table_id}`}>Go to the table</a></p>`}
    ${current.status === 'closed' && html`<p class="banner banner-warning">This room is closed. <a href="#/lobby">Back to the lobby</a></p>`}

    <section class="card" aria-labelledby="seats-title">
      <h2 id="seats-title">Seats <span class="count">${taken}/${current.seats.length}</span></h2>
      <ol class="seats">
        ${current.seats.map((seat, index) => {
          const label = seatLabel(seat);
          return html`<li key=${index} class=${`seat-row${seat ? '' : ' empty'}`}>
            <span class="seat-no">Seat ${index + 1}</span>
            ${label
              ? html`<span class="seat-who"><strong>${label.name}</strong>
                  <span class="tag">${seat.user_id === current.host_id ? 'host' : label.kind}</span>
                  ${seat.user_id === me.id && html`<span class="tag tag-you">you</span>`}</span>`
              : html`<span class="seat-who muted">empty</span>`}
            ${host && open && seat && seat.user_id !== me.id && html`<${ActionButton} class="btn btn-small"
              label=${`Remove ${seat.name} from seat ${index + 1}`}
              onAction=${async () => setRoom(await del(`/api/rooms/${current.id}/seats/${index}`))}>Remove<//>`}
          </li>`;
        })}
      </ol>
      ${host && open && free > 0 && html`<${AddBot} room=${current} onRoom=${setRoom} />`}
    </section>

    ${host && open && html`<section class="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invitations</h2>
      ${free > 0 ? html`<${InviteForm} room=${current} />` : html`<p class="muted">Every seat is taken.</p>`}
      ${current.invitations.length > 0 && html`<ul class="list">
        ${current.invitations.map((inv) => html`<li class="list-row" key=${inv.id}>
          <span><strong>${inv.username}</strong> <span class=${`tag tag-${inv.status}`}>${inv.status}</span></span>
          ${inv.status === 'pending' && html`<${ActionButton} class="btn btn-small"
            label=${`Cancel the invitation to ${inv.username}`}
            onAction=${async () => setRoom(await del(`/api/rooms/${current.id}/invitations/${inv.id}`))}>Cancel<//>`}
        </li>`)}
      </ul>`}
    </section>`}

    ${!host && open && pending.length > 0 && html`<p class="muted">Waiting for ${pending.map((i) => i.username).join(', ')}.</p>`}

    ${open && html`<section class="card actions-card">
      ${host
        ? html`${taken >= current.min_seats
            ? html`<${ActionButton} class="btn btn-primary btn-big" onAction=${async () => {
                const started = await post(`/api/rooms/${current.id}/start`);
                setRoom(started);
                if (started.table_id) go(`/table/${started.table_id}`);
              }}>Start the game (${taken} players)<//>
              ${people < 2 && html`<p class="muted one-person">Only you and bots: this game pays no coins and no XP,
                like practice. Invite a friend to play for coins.</p>`}`
            : html`<p>${current.title} needs at least ${current.min_seats} players: invite someone or add a bot.</p>`}
            <${ActionButton} class="btn btn-danger" onAction=${async () => {
              await del(`/api/rooms/${current.id}`);
              go('/lobby');
            }}>Close the room<//>`
        : html`<p>The host starts the game when the seats are taken.</p>
            ${amSeated && html`<${ActionButton} class="btn" onAction=${async () => {
              await post(`/api/rooms/${current.id}/leave`);
              go('/lobby');
            }}>Leave the room<//>`}`}
    </section>`}
  <//>`;
}
