"""Sections and live updates in the page, against the real server and its demo upstream: one <tbody> per
section with its header count and sum footer, batches that continue a section append to it, skeletons with a
section header; live changes flash (not under reduced motion) and rows inserted above do not move the rows the
viewer is looking at."""
from support import (INSERTS, LIVE_DEMO, TIMEOUT_MS, WATCH_LIVE, after_frames, refresh_until_changed,
                     refresh_until_new_on_top, scroll_until, server_fixture, wait_until)

SECTIONS = """() => Array.from(document.querySelectorAll('#rs-table tbody.rs-section')).map((body) => {
  const rows = Array.from(body.querySelectorAll('tr[data-key]'));
  return {
    name: body.dataset.section,
    head: body.querySelector('tr.rs-section-head').dataset.section,
    count: body.querySelector('.rs-section-count').textContent,
    foot: body.querySelector('tr.rs-section-foot').textContent,
    rows: rows.map((r) => r.dataset.section),
    sum: rows.reduce((s, r) => s + Number(r.dataset.value || 0), 0),
  };
})"""


sectioned = server_fixture("--demo-items", 200, "--batch-size", 20, "--demo-latency-ms", 150, "--demo-sections", "city")
live = server_fixture(*LIVE_DEMO)


def check_sections(probe, sections=None):
    sections = sections if sections is not None else probe.page.evaluate(SECTIONS)
    assert sections, "no sections"
    names = [s["name"] for s in sections]
    assert all(a != b for a, b in zip(names, names[1:])), "a continuing batch opened a second section: %r" % names
    for section in sections:
        assert section["head"] == section["name"] and set(section["rows"]) == {section["name"]}
        # "(N loaded)" while the list loads, "(N rows)" once complete (issue 28): never a bare "(N)".
        assert section["count"] in ("(%d loaded)" % len(section["rows"]), "(%d rows)" % len(section["rows"]),
                                    "(1 row)" if len(section["rows"]) == 1 else "-")
        total = probe.page.evaluate("(n) => new Intl.NumberFormat('en').format(n)", section["sum"])
        assert section["foot"] == "MRR: " + total
    return sections


def test_sections_group_rows_with_header_count_and_sum_footer(sectioned, open_page):
    status, html = sectioned.get("/")
    assert status == 200
    pending = html.split('<tbody id="rs-pending">', 1)[1].split("</tbody>", 1)[0]
    assert pending.startswith('<tr class="rs-skeleton rs-section-head"'), "skeletons start with a section header"
    probe = open_page(sectioned.url, wait_for_rows=False)
    probe.page.wait_for_selector("#rs-table tbody.rs-section tr[data-index]", timeout=TIMEOUT_MS)
    first = check_sections(probe)
    # The page may already have asked for more (rows that do not fill the viewport): whole batches only.
    shown = sum(len(s["rows"]) for s in first)
    assert shown >= 20 and shown % 20 == 0
    # Scroll until 80 rows are in: batch boundaries fall inside sections (sorted by city, 10 cities, 200 rows).
    scroll_until(probe, lambda: int(probe.table("data-count") or 0) >= 80, message="80 rows while scrolling")
    # Sections and the row count read in one evaluation: the page may load another batch in between otherwise.
    snapshot, count = probe.page.evaluate(
        "() => [(" + SECTIONS + ")(), document.querySelector('#rs-table').dataset.count]")
    sections = check_sections(probe, snapshot)
    assert sum(len(s["rows"]) for s in sections) == int(count or 0) >= 80
    assert len(sections) < 80 // 20 + 10, "sections were continued across batches"
    indexes = probe.page.eval_on_selector_all("#rs-table tbody.rs-section tr[data-index]",
                                              "rows => rows.map(r => Number(r.dataset.index))")
    assert indexes == list(range(len(indexes))), "every row once, in order"


ANCHOR = """() => {
  const row = Array.from(document.querySelectorAll('#rs-rows tr[data-index]'))
    .find((r) => r.getBoundingClientRect().top >= 60);
  return [row.dataset.key, row.getBoundingClientRect().top];
}"""


def open_scrolled(server, open_page, **options):
    probe = open_page(server.url, **options)
    wait_until(lambda: int(probe.table("data-count") or 0) >= 30, message="the first batch")
    probe.page.evaluate(WATCH_LIVE)
    probe.page.evaluate("window.scrollTo(0, document.querySelector('#rs-rows tr[data-index=\"12\"]').offsetTop)")
    after_frames(probe.page)
    return probe


def test_live_changes_flash_and_inserts_above_do_not_move_the_view(live, open_page):
    probe = open_scrolled(live, open_page)
    key, top = probe.page.evaluate(ANCHOR)
    scrolled = probe.page.evaluate("window.scrollY")
    assert scrolled > 0
    first, summary = refresh_until_new_on_top(live, lambda: probe.page.evaluate(INSERTS), lambda: probe.page.evaluate(
        "() => (r => [r.dataset.key, r.hasAttribute('data-live')])(document.querySelector('#rs-rows tr'))"))
    assert {e["kind"] for e in probe.page.evaluate("window.__live.events")} >= {"insert", "update"}
    after = probe.page.evaluate("(k) => document.querySelector('#rs-rows tr[data-key=\"' + k + '\"]').getBoundingClientRect().top", key)
    assert abs(after - top) < 1, "the rows in view moved by %.1f px" % (after - top)
    assert probe.page.evaluate("window.scrollY") > scrolled, "the page scrolled by the inserted rows' height"
    assert int(first[0]) > 300, "the new customer is on top: %r" % first
    assert probe.page.eval_on_selector_all("#rs-rows tr.rs-updated", "rows => rows.length") >= summary["updated"] // 2
    wait_until(lambda: probe.page.evaluate("window.__live.flashes") > 0, message="a flash")
    keys = probe.keys()
    assert len(keys) == len(set(keys)), "no key twice"


def test_no_flash_under_reduced_motion(live, open_page):
    probe = open_scrolled(live, open_page, reduced_motion="reduce")
    refresh_until_changed(live)
    wait_until(lambda: "update" in {e["kind"] for e in probe.page.evaluate("window.__live.events")},
               message="an update applied")
    assert probe.page.eval_on_selector_all("#rs-rows tr.rs-updated", "rows => rows.length") > 0
    assert probe.page.eval_on_selector_all("#rs-rows tr.rs-flash", "rows => rows.length") == 0
    after_frames(probe.page)                          # an animation the update started has announced itself by now
    assert probe.page.evaluate("window.__live.flashes") == 0
