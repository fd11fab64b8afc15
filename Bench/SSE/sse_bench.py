#!/usr/bin/env python3
"""SSE probes for Scripts/bench, 127.0.0.1 only; every loop bounded in count and time. Prints one JSON line.

  sse_bench.py ttfr --port P [--path /tables/customers/stream] [--streams 200]
      Sequential streams: time from sending the request to the end of the first `rows` event (ms, p50/p99).
(Idle capacity moved to the Swift load client: `rowstream-load idle`, which holds 19,000 streams.)
"""
import argparse, json, socket, statistics, time

ROWS = b"event: rows\n"


def request(path):
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()


def first_rows_done(buf):
    """True once a complete `rows` event (terminated by a blank line) is in buf."""
    at = buf.find(ROWS)
    return at >= 0 and buf.find(b"\n\n", at) >= 0


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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["ttfr"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--path", default="/tables/customers/stream")
    p.add_argument("--streams", type=int, default=None)
    args = p.parse_args()
    args.streams = min(args.streams or 200, 10000)
    ttfr(args)


main()
