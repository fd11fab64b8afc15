// Rowstream export (export.js): a table's "Download all rows" links (`<div class="rs-export" id="rs-export">`, one
// `<a data-rs-export="csv|ndjson" download>` per format, docs/PROTOCOL.md "Export"). Without script they are plain
// downloads of the table as configured. With it, a click fetches the file itself, with the controls' current choice,
// shows the rows exported as they arrive, says how the export ended (complete, stopped at the row limit, stopped by
// an upstream error: the file's last line), then hands the file to the browser as a download. Imported by app.js.
//
// Exports
//   attachExport(options)     options.suffix: the table's element-id suffix ('' or '--NAME');
//                             options.query(): the controls' choice as URL parameters (`p.sort=city`), '' for none
//
// State kept on the group for tests and embedders:
//   data-state  idle | running | done | stopped | failed
//   data-rows   rows exported so far (the export's own last line not counted)

import { withQuery } from './urls.js';

/** The start of the line that ends an incomplete file (both formats carry it in their message). */
const STOP_MARK = 'Rowstream export stopped';

/** @typedef {{suffix: string, query: () => string}} ExportOptions */

/** @param {ExportOptions} options */
export function attachExport(options) {
  const group = document.getElementById('rs-export' + options.suffix);
  const status = document.getElementById('rs-export-status' + options.suffix);
  if (!group || !status) return;
  const box = group, line = status;
  let running = false;

  box.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-rs-export]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    if (!running) void run(link);
  });

  /** @param {string} state @param {number} rows @param {string} text */
  function show(state, rows, text) {
    box.dataset.state = state;
    box.dataset.rows = String(rows);
    line.textContent = text;
  }

  /** @param {HTMLAnchorElement} link */
  async function run(link) {
    running = true;
    const format = link.dataset.rsExport === 'ndjson' ? 'ndjson' : 'csv';
    const url = withQuery(link.getAttribute('href') || '', options.query());
    show('running', 0, 'Exporting… 0 rows');
    try {
      const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok || !response.body) {
        show('failed', 0, 'Export failed: HTTP ' + response.status);
        return;
      }
      const file = await readFile(response.body, format, (rows) => show('running', rows, 'Exporting… ' + rows + ' rows'));
      const stop = stopReason(file.tail, format);
      const rows = stop === null ? file.records : file.records - 1;
      if (stop === null) show('done', rows, 'Exported ' + rows + ' rows.');
      else show('stopped', rows, stop);
      save(file.parts, response.headers.get('Content-Type') || '', fileName(response, link));
    } catch {
      show('failed', Number(box.dataset.rows || 0), 'Export failed: the connection broke.');
    } finally {
      running = false;
    }
  }
}

/**
 * Reads the body to its end, counting rows as they arrive. A CSV record ends at a line break outside quotes (its
 * header is not a row); an NDJSON record at each line break.
 * @param {ReadableStream<Uint8Array>} body @param {'csv' | 'ndjson'} format @param {(rows: number) => void} progress
 * @returns {Promise<{parts: Uint8Array[], records: number, tail: string}>}
 */
async function readFile(body, format, progress) {
  const reader = body.getReader();
  /** @type {Uint8Array[]} */ const parts = [];
  let records = 0, quoted = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    for (const byte of value) {
      if (format === 'csv' && byte === 0x22) quoted = !quoted;
      else if (byte === 0x0a && !quoted) records += 1;
    }
    progress(format === 'csv' ? Math.max(0, records - 1) : records);
  }
  return { parts, records: format === 'csv' ? Math.max(0, records - 1) : records, tail: lastRecord(parts) };
}

/** The file's last record as text (from its last 4 KB or so).
 *  @param {Uint8Array[]} parts @returns {string} */
function lastRecord(parts) {
  /** @type {Uint8Array[]} */ const last = [];
  let length = 0;
  for (let index = parts.length - 1; index >= 0 && length < 4096; index -= 1) {
    last.unshift(parts[index]);
    length += parts[index].length;
  }
  const text = new TextDecoder().decode(concat(last, length)).replace(/\r?\n$/, '');
  return text.slice(text.lastIndexOf('\n') + 1);
}

/** @param {Uint8Array[]} parts @param {number} length @returns {Uint8Array} the parts in one array */
function concat(parts, length) {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) { joined.set(part, offset); offset += part.length; }
  return joined;
}

/** Why the file stopped early (its last line), or null when it is complete.
 *  @param {string} tail @param {'csv' | 'ndjson'} format @returns {string | null} */
function stopReason(tail, format) {
  if (format === 'csv') {
    const field = tail.startsWith('"') ? tail.slice(1, -1).replaceAll('""', '"') : tail;
    return field.startsWith('# ' + STOP_MARK) ? field.slice(2) : null;
  }
  try {
    const last = JSON.parse(tail);
    const message = last && typeof last.error === 'string' ? last.error : '';
    return message.startsWith(STOP_MARK) && typeof last.rows === 'number' ? message : null;
  } catch {
    return null;
  }
}

/** The download's name: the server's `filename="..."`, else the link's file.
 *  @param {Response} response @param {HTMLAnchorElement} link @returns {string} */
function fileName(response, link) {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') || '');
  return match ? match[1] : (link.pathname.split('/').pop() || 'export');
}

/** Hands the file to the browser as a download.
 *  @param {Uint8Array[]} parts @param {string} type @param {string} name */
function save(parts, type, name) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
