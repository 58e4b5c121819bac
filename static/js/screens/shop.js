// The shop: the gold booster and the VIP pass, bought with coins; what is running and until when
// (GET /api/shop, POST /api/shop/purchases; platform.md, "Boosters").
import { get, post } from '../api.js';
import { html, useState } from '../lib.js';
import { refreshMe } from '../session.js';
import { toast } from '../state.js';
import { coins, ErrorNote, Loading, Page, useLoad, useNow, when } from '../ui.js';

function duration(seconds) {
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  return `${Math.round(seconds / 60)} minutes`;
}

function left(endsAt, now) {
  const seconds = Math.max(0, new Date(endsAt).getTime() / 1000 - now);
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days) return `${days} day${days === 1 ? '' : 's'} ${hours} h left`;
  if (hours) return `${hours} h ${minutes} min left`;
  return `${minutes} min left`;
}

const times = (m) => `×${Number.isInteger(m) ? m : m.toFixed(1)}`;

const NOTES = {
  booster: 'Starts now. While one runs another cannot be bought.',
  vip: 'Bought again while it runs, it is extended from its end.',
};

function requestId() {
  return `buy-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The server's refusal, with its timestamp in words when it carries one. */
function refusal(failure) {
  if (failure && failure.code === 'booster_active' && failure.details && failure.details.ends_at) {
    return `Your gold booster is already running, until ${when(failure.details.ends_at)}: buy another when it ends.`;
  }
  return failure;
}

function Item({ item, active, balance, onBought, onRefused }) {
  const running = active.find((a) => a.item === item.item);
  const [confirming, setConfirming] = useState(null); // the request id of the purchase being confirmed
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const short = item.price - balance;
  const blocked = running && item.item === 'booster';
  const buy = async () => {
    setBusy(true);
    setError(null);
    try {
      const bought = await post('/api/shop/purchases', { item: item.item, request_id: confirming });
      setConfirming(null);
      onBought(bought);
    } catch (failure) {
      setError(refusal(failure));
      if (failure.status === 409) {
        setConfirming(null);
        onRefused(); // what the page knew was out of date (bought in another tab): read it again
      }
    } finally {
      setBusy(false);
    }
  };
  return html`<article class="card shop-item" aria-labelledby=${`item-${item.item}`}>
    <h2 id=${`item-${item.item}`}><span class=${`shop-badge shop-badge-${item.item}`} aria-hidden="true">${times(item.multiplier)}</span>
      ${item.title}</h2>
    <p>Coin prizes ${times(item.multiplier)} for <strong>${duration(item.duration_seconds)}</strong>. ${NOTES[item.item] || ''}</p>
    <p class="muted">Online and friends prizes only: never a staked pot, never XP. Booster and VIP together multiply.</p>
    <p class="shop-price">${coins(item.price)}</p>
    ${running && html`<p class="ok-note">Active until ${when(running.ends_at)}.</p>`}
    ${confirming
      ? html`<div class="confirm" role="group" aria-label=${`Confirm buying the ${item.title}`}>
          <p>Buy the <strong>${item.title}</strong> for <strong>${coins(item.price)}</strong>? You have ${coins(balance)}.</p>
          <div class="row">
            <button type="button" class="btn btn-primary" onClick=${buy} disabled=${busy}>${busy ? 'Buying…' : 'Confirm purchase'}</button>
            <button type="button" class="btn btn-ghost" onClick=${() => { setConfirming(null); setError(null); }} disabled=${busy}>Cancel</button>
          </div>
        </div>`
      : html`<div class="row">
          <button type="button" class="btn btn-primary" disabled=${blocked || short > 0}
            onClick=${() => { setError(null); setConfirming(requestId()); }}>
            ${running && item.item === 'vip' ? `Extend for ${coins(item.price)}` : `Buy for ${coins(item.price)}`}</button>
        </div>
        ${blocked && html`<p class="field-note">Running: you can buy another when it ends.</p>`}
        ${!blocked && short > 0 && html`<p class="field-note">You need ${coins(short)} more.</p>`}`}
    <${ErrorNote} error=${error} />
  </article>`;
}

export function ShopScreen() {
  const shop = useLoad(() => get('/api/shop'));
  const now = useNow(30000);
  const data = shop.data;
  const bought = (purchase) => {
    shop.setData({ ...data, balance: purchase.balance, active: purchase.active });
    toast(`${purchase.title} active until ${when(purchase.ends_at)}.`, 'success');
    refreshMe();
  };
  return html`<${Page} title="Shop" subtitle="Boosters multiply the coins you win at online and friends tables.">
    ${shop.loading && !data && html`<${Loading} what="Opening the shop" />`}
    <${ErrorNote} error=${shop.error} />
    ${data && html`
      <section class="card stats" aria-label="Your balance">
        <div class="stat"><span class="stat-label">Balance</span><span class="stat-value">${coins(data.balance)}</span></div>
      </section>
      <section class="card" aria-labelledby="active-title">
        <h2 id="active-title">Running now</h2>
        ${data.active.length
          ? html`<ul class="list active-list">${data.active.map((a) => html`<li class="list-row" key=${a.item}>
              <span><strong>${a.title}</strong> coins ${times(a.multiplier)}</span>
              <span>until ${when(a.ends_at)} <span class="muted">(${left(a.ends_at, now)})</span></span></li>`)}</ul>
            ${data.active.length > 1 && html`<p class="muted">Together: coin prizes ${times(data.active.reduce((m, a) => m * a.multiplier, 1))}.</p>`}`
          : html`<p class="muted">Nothing is running: coin prizes are paid at the normal rate.</p>`}
      </section>
      <div class="shop-items">${data.items.map((item) => html`<${Item} key=${item.item} item=${item} active=${data.active}
        balance=${data.balance} onBought=${bought} onRefused=${() => {
          shop.reload();
          refreshMe();
        }} />`)}</div>
      <p class="muted"><a href="#/wallet">See every coin movement in your wallet</a>.</p>`}
  <//>`;
}
