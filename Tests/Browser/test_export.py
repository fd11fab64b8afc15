"""Export, "Download all rows" (docs/PROTOCOL.md "Export"): the toolbar's links download every row as CSV or NDJSON
with the controls' choice; the page shows the rows exported as they arrive and how the export ended (complete, or
stopped by an upstream error, as the file's last line says), under the strict CSP without a violation."""
import csv
import io
import json

from support import server_fixture, wait_until
from test_csp import WATCH_CSP, open_watched, violations

server = server_fixture("--demo-items", 120, "--batch-size", 20, "--demo-latency-ms", 150, "--demo-controls", "on")
failing = server_fixture("--demo-items", 60, "--batch-size", 10, "--demo-latency-ms", 50, "--demo-fail-every", 3)

# Every text the export's status line shows, in order.
WATCH_STATUS = """
window.__exportStatus = [];
document.addEventListener('DOMContentLoaded', () => {
  const status = document.getElementById('rs-export-status');
  new MutationObserver(() => window.__exportStatus.push(status.textContent)).observe(
    status, {childList: true, characterData: true, subtree: true});
});
"""


def export(probe, link, group="#rs-export"):
    """Clicks the export link `link`; returns the downloaded file's text once the page says the export ended."""
    with probe.page.expect_download() as download:
        probe.page.click(link)
    wait_until(lambda: probe.page.get_attribute(group, "data-state") not in ("idle", "running"),
               message="the export to end")
    with open(download.value.path(), encoding="utf-8", newline="") as file:
        return file.read()


def test_csv_downloads_every_row_and_the_page_counts_them_as_they_arrive(server, open_page):
    probe = open_page(server.url, init_scripts=[WATCH_CSP, WATCH_STATUS])
    assert probe.page.is_visible("#rs-export-csv") and probe.page.is_visible("#rs-export-ndjson")
    text = export(probe, "#rs-export-csv")
    records = list(csv.reader(io.StringIO(text)))
    assert records[0][0] == "ID"
    assert [record[0] for record in records[1:]] == server.upstream_keys(), "every row once, in order"
    assert probe.page.get_attribute("#rs-export", "data-state") == "done"
    assert probe.page.get_attribute("#rs-export", "data-rows") == "120"
    assert probe.page.text_content("#rs-export-status") == "Exported 120 rows."
    shown = probe.page.evaluate("window.__exportStatus")
    counts = [int(s.split()[1]) for s in shown if s.startswith("Exporting… ")]
    assert any(0 < count < 120 for count in counts), "progress while rows arrive: %r" % shown
    assert counts == sorted(counts)
    assert violations(probe) == []


def test_ndjson_export_applies_the_controls_choice(server, open_page):
    probe = open_watched(open_page, server.url)
    probe.page.select_option("select[name='p.status']", "trial")
    text = export(probe, "#rs-export-ndjson")
    objects = [json.loads(line) for line in text.splitlines()]
    assert objects and all("error" not in o for o in objects)
    statuses = {value for o in objects for key, value in o.items() if key.lower() == "status"}
    assert statuses == {"trial"}, statuses
    assert probe.page.get_attribute("#rs-export", "data-rows") == str(len(objects))
    assert any("/export.ndjson?p.status=trial" in url for _, url in probe.requests)
    assert violations(probe) == []


def test_an_upstream_error_midway_ends_the_file_and_the_page_says_so(failing, open_page):
    probe = open_watched(open_page, failing.url)
    text = export(probe, "#rs-export-csv")
    last = list(csv.reader(io.StringIO(text)))[-1]
    assert len(last) == 1 and last[0].startswith("# Rowstream export stopped after "), last
    assert probe.page.get_attribute("#rs-export", "data-state") == "stopped"
    status = probe.page.text_content("#rs-export-status")
    assert status.startswith("Rowstream export stopped after ") and "Loading rows failed" in status, status
    rows = int(probe.page.get_attribute("#rs-export", "data-rows"))
    assert rows == len(list(csv.reader(io.StringIO(text)))) - 2 and rows < 60
    assert violations(probe) == []


def test_each_panel_of_a_page_exports_its_own_table(server, open_page):
    probe = open_watched(open_page, server.url + "/pages/overview", wait_for_rows=False)
    panels = probe.page.eval_on_selector_all("section.rs-panel[data-rs-table]", "p => p.map(x => x.dataset.rsTable)")
    assert panels
    name = panels[-1]
    text = export(probe, "#rs-export-ndjson--" + name, group="#rs-export--" + name)
    objects = [json.loads(line) for line in text.splitlines()]
    assert len(objects) == 120 and all("error" not in o for o in objects)
    assert probe.page.text_content("#rs-export-status--" + name) == "Exported 120 rows."
    assert any(url.endswith("/tables/%s/export.ndjson" % name) for _, url in probe.requests)
    assert violations(probe) == []
