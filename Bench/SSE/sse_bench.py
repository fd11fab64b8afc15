#!/usr/bin/env python3
"""SSE probes for Scripts/bench, 127.0.0.1 only; every loop bounded in count and time. Prints one JSON line.

  sse_bench.py ttfr --port P [--path /tables/customers/stream] [--streams 200]
      Sequential streams: time from sending the request to the end of the first `rows` event (ms, p50/p99).
  sse_bench.py idle --port P --pid SERVER_PID [--streams 5000] [--hold 3]
      Opens N streams, waits until each has its first `rows` event, holds them idle, and reports the server's
      VmRSS (/proc/PID/status) before and after, and the difference per stream.
"""
import argparse, json, resource, selectors, socket, statistics, sys, time

ROWS = b"event: rows\n"


def request(path):
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()


def first_rows_done(buf):
    """True once a complete `rows` event (terminated by a blank line) is in buf."""
    at = buf.find(ROWS)
    return at >= 0 and buf.find(b"\n\n", at) >= 0


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS")


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def ttfr(args):
    times = []
    for _ in range(args.streams):
        s = socket.create_connection(("127.0.0.1", args.port), timeout=10)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        start = time.perf_counter()
        s.sendall(request(args.path))
        buf = b""
        while not first_rows_done(buf):
            chunk = s.recv(65536)
            if not chunk:
                raise SystemExit("stream closed before the first rows event")
            buf += chunk
        times.append((time.perf_counter() - start) * 1000)
        s.close()
    print(json.dumps({"streams": len(times), "p50_ms": round(statistics.median(times), 3),
                      "p99_ms": round(percentile(times, 99), 3)}))


def idle(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.streams + 100)), hard))
    before = rss_kb(args.pid)
    sel = selectors.DefaultSelector()
    socks, pending = [], {}
    deadline = time.monotonic() + args.timeout
    opened = 0
    while (opened < args.streams or pending) and time.monotonic() < deadline:
        # open in waves of 200 so the accept backlog is never overrun
        while opened < args.streams and len(pending) < 200:
            s = socket.socket()
            # the server admits at most 4,096 connections per client address: spread over 127.0.0.2, .3, ...
            s.bind((f"127.0.0.{2 + opened // 4000}", 0))
            s.connect(("127.0.0.1", args.port))
            s.sendall(request(args.path))
            s.setblocking(False)
            socks.append(s)
            pending[s] = b""
            sel.register(s, selectors.EVENT_READ)
            opened += 1
        for key, _ in sel.select(timeout=1):
            s = key.fileobj
            try:
                chunk = s.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                raise SystemExit("a stream was reset while opening (refused by the server?)")
            if not chunk:
                raise SystemExit("a stream closed while opening: " + pending[s][:200].decode(errors="replace"))
            pending[s] += chunk
            if first_rows_done(pending[s]):
                del pending[s]
                sel.unregister(s)
    ready = opened - len(pending)
    time.sleep(args.hold)
    after = rss_kb(args.pid)
    for s in socks:
        s.close()
    print(json.dumps({"streams": ready, "rss_before_kb": before, "rss_after_kb": after,
                      "bytes_per_stream": round((after - before) * 1024 / max(ready, 1))}))
    if ready < args.streams:
        sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["ttfr", "idle"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--path", default="/tables/customers/stream")
    p.add_argument("--streams", type=int, default=None)
    p.add_argument("--pid", type=int)
    p.add_argument("--hold", type=float, default=3)
    p.add_argument("--timeout", type=float, default=120)
    args = p.parse_args()
    if args.mode == "ttfr":
        args.streams = min(args.streams or 200, 10000)
        ttfr(args)
    else:
        if not args.pid:
            raise SystemExit("--pid is required")
        args.streams = min(args.streams or 5000, 19000)
        idle(args)


main()
