#!/usr/bin/env python3
"""Scripts/bench scale: many live viewers of one table over N `rowstream --reuse-port` instances sharing Redis.

One phase: redis-server (unix socket), N instances of the release `rowstream` on ONE port (`--reuse-port --redis`,
one key file, `Bench/Scale/scale-table.json`: a live table over instance 0's demo upstream with `--bench-stamp on`,
so each refresh fetch stamps its rows with the upstream's request number), then several `rowstream-load scale`
processes, each under its own descriptor limit and dialing from source addresses of its own (plan_clients). When
every viewer has its first rows: RSS of the instances, kernel memory (/proc/net/sockstat, /proc/slabinfo,
/proc/meminfo), upstream requests (the demo upstream's own count: the `seq=` it stamps; the table has no prefetch,
so all of them are page 1). Then CHANGES times: one `POST /tables/customers/refresh` (the fanout bench's
refresh path: the refresher fetches the head, publishes it in Redis, every instance sends the change to its viewers),
waiting until every load process has it on every stream it holds; each receipt's wall time minus the POST's is its
latency; CPU (utime+stime of the instances, Redis apart) over the changes per delivered event.

Two phases in one run: ONE instance with --single-viewers viewers (the reference), then --instances instances with
--viewers viewers. Prints the kernel limits that bite at that size and the figures; the last line of standard
output is one JSON object of all figures (`scale_*` and `scale_single_*`), which Scripts/bench records. Every process
it starts is stopped by PID (SIGTERM, then SIGKILL), also on an error or a signal. It changes no sysctl.

Usage: scale.py --rowstream BIN --load BIN --public DIR --work DIR [--viewers N] [--instances N] [--single-viewers N]
                [--changes N] [--per-process N] [--per-address N]
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PER_PROCESS = 15_000    # streams per load process: under its 20,000 descriptors with room to spare
PER_INSTANCE = 15_000   # viewers per instance aimed at: under its 19,744-connection cap (open files less 256)
PER_ADDRESS = 4_000     # streams per source address: under the server's 4,096 per client address even on one instance
SLAB_CACHES = ("TCP", "sock_inode_cache", "filp", "dentry", "eventpoll_epi", "eventpoll_pwq")
SYSCTLS = ("net.ipv4.tcp_mem", "net.ipv4.ip_local_port_range", "net.core.somaxconn", "net.ipv4.tcp_max_syn_backlog",
           "net.ipv4.tcp_max_orphans", "net.ipv4.tcp_max_tw_buckets", "net.ipv4.tcp_tw_reuse",
           "net.netfilter.nf_conntrack_max", "net.netfilter.nf_conntrack_count", "fs.file-max", "fs.nr_open")


# ---- pure logic (Tests/Browser/test_scale_bench.py) ----

def instances_for(viewers, per_instance=PER_INSTANCE, minimum=6):
    """How many instances for `viewers`: enough that each holds at most `per_instance`, and at least `minimum`."""
    return max(minimum, -(-viewers // per_instance))


def plan_clients(viewers, per_process=PER_PROCESS, per_address=PER_ADDRESS, first=2):
    """The load processes for `viewers`: a list of (streams, first source address). As few processes as hold at most
    `per_process` each, the viewers split as evenly as they go; process i dials from its own addresses, following
    the previous one's (127.0.0.<first> on), `per_address` streams from each. Raises ValueError past 127.0.0.254."""
    if viewers < 1 or per_process < 1 or per_address < 1:
        raise ValueError("viewers, streams per process and per address must be at least 1")
    count = -(-viewers // per_process)
    plan, octet = [], first
    for i in range(count):
        streams = viewers // count + (1 if i < viewers % count else 0)
        addresses = -(-streams // per_address)
        if octet + addresses - 1 > 254:
            raise ValueError(f"{viewers} viewers at {per_address} per address need addresses past 127.0.0.254")
        plan.append((streams, f"127.0.0.{octet}"))
        octet += addresses
    return plan


def percentile(sorted_values, p):
    """Nearest rank, as Bench/Load's `percentile`; 0 when empty."""
    if not sorted_values:
        return 0
    rank = int(round(p / 100 * (len(sorted_values) - 1)))
    return sorted_values[min(len(sorted_values) - 1, max(0, rank))]


def latencies_ms(receipt_lines, published_us):
    """Each receipt's latency in ms, sorted: lines `K WALL_US` (K from 1), minus the K-th publish time. A receipt
    of a change that was never published (K past the list) is an error: something else changed the table."""
    out = []
    for line in receipt_lines:
        if not line.strip():
            continue
        change, at = (int(x) for x in line.split())
        if not 1 <= change <= len(published_us):
            raise ValueError(f"a receipt of change {change}, but {len(published_us)} were published")
        out.append((at - published_us[change - 1]) / 1000)
    return sorted(out)


def parse_sockstat(text):
    """/proc/net/sockstat's TCP line: {'inuse', 'orphan', 'tw', 'alloc', 'mem'} (mem in pages)."""
    for line in text.splitlines():
        if line.startswith("TCP:"):
            words = line.split()[1:]
            return {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}
    raise ValueError("no TCP line in sockstat")


def parse_slabinfo(text, caches=SLAB_CACHES):
    """Bytes held by each of `caches` in /proc/slabinfo: active objects times object size."""
    out = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) > 3 and words[0] in caches:
            out[words[0]] = int(words[1]) * int(words[3])
    return out


def parse_meminfo_kb(text, field):
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise ValueError(f"no {field} in meminfo")


def kernel_per_socket(before, after, sockets):
    """Kernel memory per TCP socket between two readings ({'sockstat', 'slab', 'slab_kb'}) over the `sockets` this
    run opened (both ends of each viewer's connection: the machine's own count, `sockets_added`, also moves with
    whatever else runs on it): socket buffers (sockstat `mem` pages), the socket caches of SLAB_CACHES, all slab."""
    added = after["sockstat"]["inuse"] - before["sockstat"]["inuse"]
    if sockets <= 0:
        return {"sockets_added": added}
    slab = sum(after["slab"].get(k, 0) - before["slab"].get(k, 0) for k in set(after["slab"]) | set(before["slab"]))
    return {
        "sockets_added": added,
        "kernel_buffer_bytes_per_socket": (after["sockstat"]["mem"] - before["sockstat"]["mem"]) * 4096 / sockets,
        "kernel_socket_slab_bytes_per_socket": slab / sockets,
        "kernel_all_slab_bytes_per_socket": (after["slab_kb"] - before["slab_kb"]) * 1024 / sockets,
    }


def stamp_seq(text):
    """The request number `seq=N` a bench-stamped demo page carries (the first one; every row has the same)."""
    match = re.search(r"\bts=\d+ seq=(\d+)", text)
    if not match:
        raise ValueError("no ts=... seq=... stamp in the page")
    return int(match.group(1))


# ---- processes ----

class Processes:
    """Every process this script starts, stopped by PID."""

    def __init__(self):
        self.started = []

    def start(self, args, **kwargs):
        process = subprocess.Popen(args, **kwargs)
        self.started.append(process)
        return process

    def stop(self, process, grace=10):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        if process in self.started:
            self.started.remove(process)

    def stop_all(self):
        for process in reversed(list(self.started)):
            self.stop(process, grace=5)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"{what} within {seconds} s")


def http(port, method, path, timeout=10):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                  .encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")


def cpu_us(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return (int(fields[11]) + int(fields[12])) * 1_000_000 // os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def kernel_reading():
    slabinfo = Path("/proc/slabinfo")
    return {
        "sockstat": parse_sockstat(Path("/proc/net/sockstat").read_text()),
        "slab": parse_slabinfo(slabinfo.read_text()) if os.access(slabinfo, os.R_OK) else {},
        "slab_kb": parse_meminfo_kb(Path("/proc/meminfo").read_text(), "Slab"),
    }


def kernel_limits():
    out = {}
    for name in SYSCTLS:
        path = Path("/proc/sys") / name.replace(".", "/")
        out[name] = " ".join(path.read_text().split()) if path.exists() else "absent"
    out["ulimit -n"] = str(os_limit())
    return out


def os_limit():
    import resource
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Lines:
    """The JSON lines a load process has printed so far (its stdout goes to a file)."""

    def __init__(self, path):
        self.path = path

    def all(self):
        try:
            text = self.path.read_text()
        except OSError:
            return []
        return [json.loads(line) for line in text.splitlines() if line.startswith("{") and line.endswith("}")]

    def phase(self, name):
        return [line for line in self.all() if line.get("phase") == name]


def run_phase(args, procs, name, instances, viewers):
    """One cluster of `instances` with `viewers` viewers; returns its figures (and prints what it does)."""
    work = Path(args.work) / name
    work.mkdir(parents=True, exist_ok=True)
    log = lambda message: print(f"   [{name}] {message}", flush=True)
    sock = work / "redis.sock"
    redis = procs.start(["redis-server", "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700",
                         "--save", "", "--appendonly", "no", "--dir", str(work), "--logfile", str(work / "redis.log")])
    wait_for(sock.exists, 10, "redis-server did not start")
    secret = work / "secret"
    secret.write_text(subprocess.run(["base64"], input=os.urandom(32), capture_output=True, check=True).stdout
                      .decode())
    secret.chmod(0o600)
    demo_port, port = free_port(), free_port()
    config = work / "scale.json"
    config.write_text((HERE / "scale-table.json").read_text().replace("__DEMO_PORT__", str(demo_port)))
    servers = []
    for i in range(instances):
        first = ["--demo-port", str(demo_port), "--bench-stamp", "on", "--demo-latency-ms", "0"] if i == 0 else []
        out = work / f"instance{i}.out"
        with open(out, "w") as stdout, open(work / f"instance{i}.err", "w") as stderr:
            servers.append(procs.start(
                [args.rowstream, "--port", str(port), "--reuse-port", "--redis", f"unix://{sock}",
                 "--secret-file", str(secret), "--config", str(config), "--public", args.public, *first],
                stdout=stdout, stderr=stderr))
        wait_for(lambda: "Rowstream serving" in out.read_text(), 20, f"instance {i} did not start")
    pids = [s.pid for s in servers]
    log(f"{instances} instance(s) on 127.0.0.1:{port} (PIDs {' '.join(map(str, pids))}), redis-server {redis.pid}")
    time.sleep(0.5)   # let each instance's Redis client connect and subscribe (not a synchronisation: a settle)
    rss_before = sum(rss_kb(p) for p in pids)
    kernel_before = kernel_reading()
    plan = plan_clients(viewers, args.per_process, args.per_address)
    clients = []
    started = time.monotonic()
    for i, (streams, source) in enumerate(plan):
        out = work / f"load{i}.out"
        with open(out, "w") as stdout, open(work / f"load{i}.err", "w") as stderr:
            process = procs.start(
                [args.load, "scale", "--port", str(port), "--streams", str(streams), "--source", source,
                 "--per-address", str(args.per_address), "--changes", str(args.changes),
                 "--receipts", str(work / f"receipts{i}.txt"), "--max-pending", "500",
                 "--timeout", str(args.timeout), "--change-wait", "30"],
                stdout=stdout, stderr=stderr)
        clients.append((process, Lines(out)))
    log(f"{len(plan)} load process(es): " + ", ".join(f"{s} from {a}" for s, a in plan))

    def all_ready():
        for process, lines in clients:
            if not lines.phase("ready"):
                if process.poll() is not None:
                    raise RuntimeError(f"a load process exited ({process.returncode}) before its viewers had rows")
                return False
        return True
    wait_for(all_ready, args.timeout, "not every viewer had rows")
    first_rows_s = time.monotonic() - started
    ready = [lines.phase("ready")[0] for _, lines in clients]
    with_rows = sum(r["viewers_with_rows"] for r in ready)
    held = sum(r["held"] for r in ready)
    log(f"{with_rows} of {viewers} viewers have rows after {first_rows_s:.1f} s; {held} held")
    time.sleep(1)     # let the last first batches leave the instances' queues before reading memory
    rss_after = sum(rss_kb(p) for p in pids)
    kernel_after = kernel_reading()
    upstream_first = upstream_count(demo_port)
    if any(lines.phase("change") for _, lines in clients):
        raise RuntimeError("a viewer received a change before any was published")
    cpu_start = sum(cpu_us(p) for p in pids)
    redis_cpu_start = cpu_us(redis.pid)
    load_pids = [process.pid for process, _ in clients]
    load_cpu_start = sum(cpu_us(p) for p in load_pids)
    loadavg_before = float(Path("/proc/loadavg").read_text().split()[0])
    published = []
    peak_pages = kernel_after["sockstat"]["mem"]   # socket buffers while the changes are on their way
    for change in range(1, args.changes + 1):
        published.append(time.time_ns() // 1000)
        status, body = http(port, "POST", "/tables/customers/refresh")
        if not 200 <= status < 300:
            raise RuntimeError(f"POST refresh answered {status}: {body[:200]}")

        def have(change=change):
            nonlocal peak_pages
            peak_pages = max(peak_pages, parse_sockstat(Path("/proc/net/sockstat").read_text())["mem"])
            for process, lines in clients:
                if len(lines.phase("change")) < change:
                    if process.poll() is not None:
                        raise RuntimeError(f"a load process exited ({process.returncode}) before change {change}")
                    return False
            return True
        wait_for(have, 60, f"change {change} did not reach every load process")
    cpu = sum(cpu_us(p) for p in pids) - cpu_start
    redis_cpu = cpu_us(redis.pid) - redis_cpu_start
    load_cpu = sum(cpu_us(p) for p in load_pids) - load_cpu_start   # the load processes still run: read before wait
    loadavg_after = float(Path("/proc/loadavg").read_text().split()[0])
    upstream_after = upstream_count(demo_port) - 1   # less the probe that read upstream_first
    for process, _ in clients:
        process.wait(60)
        procs.started.remove(process)
    done = [lines.phase("done")[0] for _, lines in clients]
    receipts = []
    for i in range(len(plan)):
        receipts += (work / f"receipts{i}.txt").read_text().splitlines()
    lat = latencies_ms(receipts, published)
    delivered = len(lat)
    for server in servers:
        procs.stop(server)
    procs.stop(redis)
    figures = {
        "instances": instances, "load_processes": len(plan), "viewers": viewers, "viewers_with_rows": with_rows,
        "viewers_held": sum(d["held"] for d in done), "all_first_rows_s": round(first_rows_s, 2),
        "first_rows_p99_ms": max(d["first_rows_p99_ms"] for d in done),
        "upstream_requests_per_page": upstream_first,   # the table has no prefetch: every request was page 1
        "upstream_requests_per_change": (upstream_after - upstream_first) / args.changes,
        "changes": args.changes, "delivered": delivered, "lost": held * args.changes - delivered,
        "change_p50_ms": round(percentile(lat, 50), 1), "change_p99_ms": round(percentile(lat, 99), 1),
        "change_max_ms": round(lat[-1], 1) if lat else 0,
        "rss_total_kb": rss_after, "rss_per_viewer_bytes": round((rss_after - rss_before) * 1024 / max(held, 1)),
        "rss_total_per_viewer_bytes": round(rss_after * 1024 / max(held, 1)),
        "cpu_us_per_event": round(cpu / max(delivered, 1), 2),
        "redis_cpu_us_per_event": round(redis_cpu / max(delivered, 1), 3),
        # the load processes' own share of the 2 cores while the changes went out, and how loaded the machine was
        "load_cpu_us_per_event": round(load_cpu / max(delivered, 1), 2),
        "loadavg_before_changes": loadavg_before, "loadavg_after_changes": loadavg_after,
    }
    # tcp_mem's pressure threshold is in pages for the whole machine: what the changes took of it at most
    figures["kernel_buffer_peak_kb"] = (peak_pages - kernel_before["sockstat"]["mem"]) * 4
    for key, value in kernel_per_socket(kernel_before, kernel_after, 2 * held).items():
        figures[key] = round(value) if isinstance(value, float) else value
    log(json.dumps(figures))
    return figures


def upstream_count(demo_port):
    """Requests the demo upstream answered before this one: it stamps every page's rows with `seq=N`, N its own
    request number (`--bench-stamp on`), so one GET of its first page reads its count (and is counted itself)."""
    status, body = http(demo_port, "GET", "/v1/customers")
    if status != 200:
        raise RuntimeError(f"the demo upstream answered {status}")
    return stamp_seq(body) - 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rowstream", required=True)
    parser.add_argument("--load", required=True)
    parser.add_argument("--public", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--viewers", type=int, default=100_000)
    parser.add_argument("--instances", type=int, default=0, help="default: instances_for(viewers)")
    parser.add_argument("--single-viewers", type=int, default=10_000)
    parser.add_argument("--changes", type=int, default=3)
    parser.add_argument("--per-process", type=int, default=PER_PROCESS)
    parser.add_argument("--per-address", type=int, default=PER_ADDRESS)
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()
    instances = args.instances or instances_for(args.viewers)
    procs = Processes()

    def on_signal(number, _frame):
        procs.stop_all()
        sys.exit(128 + number)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    limits = kernel_limits()
    print("   kernel limits: " + "; ".join(f"{k} = {v}" for k, v in limits.items()), flush=True)
    if int(limits["ulimit -n"]) < args.per_process + 100:
        raise SystemExit(f"ulimit -n is {limits['ulimit -n']}: a load process holds {args.per_process} streams")
    try:
        single = run_phase(args, procs, "single", 1, args.single_viewers)
        cluster = run_phase(args, procs, "cluster", instances, args.viewers)
    finally:
        procs.stop_all()
    out = {f"single_{k}": v for k, v in single.items()}
    out.update(cluster)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
