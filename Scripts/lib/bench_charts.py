#!/usr/bin/env python3
"""BENCHMARKS.md's charts: SVG files drawn from the JSON that Scripts/bench writes (.artifacts/bench.json, made by
Bench/summarize.py: {"settings": {...}, "medians": {metric: value}, "units": {...}, "samples": {...}, ...}).

OUT_DIR/figures.json holds the figures the committed charts show: each run's medians are merged into it (a figure
this run measured replaces the one there; the --against build's `*_before*` figures are left out; the run's settings
and benchmarks are appended to its "updates"), and every chart is drawn from the merged figures. So a run of one
benchmark redraws that benchmark's charts and leaves the others' figures as they were: each chart shows the latest
run of its benchmark.

Each peer comparison is a bar chart (one bar per side, grouped by viewers where the benchmark has several sizes);
the storm and the fan-out over viewers are line charts (one line per side, one point per viewer count the JSON
holds). A chart whose metrics are all missing (a run without that benchmark) is not written; one with some
missing draws what it has. Output is deterministic: the same JSON gives the same bytes.

Usage: bench_charts.py BENCH.json OUT_DIR      (Scripts/bench: .artifacts/bench.json docs/bench)
       bench_charts.py --draw FIGURES.json OUT_DIR   (no merge: draw what FIGURES.json holds)
Standard library only.
"""
import json
import os
import re
import sys
from xml.sax.saxutils import escape

SIDES = [("rowstream", "Rowstream", "#2f6fde"), ("gzip", "Rowstream, gzip", "#69a4ff"),
         ("nchan", "nginx+nchan", "#d9822b"), ("nginx", "nginx", "#d9822b"), ("starlette", "sse-starlette", "#7a7a7a"),
         ("single", "one instance", "#7a7a7a"), ("scale", "N instances", "#2f6fde")]
COLOURS = {key: colour for key, _, colour in SIDES}
NAMES = {key: name for key, name, _ in SIDES}

# (file, title, unit and direction, [(group label or None, [(side, metric)])])
def bar_charts(medians, settings):
    fanout = fanout_sizes(medians)
    storm_viewers = settings.get("storm_viewers", "")
    idle_streams = settings.get("idle_streams", "")
    charts = [
        ("idle-memory", "Memory per idle SSE stream (%s streams held)" % thousands(idle_streams),
         "bytes per stream, lower is better",
         [(None, [(s, "idle_%s_bytes_per_stream" % s) for s in ("rowstream", "nchan", "starlette")])]),
        ("static", "Static page, GET /app.css", "requests per second, higher is better",
         [(None, [("rowstream", "static_rowstream_rps"), ("nginx", "static_nginx_rps")])]),
        ("static-cpu", "Static page, server CPU per request", "µs, lower is better",
         [(None, [("rowstream", "static_rowstream_cpu_us_per_req"), ("nginx", "static_nginx_cpu_us_per_req")])]),
        ("storm-connects", "Viewer storm (%s at once): connects with rows per second" % thousands(storm_viewers),
         "per second, higher is better (nchan: bare subscribes)",
         [(None, [("rowstream", "storm_connects_per_s"), ("gzip", "storm_gzip_connects_per_s"),
                  ("nchan", "storm_nchan_connects_per_s")])]),
        ("storm-cpu", "Viewer storm (%s at once): server CPU per arriving viewer" % thousands(storm_viewers),
         "µs, lower is better",
         [(None, [("rowstream", "storm_cpu_us_per_viewer"), ("gzip", "storm_gzip_cpu_us_per_viewer"),
                  ("nchan", "storm_nchan_cpu_us_per_viewer")])]),
        ("fanout-cpu", "Live fan-out: server CPU per delivered event", "µs, lower is better",
         [("%s viewers" % thousands(n), [(s, "fanout%d_%s_cpu_us_per_event" % (n, s))
                                         for s in ("rowstream", "gzip", "nchan", "starlette")]) for n in fanout]),
        ("fanout-events", "Live fan-out: events delivered per second", "events/s, higher is better",
         [("%s viewers" % thousands(n), [(s, "fanout%d_%s_events_per_s" % (n, s))
                                         for s in ("rowstream", "nchan", "starlette")]) for n in fanout]),
    ]
    # Scripts/bench scale: N --reuse-port instances with many viewers beside one instance, same run (issue 29)
    scale = "%s viewers over %s instances, %s on one" % (thousands(settings.get("scale_viewers", "")),
                                                         thousands(medians.get("scale_instances", "")),
                                                         thousands(settings.get("scale_single_viewers", "")))
    for figure, title, unit in (("cpu_us_per_event", "One machine: server CPU per delivered live change",
                                 "µs, lower is better (%s)" % scale),
                                ("rss_per_viewer_bytes", "One machine: server memory per viewer, summed over instances",
                                 "bytes of RSS, lower is better (%s)" % scale),
                                ("change_p99_ms", "One machine: a live change to every viewer, p99",
                                 "ms, lower is better (%s)" % scale)):
        charts.append(("scale-%s" % figure.replace("_", "-"), title, unit,
                       [(None, [("single", "scale_single_%s" % figure), ("scale", "scale_%s" % figure)])]))
    return charts


# (file, title, unit and direction, {side: [(viewers, metric)]})
def line_charts(medians, settings):
    fanout = fanout_sizes(medians)
    charts = []
    for figure, title, unit in (("cpu_us_per_event", "Fan-out over viewers: server CPU per delivered event",
                                 "µs, lower is better"),
                                ("events_per_s", "Fan-out over viewers: events delivered per second",
                                 "events/s, higher is better"),
                                ("latency_p50_ms", "Fan-out over viewers: delivery latency p50",
                                 "ms, lower is better")):
        charts.append(("fanout-%s" % figure.replace("_", "-"), title, unit,
                       {s: [(n, "fanout%d_%s_%s" % (n, s, figure)) for n in fanout]
                        for s in ("rowstream", "gzip", "nchan", "starlette")}))
    for figure, title, unit in (("all_first_rows_ms", "Storm over viewers: until every viewer has rows",
                                 "ms, lower is better"),
                                ("cpu_us_per_viewer", "Storm over viewers: server CPU per arriving viewer",
                                 "µs, lower is better")):
        charts.append(("storm-%s" % figure.replace("_", "-"), title, unit,
                       {s: storm_points(medians, settings, s, figure) for s in ("rowstream", "nchan")}))
    return charts


def fanout_sizes(medians):
    return sorted({int(m.group(1)) for m in (re.match(r"fanout(\d+)_", k) for k in medians) if m})


def storm_points(medians, settings, side, figure):
    """The storm at --storm-viewers (storm_* and storm_nchan_*), plus any storm<N>_<side>_* a JSON holds."""
    points = []
    viewers = settings.get("storm_viewers", "")
    if viewers.isdigit():
        points.append((int(viewers), "storm_%s" % figure if side == "rowstream" else "storm_%s_%s" % (side, figure)))
    for key in medians:
        m = re.match(r"storm(\d+)_%s_%s$" % (side, figure), key)
        if m and int(m.group(1)) not in {n for n, _ in points}:
            points.append((int(m.group(1)), key))
    return sorted(points)


def thousands(value):
    try:
        return "{:,}".format(int(value))
    except (TypeError, ValueError):
        return str(value)


def number(value):
    if value >= 100:
        return "{:,.0f}".format(value)
    if value >= 10:
        return "{:.1f}".format(value)
    return "{:.2f}".format(value)


def text(x, y, content, size=12, anchor="start", weight="normal", fill="#222"):
    return ('<text x="%g" y="%g" font-size="%d" text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
            % (x, y, size, anchor, weight, fill, escape(content)))


def svg(width, height, body, title):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" '
            'font-family="sans-serif">\n<title>%s</title>\n<rect width="100%%" height="100%%" fill="#fff"/>\n%s\n</svg>\n'
            % (width, height, width, height, escape(title), "\n".join(body)))


def render_bars(title, unit, groups, medians):
    groups = [(label, [(s, medians[m]) for s, m in bars if m in medians]) for label, bars in groups]
    groups = [(label, bars) for label, bars in groups if bars]
    if not groups:
        return None
    top = max(v for _, bars in groups for _, v in bars) or 1
    width, left, right, bar_h = 640, 150, 90, 22
    body = [text(16, 24, title, 15, weight="bold"), text(16, 44, unit, 12, fill="#555")]
    y = 62
    for label, bars in groups:
        if label:
            body.append(text(16, y + 14, label, 12, weight="bold"))
            y += 22
        for side, value in bars:
            w = (width - left - right) * value / top
            body.append(text(left - 8, y + 15, NAMES[side], 12, anchor="end"))
            body.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (left, y, w, bar_h - 4,
                                                                                      COLOURS[side]))
            body.append(text(left + w + 6, y + 15, number(value), 12))
            y += bar_h
        y += 8
    return svg(width, y + 8, body, title)


def render_lines(title, unit, series, medians):
    series = {s: [(n, medians[m]) for n, m in points if m in medians] for s, points in series.items()}
    series = {s: points for s, points in series.items() if points}
    if not series:
        return None
    xs = sorted({n for points in series.values() for n, _ in points})
    top = max(v for points in series.values() for _, v in points) or 1
    width, height, left, right, plot_top, plot_bottom = 640, 320, 70, 140, 60, 270
    def px(n):
        return left + (width - left - right) * (xs.index(n) + 0.5) / len(xs)   # viewer counts as categories
    def py(v):
        return plot_bottom - (plot_bottom - plot_top) * v / top
    body = [text(16, 24, title, 15, weight="bold"), text(16, 44, unit, 12, fill="#555"),
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>' % (left, plot_bottom, width - right, plot_bottom),
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>' % (left, plot_top, left, plot_bottom),
            text(left - 6, plot_top + 4, number(top), 11, anchor="end", fill="#555"),
            text(left - 6, plot_bottom + 4, "0", 11, anchor="end", fill="#555"),
            text((left + width - right) / 2, plot_bottom + 40, "viewers", 12, anchor="middle", fill="#555")]
    for n in xs:
        body.append(text(px(n), plot_bottom + 18, thousands(n), 11, anchor="middle"))
    legend_y, labels = plot_top, {}
    for side, _, colour in SIDES:
        if side not in series:
            continue
        points = series[side]
        if len(points) > 1:
            body.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                        % (colour, " ".join("%.1f,%.1f" % (px(n), py(v)) for n, v in points)))
        for n, v in points:
            body.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>' % (px(n), py(v), colour))
            labels.setdefault(n, []).append((py(v), number(v), colour))
        body.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (width - right + 14, legend_y, colour))
        body.append(text(width - right + 32, legend_y + 11, NAMES[side], 12))
        legend_y += 20
    for n, column in sorted(labels.items()):   # each point's value beside it, nudged down so that none overlap
        below = 0
        for y, label, colour in sorted(column):
            y = max(y + 4, below + 12)
            body.append(text(px(n) + 8, y, label, 11, fill=colour))
            below = y
    return svg(width, height, body, title)


def write_charts(bench, out_dir):
    """Writes every chart the JSON has figures for; returns the file names written, in order."""
    medians, settings = bench.get("medians", {}), bench.get("settings", {})
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, title, unit, groups in bar_charts(medians, settings):
        written += save(out_dir, name, render_bars(title, unit, groups, medians))
    for name, title, unit, series in line_charts(medians, settings):
        written += save(out_dir, name + "-lines", render_lines(title, unit, series, medians))
    return written


def save(out_dir, name, content):
    if content is None:
        return []
    path = os.path.join(out_dir, name + ".svg")
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)
    return [name + ".svg"]


def merged(figures, bench):
    """FIGURES (the committed figures.json, or {}) with BENCH's medians and settings laid over it."""
    new = {k: v for k, v in bench.get("medians", {}).items() if "_before" not in k}
    out = dict(figures)
    out["medians"] = dict(figures.get("medians", {}), **new)
    out["settings"] = dict(figures.get("settings", {}), **bench.get("settings", {}))
    out["updates"] = figures.get("updates", []) + [
        {"benchmarks": sorted({re.sub(r"\d+$", "", k.split("_")[0]) for k in new}), "settings": bench.get("settings", {})}]
    return out


def main():
    args = sys.argv[1:]
    draw_only = args[:1] == ["--draw"]
    if draw_only:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: bench_charts.py [--draw] BENCH.json OUT_DIR")
    with open(args[0], encoding="utf-8") as f:
        bench = json.load(f)
    if not draw_only:
        figures_path = os.path.join(args[1], "figures.json")
        figures = {}
        if os.path.exists(figures_path):
            with open(figures_path, encoding="utf-8") as f:
                figures = json.load(f)
        bench = merged(figures, bench)
        os.makedirs(args[1], exist_ok=True)
        with open(figures_path, "w", encoding="utf-8") as f:
            json.dump(bench, f, indent=1, sort_keys=True)
            f.write("\n")
    written = write_charts(bench, args[1])
    print("charts: %s in %s" % (", ".join(written) or "none", args[1]))


if __name__ == "__main__":
    main()
