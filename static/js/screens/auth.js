// Sign up and log in, with the rules checked before sending and the server's refusals shown under the form.
// A guest signing up (mode "upgrade") keeps its account: the same games, now under the name it chooses.
import { post } from '../api.js';
import { html, useState } from '../lib.js';
import { go } from '../router.js';
import { signedIn } from '../session.js';
import { ErrorNote, Page } from '../ui.js';

const USERNAME = /^[A-Za-z0-9_-]{3,20}$/; // platform.md: 3-20 letters, digits, _ and -

function check(mode, username, password) {
  const problems = {};
  if (mode === 'signup' || mode === 'upgrade') {
    if (!USERNAME.test(username)) {
      problems.username = 'Use 3 to 20 characters: letters, digits, _ or -.';
    }
    if (password.length < 8) problems.password = 'Use at least 8 characters.';
    else if (password.length > 256) problems.password = 'Use at most 256 characters.';
  } else {
    if (!username) problems.username = 'Enter your username.';
    if (!password) problems.password = 'Enter your password.';
  }
  return problems;
}

const SUBMIT_TO = { signup: '/api/auth/register', login: '/api/auth/login', upgrade: '/api/auth/upgrade' };

export function AuthScreen({ mode }) {
  const upgrade = mode === 'upgrade';
  const signup = mode === 'signup' || upgrade;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    const found = check(mode, username.trim(), password);
    setProblems(found);
    setError(null);
    if (Object.keys(found).length) {
      document.getElementById(found.username ? 'auth-username' : 'auth-password')?.focus();
      return;
    }
    setBusy(true);
    try {
      const me = await post(SUBMIT_TO[mode], {
        username: username.trim(),
        password,
      });
      signedIn(me);
      if (upgrade) go('/games'); // the guest's games are theirs now: show them
    } catch (failure) {
      if (failure.code === 'username_taken') setProblems({ username: failure.message });
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return html`<${Page} title=${signup ? 'Create your account' : 'Log in'}
      subtitle=${upgrade ? 'Your guest games stay yours, and you get your starting coins.'
        : 'Pika, Stakes, Piraten Kapern and The Piker: play with friends, bots or anyone.'}>
    <form class="card form auth-form" onSubmit=${submit} novalidate>
      <div class="field">
        <label for="auth-username">Username</label>
        <input id="auth-username" name="username" autocomplete="username" value=${username} maxlength="64"
          aria-invalid=${problems.username ? 'true' : 'false'} aria-describedby="auth-username-note"
          onInput=${(e) => setUsername(e.currentTarget.value)} />
        <p class=${`field-note${problems.username ? ' field-error' : ''}`} id="auth-username-note">
          ${problems.username || (signup ? '3 to 20 characters: letters, digits, _ or -.' : '')}</p>
      </div>
      <div class="field">
        <label for="auth-password">Password</label>
        <input id="auth-password" name="password" type="password" value=${password}
          autocomplete=${signup ? 'new-password' : 'current-password'}
          aria-invalid=${problems.password ? 'true' : 'false'} aria-describedby="auth-password-note"
          onInput=${(e) => setPassword(e.currentTarget.value)} />
        <p class=${`field-note${problems.password ? ' field-error' : ''}`} id="auth-password-note">
          ${problems.password || (signup ? 'At least 8 characters.' : '')}</p>
      </div>
      <${ErrorNote} error=${error} />
      <button type="submit" class="btn btn-primary btn-wide" disabled=${busy}>
        ${busy ? 'Please wait…' : signup ? 'Create account' : 'Log in'}</button>
      ${!upgrade && html`<p class="switch">
        ${signup
          ? html`Already have an account? <a href="#/login">Log in</a>`
          : html`New here? <a href="#/signup">Create an account</a> and get your starting coins.`}
        ${' '}<a href="#/">See the games</a>
      </p>`}
    </form>
  <//>`;
}
