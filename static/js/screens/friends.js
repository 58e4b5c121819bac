// Friends: add by username, requests both ways, online status, invite to a room, remove and block. The lists follow
// `friend` notices at once (a request, an answer), and opening this screen marks the requests to me seen (the badge).
import { del, get, post, put } from '../api.js';
import { GAMES } from '../games/index.js';
import { html, useEffect, useState } from '../lib.js';
import { go } from '../router.js';
import { socket } from '../socket.js';
import { setStore, toast } from '../state.js';
import { ActionButton, ErrorNote, Loading, Page, ProfileLink, UsernameForm, useLoad } from '../ui.js';

const PRESENCE_POLL_MS = 10000;

function AddFriend({ onDone }) {
  const send = async (username) => {
    const answer = await post('/api/friends/requests', { username });
    onDone();
    return answer.status === 'friends' ? `You and ${username} are now friends.` : `Request sent to ${username}.`;
  };
  return html`<${UsernameForm} id="friend-name" label="Add a friend by username" button="Send request"
    emptyMessage="Enter a username." send=${send} class="card form inline-form" />`;
}

function Presence({ online }) {
  return online
    ? html`<span class="presence on"><span class="dot" aria-hidden="true"></span>online</span>`
    : html`<span class="presence off"><span class="dot" aria-hidden="true"></span>offline</span>`;
}

function FriendRow({ person, hostedRoom, reload }) {
  const [confirm, setConfirm] = useState(null); // 'remove' | 'block'
  const [choosing, setChoosing] = useState(false); // which game to invite them to
  const name = person.username;
  const invite = async () => {
    if (hostedRoom) {
      await post(`/api/rooms/${hostedRoom.id}/invitations`, { username: name });
      toast(`${name} is invited to your ${hostedRoom.title} room.`, 'success');
      go(`/room/${hostedRoom.id}`);
    } else {
      setChoosing(true);
    }
  };
  return html`<li class="list-row friend">
    <span class="friend-name"><strong><${ProfileLink} username=${name} /></strong> <${Presence} online=${person.online} /></span>
    ${choosing
      ? html`<span class="row" role="group" aria-label=${`Choose a game to play with ${name}`}>
          <span>Play</span>
          ${Object.values(GAMES).map((game) => html`<a class="btn btn-primary btn-small" key=${game.name}
            href=${`#/new/${game.name}/friends?invite=${encodeURIComponent(name)}`}
            aria-label=${`Invite ${name} to ${game.title}`}>${game.title}</a>`)}
          <button type="button" class="btn btn-small" onClick=${() => setChoosing(false)}>Cancel</button>
        </span>`
      : confirm
      ? html`<span class="row confirm" role="group" aria-label=${`Confirm ${confirm}`}>
          <span>${confirm === 'block' ? `Block ${name}?` : `Remove ${name}?`}</span>
          <${ActionButton} class="btn btn-danger btn-small" onAction=${async () => {
            if (confirm === 'block') await put(`/api/friends/blocks/${encodeURIComponent(name)}`);
            else await del(`/api/friends/${encodeURIComponent(name)}`);
            reload();
          }}>Yes, ${confirm}<//>
          <button type="button" class="btn btn-small" onClick=${() => setConfirm(null)}>No</button>
        </span>`
      : html`<span class="row">
          ${person.table && html`<a class="btn btn-small" href=${`#/watch/${person.table.id}`}
            aria-label=${`Watch ${name}'s ${GAMES[person.table.game]?.title || person.table.game} game`}>Watch</a>`}
          <${ActionButton} class="btn btn-primary btn-small" onAction=${invite}
            label=${hostedRoom ? `Invite ${name} to your room` : `Invite ${name} to a new room`}>
            ${hostedRoom ? 'Invite to room' : 'Invite to play'}<//>
          <button type="button" class="btn btn-small" onClick=${() => setConfirm('remove')}
            aria-label=${`Remove ${name}`}>Remove</button>
          <button type="button" class="btn btn-small" onClick=${() => setConfirm('block')}
            aria-label=${`Block ${name}`}>Block</button>
        </span>`}
  </li>`;
}

/** "Let others watch my online games" (PUT /api/me/settings): friends may always watch. */
function WatchSetting({ me }) {
  const [allowed, setAllowed] = useState(me.allow_watching !== false);
  const [error, setError] = useState(null);
  const change = async (event) => {
    const wanted = event.target.checked;
    setAllowed(wanted);
    setError(null);
    try {
      const updated = await put('/api/me/settings', { allow_watching: wanted });
      setStore({ me: updated });
    } catch (failure) {
      setAllowed(!wanted);
      setError(failure);
    }
  };
  return html`<section class="card" aria-labelledby="watching-title">
    <h2 id="watching-title">Watching</h2>
    <label class="check"><input type="checkbox" checked=${allowed} onChange=${change} />
      Let others watch my online games</label>
    <p class="muted">Anyone with the link may then watch your online and staked games live, and replay them once
      finished (they never see your hand). Your friends may always watch your games.</p>
    <${ErrorNote} error=${error} />
  </section>`;
}

function Section({ title, id, empty, children, count }) {
  return html`<section class="card" aria-labelledby=${id}>
    <h2 id=${id}>${title}${count ? html` <span class="count">${count}</span>` : ''}</h2>
    ${count ? html`<ul class="list">${children}</ul>` : html`<p class="muted">${empty}</p>`}
  </section>`;
}

/** The lists; the requests to me they show are seen from now on (the Friends badge goes). */
async function loadAndSee() {
  const lists = await get('/api/friends');
  if (lists.incoming.length > 0) await post('/api/friends/seen');
  setStore({ friendsUnseen: 0 });
  return lists;
}

export function FriendsScreen({ me }) {
  const lists = useLoad(loadAndSee);
  const rooms = useLoad(() => get('/api/rooms'));
  useEffect(() => {
    const timer = setInterval(() => lists.reload(), PRESENCE_POLL_MS);
    // A request or an answer from someone: show it now, not at the next poll.
    const stop = socket.onNotice((message) => {
      if (message.type === 'friend') lists.reload();
    });
    return () => {
      clearInterval(timer);
      stop();
    };
  }, [lists.reload]);
  const data = lists.data;
  const reload = () => lists.reload();
  const hostedRoom = (rooms.data?.rooms || []).find(
    (room) => room.host_id === me.id && room.status === 'open' && room.seats.some((seat) => seat === null),
  );
  const name = (p) => encodeURIComponent(p.username);
  return html`<${Page} title="Friends">
    <${AddFriend} onDone=${reload} />
    ${lists.loading && !data && html`<${Loading} what="Loading your friends" />`}
    <${ErrorNote} error=${lists.error} />
    ${data && html`
      ${data.incoming.length > 0 && html`<${Section} title="Requests to you" id="incoming" count=${data.incoming.length}>
        ${data.incoming.map((p) => html`<li class="list-row" key=${p.username}>
          <strong>${p.username}</strong>
          <span class="row">
            <${ActionButton} class="btn btn-primary btn-small" label=${`Accept ${p.username}`}
              onAction=${async () => { await post(`/api/friends/requests/${name(p)}/accept`); reload(); }}>Accept<//>
            <${ActionButton} class="btn btn-small" label=${`Decline ${p.username}`}
              onAction=${async () => { await post(`/api/friends/requests/${name(p)}/decline`); reload(); }}>Decline<//>
          </span>
        </li>`)}
      <//>`}
      <${Section} title="Your friends" id="friends" count=${data.friends.length}
        empty="No friends yet: add someone by their username above.">
        ${data.friends.map((p) => html`<${FriendRow} key=${p.username} person=${p} hostedRoom=${hostedRoom}
          reload=${reload} />`)}
      <//>
      <${WatchSetting} me=${me} />
      ${data.outgoing.length > 0 && html`<${Section} title="Requests you sent" id="outgoing" count=${data.outgoing.length}>
        ${data.outgoing.map((p) => html`<li class="list-row" key=${p.username}>
          <span><strong>${p.username}</strong> <span class="muted">waiting for an answer</span></span>
          <${ActionButton} class="btn btn-small" label=${`Cancel the request to ${p.username}`}
            onAction=${async () => { await del(`/api/friends/requests/${name(p)}`); reload(); }}>Cancel<//>
        </li>`)}
      <//>`}
      ${data.blocked.length > 0 && html`<${Section} title="Blocked" id="blocked" count=${data.blocked.length}>
        ${data.blocked.map((p) => html`<li class="list-row" key=${p.username}>
          <strong>${p.username}</strong>
          <${ActionButton} class="btn btn-small" label=${`Unblock ${p.username}`}
            onAction=${async () => { await del(`/api/friends/blocks/${name(p)}`); reload(); }}>Unblock<//>
        </li>`)}
      <//>`}
    `}
  <//>`;
}
