// HTTP: JSON in, JSON out. Every refusal becomes an ApiError with the server's stable `code` and readable `message`
// (docs/api.md, "Errors").

const SESSION_ENDED = new Set(['not_authenticated', 'invalid_session', 'session_revoked', 'session_expired']);

export class ApiError extends Error {
  constructor(status, code, message, details = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

let onSessionEnded = () => {};

/** Called once by main.js: what to do when the server says the session is gone (back to the log-in screen). */
export function whenSessionEnds(callback) {
  onSessionEnded = callback;
}

export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const failure = new ApiError(
      response.status,
      error.code || 'http_error',
      error.message || `The server answered ${response.status}.`,
      error.details || null,
    );
    if (response.status === 401 && SESSION_ENDED.has(failure.code)) onSessionEnded(failure);
    throw failure;
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);
export const put = (path, body) => api('PUT', path, body);
export const del = (path) => api('DELETE', path);

/** The message for a person; `validation_error` details name the field that is wrong. */
export function errorText(error) {
  if (!error) return '';
  if (error.code === 'validation_error' && Array.isArray(error.details) && error.details.length) {
    return error.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');
  }
  return error.message || String(error);
}
