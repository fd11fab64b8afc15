// Rowstream sort by header: a column header whose sort the config maps to a control's options (the options carry
// `data-sort-column` and `data-sort`: TableControl, docs/CONFIG.md "Sort by header") becomes a button that cycles
// ascending, descending, off. A click only chooses that option of the control's `<select>` and fires its `change`:
// the same whitelisted, restart-with-skeletons path as choosing it in the control (controls.js, table.js). Off is
// the control's empty option (the request's own default), or its first. Each sortable header carries `aria-sort`
// (ascending | descending | none), kept in step with the control however it was changed. Imported by controls.js.
//
// Exports
//   attachHeaderSort(form, table)   makes `table`'s mapped headers sort through `form`'s controls
/** @typedef {'ascending' | 'descending' | 'none'} SortState
 *  @typedef {{select: HTMLSelectElement, ascending: string | null, descending: string | null}} HeaderSort */

/** @param {HTMLSelectElement} select @returns {string} the value that turns the header sort off */
function offValue(select) {
  const empty = Array.from(select.options).find((option) => option.value === '');
  return empty ? '' : (select.options[0] ? select.options[0].value : '');
}

/** @param {HeaderSort} sort @returns {SortState} */
function stateOf(sort) {
  const value = sort.select.value;
  if (sort.ascending !== null && value === sort.ascending) return 'ascending';
  if (sort.descending !== null && value === sort.descending) return 'descending';
  return 'none';
}

/** The option value a click chooses: none -> ascending -> descending -> off.
 *  @param {SortState} current @param {HeaderSort} sort @returns {string} */
function nextSort(current, sort) {
  if (current === 'none') return sort.ascending !== null ? sort.ascending : (sort.descending || '');
  if (current === 'ascending' && sort.descending !== null) return sort.descending;
  return offValue(sort.select);
}

/** @param {HTMLFormElement} form @param {HTMLTableElement} table */
export function attachHeaderSort(form, table) {
  const head = table.tHead;
  if (!head || head.rows.length === 0 || table.classList.contains('rs-grid')) return;
  const cells = head.rows[0].cells;
  /** @type {Map<number, HeaderSort>} */
  const sorts = new Map();
  for (const option of Array.from(form.querySelectorAll('option[data-sort-column]'))) {
    const element = /** @type {HTMLOptionElement} */ (option);
    const column = Number(element.dataset.sortColumn);
    const select = element.closest('select');
    if (!select || !Number.isInteger(column) || column < 0 || column >= cells.length) continue;
    const sort = sorts.get(column) || { select, ascending: null, descending: null };
    if (sort.select !== select) continue;                       // one control per header
    if (element.dataset.sort === 'ascending') sort.ascending = element.value;
    if (element.dataset.sort === 'descending') sort.descending = element.value;
    sorts.set(column, sort);
  }

  function update() {
    for (const [column, sort] of sorts) cells[column].setAttribute('aria-sort', stateOf(sort));
  }

  for (const [column, sort] of sorts) {
    const cell = cells[column];
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'rs-sort';
    while (cell.firstChild) button.appendChild(cell.firstChild);
    cell.appendChild(button);
    button.addEventListener('click', () => {
      sort.select.value = nextSort(stateOf(sort), sort);
      sort.select.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }
  form.addEventListener('change', update);
  update();
}
