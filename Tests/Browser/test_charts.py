"""Charts (issue 28, "See"; docs/CONFIG.md "Bars, sparklines, progress"): the demo's MRR is a bar and its seats'
trend a sparkline, drawn by the server as inline SVG. In Chromium, under the strict CSP: no violation and no style
attribute; every chart is aria-hidden behind its value as text (visible for a bar, visually hidden for a sparkline,
so screen readers and copy/paste get it); the colours come from app.css; the skeleton cells have the charts' shape,
so the rows replace them without moving anything; the no-script page and the export keep the plain values."""
import json
import re

from support import TIMEOUT_MS, open_paused, proxy_fixture, server_fixture

BATCH = 10
server = server_fixture("--demo-items", 30, "--batch-size", BATCH, "--demo-latency-ms", 50)
proxy = proxy_fixture("server")      # the first paint: the page's stream waits in the proxy until the test resumes it

WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""

# Per row (the first 3 of `rows`): its height, and per chart cell its box, its value's (or value bone's) left and
# width, and its chart's (or chart bone's) box, relative to the row.
SHAPES = """(rows) => Array.from(document.querySelectorAll(rows)).slice(0, 3).map((tr) => {
  const row = tr.getBoundingClientRect();
  const box = (node) => { if (!node) return null; const r = node.getBoundingClientRect();
    return [r.left - row.left, r.width, r.top - row.top, r.height]; };
  const across = (node) => node && box(node).slice(0, 2);   // a value's text: where it runs across the cell
  return [row.height, Array.from(tr.querySelectorAll('td.rs-barchart, td.rs-sparkline')).map((td) => [
    box(td), across(td.querySelector('.rs-v, .rs-bone-v')), box(td.querySelector('svg.rs-chart, .rs-bone-chart'))])];
})"""

# What each chart cell of the first rows offers: its text, the chart's aria-hidden, its paint.
CELLS = """() => Array.from(document.querySelectorAll('#rs-rows tr[data-index]')).slice(0, 10).map((tr) => {
  const bar = tr.querySelector('td.rs-barchart'), spark = tr.querySelector('td.rs-sparkline');
  const fill = bar.querySelector('rect.rs-fill'), line = spark.querySelector('polyline');
  return { bar: bar.textContent, barHidden: bar.querySelector('svg').getAttribute('aria-hidden'),
    fillWidth: Number(fill.getAttribute('width')), fillPaint: getComputedStyle(fill).fill,
    spark: spark.textContent, sparkHidden: spark.querySelector('svg').getAttribute('aria-hidden'),
    sparkText: spark.querySelector('.rs-visually-hidden').getBoundingClientRect().width,
    points: line.getAttribute('points'), stroke: getComputedStyle(line).stroke };
})"""


def flat(value):
    """The numbers of a nested list, in order."""
    return [n for item in value for n in flat(item)] if isinstance(value, list) else [] if value is None else [value]


def shape(value):
    """A nested list with its numbers left out: which boxes there are."""
    return [shape(item) for item in value] if isinstance(value, list) else value if value is None else 0


def test_bars_and_sparklines_with_their_text_their_skeletons_shape_and_no_csp_violation(server, proxy, open_page):
    probe = open_paused(proxy, open_page, init_scripts=[WATCH_CSP])
    skeleton = probe.page.evaluate(SHAPES, "#rs-pending tr.rs-skeleton")
    assert len(skeleton) == 3 and all(len(cells) == 2 for _, cells in skeleton)
    assert all(value is not None and chart is not None for _, cells in skeleton for _, value, chart in cells[:1])
    proxy.resume()
    probe.page.wait_for_selector("#rs-rows tr[data-index] td.rs-barchart svg", timeout=TIMEOUT_MS)
    real = probe.page.evaluate(SHAPES, "#rs-rows tr[data-index]")
    assert shape(real) == shape(skeleton) and all(abs(a - b) < 0.25 for a, b in zip(flat(real), flat(skeleton))), \
        "skeleton cells shaped as the charts:\nskeleton %r\nrows     %r" % (skeleton, real)
    assert probe.rs()["cls"] < 0.01

    cells = probe.page.evaluate(CELLS)
    assert len(cells) == BATCH
    for cell in cells:
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", cell["bar"]), cell            # the MRR as text, grouped
        assert re.fullmatch(r"\d+(, \d+){11}", cell["spark"]), cell            # 12 weeks of seats as text
        assert cell["barHidden"] == cell["sparkHidden"] == "true"
        assert cell["sparkText"] <= 1, "the sparkline's numbers are visually hidden"
        assert 0 <= cell["fillWidth"] <= 100 and len(cell["points"].split(" ")) == 12
        assert cell["fillPaint"] not in ("none", "rgb(0, 0, 0)") and cell["stroke"] not in ("none", "rgb(0, 0, 0)")
    assert len({cell["fillWidth"] for cell in cells}) > 3, "bars to scale, not all alike"
    assert probe.page.evaluate("document.querySelectorAll('#rs-table [style]').length") == 0
    assert probe.page.evaluate("window.__csp") == []

    # Without script, and in the export: the same values as plain text and numbers.
    _, html = server.get("/tables/customers/html")
    assert '<td class="rs-c rs-barchart"><span class="rs-v">' in html and 'class="rs-visually-hidden">' in html
    assert " style=" not in html
    _, ndjson = server.get("/tables/customers/export.ndjson")
    first = json.loads(ndjson.splitlines()[0])
    assert isinstance(first["MRR ($)"], (int, float)) and len(first["Trend"]) == 12
    assert first["Trend"][-1] == first["Seats"]
    assert "%d" % int(first["MRR ($)"] + 0.5) == cells[0]["bar"].replace(",", "")    # the demo shows whole dollars
    assert ", ".join(map(str, first["Trend"])) == cells[0]["spark"]
    _, csv = server.get("/tables/customers/export.csv")
    assert '"[' + ",".join(map(str, first["Trend"])) + ']"' in csv.splitlines()[1]
