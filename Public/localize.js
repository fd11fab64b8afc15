// Rowstream viewer formats (issue 28, "when"): shows a table's date-times in the viewer's time zone (or the table's
// configured `timeZone`, its `data-time-zone`) with the zone named ("2026-12-06 17:04 GMT+9"), and, where the table
// says so (`data-locale`: `viewer` or a BCP 47 tag), its numbers in that locale. The server's HTML keeps UTC ISO
// 8601 (`<time datetime="...Z">`, which stays as it is; the UTC text goes into the element's title) and its own
// number text: the no-script page and exports are untouched. Applied to every row before it is inserted (view.js's
// parseRows: batches, live changes, refills), so nothing already shown changes width. Imported by view.js.
//
// Exports
//   createLocalizer(table) -> (root: ParentNode) => void   localizes every date-time (and number) under root
//   zoneOf(table) -> string | undefined   the configured zone when the browser knows it; undefined: the viewer's

/** @param {HTMLElement} table @returns {string | undefined} */
export function zoneOf(table) {
  const zone = table.dataset.timeZone;
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;                                         // a zone this browser does not know: the viewer's
  }
}

/** @param {HTMLElement} table @returns {string | null} the locale numbers follow; null: as rendered */
function localeOf(table) {
  const wanted = table.dataset.locale;
  if (!wanted) return null;
  if (wanted === 'viewer') return navigator.language || 'en';
  try {
    return Intl.NumberFormat.supportedLocalesOf([wanted]).length > 0 ? wanted : null;
  } catch {
    return null;
  }
}

/** A rendered number: "-1,234,567.50" (grouped, optional decimals). */
const renderedNumber = /^-?\d{1,3}(,\d{3})*(\.\d+)?$/;

/** @param {HTMLElement} table @returns {(root: ParentNode) => void} */
export function createLocalizer(table) {
  const dates = new Intl.DateTimeFormat('en-US', {
    timeZone: zoneOf(table), year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    hourCycle: 'h23', timeZoneName: 'short',
  });
  const locale = localeOf(table);

  /** @param {string} iso @returns {string | null} "YYYY-MM-DD HH:MM ZONE", null: not a date-time */
  function dateText(iso) {
    if (!iso.includes('T')) return null;                      // a date alone has no time zone
    const when = new Date(iso);
    if (Number.isNaN(when.getTime())) return null;
    /** @type {Record<string, string>} */ const part = {};
    for (const { type, value } of dates.formatToParts(when)) part[type] = value;
    return part.year + '-' + part.month + '-' + part.day + ' ' + part.hour + ':' + part.minute + ' ' + part.timeZoneName;
  }

  /** @param {Element} cell */
  function localizeNumber(cell) {
    const text = cell.textContent || '';
    if (!locale || cell.children.length > 0 || !renderedNumber.test(text)) return;
    const digits = text.replace(/[-,.]/g, '');
    if (digits.length > 15) return;                           // beyond a double's exact digits: keep the text
    const decimals = (text.split('.')[1] || '').length;
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    cell.textContent = format.format(Number(text.replace(/,/g, '')));
  }

  return (root) => {
    for (const time of root.querySelectorAll('time[datetime]')) {
      const iso = time.getAttribute('datetime') || '';
      const text = dateText(iso);
      if (text === null) continue;
      if (!time.hasAttribute('title')) time.setAttribute('title', iso.slice(0, 16).replace('T', ' ') + ' UTC');
      time.textContent = text;
    }
    if (locale) root.querySelectorAll('td.rs-number').forEach(localizeNumber);
  };
}
