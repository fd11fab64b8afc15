// Row detail and readable cells (#28, docs/BROWSER.md "Reading a row"): one per table, started by table.js.
//
// - A truncated cell (its text wider than its column) gets its whole text as a `title` when the pointer is over it.
// - The table's rows are one Tab stop (a roving tabindex: the row last focused or opened, else the first row);
//   ArrowUp/ArrowDown/Home/End move between rows. A focused row shows its cells' whole values (app.css wraps them).
// - A click on a row (not on a link or a control, not while selecting text) or Enter on a focused row opens the row's
//   detail: a modal <dialog> with every column and the row's own detail fields (the server renders them, escaped,
//   in the row's `<template class="rs-more">`: TableRenderer+Detail.swift), the link to the item upstream (http(s)
//   only: the server writes no other), and a Copy button per value. Escape, Close or a click on the backdrop closes
//   it, and focus goes back to the row. On a narrow screen (app.css) it is a bottom sheet.
// - The table's skip link (just before its box) moves focus past the table.
// Everything shown is cloned from nodes the server rendered (already escaped) or set as text: no HTML is parsed here.
//
// Exports
//   attachDetail(table, root) -> {open(row), close()}
//     table  the table element (a table's page, a panel of a page, an embedded table)
//     root   the document, or an embedded table's shadow root: where the dialog goes
// Events dispatched on the table element (they bubble and are composed): rowstream:detail {table, key} when a
// row's detail opens.

/** @typedef {{label: string, nodes: Node[], copy: string}} DetailValue */

/** A data row (not a skeleton) of a table's bodies. */
const dataRow = 'tbody > tr[data-key]:not(.rs-skeleton)';

/** Elements a click on a row leaves alone: they do their own thing. */
const interactive = 'a, button, input, select, textarea, summary, label, [contenteditable]';

/**
 * @param {HTMLTableElement} table
 * @param {Document | ShadowRoot} root
 */
export function attachDetail(table, root) {
  /** @type {HTMLDialogElement | null} built on first use */
  let dialog = null;
  /** @type {HTMLElement | null} the row whose detail is open: focus goes back to it */
  let openRow = null;

  /** @param {EventTarget | null} target @returns {HTMLTableRowElement | null} the data row `target` is in */
  function rowOf(target) {
    const element = target instanceof Element ? target : null;
    const row = element ? element.closest('tr[data-key]') : null;
    return row && table.contains(row) && row.matches(dataRow) ? /** @type {HTMLTableRowElement} */ (row) : null;
  }

  /** @returns {HTMLTableRowElement[]} the data rows, in order */
  function rows() {
    return /** @type {HTMLTableRowElement[]} */ (Array.from(table.querySelectorAll(dataRow)));
  }

  /** @param {HTMLElement} row made the table's one Tab stop among its rows */
  function makeStop(row) {
    for (const other of Array.from(table.querySelectorAll('tr[data-key][tabindex]'))) {
      if (other !== row) other.removeAttribute('tabindex');
    }
    row.tabIndex = 0;
  }

  /** Keeps one row a Tab stop while rows come and go (batches, live changes, pruning, a restart). */
  function ensureStop() {
    if (table.querySelector(dataRow + '[tabindex="0"]')) return;
    const first = table.querySelector(dataRow);
    if (first) makeStop(/** @type {HTMLElement} */ (first));
  }

  /** @param {MouseEvent} event */
  function onClick(event) {
    const row = rowOf(event.target);
    if (!row || event.button !== 0) return;
    if (event.target instanceof Element && event.target.closest(interactive)) return;
    const selection = window.getSelection();
    if (selection && !selection.isCollapsed && selection.toString().trim() !== '') return;   // selecting text
    open(row);
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const row = rowOf(event.target);
    if (!row || event.target !== row || event.altKey || event.ctrlKey || event.metaKey) return;
    const all = rows();
    const at = all.indexOf(row);
    /** @type {Record<string, HTMLTableRowElement | undefined>} */
    const moves = { ArrowDown: all[at + 1], ArrowUp: all[at - 1], Home: all[0], End: all[all.length - 1] };
    if (event.key === 'Enter') {
      event.preventDefault();
      open(row);
    } else if (event.key in moves) {
      event.preventDefault();
      const next = moves[event.key];
      if (next) { makeStop(next); next.focus(); }
    }
  }

  /** @param {MouseEvent} event over a cell: a truncated cell's whole text becomes its title */
  function onHover(event) {
    const cell = event.target instanceof Element ? event.target.closest('td.rs-c') : null;
    if (!(cell instanceof HTMLElement) || !table.contains(cell)) return;
    const inner = cell.firstElementChild;
    const cut = cell.scrollWidth > cell.clientWidth || (inner instanceof HTMLElement && inner.scrollWidth > inner.clientWidth);
    if (cut) cell.title = (cell.textContent || '').trim();
    else if (cell.title) cell.removeAttribute('title');
  }

  // ---- The detail ------------------------------------------------------------------------

  /** @param {HTMLTableRowElement} row @returns {{title: string, values: DetailValue[], link: HTMLAnchorElement | null}} */
  function readRow(row) {
    const heads = table.tHead ? Array.from(table.tHead.querySelectorAll('th')) : [];
    const columnHeads = heads.filter((head) => head.classList.contains('rs-c'));
    const cells = /** @type {HTMLElement[]} */ (Array.from(row.querySelectorAll(':scope > td.rs-c')));
    /** @type {DetailValue[]} */
    const values = cells.map((cell, index) => ({
      label: cell.dataset.label || (columnHeads[index] ? (columnHeads[index].textContent || '').trim() : ''),
      nodes: Array.from(cell.childNodes, (node) => node.cloneNode(true)),
      copy: copyText(cell),
    }));
    const more = /** @type {HTMLTemplateElement | null} */ (row.querySelector(':scope > template.rs-more'));
    /** @type {HTMLAnchorElement | null} */
    let link = null;
    if (more) {
      for (const field of Array.from(more.content.querySelectorAll('.rs-more-field'))) {
        const element = /** @type {HTMLElement} */ (field);
        values.push({ label: element.dataset.label || '', nodes: Array.from(element.childNodes, (n) => n.cloneNode(true)),
          copy: copyText(element) });
      }
      const anchor = more.content.querySelector('.rs-more-link a');
      if (anchor instanceof HTMLAnchorElement && /^https?:\/\//i.test(anchor.getAttribute('href') || '')) {
        link = /** @type {HTMLAnchorElement} */ (anchor.cloneNode(true));
      }
    }
    const card = row.querySelector(':scope > td.rs-card-title');
    const title = ((card ? card.textContent : cells.length ? cells[0].textContent : '') || '').trim() || 'Row';
    return { title, values, link };
  }

  /** @param {HTMLElement} cell @returns {string} what its Copy button copies: a link's URL, else the text shown */
  function copyText(cell) {
    const anchor = cell.querySelector('a[href]');
    return anchor ? anchor.getAttribute('href') || '' : (cell.textContent || '').trim();
  }

  /** @returns {HTMLDialogElement} the table's dialog (built once) */
  function ensureDialog() {
    if (dialog) return dialog;
    const made = document.createElement('dialog');
    made.className = 'rs-detail';
    const head = element('div', 'rs-detail-head');
    const heading = element('h2', 'rs-detail-title');
    heading.id = 'rs-detail-title-' + (table.id || 'table');
    made.setAttribute('aria-labelledby', heading.id);
    const close = element('button', 'rs-button rs-detail-close', 'Close');
    /** @type {HTMLButtonElement} */ (close).type = 'button';
    close.addEventListener('click', () => made.close());
    head.append(heading, close);
    const status = element('p', 'rs-visually-hidden rs-detail-status');
    status.setAttribute('role', 'status');
    made.append(head, element('dl', 'rs-detail-fields'), element('p', 'rs-detail-link'), status);
    made.addEventListener('click', (event) => { if (event.target === made) made.close(); });   // the backdrop
    made.addEventListener('close', returnFocus);
    (root === document ? document.body : /** @type {ShadowRoot} */ (root)).append(made);
    dialog = made;
    return made;
  }

  /** @param {string} tag @param {string} className @param {string} [text] @returns {HTMLElement} */
  function element(tag, className, text) {
    const made = document.createElement(tag);
    made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  /** @param {HTMLTableRowElement} row whose detail opens */
  function open(row) {
    const view = ensureDialog();
    const { title, values, link } = readRow(row);
    const heading = /** @type {HTMLElement} */ (view.querySelector('.rs-detail-title'));
    heading.textContent = title;
    const list = /** @type {HTMLElement} */ (view.querySelector('.rs-detail-fields'));
    list.replaceChildren(...values.map(fieldView));
    const linkView = /** @type {HTMLElement} */ (view.querySelector('.rs-detail-link'));
    linkView.replaceChildren();
    if (link) linkView.append(link, copyButton(link.getAttribute('href') || '', link.textContent || 'link'));
    linkView.hidden = !link;
    makeStop(row);
    openRow = row;
    if (view.open) view.close();
    if (typeof view.showModal === 'function') view.showModal(); else view.setAttribute('open', '');
    table.dispatchEvent(new CustomEvent('rowstream:detail', { detail: { table: table.dataset.table || '',
      key: row.dataset.key || '' }, bubbles: true, composed: true }));
  }

  /** @param {DetailValue} value @returns {HTMLElement} one `<div><dt>LABEL</dt><dd>VALUE Copy</dd></div>` */
  function fieldView(value) {
    const item = element('div', 'rs-detail-field');
    const shown = element('span', 'rs-detail-value');
    shown.append(...value.nodes);
    const definition = element('dd', '');
    definition.append(shown, copyButton(value.copy, value.label));
    item.append(element('dt', '', value.label), definition);
    return item;
  }

  /** @param {string} text @param {string} label @returns {HTMLButtonElement} */
  function copyButton(text, label) {
    const button = /** @type {HTMLButtonElement} */ (element('button', 'rs-button rs-detail-copy', 'Copy'));
    button.type = 'button';
    button.setAttribute('aria-label', 'Copy ' + label);
    button.disabled = text === '';
    button.addEventListener('click', () => {
      copy(text, button).then((done) => {
        button.dataset.state = done ? 'copied' : 'failed';
        say(done ? 'Copied ' + label : 'Could not copy ' + label);
      });
    });
    return button;
  }

  /** @param {string} message */
  function say(message) {
    const status = dialog ? dialog.querySelector('.rs-detail-status') : null;
    if (status) status.textContent = message;
  }

  /** Copies `text`: the Clipboard API, else (no secure context, or refused) a selected textarea and `copy`.
   *  @param {string} text @param {HTMLElement} from the button: focus goes back to it @returns {Promise<boolean>} */
  async function copy(text, from) {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (error) {
        // refused (no permission, the document not focused): the fallback below
      }
    }
    const area = document.createElement('textarea');
    area.value = text;
    area.readOnly = true;
    area.className = 'rs-visually-hidden';
    (dialog || document.body).append(area);
    area.select();
    let done = false;
    try { done = document.execCommand('copy'); } catch (error) { done = false; }
    area.remove();
    from.focus();
    return done;
  }

  /** The dialog closed (Escape, Close, the backdrop): focus back on the row it was opened from, if still shown. */
  function returnFocus() {
    const row = openRow;
    openRow = null;
    if (row && row.isConnected) { makeStop(row); row.focus(); } else ensureStop();
  }

  /** The table's skip link ("Skip to end of table", just before its box) moves focus to its target itself:
   *  following a fragment only moves the sequential focus starting point, and not in every engine. */
  function watchSkipLink() {
    const box = table.parentElement;
    const link = box ? box.previousElementSibling : null;
    if (!(link instanceof HTMLAnchorElement) || !link.classList.contains('rs-skip')) return;
    link.addEventListener('click', (event) => {
      const target = root.getElementById((link.getAttribute('href') || '').slice(1));
      if (!target) return;
      event.preventDefault();
      target.focus();
    });
  }

  watchSkipLink();
  table.addEventListener('click', onClick);
  table.addEventListener('keydown', onKey);
  table.addEventListener('mouseover', onHover);
  new MutationObserver(ensureStop).observe(table, { childList: true, subtree: true });
  ensureStop();
  return { open, close: () => { if (dialog && dialog.open) dialog.close(); } };
}
