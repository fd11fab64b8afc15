"""The documentation's own checks, no browser and no rowstream server: BENCHMARKS.md's chart maker
(Scripts/lib/bench_charts.py) draws from a bench.json-shaped fixture what it should, and every relative link and
anchor in README.md, BENCHMARKS.md and docs/*.md leads somewhere."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ROOT / "Scripts" / "lib" / "bench_charts.py"
SVG = "{http://www.w3.org/2000/svg}"

# The shape Bench/summarize.py writes; idle with all three sides, fan-out at two sizes with one figure missing for
# sse-starlette at 1,000, the storm at one size; no static, so no static chart.
FIXTURE = {
    "settings": {"runs": "3", "idle_streams": "19000", "storm_viewers": "10000", "fanout_viewers": "1000,10000"},
    "cpus": 2, "machine": "x86_64", "units": {}, "samples": {}, "targets": [],
    "medians": {
        "idle_rowstream_bytes_per_stream": 2500, "idle_nchan_bytes_per_stream": 10000,
        "idle_starlette_bytes_per_stream": 45000,
        "storm_all_first_rows_ms": 700, "storm_nchan_all_first_rows_ms": 500,
        "fanout1000_rowstream_cpu_us_per_event": 8.0, "fanout1000_nchan_cpu_us_per_event": 12.0,
        "fanout10000_rowstream_cpu_us_per_event": 7.0, "fanout10000_nchan_cpu_us_per_event": 10.0,
        "fanout10000_starlette_cpu_us_per_event": 70.0,
    },
}


def draw(tmp_path, bench, merge=False, out=None):
    source = tmp_path / "bench.json"
    source.write_text(json.dumps(bench))
    out = out or tmp_path / "charts"
    subprocess.run([sys.executable, str(CHARTS), *([] if merge else ["--draw"]), str(source), str(out)],
                   check=True, capture_output=True, timeout=60)
    return out


def svg(path):
    return ET.parse(path).getroot()   # well-formed XML, or this raises


def test_charts_from_a_bench_json(tmp_path):
    out = draw(tmp_path, FIXTURE)
    assert sorted(p.name for p in out.iterdir()) == [
        "fanout-cpu-us-per-event-lines.svg", "fanout-cpu.svg", "idle-memory.svg",
        "storm-all-first-rows-ms-lines.svg"]   # nothing drawn for a benchmark the JSON lacks

    # bars: one per side, widths in proportion to the figures, each figure written beside its bar
    idle = svg(out / "idle-memory.svg")
    widths = [float(r.get("width")) for r in idle.iter(SVG + "rect") if r.get("height") != "100%"]
    assert len(widths) == 3
    assert all(abs(w - 400 * v / 45000) < 0.1 for w, v in zip(widths, (2500, 10000, 45000)))   # 400 px: the longest
    labels = [t.text for t in idle.iter(SVG + "text")]
    assert {"2,500", "10,000", "45,000", "nginx+nchan", "sse-starlette"} <= set(labels)
    assert "Memory per idle SSE stream (19,000 streams held)" in labels

    # fan-out bars grouped by viewers; sse-starlette only where it has a figure
    fanout = [t.text for t in svg(out / "fanout-cpu.svg").iter(SVG + "text")]
    assert fanout.index("1,000 viewers") < fanout.index("10,000 viewers")
    assert fanout.count("sse-starlette") == 1 and "70.0" in fanout

    # lines: a polyline through each side's points over the viewer counts; a single point is a dot, not a line
    lines = svg(out / "fanout-cpu-us-per-event-lines.svg")
    polylines = list(lines.iter(SVG + "polyline"))
    assert len(polylines) == 2   # Rowstream and nchan; sse-starlette has one point
    assert all(len(p.get("points").split()) == 2 for p in polylines)
    assert len(list(lines.iter(SVG + "circle"))) == 5
    storm = svg(out / "storm-all-first-rows-ms-lines.svg")
    assert not list(storm.iter(SVG + "polyline")) and len(list(storm.iter(SVG + "circle"))) == 2


def test_charts_escape_text_and_are_deterministic(tmp_path):
    bench = json.loads(json.dumps(FIXTURE))
    bench["settings"]["idle_streams"] = "<b>&"
    first = (draw(tmp_path, bench) / "idle-memory.svg").read_bytes()
    assert b"(&lt;b&gt;&amp; streams held)" in first
    assert (draw(tmp_path, bench) / "idle-memory.svg").read_bytes() == first


def test_a_run_merges_into_the_figures_and_redraws_every_chart(tmp_path):
    out = draw(tmp_path, FIXTURE, merge=True)
    static = {"settings": {"runs": "5"}, "medians": {"static_rowstream_rps": 100000, "static_nginx_rps": 80000,
                                                      "static_before_rps": 90000, "idle_rowstream_bytes_per_stream": 2400}}
    draw(tmp_path, static, merge=True, out=out)
    figures = json.loads((out / "figures.json").read_text())
    assert figures["medians"]["static_nginx_rps"] == 80000            # the new run's figure
    assert figures["medians"]["idle_rowstream_bytes_per_stream"] == 2400   # replaces the older one
    assert figures["medians"]["storm_all_first_rows_ms"] == 700        # what it did not measure stays
    assert "static_before_rps" not in figures["medians"]               # the --against build's figures do not
    assert figures["settings"]["runs"] == "5" and figures["settings"]["storm_viewers"] == "10000"
    assert [u["benchmarks"] for u in figures["updates"]] == [["fanout", "idle", "storm"], ["idle", "static"]]
    assert (out / "static.svg").exists() and (out / "storm-all-first-rows-ms-lines.svg").exists()
    assert "2,400" in [t.text for t in svg(out / "idle-memory.svg").iter(SVG + "text")]


def test_committed_charts_come_from_the_committed_figures(tmp_path):
    """docs/bench/*.svg are what the chart maker draws from docs/bench/figures.json (BENCHMARKS.md says so)."""
    out = draw(tmp_path, json.loads((ROOT / "docs" / "bench" / "figures.json").read_text()))
    committed = sorted(p.name for p in (ROOT / "docs" / "bench").glob("*.svg"))
    assert sorted(p.name for p in out.iterdir()) == committed
    for name in committed:
        assert (out / name).read_bytes() == (ROOT / "docs" / "bench" / name).read_bytes(), name


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slugs(markdown):
    """GitHub's heading anchors: lower case, punctuation but hyphens dropped, spaces to hyphens, repeats numbered."""
    seen, out = {}, set()
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out


def test_every_relative_link_and_anchor_resolves():
    files = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for doc in files:
        text = doc.read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.S)   # code blocks hold no links
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue   # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            resolved = (doc.parent / path).resolve() if path else doc
            if not resolved.exists():
                broken.append("%s: %s (no such file)" % (doc.relative_to(ROOT), target))
            elif anchor and resolved.suffix == ".md" and anchor not in slugs(resolved.read_text(encoding="utf-8")):
                broken.append("%s: %s (no such heading)" % (doc.relative_to(ROOT), target))
    assert not broken, "\n".join(broken)
