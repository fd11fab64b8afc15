"""Screenshots (light and dark; loading and loaded) and web-vitals style figures. The figures are printed at
the end of the run, never asserted: speed belongs in reports, not in pass/fail."""
import os
import statistics

import pytest

from conftest import figure
from support import SHOTS, events, server_fixture, wait_until

LATENCY_MS = 150


server = server_fixture("--demo-items", 2500, "--batch-size", 25, "--demo-latency-ms", LATENCY_MS)
slow = server_fixture("--demo-items", 2500, "--batch-size", 25, "--demo-latency-ms", 60_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(server, slow, open_page, scheme):
    os.makedirs(SHOTS, exist_ok=True)
    loading = open_page(slow.url, wait_for_rows=False, color_scheme=scheme)
    loading.page.wait_for_selector("#rs-pending tr.rs-skeleton")
    assert loading.table("aria-busy") == "true"
    loading.page.screenshot(path=os.path.join(SHOTS, "loading-%s.png" % scheme))
    loaded = open_page(server.url, color_scheme=scheme)
    wait_until(lambda: len(events(loaded, "rows")) >= 2 and loaded.table("data-state") == "idle",
               message="two batches")
    loaded.page.mouse.move(400, 420)                                      # a hovered row, as a viewer has
    loaded.page.screenshot(path=os.path.join(SHOTS, "loaded-%s.png" % scheme))
    background = loaded.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(18, 21, 27)") == (scheme == "dark")
    for name in ("loading", "loaded"):
        assert os.path.getsize(os.path.join(SHOTS, "%s-%s.png" % (name, scheme))) > 10_000


def test_web_vitals_figures(server, open_page):
    fcp, painted, rows_to_paint, after_upstream, cls = [], [], [], [], []
    for _ in range(5):
        probe = open_page(server.url)
        wait_until(lambda: len(events(probe, "rows")) >= 2, message="two batches")
        probe.page.mouse.wheel(0, 1200)                                   # the third batch needs a scroll
        wait_until(lambda: len(events(probe, "rows")) >= 3 and len(probe.rs()["rowsPainted"]) >= 3,
                   message="three batches painted")
        log = probe.rs()
        entry = probe.page.evaluate(
            "performance.getEntriesByName('first-contentful-paint').map(e => e.startTime)")
        assert entry, "no first-contentful-paint entry"
        first_loading = events(probe, "loading")[0]["t"]
        first_rows = events(probe, "rows")[0]["t"]
        fcp.append(entry[0])
        painted.append(first_rows + log["rowsPainted"][0])
        rows_to_paint.append(log["rowsPainted"][0])
        after_upstream.append(first_rows + log["rowsPainted"][0] - (first_loading + LATENCY_MS))
        cls.append(log["cls"])
        assert log["cls"] < 0.01
        probe.context.close()
    figure("first contentful paint (median of 5)", statistics.median(fcp), "ms")
    figure("navigation -> first batch painted (median of 5)", statistics.median(painted), "ms")
    figure("first `rows` event received -> painted (median of 5)", statistics.median(rows_to_paint), "ms")
    figure("upstream first response -> rows painted, est. (median of 5)", statistics.median(after_upstream), "ms")
    figure("CLS, first paint to third batch (max of 5)", max(cls), "")
