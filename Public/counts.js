// Rowstream counts (issue 28, "how much"): what the header and section headers say about the number of rows, so
// that nobody reads the rows loaded so far as the size of the list. Pure functions; imported by view.js and
// sections.js.
//
// Exports
//   countText(shown, total, complete, format) -> string   the header's count
//     complete: "150 rows"; a total the upstream reported (docs/PROTOCOL.md `total`) and not exceeded:
//     "150 of 2,500"; otherwise "150 so far"
//   sectionCountText(n, complete, format) -> string        a section header's count: "(50 loaded)" while the list
//     is still loading (more of the section may follow), "(50 rows)" once it is complete

/**
 * @param {number} shown the rows the viewer has (batches and live changes)
 * @param {number | null} total the list's size as the upstream reported it; null: not reported
 * @param {boolean} complete the whole list is loaded
 * @param {(n: number) => string} format the page's number format
 * @returns {string}
 */
export function countText(shown, total, complete, format) {
  if (complete) return format(shown) + (shown === 1 ? ' row' : ' rows');
  if (total !== null && total >= shown) return format(shown) + ' of ' + format(total);
  return format(shown) + ' so far';
}

/**
 * @param {number} n the section's rows shown
 * @param {boolean} complete the whole list is loaded
 * @param {(n: number) => string} format
 * @returns {string}
 */
export function sectionCountText(n, complete, format) {
  return '(' + format(n) + (complete ? (n === 1 ? ' row)' : ' rows)') : ' loaded)');
}
