#!/usr/bin/env python3
"""Scripts/bench's summary: medians of every metric over the runs, the ratios to each peer (paired within a run,
then the median), and the issue's targets met or not. Prints the table; writes the JSON file.

A metric with `_before` in its name is the --against build's; its ratio is printed as `<metric>_vs_before`.

Usage: summarize.py RESULTS.jsonl OUT.json key=value...   (the key=values are the run's settings, kept in the JSON)
RESULTS.jsonl: one {"run": N, "metric": NAME, "value": X} per line.
"""
import json, os, platform, statistics, sys

UNITS = [("_cells_per_s", "cells/s/core"), ("_ratio_to_mutex", "x Mutex's ns per lock body (lower better)"), ("_ns", "ns per lock body"), ("_bytes_per_row", "bytes on the wire per row"),
         ("_gzip_ratio", "x identity's bytes per row (lower better)"), ("_rps", "req/s"), ("_ms", "ms"), ("_bytes_per_stream", "bytes"),
         ("_events_per_s", "events/s"), ("_cpu_us_per_event", "us CPU/event"), ("_lost", "events"),
         ("_event_bytes", "bytes"), ("_message_bytes", "bytes"), ("_per_page", "requests"), ("_viewers", "viewers"), ("_streams", "streams"),
         ("_with_rows", "viewers"), ("_percent", "% of a core"), ("_bytes_per_stream_3s", "bytes"),
         ("_bytes_per_stream_15s", "bytes"), ("_kb", "KB"), ("_arrival_seconds", "s"),
         ("_ratio_to_escape_loop", "x a plain escape loop's cells/s (same run)"), ("_bytes_per_s", "bytes/s"),
         ("_cpu_us_per_req", "us CPU/request"), ("_per_viewer_bytes", "bytes per viewer"),
         ("_per_socket", "bytes per socket"), ("_per_change", "requests"), ("_first_rows_s", "s"),
         ("_viewers_held", "viewers"), ("_delivered", "events"), ("_instances", "processes"),
         ("_load_processes", "processes"), ("_instructions_per_viewer", "instructions"), ("_rss_total_kb", "KB"), ("_before_changes", "1-minute load average"),
         ("_after_changes", "1-minute load average")]

# (name, numerator metric, denominator metric, meaning)
def ratio_specs(metrics):
    specs = [("static_ratio_to_nginx", "static_rowstream_rps", "static_nginx_rps", "x nginx req/s (higher better)")]
    specs.append(("static_before_ratio_to_nginx", "static_before_rps", "static_nginx_rps",
                  "x nginx req/s, the --against build (same run)"))
    specs.append(("static_cpu_ratio_to_nginx", "static_rowstream_cpu_us_per_req", "static_nginx_cpu_us_per_req",
                  "x nginx CPU/request (lower better)"))
    for peer in ("nchan", "starlette"):
        specs.append((f"idle_memory_ratio_to_{peer}", "idle_rowstream_bytes_per_stream", f"idle_{peer}_bytes_per_stream",
                      f"x {peer} bytes/stream (lower better)"))
        for after in ("3s", "15s"):
            specs.append((f"idle_storm_{after}_memory_ratio_to_{peer}", f"idle_storm_rowstream_bytes_per_stream_{after}",
                          f"idle_storm_{peer}_bytes_per_stream_{after}", f"x {peer} bytes/stream (lower better)"))
    sizes = sorted({int(m[6:].split("_")[0]) for m in metrics if m.startswith("fanout") and m[6:7].isdigit()})
    for n in sizes:
        specs.append((f"fanout{n}_gzip_cpu_ratio", f"fanout{n}_gzip_cpu_us_per_event",
                      f"fanout{n}_rowstream_cpu_us_per_event", "x identity's CPU/event (lower better)"))
        specs.append((f"fanout{n}_sendmsg_cpu_ratio_to_nchan", f"fanout{n}_sendmsg_cpu_us_per_event",
                      f"fanout{n}_nchan_cpu_us_per_event", "x nchan CPU/event, --io-uring off (lower better)"))
        specs.append((f"fanout{n}_cpu_ratio_to_sendmsg", f"fanout{n}_rowstream_cpu_us_per_event",
                      f"fanout{n}_sendmsg_cpu_us_per_event", "x the sendmsg path's CPU/event: io_uring's gain (lower better)"))
        for floor in ("send", "uring"):
            specs.append((f"fanout{n}_cpu_ratio_to_floor_{floor}", f"fanout{n}_rowstream_cpu_us_per_event",
                          f"fanout{n}_floor_{floor}_cpu_us_per_event", f"x the loopback floor's CPU/event ({floor})"))
            specs.append((f"fanout{n}_floor_{floor}_cpu_ratio_to_nchan", f"fanout{n}_floor_{floor}_cpu_us_per_event",
                          f"fanout{n}_nchan_cpu_us_per_event", f"x nchan CPU/event: the floor ({floor}) itself"))
        for peer in ("nchan", "starlette"):
            specs.append((f"fanout{n}_cpu_ratio_to_{peer}", f"fanout{n}_rowstream_cpu_us_per_event",
                          f"fanout{n}_{peer}_cpu_us_per_event", f"x {peer} CPU/event (lower better)"))
            specs.append((f"fanout{n}_events_ratio_to_{peer}", f"fanout{n}_rowstream_events_per_s",
                          f"fanout{n}_{peer}_events_per_s", f"x {peer} events/s (higher better)"))
    # the storm's connect rate (viewers with their first rows per second) over nchan's bare subscribe rate
    specs.append(("storm_connects_ratio_to_nchan", "storm_connects_per_s", "storm_nchan_connects_per_s",
                  "x nchan subscribes/s (higher better)"))
    # and the server CPU per arriving viewer over nchan's per bare subscribe (issue 29); the --against build's too
    specs.append(("storm_cpu_ratio_to_nchan", "storm_cpu_us_per_viewer", "storm_nchan_cpu_us_per_viewer",
                  "x nchan CPU/subscribe (lower better)"))
    specs.append(("storm_before_connects_ratio_to_nchan", "storm_before_connects_per_s", "storm_nchan_connects_per_s",
                  "x nchan subscribes/s, the --against build (same run)"))
    specs.append(("storm_before_cpu_ratio_to_nchan", "storm_before_cpu_us_per_viewer", "storm_nchan_cpu_us_per_viewer",
                  "x nchan CPU/subscribe, the --against build (same run)"))
    # and over nchan handing each subscriber the same first rows as a stored message (a like-for-like peer)
    specs.append(("storm_connects_ratio_to_nchan_rows", "storm_connects_per_s", "storm_nchan_rows_connects_per_s",
                  "x nchan subscribes/s with the first rows (higher better)"))
    specs.append(("storm_cpu_ratio_to_nchan_rows", "storm_cpu_us_per_viewer", "storm_nchan_rows_cpu_us_per_viewer",
                  "x nchan CPU/subscribe with the first rows (lower better)"))
    specs.append(("storm_before_cpu_ratio_to_nchan_rows", "storm_before_cpu_us_per_viewer",
                  "storm_nchan_rows_cpu_us_per_viewer", "x nchan CPU/subscribe with the first rows, the --against build"))
    # the same storm with every viewer asking for gzip, as browsers do (nchan's subscribers as before)
    for side, meaning in (("", ""), ("_before", ", the --against build (same run)")):
        specs.append((f"storm_gzip{side}_connects_ratio_to_nchan", f"storm_gzip{side}_connects_per_s",
                      "storm_nchan_connects_per_s", f"x nchan subscribes/s, viewers asking for gzip{meaning}"))
        specs.append((f"storm_gzip{side}_cpu_ratio_to_nchan", f"storm_gzip{side}_cpu_us_per_viewer",
                      "storm_nchan_cpu_us_per_viewer", f"x nchan CPU/subscribe, viewers asking for gzip{meaning}"))
    # Scripts/bench cluster: 3 instances behind nginx over the single instance with as many viewers, same run
    for figure, meaning in (("fanout_cpu_us_per_event", "x single instance's CPU/event (lower better)"),
                            ("fanout_latency_p99_ms", "x single instance's p99 (lower better)"),
                            ("storm_viewer_p99_ms", "x single instance's p99 (lower better)")):
        specs.append((f"cluster_{figure}_vs_single", f"cluster_{figure}", f"cluster_single_{figure}", meaning))
    # Scripts/bench scale: N SO_REUSEPORT instances with many viewers over ONE instance with 10,000, same run
    for figure, meaning in (("cpu_us_per_event", "x one instance's CPU/event (lower better)"),
                            ("rss_per_viewer_bytes", "x one instance's RSS/viewer (lower better)"),
                            ("change_p99_ms", "x one instance's p99 (lower better)")):
        specs.append((f"scale_{figure}_vs_single", f"scale_{figure}", f"scale_single_{figure}", meaning))
    # Scripts/bench --against REV: each figure of this tree over the same figure of REV's build, paired within a run
    for before in sorted(m for m in metrics if "_before" in m):
        now = before.replace("_before", "_rowstream", 1)
        if now not in metrics:
            now = before.replace("_before", "", 1)
        specs.append((now + "_vs_before", now, before, "x the --against build (same run)"))
    return specs


def main():
    rows = [json.loads(line) for line in open(sys.argv[1])]
    settings = dict(arg.split("=", 1) for arg in sys.argv[3:])
    samples, by_run = {}, {}
    for r in rows:
        samples.setdefault(r["metric"], []).append(r["value"])
        by_run.setdefault(r["metric"], {})[r["run"]] = r["value"]
    units = {m: next((u for s, u in UNITS if m.endswith(s)), "") for m in samples}
    for name, top, bottom, meaning in ratio_specs(samples):
        if top in by_run and bottom in by_run:
            pairs = [(by_run[top][k], by_run[bottom][k]) for k in by_run[top] if k in by_run[bottom]]
            values = [a / b for a, b in pairs if b]
            if values:
                samples[name] = values
                units[name] = meaning
    medians = {k: statistics.median(v) for k, v in samples.items()}
    print(f"\n{'benchmark':48} {'median':>14}  {'unit':36} {'runs (min..max)':>24}")
    for k in samples:
        v = samples[k]
        print(f"{k:48} {medians[k]:14.3f}  {units[k]:36} {min(v):11.3f}..{max(v):<11.3f}")
    targets = []
    def target(text, metric, ok):
        if metric in medians:
            targets.append({"target": text, "metric": metric, "median": medians[metric], "met": ok(medians[metric])})
    target("memory per idle SSE stream at most 4 KB", "idle_rowstream_bytes_per_stream", lambda v: v <= 4096)
    for after in ("3s", "15s"):   # issue 17 goal 2: whatever the arrival pattern
        target(f"memory per idle stream after a storm of arrivals ({after} after) at most 3 KB",
               f"idle_storm_rowstream_bytes_per_stream_{after}", lambda v: v <= 3072)
    for n in sorted({k[6:].split("_")[0] for k in medians if k.startswith("fanout")}):
        target(f"fan-out {n}: gzip CPU per event at most 1.2x identity's (issue 17)", f"fanout{n}_gzip_cpu_ratio",
               lambda v: v <= 1.2)
        target(f"fan-out {n}: CPU per event no more than nchan's", f"fanout{n}_cpu_ratio_to_nchan", lambda v: v <= 1)
        if n == "10000":   # issue 29 part 4
            target("fan-out 10000: CPU per event at most half of nchan's (issue 29)", "fanout10000_cpu_ratio_to_nchan",
                   lambda v: v <= 0.5)
        target(f"fan-out {n}: at least 5x sse-starlette's events/s", f"fanout{n}_events_ratio_to_starlette",
               lambda v: v >= 5)
    target("static page at least 80% of nginx's req/s", "static_ratio_to_nginx", lambda v: v >= 0.8)
    target("viewer storm: exactly 1 upstream request per page", "storm_upstream_requests_per_page", lambda v: v == 1)
    target("viewer storm: all viewers have rows within 1.0 s (issue 17)", "storm_all_first_rows_ms", lambda v: v <= 1000)
    target("viewer storm: server CPU per arriving viewer at most 60 µs (issue 17)", "storm_cpu_us_per_viewer",
           lambda v: v <= 60)
    target("viewer storm: CPU per arriving viewer at most nchan's per subscribe (issue 29)", "storm_cpu_ratio_to_nchan",
           lambda v: v <= 1)
    target("viewer storm: connects with rows per second at least nchan's subscribes (issue 29)",
           "storm_connects_ratio_to_nchan", lambda v: v >= 1)
    target("cluster storm: 1 upstream request per page cluster-wide (issue 15)",
           "cluster_storm_upstream_requests_per_page", lambda v: v == 1)
    target("scale: a live change reaches every viewer with p99 under 2 s (issue 29)", "scale_change_p99_ms",
           lambda v: v < 2000)
    target("scale: 1 upstream request per page across the instances (issue 29)", "scale_upstream_requests_per_page",
           lambda v: v == 1)
    target("scale: every viewer held got every live change (issue 29)", "scale_lost", lambda v: v == 0)
    target("gzip: wire bytes per demo row at most 25% of identity's (issue 17)", "bytes_gzip_ratio",
           lambda v: v <= 0.25)
    target("time to first row under 5 ms at the median", "ttfr_p50_ms", lambda v: v < 5)
    target("rendering at least 5 million cells/s/core", "render_cells_per_s", lambda v: v >= 5e6)
    target("rendering at least 0.25 of a plain escape loop's cells/s, same run (issue 17)",
           "render_ratio_to_escape_loop", lambda v: v >= 0.25)
    if targets:
        print("\nissue 6, 15, 17 and 29 targets (medians of this run):")
        for t in targets:
            print(f"  {'met    ' if t['met'] else 'NOT met'}  {t['target']:52} {t['metric']} = {t['median']:.3f}")
    out = {"settings": settings, "cpus": os.cpu_count(), "machine": platform.machine(), "medians": medians,
           "units": units, "samples": samples, "targets": targets}
    json.dump(out, open(sys.argv[2], "w"), indent=1)
    print(f"\nwritten: {sys.argv[2]}")


main()
