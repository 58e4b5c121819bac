// "Play again" as a rematch (docs/protocol.md, "Rematch"): the same table again, with who agreed and a countdown;
// when it starts, everyone who agreed goes to the new table. Shown on the results screen and in the game-over box.
import { html, useEffect, useState } from './lib.js';
import { go } from './router.js';
import { socket } from './socket.js';
import { ActionButton, useNow } from './ui.js';

export function RematchBox({ tableId, username }) {
  const [data, setData] = useState(null);
  const [skew, setSkew] = useState(0); // server clock minus ours
  const now = useNow(250, data?.event === 'waiting');

  const take = (next, mine) => {
    if (!next || next.table !== tableId) return;
    setSkew(next.now - Date.now() / 1000);
    setData(next);
    if (next.event === 'started' && next.table_id && (mine || next.agreed.includes(username))) go(`/table/${next.table_id}`);
  };

  useEffect(() => {
    const off = socket.onNotice((message) => {
      if (message.type === 'rematch') take(message.data, false);
    });
    socket.request({ type: 'rematch', table: tableId, agree: null }).then((reply) => take(reply.rematch, false), () => {});
    return off;
  }, [tableId, username]);

  const answer = async (agree) => {
    const reply = await socket.request({ type: 'rematch', table: tableId, agree });
    take(reply.rematch, agree);
  };
  const event = data?.event || 'none';
  const agreed = data?.agreed || [];
  const iAgreed = agreed.includes(username);
  const iDeclined = (data?.declined || []).includes(username);
  const left = data?.ends_at ? Math.max(0, Math.ceil(data.ends_at - (now + skew))) : null;
  return html`<div class="rematch" aria-live="polite">
    ${(event === 'none' || event === 'waiting') && !iAgreed && !iDeclined && html`
      <${ActionButton} class="btn btn-primary rematch-agree" onAction=${() => answer(true)}>Play again (rematch)<//>`}
    ${event === 'waiting' && !iAgreed && !iDeclined && html`
      <${ActionButton} class="btn btn-ghost rematch-decline" onAction=${() => answer(false)}>No rematch<//>`}
    ${event === 'waiting' && html`<p class="muted rematch-status">
      ${agreed.length ? `Agreed: ${agreed.join(', ')}.` : ''}
      ${data.waiting_for.length ? ` Waiting for ${data.waiting_for.join(', ')}` : ''}${left !== null ? ` · starts in ${left} s` : ''}
      ${data.declined.length ? ` · declined: ${data.declined.join(', ')}` : ''}</p>`}
    ${event === 'started' && html`<p class="rematch-status">The rematch started.
      ${iAgreed ? html` <a href=${`#/table/${data.table_id}`}>Go to the table</a>` : ''}</p>`}
    ${event === 'cancelled' && html`<p class="muted rematch-status">No rematch${data.reason === 'not_enough_players'
      ? ': too few players agreed' : data.reason === 'nobody_agreed' ? ': nobody agreed' : ''}.</p>`}
  </div>`;
}
