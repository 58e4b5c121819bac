// My past games, newest first (GET /api/games/history, paged), each linking to its results and its replay.
import { get } from '../api.js';
import { html, useState } from '../lib.js';
import { ErrorNote, Loading, MODE_NAMES, ordinal, Page, signed, useLoad, when } from '../ui.js';

export function HistoryScreen() {
  const first = useLoad(() => get('/api/games/history?limit=20'));
  const [more, setMore] = useState({ games: [], cursor: undefined, error: null, busy: false });
  const games = [...(first.data?.games || []), ...more.games];
  const cursor = more.cursor === undefined ? first.data?.next_cursor : more.cursor;
  const loadMore = async () => {
    setMore((m) => ({ ...m, busy: true, error: null }));
    try {
      const page = await get(`/api/games/history?limit=20&before=${encodeURIComponent(cursor)}`);
      setMore((m) => ({ games: [...m.games, ...page.games], cursor: page.next_cursor, error: null, busy: false }));
    } catch (error) {
      setMore((m) => ({ ...m, error, busy: false }));
    }
  };
  return html`<${Page} title="My past games">
    ${first.loading && !first.data && html`<${Loading} />`}
    <${ErrorNote} error=${first.error} />
    ${first.data && !games.length && html`<p class="card muted">No finished games yet.
      <a href="#/lobby">Play one from the lobby</a>.</p>`}
    ${games.length > 0 && html`<ul class="history">
      ${games.map((g) => html`<li key=${g.id} class="card history-item">
        <div class="history-main">
          <strong>${g.title}</strong> <span class="muted">${MODE_NAMES[g.mode] || g.mode} · ${when(g.finished_at)}</span>
          <p class="muted history-players">${g.players.join(', ')}</p>
        </div>
        <div class="history-result">
          <span class="place-big">${ordinal(g.placing)}<small> of ${g.seats}</small></span>
          <span>${signed(g.net ?? g.coins)} coins · ${signed(g.xp)} XP${g.left ? ' · left' : ''}</span>
          <span class="row">
            <a class="btn btn-small" href=${`#/results/${g.id}`} aria-label=${`Results of ${g.title}, ${when(g.finished_at)}`}>Results</a>
            <a class="btn btn-small" href=${`#/replay/${g.id}`} aria-label=${`Replay ${g.title}, ${when(g.finished_at)}`}>Replay</a>
          </span>
        </div>
      </li>`)}
    </ul>`}
    ${cursor && html`<button type="button" class="btn" onClick=${loadMore} disabled=${more.busy}>
      ${more.busy ? 'Loading…' : 'Show more'}</button>`}
    <${ErrorNote} error=${more.error} />
  <//>`;
}
