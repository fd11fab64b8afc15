"""The bounded DOM on a searchable table (issue 28 part 4; Public/prune.js): the demo table has its controls and search
by default, and is pruned like any other. A pruned batch comes back under the search its rows were shown with (its
refill carries `p.q`, the server's rows route reads it); a refill whose answer lands after the search changed is never
inserted (prune.js's generation, checked when the answer lands)."""
import urllib.error
import urllib.parse
import urllib.request

from conftest import PageProbe
from engines import engine_fixture
from lanes import scroll_until
from support import TIMEOUT, server_fixture, wait_until
from test_bounded_dom import load_rows, stats

# No --demo-controls: the demo table has its sort, status and search controls by default.
searchable = server_fixture("--demo-items", 1500, "--batch-size", 50, "--demo-latency-ms", 10)

SMALL = "{maxRows: 150, pruneMargin: 200}"
BOX = "#rs-controls input[type=search]"
REFILL = "/rows?after="

# Every row in the table, in DOM order, read in one step: [index, key, name].
ROWS = """() => Array.from(document.querySelectorAll('#rs-rows tr[data-index]'))
  .map((r) => [Number(r.dataset.index), r.dataset.key, r.cells[1].textContent])"""
# Some spacer is near the viewport (it is about to be refilled, or is being refilled).
SPACER_NEAR = """() => Array.from(document.querySelectorAll('#rs-rows tr.rs-gap'))
  .some((g) => { const r = g.getBoundingClientRect(); return r.bottom > -200 && r.top < innerHeight + 200; })"""


def status_of(server, path):
    try:
        with urllib.request.urlopen(server.url + path, timeout=TIMEOUT) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_pruned_rows_of_a_search_come_back_as_that_search_showed_them(searchable, open_page):
    """Deep enough to prune under the search "a", then back to the top: every spacer is refilled with the rows of "a"
    (every row once, in order, each the upstream's row of that index for "a"); the refills carried the search. Without
    it (the refill re-read the table as configured, whose cursor offsets count other rows) the keys would differ.
    The rows route checks the search as the stream does: 400 and no upstream request for a value outside the rules."""
    before = searchable.upstream_requests()
    assert status_of(searchable, "/tables/customers/rows?after=&p.q=" + "x" * 101) == 400
    assert status_of(searchable, "/tables/customers/rows?after=&p.sort=password") == 400
    assert status_of(searchable, "/tables/customers/rows?after=&p.status=bogus") == 400
    assert searchable.upstream_requests() == before, "a refused refill asked the upstream"

    expected = searchable.upstream_keys("a")
    assert 600 < len(expected) < 1500, "the search filters, and leaves enough rows to prune"
    probe = open_page(searchable.url + "/tables/customers?p.q=a", init_config=SMALL)
    assert probe.page.input_value(BOX) == "a"
    load_rows(probe, 500)
    assert stats(probe)["pruned"] > 0, "a table with controls and search is pruned"
    wait_until(lambda: step_up(probe), timeout=2 * TIMEOUT, interval=0, message="back at the top")
    check_refilled(probe, expected, "a")


def step_up(probe):
    """One step back up (400 px), then each spacer near the viewport refilled; true once at the top."""
    if probe.page.evaluate("window.scrollY") == 0:
        return True
    probe.page.evaluate("window.scrollBy(0, -400)")
    wait_until(lambda: not probe.page.evaluate(SPACER_NEAR), message="spacers near the viewport to be refilled")
    return False


def check_refilled(probe, expected, text):
    """At the top after pruning under the search `text`: the first batch is back, every row at most once, in order,
    each the upstream's row of its index for `text`; every refill of this tab carried `p.q=text`."""
    assert stats(probe)["refetched"] > 0
    rows = probe.page.evaluate(ROWS)
    indexes = [index for index, _, _ in rows]
    assert indexes == sorted(set(indexes)), "a row twice, or out of order"
    assert indexes[:50] == list(range(50)), "the first batch is back"
    assert [key for _, key, _ in rows] == [expected[index] for index in indexes], "a row of another query"
    assert all(text in name.lower() for _, _, name in rows)
    refills = [url for method, url in probe.requests if REFILL in url]
    assert refills and all(urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["p.q"] == [text] for url in refills)


def test_two_tabs_with_two_searches_each_prune_and_refill_their_own_rows(searchable, open_page):
    """Two tabs of one browser profile (cookies, storage and the server's sessions side by side), one under "a", the
    other under "e": both pruned deep down, then scrolled back up a step at a time in turn, each spacer refilled with
    its own tab's search's rows (each refill carrying that tab's `p.q`)."""
    first = open_page(searchable.url + "/tables/customers?p.q=a", init_config=SMALL)
    second = PageProbe(first.context)                           # a second tab: the context's init scripts run in it
    second.page.goto(searchable.url + "/tables/customers?p.q=e", wait_until="domcontentloaded")
    try:
        tabs = {"a": first, "e": second}
        for probe in tabs.values():
            load_rows(probe, 400)
            assert stats(probe)["pruned"] > 0
        assert second.page.input_value(BOX) == "e" and first.page.input_value(BOX) == "a"
        wait_until(lambda: all([step_up(probe) for probe in tabs.values()]), timeout=2 * TIMEOUT, interval=0,
                   message="both tabs back at the top")
        for text, probe in tabs.items():
            check_refilled(probe, searchable.upstream_keys(text), text)
    finally:
        assert second.errors == [], "console or page errors in the second tab: %r" % second.errors


# Refills (`rows?after=`) recorded, each answered to prune.js only once the test lets its route go on; their abort
# signal is dropped, so the answer lands even after a start-over (what is tested is prune.js's own check when it
# lands, not the abort). `landed` turns true a task after prune.js had the answer's text: its check has run by then.
LANDING = """
window.__refills = [];
const originalFetch = window.fetch;
window.fetch = async function (input, init) {
  const url = String(input);
  if (!url.includes('/rows?after=')) return originalFetch.call(this, input, init);
  const entry = { url, landed: false };
  window.__refills.push(entry);
  const options = Object.assign({}, init || {});
  delete options.signal;
  const response = await originalFetch.call(this, input, options);
  const body = await response.text();
  return { ok: response.ok, status: response.status,
    text: () => { setTimeout(() => { entry.landed = true; }, 0); return Promise.resolve(body); } };
};
"""
# The table's state and the keys of its rows, read in one step.
SHOWN = """() => [document.getElementById('rs-table').dataset.state,
  Array.from(document.querySelectorAll('#rs-rows tr[data-key]')).map((r) => r.dataset.key)]"""
# Every row added to the table from now on, [key, name].
WATCH_ROWS = """() => {
  window.__added = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (node instanceof HTMLTableRowElement && node.dataset.key) window.__added.push([node.dataset.key, node.cells[1].textContent]);
    }
  }).observe(document.getElementById('rs-rows'), { childList: true });
}"""


def test_a_refill_answered_after_the_search_changed_is_never_inserted(searchable, open_page):
    """Pruned under "a"; back to the top, the refills' answers are held in a route; the search becomes "ber" (a
    start-over: the table shows only "ber"'s rows); then the held answers go on and land. None is inserted: no row
    is added, the refill count stays, the table still shows exactly "ber"'s rows."""
    probe = open_page(searchable.url + "/tables/customers?p.q=a", init_config=SMALL, init_scripts=[LANDING])
    page = probe.page
    load_rows(probe, 400)
    assert stats(probe)["pruned"] > 0
    held = []
    page.route("**/rows?after=*", lambda route: held.append(route))
    page.evaluate("window.scrollTo(0, 0)")
    wait_until(lambda: page.evaluate("window.__refills.length") > 0 and held, message="a refill held in its route")
    refetched = stats(probe)["refetched"]

    page.evaluate(WATCH_ROWS)
    page.fill(BOX, "ber")
    page.press(BOX, "Enter")
    expected = searchable.upstream_keys("ber")
    assert 0 < len(expected) < 150, "the new search's rows are not pruned"

    def shows_ber():
        state, keys = page.evaluate(SHOWN)
        return state in ("idle", "complete") and len(keys) >= 50 and keys == expected[:len(keys)]
    wait_until(shows_ber, message="the rows of 'ber'")
    assert page.evaluate("window.__refills.some((r) => r.landed)") is False

    assert page.evaluate("window.__refills.length") == len(held), "every refill is held"
    for route in held:
        route.continue_()
    wait_until(lambda: page.evaluate("window.__refills.every((r) => r.landed)"), message="the held answers landed")
    assert stats(probe)["refetched"] == refetched, "a refill of the old search was put back"
    _, keys = page.evaluate(SHOWN)
    assert keys == expected[:len(keys)], "a row of the old search shows"
    added = page.evaluate("window.__added")
    assert added and all(key in expected and "ber" in name.lower() for key, name in added), "an old row was added"
    page.unroute("**/rows?after=*")


# ---- WebKit and Firefox (engines.py): the page's own limits, no init script ------------------------------

engine = engine_fixture("webkit", "firefox")
# WebDriver runs no script before the page's, so these engines prune at the page's defaults (config.js: 2,000 rows,
# a 1,200 px margin): 500-row batches, so that a few suffice; "a" matches 3,104 of the 4,000 customers.
deep = server_fixture("--demo-items", 4000, "--batch-size", 500, "--demo-latency-ms", 10)
DEFAULT_ROWS, DEEP_BATCH = 2000, 500

# The rows (index, key, name) and the spacers, the search box, the table's state and the pruner's figures, in one step.
TABLE = """const table = document.getElementById('rs-table');
return { rows: Array.from(document.querySelectorAll('#rs-rows tr[data-index]'),
           (r) => [Number(r.dataset.index), r.dataset.key, r.cells[1].textContent]),
         gaps: document.querySelectorAll('#rs-rows tr.rs-gap').length,
         box: document.querySelector('#rs-controls input[type=search]').value, state: table.dataset.state,
         pending: window.Rowstream ? window.Rowstream.snapshot().pending : true,
         pruning: window.Rowstream ? window.Rowstream.pruning() : null };"""


def rows_of(engine, seen, expected, text):
    """Every row shown is at most once, in order, and the upstream's row of its index for the search `text`."""
    indexes = [index for index, _, _ in seen["rows"]]
    assert indexes == sorted(set(indexes)), "%s: a row twice, or out of order" % engine
    assert [key for _, key, _ in seen["rows"]] == [expected[i] for i in indexes], "%s: a row of another query" % engine
    assert all(text in name.lower() for _, _, name in seen["rows"]), engine


def test_a_search_prunes_refills_its_own_rows_and_stays_across_back_and_reload(deep, engine, tabs):
    """Under the search "a": deep enough to prune (the page's own limits), then back to the top, where the pruned
    batch comes back with the rows of "a" only (each the upstream's row of its index for "a"). Reload, and Back from
    another search, keep "a": its text in the box, only its rows."""
    expected = deep.upstream_keys("a")
    tab = tabs(engine, deep.url + "/tables/customers?p.q=a")
    tab.wait("return window.Rowstream && document.querySelector('#rs-controls input[type=search]').value === 'a'",
             message="the search in its box")
    scroll_until(tab, lambda: tab.js(TABLE)["pruning"]["pruned"] > 0, message="a batch pruned under the search")
    pruned = tab.js(TABLE)
    assert pruned["box"] == "a" and pruned["gaps"] > 0 and 0 not in [i for i, _, _ in pruned["rows"]], pruned["pruning"]
    assert pruned["pruning"]["liveRows"] <= DEFAULT_ROWS + DEEP_BATCH
    rows_of(engine.name, pruned, expected, "a")
    tab.scroll_to(0, 0)
    back = tab.wait("const t = (function () {%s})(); return t.rows.length && t.rows[0][0] === 0 && "
                    "t.pruning.refetched > 0 && t;" % TABLE, message="the first batch refilled at the top")
    rows_of(engine.name, back, expected, "a")
    assert back["rows"][:DEEP_BATCH] == [[i, expected[i], back["rows"][i][2]] for i in range(DEEP_BATCH)]

    def settled(text):
        last = []

        def done():
            now = tab.js(TABLE)
            last[:] = [dict(now, rows=len(now["rows"]), url=tab.url())]
            return now if now["box"] == text and now["state"] in ("idle", "complete") and not now["pending"] \
                and now["rows"] else None
        try:
            return wait_until(done, message="the rows of %r" % text)
        except AssertionError as error:
            raise AssertionError("%s: %s; the page: %r" % (engine.name, error, last)) from None
    url = tab.url()
    tab.open(url)                                                                  # Reload
    rows_of(engine.name, settled("a"), expected, "a")
    tab.open(deep.url + "/tables/customers?p.q=ber")
    rows_of(engine.name, settled("ber"), deep.upstream_keys("ber"), "ber")
    tab.back()
    assert tab.url() == url
    rows_of(engine.name, settled("a"), expected, "a")
