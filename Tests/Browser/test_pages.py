"""A page of several tables on one event stream (/pages/overview: the demo table with controls, the same
customers in sections by city, and as cards): one EventSource, skeletons then rows in every table, scrolling one
table loads that table only, a cut connection resumes every table without duplicates, and a control change
restarts its own table only."""
import json
import urllib.request

from support import TIMEOUT, after_frames, open_paused, proxy_fixture, server_fixture, wait_until

BATCH = 20
TABLES = ["customers", "customers-by-city", "customers-cards"]

server = server_fixture("--demo-items", 300, "--batch-size", BATCH, "--demo-latency-ms", 250, "--demo-controls", "on")
proxy = proxy_fixture("server")


def indexes(probe, table):
    return probe.page.eval_on_selector_all(
        "#rs-table--%s tr[data-index]" % table, "rows => rows.map(r => Number(r.dataset.index))")


def keys(probe, table):
    return probe.page.eval_on_selector_all(
        "#rs-rows--%s tr[data-key]" % table, "rows => rows.map(r => r.dataset.key)")


def counts(probe):
    return {table: len(indexes(probe, table)) for table in TABLES}


def settled(probe):
    """Every table idle (nothing pending) and showing rows, and still the same after the page handled a few more
    frames: a batch that leaves a table's end near makes it ask for the next one a frame later."""
    def idle():
        snapshot = probe.page.evaluate("window.Rowstream && window.Rowstream.snapshot()")
        ok = snapshot and all(s["phase"] == "idle" and not s["pending"] and s["shown"] > 0 for s in snapshot.values())
        return ok and {name: s["shown"] for name, s in snapshot.items()}
    before = idle()
    if not before:
        return False
    after_frames(probe.page)
    return idle() == before


def open_overview(open_page, url):
    probe = open_page(url + "/pages/overview", wait_for_rows=False)
    wait_until(lambda: settled(probe), message="every table showing rows, idle")
    return probe


def scroll_box(probe, table):
    probe.page.evaluate("document.getElementById('rs-scroll--%s').scrollTop = 1e9" % table)


def test_one_event_source_skeletons_then_rows_in_every_table(server, proxy, open_page):
    _, html = server.get("/pages/overview")
    for table in TABLES:                                                  # the first paint, before any script
        assert html.count('<tr class="rs-skeleton') >= 3 * BATCH
        assert ('<tbody id="rs-pending--%s"><tr class="rs-skeleton' % table) in html
    probe = open_paused(proxy, open_page, "/pages/overview")             # no batch can come before resume()
    first = probe.page.evaluate("""() => Object.fromEntries(%s.map(t => [t,
        document.querySelectorAll('#rs-pending--' + t + ' tr.rs-skeleton').length]))""" % json.dumps(TABLES))
    assert all(n >= BATCH for n in first.values()), first
    assert counts(probe) == {table: 0 for table in TABLES}
    proxy.resume()
    wait_until(lambda: settled(probe), message="every table showing rows, idle")
    assert all(n >= BATCH for n in counts(probe).values())
    sources = probe.rs()["sources"]
    assert [s["url"].split(":%d" % proxy.port, 1)[-1] for s in sources] == ["/pages/overview/stream?cells=bare"], \
        "exactly one EventSource for the page"
    assert probe.page.evaluate("window.__rsOpenSources()") == 1
    for table in TABLES:
        assert indexes(probe, table) == list(range(len(indexes(probe, table))))
    assert probe.page.evaluate("document.querySelectorAll('#rs-table--customers-cards tr.rs-card').length") > 0
    assert probe.page.evaluate("document.querySelectorAll('#rs-table--customers-by-city tbody.rs-section').length") > 0


def test_scrolling_one_table_loads_that_table_only(server, open_page):
    probe = open_overview(open_page, server.url)
    before = counts(probe)
    posts_before = len(probe.posts("/next"))
    scroll_box(probe, "customers-cards")
    wait_until(lambda: counts(probe)["customers-cards"] > before["customers-cards"] and settled(probe),
               message="more cards")
    after = counts(probe)
    assert after["customers"] == before["customers"]
    assert after["customers-by-city"] == before["customers-by-city"]
    new_posts = probe.posts("/next")[posts_before:]
    assert new_posts and all("/tables/customers-cards/sessions/" in url for url in new_posts)
    assert indexes(probe, "customers-cards") == list(range(after["customers-cards"]))


def test_a_cut_connection_resumes_every_table_without_duplicates(server, proxy, open_page):
    probe = open_overview(open_page, proxy.url)
    scroll_box(probe, "customers")
    wait_until(lambda: counts(probe)["customers"] > 2 * BATCH and settled(probe), message="more customers")
    assert proxy.cut("/stream") == 1
    wait_until(lambda: sum(1 for e in probe.rs()["events"] if e["type"] == "session") >= 2 * len(TABLES),
               message="every table's session on the new connection")
    wait_until(lambda: settled(probe), message="idle again")
    for table in TABLES:
        scroll_box(probe, table)
    wait_until(lambda: counts(probe)["customers-by-city"] > 2 * BATCH and settled(probe), message="more after the cut")
    for table in TABLES:
        shown = indexes(probe, table)
        assert shown == list(range(len(shown))), "%s: every row exactly once, in order" % table
    assert not any(e["type"] == "reset" for e in probe.rs()["events"]), "resumed, not started over"
    assert len(keys(probe, "customers")) == len(set(keys(probe, "customers")))
    assert probe.page.evaluate("window.__rsOpenSources()") <= 1


def test_a_control_change_restarts_only_its_table_with_skeletons(server, open_page):
    probe = open_overview(open_page, server.url)
    others = {table: keys(probe, table) or indexes(probe, table) for table in TABLES[1:]}
    probe.page.evaluate("""() => {
      window.__afterChange = null;
      document.getElementById('rs-controls--customers').addEventListener('change', () => {
        window.__afterChange = [document.querySelectorAll('#rs-pending--customers tr.rs-skeleton').length,
                                document.querySelectorAll('#rs-rows--customers tr').length];
      });
    }""")
    probe.page.select_option("#rs-controls--customers select[name='p.sort']", "-mrr")
    assert probe.page.evaluate("window.__afterChange") == [BATCH, 0], "rows cleared, a batch of skeletons"
    url = "http://127.0.0.1:%d/v1/customers?limit=%d&sort=-mrr" % (server.demo_port, BATCH)
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        expected = [str(item["id"]) for item in json.load(response)["data"]]
    wait_until(lambda: keys(probe, "customers")[:BATCH] == expected, message="the MRR order")
    assert any("/tables/customers/sessions/" in u and "/reload?p.sort=-mrr" in u
               for m, u in probe.requests if m == "POST"), "the table's reload, with the choice"
    for table in TABLES[1:]:
        assert (keys(probe, table) or indexes(probe, table))[:len(others[table])] == others[table], \
            "%s untouched" % table
    assert len(probe.rs()["sources"]) == 1, "the same connection"


def test_a_header_sorts_its_own_table_on_the_page(server, open_page):
    probe = open_overview(open_page, server.url)
    header = "#rs-table--customers thead th:nth-child(3)"                   # City
    assert probe.page.get_attribute(header, "aria-sort") == "none"
    assert probe.page.query_selector("#rs-table--customers-by-city thead th[aria-sort]") is None, "no sort mapped"
    probe.page.click(header + " button.rs-sort")
    url = "http://127.0.0.1:%d/v1/customers?limit=%d&sort=city" % (server.demo_port, BATCH)
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        expected = [str(item["id"]) for item in json.load(response)["data"]]
    wait_until(lambda: keys(probe, "customers")[:BATCH] == expected, message="the City order")
    assert probe.page.get_attribute(header, "aria-sort") == "ascending"
    assert any("/tables/customers/sessions/" in u and "/reload?p.sort=city" in u
               for m, u in probe.requests if m == "POST"), "the table's reload, with the header's choice"
    assert len(probe.rs()["sources"]) == 1, "the same connection"


def test_a_sort_change_whose_reload_a_reconnect_voids_is_sent_again(server, proxy, open_page):
    """The sort change's `reload` POST is on its way (held here) when the stream is cut: the reconnect's session
    voids it, and the table sends it again on the new session (it is wanted until its `reset`), instead of
    waiting with skeletons for ever."""
    probe = open_overview(open_page, proxy.url)
    held = []
    probe.page.route("**/reload*", lambda route: held.append(route) if not held else route.continue_())
    probe.page.select_option("#rs-controls--customers select[name='p.sort']", "-mrr")
    wait_until(lambda: probe.page.evaluate("1") and held, message="the reload POST on its way")
    before = sum(1 for e in probe.rs()["events"] if e["type"] == "session" and e["table"] == "customers")
    assert proxy.cut("/stream") == 1
    url = "http://127.0.0.1:%d/v1/customers?limit=%d&sort=-mrr" % (server.demo_port, BATCH)
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        expected = [str(item["id"]) for item in json.load(response)["data"]]
    wait_until(lambda: keys(probe, "customers")[:BATCH] == expected, message="the MRR order after the reconnect")
    assert sum(1 for e in probe.rs()["events"] if e["type"] == "session" and e["table"] == "customers") > before
    assert len([u for m, u in probe.requests if m == "POST" and "/reload?p.sort=-mrr" in u]) == 2, "sent again once"
    held[0].abort()
