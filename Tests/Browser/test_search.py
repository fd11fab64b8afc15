"""Find (issue 28, part 4; Public/search.js, controls.js): the demo table's search box. Typing settles into one
start-over with skeletons; only matching rows come, never a row of the text typed before (its answer held back
until the new text started, then let go); the text is in the URL, Back and Reload bring it back, clearing it brings
the full list. Without JavaScript the plain page's GET form searches the same way."""
import json
import urllib.parse
import urllib.request

from support import TIMEOUT, TIMEOUT_MS, CutProxy, server_fixture, wait_until

searchable = server_fixture("--demo-items", 120, "--batch-size", 20, "--demo-latency-ms", 100, "--demo-controls", "on")

BOX = "#rs-controls input[type=search]"


def upstream(server, text):
    """The demo upstream's first page of names for search `text` ('': none), straight from it."""
    query = "limit=20" + ("&q=" + urllib.parse.quote(text) if text else "")
    url = "http://127.0.0.1:%d/v1/customers?%s" % (server.demo_port, query)
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return [str(item["id"]) for item in json.load(response)["data"]]


def starts_with(probe, expected):
    return probe.keys()[:len(expected)] == expected


# Every row the table shows from now on, by name (column 2), with whether skeletons were up when it came.
WATCH_ROWS = """(id) => {
  window.__added = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (node instanceof HTMLTableRowElement && node.dataset.key) window.__added.push(node.cells[1].textContent);
    }
  }).observe(document.getElementById(id), { childList: true });
}"""


def test_typing_starts_over_once_with_only_matching_rows_and_the_text_in_the_url(searchable, open_page):
    with CutProxy(searchable.port) as proxy:
        probe = open_page(proxy.url + "/tables/customers")
        page = probe.page
        wait_until(lambda: starts_with(probe, upstream(searchable, "")), message="the full list")
        # A labelled search box in a search landmark; the result count goes to a polite live region.
        assert page.eval_on_selector(BOX, "b => [b.closest('[role=search]') !== null, b.labels[0].textContent.trim(), b.maxLength]") \
            == [True, "Search names", 100]
        assert page.get_attribute("#rs-status", "aria-live") == "polite"

        # "la": its answer is held back in the proxy; "lam" starts (its answer held too), then both are let go.
        proxy.delay("p.q=la")
        page.evaluate(WATCH_ROWS, "rs-rows")
        # Two keys 40 ms apart, closer than the settle time: one start-over. The second comes from the page's own
        # 40 ms timer, which a stalled page still runs before the earlier key's settle timer (due later), so no
        # stall of a busy machine puts the settle time between them (typed from here, "l" alone settled under load).
        page.eval_on_selector(BOX, """async (box) => {
            const key = (text) => { box.value = text; box.dispatchEvent(new Event('input', { bubbles: true })); };
            box.focus();
            key('l');
            await new Promise((resolve) => setTimeout(resolve, 40));
            key('la');
        }""")
        wait_until(lambda: "event: rows" in proxy.delayed_text(), message="the rows of 'la' held in the proxy")
        assert probe.keys() == [] and page.locator("#rs-pending tr.rs-skeleton").count() == 20, "skeletons, no row"
        page.type(BOX, "m")
        wait_until(lambda: page.evaluate("window.__rs.sources.some((s) => s.url.endsWith('p.q=lam'))"), message="'lam'")
        assert probe.keys() == [] and page.locator("#rs-pending tr.rs-skeleton").count() == 20, "skeletons, no row"
        proxy.undelay()                                     # the late answer of "la" goes on now, with "lam"'s
        wait_until(lambda: starts_with(probe, upstream(searchable, "lam")), message="the rows of 'lam'")
        wait_until(lambda: probe.table("aria-busy") == "false", message="idle")
        names = page.evaluate("window.__added")
        assert names and all("lam" in name.lower() for name in names), "only rows of 'lam' ever shown: %r" % names
        assert [s["url"].split("?", 1)[-1] for s in probe.rs()["sources"]] == [
            "cells=bare", "cells=bare&p.q=la", "cells=bare&p.q=lam"], "one start-over per settled text"
        assert page.evaluate("window.__rsOpenSources()") <= 1
        assert "p.q=lam" in page.url
        wait_until(lambda: page.text_content("#rs-status") != "", message="an announcement")

        # Reload, then Back from another page: the text, its URL and its rows come back.
        page.reload(wait_until="domcontentloaded")
        wait_until(lambda: starts_with(probe, upstream(searchable, "lam")), message="'lam' after Reload")
        assert page.input_value(BOX) == "lam"
        page.goto(proxy.url + "/tables/customers/html", wait_until="domcontentloaded")
        page.go_back(wait_until="domcontentloaded")
        wait_until(lambda: page.input_value(BOX) == "lam" and starts_with(probe, upstream(searchable, "lam")),
                   message="'lam' after Back")

        # Cleared: the full list at once, and no text in the URL.
        page.fill(BOX, "")
        wait_until(lambda: starts_with(probe, upstream(searchable, "")), message="the full list again")
        assert "p.q" not in page.url and probe.streams()[-1].endswith("/tables/customers/stream?cells=bare")


def test_on_a_page_no_row_of_the_old_walk_shows_after_the_new_search_started(searchable, open_page):
    """A page of several tables: one stream carries the old walk's rows and the new search's `reset`. Its answer is
    held back in the proxy while the viewer types; let go, the held rows of the table as configured come first and
    must not show (the table wants its reload), then only matching rows."""
    with CutProxy(searchable.port) as proxy:
        proxy.delay("/pages/overview/stream")
        probe = open_page(proxy.url + "/pages/overview", wait_for_rows=False)
        page = probe.page
        wait_until(lambda: "customers:rows" in proxy.delayed_text(), message="the first rows held in the proxy")
        page.evaluate(WATCH_ROWS, "rs-rows--customers")
        page.fill("#rs-controls--customers input[type=search]", "lam")
        wait_until(lambda: page.evaluate("new URLSearchParams(location.search).get('customers.p.q')") == "lam",
                   message="the text in the URL")
        proxy.undelay()
        expected = upstream(searchable, "lam")
        rows = "#rs-rows--customers tr[data-key]"
        wait_until(lambda: page.eval_on_selector_all(rows, "r => r.map(x => x.dataset.key)")[:len(expected)] == expected,
                   message="the rows of 'lam'")
        names = page.evaluate("window.__added")
        assert names and all("lam" in name.lower() for name in names), "only rows of 'lam' ever shown: %r" % names
        assert any(m == "POST" and "/tables/customers/sessions/" in u and "p.q=lam" in u for m, u in probe.requests)


def test_without_javascript_the_plain_page_searches_with_a_get_form(searchable, open_page):
    probe = open_page(searchable.url + "/tables/customers/html", wait_for_rows=False, java_script_enabled=False)
    page = probe.page
    page.fill(BOX.replace("#rs-controls ", "form.rs-controls "), "LAM")
    page.press("form.rs-controls input[type=search]", "Enter")
    page.wait_for_url("**/tables/customers/html?p.q=LAM", timeout=TIMEOUT_MS)
    page.wait_for_selector("#rs-next, #rs-end", state="attached", timeout=TIMEOUT_MS)
    keys = page.eval_on_selector_all("#rs-table tbody tr[data-key]", "rows => rows.map(r => r.dataset.key)")
    assert keys and keys == upstream(searchable, "lam")[:len(keys)]
    assert page.input_value("form.rs-controls input[type=search]") == "LAM"


def test_a_search_the_server_refuses_shows_its_error_and_the_table_stays_usable(searchable, open_page):
    """A page of tables. A link whose search carries a tab (`%09`, which a `type=search` box keeps) is sent with the
    tab as a space, not refused (400) over and over with the table on skeletons for good; a search the server does
    refuse (over maxlength, put in the box by script) shows the server's message in the error row, and the next
    search works. A table's own page keeps a shared link's search of 60 emoji (maxlength 100 counts Unicode
    scalars, as the server does, not UTF-16 units)."""
    probe = open_page(searchable.url + "/pages/overview?customers.p.q=a%09b", wait_for_rows=False,
                      allowed_console=("400",))
    page = probe.page
    rows = "#rs-rows--customers tr[data-key]"
    keys = lambda: page.eval_on_selector_all(rows, "r => r.map(x => x.dataset.key)")
    state = lambda: page.get_attribute("#rs-table--customers", "data-state")
    tabbed = upstream(searchable, "a b")
    wait_until(lambda: state() in ("idle", "complete") and keys()[:len(tabbed)] == tabbed,
               message="the rows of 'a b' from a link with a tab")
    assert any(m == "POST" and u.endswith("p.q=a+b") for m, u in probe.requests), probe.requests
    assert page.locator("#rs-error--customers").count() == 0
    expected = upstream(searchable, "lam")

    # Refused: the server's message (as text), no skeletons, no reload wanted on every session.
    page.eval_on_selector("#rs-controls--customers input[type=search]",
                          "b => { b.value = 'x'.repeat(101); b.dispatchEvent(new Event('input')); }")
    error = "#rs-error--customers"
    page.wait_for_selector(error, timeout=TIMEOUT_MS)
    assert page.text_content(error) == "q is longer than 100 characters"
    assert page.get_attribute("#rs-table--customers", "data-state") == "error"
    assert page.locator("#rs-pending--customers tr.rs-skeleton").count() == 0
    page.fill("#rs-controls--customers input[type=search]", "lam")
    wait_until(lambda: page.eval_on_selector_all(rows, "r => r.map(x => x.dataset.key)")[:len(expected)] == expected,
               message="the rows of 'lam' after the refused search")
    assert page.locator(error).count() == 0
    refused = [e for e in probe.errors if e.startswith("HTTP 400 POST ") and "/tables/customers/sessions/" in e]
    assert len(refused) == 1, probe.errors
    probe.errors[:] = [e for e in probe.errors if e not in refused]

    emoji = "\U0001F600" * 60                              # 60 scalars, 120 UTF-16 units
    own = open_page(searchable.url + "/tables/customers?p.q=" + urllib.parse.quote(emoji), wait_for_rows=False)
    wait_until(lambda: own.table("data-state") == "complete", message="the emoji search's (empty) list")
    assert own.page.input_value(BOX) == emoji
    assert own.streams()[0].endswith("?cells=bare&p.q=" + urllib.parse.quote(emoji, safe=""))
