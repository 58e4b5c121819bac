// Table settings before a game: vs bots (a table at once) or friends (a room to invite people into).
import { get, post } from '../api.js';
import { gameModule } from '../games/index.js';
import { HelpButton } from '../help/index.js';
import { html, useState } from '../lib.js';
import { go } from '../router.js';
import { toast } from '../state.js';
import { ErrorNote, Loading, Page, useLoad } from '../ui.js';

const TURN_CHOICES = [
  [15, '15 seconds'],
  [30, '30 seconds'],
  [60, '1 minute'],
  [120, '2 minutes'],
];

const BOT_LEVELS = [
  ['easy', 'Easy', 'plays any legal move'],
  ['medium', 'Medium', 'plays sensibly'],
  ['hard', 'Hard', 'plans ahead'],
];

function Choice({ name, legend, options, value, onChange }) {
  return html`<fieldset class="field choice">
    <legend>${legend}</legend>
    <div class="segmented">
      ${options.map(([v, label, note]) => html`<label key=${v} class=${value === v ? 'checked' : ''}>
        <input type="radio" name=${name} value=${v} checked=${value === v} onChange=${() => onChange(v)} />
        <span>${label}${note && html`<small>${note}</small>`}</span>
      </label>`)}
    </div>
  </fieldset>`;
}

function SetupForm({ game, module, mode, invite: initialInvite }) {
  const friends = mode === 'friends';
  const span = [];
  for (let n = game.min_seats; n <= game.max_seats; n += 1) span.push([n, `${n}`, module.seatNote ? module.seatNote(n) : null]);
  const [seats, setSeats] = useState(friends ? game.min_seats : Math.min(game.max_seats, game.min_seats + 1));
  const [level, setLevel] = useState('medium');
  const [turn, setTurn] = useState(30);
  const [options, setOptions] = useState({ ...game.options });
  const [invite, setInvite] = useState(initialInvite || '');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (!friends) {
        const table = await post('/api/tables', {
          game: game.name, seats, bot_level: level, options, turn_seconds: turn,
        });
        go(`/table/${table.id}`);
        return;
      }
      const room = await post('/api/rooms', { game: game.name, seats, options, turn_seconds: turn });
      if (invite.trim()) {
        try {
          await post(`/api/rooms/${room.id}/invitations`, { username: invite.trim() });
          toast(`Invitation sent to ${invite.trim()}.`, 'success');
        } catch (failure) {
          toast(`The room is ready, but the invitation failed: ${failure.message}`, 'warning', 8);
        }
      }
      go(`/room/${room.id}`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return html`<form class="card form" onSubmit=${submit}>
    <${Choice} name="seats" legend="Players (you included)" options=${span} value=${seats} onChange=${setSeats} />
    ${!friends && html`<${Choice} name="level" legend="Bot level" options=${BOT_LEVELS} value=${level}
      onChange=${setLevel} />`}
    <div class="field">
      <label for="turn">Time per turn</label>
      <select id="turn" value=${turn} onChange=${(e) => setTurn(Number(e.currentTarget.value))}>
        ${TURN_CHOICES.map(([v, label]) => html`<option value=${v}>${label}</option>`)}
      </select>
      <p class="field-note">When it runs out, a bot makes the move for that player.</p>
    </div>
    ${(module.options || []).map((option) => html`<div class="field" key=${option.key}>
      <label for=${`opt-${option.key}`}>${option.label}</label>
      <select id=${`opt-${option.key}`} value=${String(options[option.key])}
        onChange=${(e) => setOptions({ ...options, [option.key]: option.parse(e.currentTarget.value) })}>
        ${option.choices.map(([v, label]) => html`<option value=${String(v)}>${label}</option>`)}
      </select>
      ${option.help && html`<p class="field-note">${option.help}</p>`}
    </div>`)}
    ${friends && html`<div class="field">
      <label for="invite">Invite a player (optional)</label>
      <input id="invite" value=${invite} autocomplete="off" placeholder="username" maxlength="40"
        onInput=${(e) => setInvite(e.currentTarget.value)} />
      <p class="field-note">You can invite more people and add bots in the room.</p>
    </div>`}
    <${ErrorNote} error=${error} />
    <div class="row">
      <button type="submit" class="btn btn-primary" disabled=${busy}>
        ${busy ? 'Please wait…' : friends ? 'Create room' : 'Start game'}</button>
      <a class="btn btn-ghost" href="#/lobby">Back</a>
    </div>
    ${!friends && html`<p class="field-note">Practice games pay no coins and no XP: play as often as you like.</p>`}
  </form>`;
}

export function SetupScreen({ params }) {
  const module = gameModule(params.game);
  const games = useLoad(() => get('/api/games'));
  const game = games.data?.games.find((g) => g.name === params.game);
  const title = module ? `${module.title}: ${params.mode === 'bots' ? 'practice vs bots' : 'play with friends'}` : 'New game';
  return html`<${Page} title=${title}
      actions=${module && html`<${HelpButton} game=${params.game} entry=${game} class="btn btn-small" />`}>
    ${!module && html`<p>There is no game called “${params.game}” here. <a href="#/lobby">Back to the lobby</a>.</p>`}
    ${module && games.loading && !games.data && html`<${Loading} />`}
    <${ErrorNote} error=${games.error} />
    ${module && game && html`<${SetupForm} game=${game} module=${module} mode=${params.mode}
      invite=${params.invite} />`}
  <//>`;
}
