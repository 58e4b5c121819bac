// Hash routes (#/lobby, #/table/<id>, ...): no server routes needed, reloads land on the same screen.
import { useEffect, useState } from './lib.js';

const ROUTES = [
  ['login', /^\/login$/, []],
  ['signup', /^\/signup$/, []],
  ['lobby', /^\/(lobby)?$/, []],
  ['setup', /^\/new\/([a-z]+)\/(bots|friends)$/, ['game', 'mode']],
  ['queue', /^\/play\/([a-z]+)\/(online|staked)$/, ['game', 'mode']],
  ['friends', /^\/friends$/, []],
  ['room', /^\/room\/([\w-]+)$/, ['id']],
  ['table', /^\/table\/([\w-]+)$/, ['id']],
  ['watch', /^\/watch\/([\w-]+)$/, ['id']],
  ['replay', /^\/replay\/([\w-]+)$/, ['id']],
  ['results', /^\/results\/([\w-]+)$/, ['id']],
  ['wallet', /^\/wallet$/, []],
  ['games', /^\/games$/, []],
  ['league', /^\/league$/, []],
  ['shop', /^\/shop$/, []],
  ['profile', /^\/u\/([A-Za-z0-9_-]{1,40})$/, ['username']],
];

export function parseRoute(hash = location.hash) {
  const raw = hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  const params = Object.fromEntries(new URLSearchParams(query));
  for (const [name, pattern, keys] of ROUTES) {
    const match = path.match(pattern);
    if (match) {
      keys.forEach((key, index) => {
        params[key] = decodeURIComponent(match[index + 1]);
      });
      return { name, params, path };
    }
  }
  return { name: 'missing', params, path };
}

export function go(path) {
  const target = `#${path}`;
  if (location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = target;
}

export function useRoute() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const update = () => setRoute(parseRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
