// Rowstream embed (embed.js): `<rowstream-table src="https://dash.example/tables/orders">`, a live table in a page
// of another origin, loaded by this one module (`<script type="module" src="https://dash.example/embed.js">`) and
// the modules it imports, all from the Rowstream server (docs/EMBED.md). The server must list the host page's
// origin in `allowedOrigins` (CORS).
//
// The element fetches the table's own page (`src`), takes its header and table into a shadow root (the page's
// skeleton rows are its first paint) with the server's CSS as <link>s (no inline style or script: a host page with a
// strict CSP works), and mounts it (mount.js) with its own scroll box: the same controller, stream, demand, resume,
// live changes and Retry as the server's page. Like that page, it lets its stream go while the host tab is hidden
// (visibility.js: after `hiddenGrace`, 3 s; at once on `pagehide`) and resumes when shown, so hidden host tabs hold
// no connection to the Rowstream server. Nothing of it is on `window`.
//
// Attributes
//   src          the table's page on the Rowstream server (absolute, or relative to the host page)
//   credentials  present: the fetches and the stream send cookies (the server must allow credentials)
//   Changing either starts the element over (its stream closed, the new table's page fetched).
// Properties
//   reload()     starts the table over (Reload)
//   snapshot()   {phase, shown, pending, session} (table.js), null before the table is mounted
// Events (bubbling, composed; on the element): the table's `rowstream:*` events (table.js: rows {count, total,
//   table}, complete {total, table}, error {message, retryable, connection, table}, ...); and `rowstream:error`
//   {message, retryable: true, connection: true, table: ''} when the table's page cannot be fetched (Retry shown).
// Parts (::part): frame, header, title, meta, count, reload, controls, scroll, table, placeholder, error, retry.
// Custom properties: the page's `--rs-*` theme (app.css), and `--rs-embed-height` (the element's height).
import { defaults } from './config.js';
import { mountTable } from './mount.js';
import { stickHeader } from './stickyhead.js';
import { watchVisibility } from './visibility.js';

/** @typedef {import('./mount.js').Mounted} Mounted */

/** The server's stylesheets, beside this module. */
const styleSheets = ['app.css', 'tables.css', 'embed.css'].map((name) => new URL(name, import.meta.url).href);

/** Elements of the table's page that get a part name, by selector. */
const parts = [['header.rs-bar', 'header'], ['.rs-title', 'title'], ['.rs-meta', 'meta'], ['#rs-count', 'count'],
  ['#rs-reload', 'reload'], ['#rs-controls', 'controls'], ['#rs-table', 'table']];

/** Attributes holding a URL, resolved against the server so they work from the host page: a form's too (mode
 *  users: the header's Sign out POSTs to the server's `/logout`, not the host's; the server takes that POST from an
 *  origin on its allowedOrigins, docs/EMBED.md "Signed in"). */
const urlAttributes = [['a[href]', 'href'], ['img[src]', 'src'], ['[data-stream]', 'data-stream'],
  ['form[action]', 'action']];

/** @template {keyof HTMLElementTagNameMap} K
 *  @param {K} tag @param {Record<string, string>} attributes @returns {HTMLElementTagNameMap[K]} */
function make(tag, attributes) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** Why the table's page at `url` could not be fetched, when the browser says only "Failed to fetch" (a CORS
 *  refusal and an unreachable server look the same to a script). The server's static files answer every origin
 *  (docs/EMBED.md, "Server"): if this module's stylesheet can be fetched, the server is up and refused this page's
 *  origin, or, with the `credentials` attribute, maybe only its credentials (the page fetched without them tells).
 *  @param {string} url @param {RequestCredentials} credentials @returns {Promise<string>} */
async function whyUnreachable(url, credentials) {
  const server = new URL(url).origin;
  /** @param {string} target @param {RequestCredentials} sending @returns {Promise<boolean>} */
  const reachable = (target, sending) => fetch(target, { credentials: sending }).then(() => true, () => false);
  if (!await reachable(styleSheets[2], 'omit')) return 'the Rowstream server at ' + server + ' could not be reached';
  if (credentials === 'include' && await reachable(url, 'omit')) {
    return 'the Rowstream server at ' + server + ' does not allow credentials: start it with allowCredentials, ' +
      'or leave out the credentials attribute';
  }
  return 'this page\'s origin, ' + window.location.origin + ', is not on the allowedOrigins of the Rowstream ' +
    'server at ' + server + ': its operator must add it (docs/EMBED.md)';
}

/** Must be used on the main thread (a custom element). */
export class RowstreamTable extends HTMLElement {
  constructor() {
    super();
    /** @type {Mounted | null} */ this.mounted = null;
    /** stops keeping the table's header at the top of the element's box (stickyhead.js)
     *  @type {() => void} */
    this.unstick = () => undefined;
    /** stops letting the stream go while the host tab is hidden (visibility.js)
     *  @type {() => void} */
    this.unwatch = () => undefined;
    /** bumped on every connect and disconnect: a fetch that finishes for an older one mounts nothing */
    this.generation = 0;
    this.root = this.attachShadow({ mode: 'open' });
    this.frame = make('div', { class: 'rs-embed', part: 'frame' });
  }

  connectedCallback() {
    this.generation += 1;
    const links = styleSheets.map((href) => make('link', { rel: 'stylesheet', href }));
    this.root.replaceChildren(...links, this.frame);
    this.load();
  }

  static get observedAttributes() { return ['src', 'credentials']; }

  /** Before the first connect (an upgrade) the attributes are read by it; after, a change starts over.
   *  @param {string} _name @param {string | null} old @param {string | null} value */
  attributeChangedCallback(_name, old, value) {
    if (old === value || !this.isConnected || this.generation === 0) return;
    this.disconnectedCallback();
    this.connectedCallback();
  }

  disconnectedCallback() {
    this.generation += 1;
    this.unwatch();
    this.unwatch = () => undefined;
    if (this.mounted) { this.mounted.stream.stop(); this.mounted.table.detach(); }
    this.mounted = null;
    this.unstick();
    this.unstick = () => undefined;
  }

  /** @returns {string} the table's page, or '' without a src */
  pageURL() {
    const src = this.getAttribute('src');
    return src ? new URL(src, document.baseURI).href : '';
  }

  /** Fetches the table's page and mounts its table; a failure shows Retry. */
  async load() {
    const generation = this.generation;
    this.showPlaceholder();
    const url = this.pageURL();
    const credentials = this.hasAttribute('credentials') ? 'include' : 'same-origin';
    /** @type {Document} */ let page;
    try {
      if (!url) throw new Error('no src attribute');
      const response = await fetch(url, { credentials, headers: { Accept: 'text/html' } });
      if (!response.ok) throw new Error('GET ' + url + ' -> ' + response.status);
      page = new DOMParser().parseFromString(await response.text(), 'text/html');
    } catch (error) {
      // A refused origin and a network failure both reject with a TypeError; whyUnreachable tells them apart.
      const message = error instanceof TypeError && url ? await whyUnreachable(url, credentials)
        : error instanceof Error ? error.message : String(error);
      if (generation === this.generation) this.failed(message);
      return;
    }
    if (generation !== this.generation) return;
    if (!page.getElementById('rs-table')) return this.failed('no table at ' + url);
    this.mount(page, url, credentials);
  }

  /** @param {Document} page @param {string} url @param {RequestCredentials} credentials */
  mount(page, url, credentials) {
    page.querySelectorAll('noscript, script').forEach((element) => element.remove());
    for (const [selector, name] of urlAttributes) {
      page.querySelectorAll(selector).forEach((element) => {
        element.setAttribute(name, new URL(element.getAttribute(name) || '', url).href);
      });
    }
    for (const [selector, name] of parts) page.querySelector(selector)?.setAttribute('part', name);
    const header = page.querySelector('header.rs-bar');
    const scroller = make('div', { class: 'rs-embed-scroll', part: 'scroll' });
    scroller.append(...Array.from(page.querySelector('main')?.childNodes || []));
    this.frame.replaceChildren(...(header ? [header] : []), scroller);
    const config = Object.assign({}, defaults, { credentials });
    this.mounted = mountTable({ config, health: undefined, root: this.root, scroller, base: url });
    this.unstick = stickHeader(this.mounted.table.table, scroller);
    const { stream } = this.mounted;
    this.unwatch = watchVisibility({ release: stream.release, resume: stream.resume }, config.hiddenGrace).stop;
  }

  /** Bones while the table's page is fetched. */
  showPlaceholder() {
    const placeholder = make('div', { class: 'rs-embed-placeholder', part: 'placeholder', 'aria-busy': 'true' });
    for (let i = 0; i < 6; i += 1) placeholder.append(make('div', { class: 'rs-embed-bone' }));
    this.frame.replaceChildren(placeholder);
  }

  /** The table's page could not be had: the message and Retry.
   *  @param {string} message */
  failed(message) {
    const box = make('div', { class: 'rs-embed-error', part: 'error', role: 'alert' });
    const text = make('span', { class: 'rs-error-text' });
    text.textContent = 'The table could not be loaded: ' + message + '.';
    const retry = make('button', { type: 'button', class: 'rs-button rs-embed-retry', part: 'retry' });
    retry.textContent = 'Retry';
    retry.addEventListener('click', () => this.load());
    box.append(text, retry);
    this.frame.replaceChildren(box);
    this.dispatchEvent(new CustomEvent('rowstream:error', { bubbles: true, composed: true,
      detail: { table: '', message, retryable: true, connection: true } }));
  }

  reload() { if (this.mounted) this.mounted.table.reload(); }

  /** @returns {ReturnType<import('./table.js').Table['snapshot']> | null} */
  snapshot() { return this.mounted ? this.mounted.table.snapshot() : null; }
}

if (!customElements.get('rowstream-table')) customElements.define('rowstream-table', RowstreamTable);
