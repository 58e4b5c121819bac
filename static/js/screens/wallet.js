// The wallet: balance and every coin movement, newest first (GET /api/wallet/history, paged).
import { get } from '../api.js';
import { html, useState } from '../lib.js';
import { coins, ErrorNote, Loading, number, Page, signed, useLoad, when } from '../ui.js';

const REASONS = {
  welcome: 'Welcome coins',
  stake: 'Stake',
  pot: 'Pot share',
  refund: 'Stake returned',
  grant: 'Granted by an operator',
};

function reasonText(reason) {
  return REASONS[reason] || reason.charAt(0).toUpperCase() + reason.slice(1);
}

export function WalletScreen() {
  const first = useLoad(() => get('/api/wallet/history?limit=25'));
  const balance = useLoad(() => get('/api/wallet'));
  const [more, setMore] = useState({ items: [], cursor: undefined, error: null, busy: false });
  const items = [...(first.data?.items || []), ...more.items];
  const cursor = more.cursor === undefined ? first.data?.next_cursor : more.cursor;
  const loadMore = async () => {
    setMore((m) => ({ ...m, busy: true, error: null }));
    try {
      const page = await get(`/api/wallet/history?limit=25&cursor=${encodeURIComponent(cursor)}`);
      setMore((m) => ({ items: [...m.items, ...page.items], cursor: page.next_cursor, error: null, busy: false }));
    } catch (error) {
      setMore((m) => ({ ...m, error, busy: false }));
    }
  };
  return html`<${Page} title="Wallet">
    <section class="card stats">
      <div class="stat"><span class="stat-label">Balance</span>
        <span class="stat-value">${balance.data ? coins(balance.data.balance) : '…'}</span></div>
    </section>
    <section class="card" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      ${first.loading && !first.data && html`<${Loading} />`}
      <${ErrorNote} error=${first.error || balance.error} />
      ${first.data && !items.length && html`<p class="muted">No coin movements yet.</p>`}
      ${items.length > 0 && html`<table class="ledger">
        <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col" class="num">Coins</th>
          <th scope="col" class="num">Balance</th></tr></thead>
        <tbody>${items.map((item) => html`<tr key=${item.id}>
          <td>${when(item.created_at)}</td>
          <td>${reasonText(item.reason)}</td>
          <td class=${`num ${item.delta >= 0 ? 'gain' : 'loss'}`}>${signed(item.delta)}</td>
          <td class="num">${number(item.balance_after)}</td>
        </tr>`)}</tbody>
      </table>`}
      ${cursor && html`<button type="button" class="btn" onClick=${loadMore} disabled=${more.busy}>
        ${more.busy ? 'Loading…' : 'Show older entries'}</button>`}
      <${ErrorNote} error=${more.error} />
    </section>
  <//>`;
}
