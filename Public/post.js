// Rowstream demand POSTs (post.js): a table's `next` and `reload` POSTs, retried when the network fails them. A
// POST that fails (no answer: a network error, or none within `postTimeout` ms, aborted with an AbortController;
// or a 5xx / 429 answer) is sent again after a wait with exponential backoff and full jitter (a random wait up to
// `postBackoff` ms × 2^attempt, at most `postBackoffCap`), at most `postAttempts` times in all. Any other answer
// is final: a 2xx is done (`204`: the session ended, table.js), any other (a 404: no such session; a 400: the
// choice refused, its message the answer's text) failed.
// Imported by table.js.
//
// Exports
//   sendPost(url, options) -> Attempts
//     options.config     the tunables of app.js (postTimeout, postAttempts, postBackoff, postBackoffCap,
//                        credentials)
//     options.isCurrent  () => boolean: false once the demand is void (its session is gone, or it was answered
//                        on the stream); then nothing more is sent and neither callback runs
//     options.onDone     (response) => void   a 2xx answer
//     options.onFail     (error: PostError) => void   every attempt failed, or a final non-2xx answer
//   Attempts.now()       sends at once if it is waiting to retry (the browser came back online, the tab became
//                        visible); false when it is not waiting
//   Attempts.cancel()    sends nothing more, aborts the POST in flight; neither callback runs
/** @typedef {{postTimeout: number, postAttempts: number, postBackoff: number, postBackoffCap: number,
 *             credentials: RequestCredentials}} PostConfig
 *  @typedef {{message: string, status: number, retryable: boolean}} PostError
 *  @typedef {{config: PostConfig, isCurrent: () => boolean, onDone: (response: Response) => void,
 *             onFail: (error: PostError) => void}} PostOptions
 *  @typedef {{now: () => boolean, cancel: () => void}} Attempts */

/** @param {number} status @returns {boolean} an answer worth asking again for */
function isTransient(status) { return status >= 500 || status === 429; }

/** Full jitter: a random wait in [0, min(cap, base × 2^attempt)).
 *  @param {PostConfig} config @param {number} attempt 0 for the first retry @returns {number} ms */
function backoff(config, attempt) {
  return Math.random() * Math.min(config.postBackoffCap, config.postBackoff * 2 ** attempt);
}

/** The server's own words for a refused POST (its `text/plain` body: HTTPError, docs/PROTOCOL.md), or the status.
 *  @param {Response} response @param {string} url @returns {Promise<string>} */
async function refusal(response, url) {
  const fallback = 'POST ' + url + ' -> ' + response.status;
  if (isTransient(response.status)) return fallback;
  try {
    const text = (await response.text()).trim().slice(0, 300);
    return text || fallback;
  } catch {
    return fallback;
  }
}

/** @param {string} url @param {PostOptions} options @returns {Attempts} */
export function sendPost(url, options) {
  const { config } = options;
  let attempt = 0;
  let cancelled = false;
  /** @type {number | undefined} */ let waiting;
  /** @type {AbortController | null} */ let inFlight = null;

  /** @returns {boolean} */
  function live() { return !cancelled && options.isCurrent(); }

  /** One POST, aborted when it is not answered within postTimeout. @returns {Promise<Response>} */
  async function post() {
    const controller = new AbortController();
    inFlight = controller;
    const timer = window.setTimeout(() => controller.abort(), config.postTimeout);
    try {
      return await fetch(url, { method: 'POST', credentials: config.credentials, signal: controller.signal });
    } finally {
      clearTimeout(timer);
      inFlight = null;
    }
  }

  /** @param {string} message @param {number} status */
  function failed(message, status) {
    if (!live()) return;
    const retryable = status === 0 || isTransient(status);
    if (retryable && attempt + 1 < config.postAttempts) {
      waiting = window.setTimeout(retry, backoff(config, attempt));
      attempt += 1;
      return;
    }
    options.onFail({ message, status, retryable });
  }

  /** The backoff is over: send again, unless the demand is void. */
  function retry() {
    waiting = undefined;
    if (live()) run();
  }

  /** One attempt, and what its answer means. @returns {Promise<void>} */
  async function run() {
    /** @type {Response} */ let response;
    try {
      response = await post();
    } catch {
      return failed('POST ' + url + ': no answer', 0);
    }
    if (!response.ok) return failed(await refusal(response, url), response.status);
    if (live()) options.onDone(response);
  }

  /** @returns {boolean} */
  function now() {
    if (waiting === undefined || !live()) return false;
    clearTimeout(waiting);
    retry();
    return true;
  }

  /** Sends nothing more; aborts the POST in flight. */
  function cancel() {
    cancelled = true;
    clearTimeout(waiting);
    waiting = undefined;
    if (inFlight) inFlight.abort();
  }

  run();
  return { now, cancel };
}
