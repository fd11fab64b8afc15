"""The grid layout: cards in a responsive grid, skeleton cards of the same shape first, the same batching and
infinite scroll."""
from support import TIMEOUT_MS, open_paused, proxy_fixture, scroll_to_end, server_fixture

BATCH = 12

grid = server_fixture("--demo-items", 40, "--batch-size", BATCH, "--demo-latency-ms", 400, "--demo-layout", "grid")
proxy = proxy_fixture("grid")      # the first paint: the page's stream waits in the proxy until the test resumes it


BOXES = """(selector) => Array.from(document.querySelectorAll(selector)).slice(0, 4).map((card) => {
  const box = card.getBoundingClientRect();
  const parts = Array.from(card.cells).map((cell) => { const r = cell.getBoundingClientRect(); return [r.top - box.top, r.height]; });
  return [box.left, box.width, box.height, parts];
})"""


def test_skeleton_cards_have_the_shape_of_real_cards(grid, proxy, open_page):
    status, html = grid.get("/")
    assert status == 200 and 'data-layout="grid"' in html
    pending = html.split('<tbody id="rs-pending">', 1)[1].split("</tbody>", 1)[0]
    assert pending.count('<tr class="rs-skeleton rs-card"') == BATCH     # in the first bytes, no script needed
    probe = open_paused(proxy, open_page)
    skeleton = probe.page.evaluate(BOXES, "#rs-pending tr.rs-skeleton")
    assert len(skeleton) == 4
    assert len({left for left, _, _, _ in skeleton}) == 4, "cards side by side in a grid, not rows"
    assert probe.page.eval_on_selector_all("#rs-rows tr", "rows => rows.length") == 0
    proxy.resume()
    probe.page.wait_for_selector("#rs-rows tr.rs-card", timeout=TIMEOUT_MS)
    real = probe.page.evaluate(BOXES, "#rs-rows tr.rs-card")
    for (left_s, width_s, height_s, parts_s), (left_r, width_r, height_r, parts_r) in zip(skeleton, real):
        assert abs(left_s - left_r) < 0.5 and abs(width_s - width_r) < 0.5 and abs(height_s - height_r) < 0.5
        assert len(parts_s) == len(parts_r)
        for (top_s, h_s), (top_r, h_r) in zip(parts_s, parts_r):
            assert abs(top_s - top_r) < 0.5 and abs(h_s - h_r) < 0.5
    title = probe.page.eval_on_selector("#rs-rows tr.rs-card td.rs-card-title", "c => c.textContent")
    assert title and probe.page.eval_on_selector("#rs-rows tr.rs-card .rs-monogram", "m => m.textContent")
    assert probe.rs()["cls"] < 0.01


def test_cards_scroll_in_batches_to_the_end(grid, open_page):
    probe = open_page(grid.url, wait_for_rows=False)
    probe.page.wait_for_selector("#rs-rows tr.rs-card", timeout=TIMEOUT_MS)
    scroll_to_end(probe)
    indexes = probe.indexes()
    assert indexes == list(range(40))
    assert len(probe.posts()) == 3, "one demand per batch after the first"
    assert probe.page.eval_on_selector_all("#rs-pending tr", "rows => rows.length") == 0
