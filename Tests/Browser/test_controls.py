"""Sort and filter controls: a change starts the table over with skeletons, on a stream for the new choice."""
import json
import urllib.request

from support import TIMEOUT, server_fixture, wait_until

controlled = server_fixture("--demo-items", 120, "--batch-size", 20, "--demo-latency-ms", 300, "--demo-controls", "on")


def upstream_ids(server, query):
    url = "http://127.0.0.1:%d/v1/customers?limit=20&%s" % (server.demo_port, query)
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return [str(item["id"]) for item in json.load(response)["data"]]


def starts_with(probe, expected):
    """The table's first rows are exactly `expected` (the upstream's first page); the page may already show more:
    a first batch that does not fill the viewport asks for the next one at once."""
    return probe.keys()[:len(expected)] == expected


def test_a_choice_starts_over_with_skeletons_in_the_new_order(controlled, open_page):
    probe = open_page(controlled.url)
    expected = upstream_ids(controlled, "")
    wait_until(lambda: starts_with(probe, expected), message="the default order")
    probe.page.evaluate("""() => {
      window.__skeletonsAfterChange = null;
      document.getElementById('rs-controls').addEventListener('change', () => {
        window.__skeletonsAfterChange = [document.querySelectorAll('#rs-pending tr.rs-skeleton').length,
                                         document.querySelectorAll('#rs-rows tr').length];
      });
    }""")
    probe.page.select_option("select[name='p.sort']", "-mrr")
    assert probe.page.evaluate("window.__skeletonsAfterChange") == [20, 0], "rows cleared, a batch of skeletons"
    expected = upstream_ids(controlled, "sort=-mrr")
    wait_until(lambda: starts_with(probe, expected), message="the MRR order")
    probe.page.select_option("select[name='p.status']", "trial")
    expected = upstream_ids(controlled, "sort=-mrr&status=trial")
    wait_until(lambda: starts_with(probe, expected), message="trial customers by MRR")
    assert "p.sort=-mrr&p.status=trial" in probe.streams()[-1]
    badges = probe.page.eval_on_selector_all("#rs-rows .rs-badge", "b => b.map(x => x.textContent)")
    assert badges and set(badges) == {"trial"}
    assert [s["url"].split("?", 1)[-1] for s in probe.rs()["sources"]] == [
        "cells=bare", "cells=bare&p.sort=-mrr", "cells=bare&p.sort=-mrr&p.status=trial"], "one new stream per change"
    assert probe.page.evaluate("window.__rsOpenSources()") <= 1, "never more than one open EventSource"


SORTS = "() => Array.from(document.querySelectorAll('#rs-table thead th')).map((th) => th.getAttribute('aria-sort'))"


def test_a_header_click_sorts_ascending_descending_off_through_the_controls(controlled, open_page):
    probe = open_page(controlled.url)
    page = probe.page
    wait_until(lambda: starts_with(probe, upstream_ids(controlled, "")), message="the default order")
    # Name (1), City (2) and MRR (6) are mapped to the Sort control's options: only they sort, none sorts yet.
    assert page.evaluate(SORTS) == [None, "none", "none", None, None, None, "none", None, None, None]
    page.evaluate("""() => {
      window.__skeletonsAfterChange = null;
      document.getElementById('rs-controls').addEventListener('change', () => {
        window.__skeletonsAfterChange = [document.querySelectorAll('#rs-pending tr.rs-skeleton').length,
                                         document.querySelectorAll('#rs-rows tr').length];
      });
    }""")
    name = "#rs-table thead th:nth-child(2) button.rs-sort"
    page.click(name)
    assert page.evaluate("window.__skeletonsAfterChange") == [20, 0], "rows cleared, a batch of skeletons"
    wait_until(lambda: starts_with(probe, upstream_ids(controlled, "sort=name")), message="A to Z")
    assert page.evaluate(SORTS)[1] == "ascending" and page.input_value("select[name='p.sort']") == "name"
    page.focus(name)
    page.keyboard.press("Enter")                                          # a button: the keyboard sorts too
    wait_until(lambda: starts_with(probe, upstream_ids(controlled, "sort=-name")), message="Z to A")
    assert page.evaluate(SORTS)[1] == "descending"
    page.click(name)
    wait_until(lambda: starts_with(probe, upstream_ids(controlled, "")), message="off: the default order")
    assert page.evaluate(SORTS)[1] == "none" and page.input_value("select[name='p.sort']") == ""
    page.select_option("select[name='p.sort']", "-mrr")                   # the control moves the header too
    wait_until(lambda: page.evaluate(SORTS)[6] == "descending", message="MRR descending")
    assert [s["url"].split("?", 1)[-1] for s in probe.rs()["sources"]] == [
        "cells=bare", "cells=bare&p.sort=name", "cells=bare&p.sort=-name", "cells=bare", "cells=bare&p.sort=-mrr"]
    assert page.evaluate("window.__rsOpenSources()") <= 1, "never more than one open EventSource"


PAGE_TABLES = ["customers", "customers-by-city", "customers-cards"]


def page_state(probe, table):
    return probe.page.evaluate("document.getElementById('rs-table--%s').dataset.state" % table)


def scroll_to_complete(probe, table):
    def done():
        probe.page.evaluate("document.getElementById('rs-scroll--%s').scrollTop = 1e9" % table)
        return page_state(probe, table) == "complete"
    wait_until(done, message="%s complete" % table)


def sessions(probe):
    return sum(1 for e in probe.rs()["events"] if e["type"] == "session")


def test_a_finished_table_reloaded_on_a_page_is_not_closed_when_the_others_finish(controlled, open_page):
    """Table A completes, the viewer reloads it (it shows its first batch again), then the page's other tables
    complete: the page's stream stays open for A (neither the page nor the server counts A as finished any more),
    and A loads to its end again, on the same connection."""
    probe = open_page(controlled.url + "/pages/overview", wait_for_rows=False)
    wait_until(lambda: all(page_state(probe, t) in ("idle", "complete") for t in PAGE_TABLES), message="rows")
    scroll_to_complete(probe, "customers")
    probe.page.evaluate("document.getElementById('rs-scroll--customers').scrollTop = 0")
    resets = sum(1 for e in probe.rs()["events"] if e["type"] == "reset")
    probe.page.click("#rs-reload--customers")
    wait_until(lambda: sum(1 for e in probe.rs()["events"] if e["type"] == "reset") > resets
               and page_state(probe, "customers") == "idle", message="customers reloaded, its first batch shown")
    connected = sessions(probe)
    for table in PAGE_TABLES[1:]:
        scroll_to_complete(probe, table)
    scroll_to_complete(probe, "customers")
    assert sessions(probe) == connected, "the same connection: no reconnect"
    shown = probe.page.eval_on_selector_all("#rs-table--customers tr[data-index]", "r => r.map(x => Number(x.dataset.index))")
    assert shown == list(range(120)), "every row once, after the reload"
