"""Scripts/bench scale's own logic (Bench/Scale/scale.py), no browser and no server: how the viewers are spread over
load processes and source addresses, how many instances, and how its figures are read from what the load
processes, the demo upstream and the kernel print."""
import importlib.util
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("scale", ROOT / "Bench" / "Scale" / "scale.py")
scale = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scale)


def addresses(plan, per_address):
    """The last octets each process dials from: its first address and as many after it as its streams need."""
    out = []
    for streams, first in plan:
        octet = int(first.rsplit(".", 1)[1])
        out.append(list(range(octet, octet + -(-streams // per_address))))
    return out


@pytest.mark.parametrize("viewers", [1, 3_999, 6_000, 10_000, 15_001, 100_000, 150_000])
def test_viewers_are_spread_over_processes_and_addresses_of_their_own(viewers):
    plan = scale.plan_clients(viewers, per_process=15_000, per_address=4_000)
    assert sum(streams for streams, _ in plan) == viewers
    assert len(plan) == -(-viewers // 15_000)   # as few processes as fit
    sizes = [streams for streams, _ in plan]
    assert max(sizes) <= 15_000 and max(sizes) - min(sizes) <= 1   # under each one's descriptor limit, even
    used = addresses(plan, 4_000)
    flat = [octet for each in used for octet in each]
    assert len(flat) == len(set(flat))   # no source address shared by two processes
    assert min(flat) == 2 and max(flat) <= 254 and flat == list(range(2, 2 + len(flat)))   # 127.0.0.2 on, no gaps
    for (streams, _), each in zip(plan, used):   # no address carries more than per_address of a process's streams
        assert streams <= len(each) * 4_000


def test_too_many_viewers_for_the_loopback_addresses_is_an_error_not_a_reuse():
    plan = scale.plan_clients(253 * 4_000, per_process=4_000, per_address=4_000)   # 127.0.0.2 .. 127.0.0.254
    assert addresses(plan, 4_000)[-1][-1] == 254
    with pytest.raises(ValueError):
        scale.plan_clients(253 * 4_000 + 1, per_process=4_000, per_address=4_000)


def test_instances_keep_each_under_its_connection_cap():
    assert scale.instances_for(6_000) == 6      # at least 6 (issue 29)
    assert scale.instances_for(100_000) == 7    # 14,286 each, under 15,000
    assert scale.instances_for(100_000, per_instance=12_000) == 9


def test_latency_is_each_receipt_less_its_own_changes_publish():
    published = [1_000_000, 2_000_000]
    lines = ["1 1000500", "2 2000250", "1 1001000", "", "2 2003000"]
    assert scale.latencies_ms(lines, published) == [0.25, 0.5, 1.0, 3.0]
    assert scale.percentile([0.25, 0.5, 1.0, 3.0], 50) == 1.0 and scale.percentile([], 99) == 0
    with pytest.raises(ValueError):   # a change nobody published: the table changed by itself, the figure is void
        scale.latencies_ms(["3 3000000"], published)


def test_the_upstreams_own_count_is_read_from_its_stamp():
    page = '{"data":[{"id":1,"name":"Acme ts=1733480000123456 seq=42"},{"id":2,"name":"B ts=1733480000123456 seq=42"}]}'
    assert scale.stamp_seq(page) == 42
    with pytest.raises(ValueError):
        scale.stamp_seq('{"data":[{"id":1,"name":"Acme"}]}')


SOCKSTAT = """sockets: used {used}
TCP: inuse {inuse} orphan 0 tw 11 alloc {inuse} mem {mem}
UDP: inuse 0 mem 0
"""
SLABINFO = """slabinfo - version: 2.1
# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>
tw_sock_TCP        10256  10256    256   16    1 : tunables    0    0    0 : slabdata    641    641      0
TCP                  {tcp}    130   2368   13    8 : tunables    0    0    0 : slabdata     10     10      0
TCPv6                 26     26   2496   13    8 : tunables    0    0    0 : slabdata      2      2      0
sock_inode_cache     {inode}    399    832   19    4 : tunables    0    0    0 : slabdata     21     21      0
"""


def reading(inuse, mem, tcp, inode, slab_kb):
    return {"sockstat": scale.parse_sockstat(SOCKSTAT.format(used=inuse, inuse=inuse, mem=mem)),
            "slab": scale.parse_slabinfo(SLABINFO.format(tcp=tcp, inode=inode)), "slab_kb": slab_kb}


def test_kernel_memory_per_socket_from_sockstat_and_slabinfo():
    before = reading(22, 51, 127, 399, 500_000)
    after = reading(2_022, 551, 2_127, 2_399, 508_000)
    assert before["slab"] == {"TCP": 127 * 2368, "sock_inode_cache": 399 * 832}   # TCPv6, tw_sock_TCP not counted
    figures = scale.kernel_per_socket(before, after, 2_000)
    assert figures["sockets_added"] == 2_000
    assert figures["kernel_buffer_bytes_per_socket"] == 500 * 4096 / 2_000
    assert figures["kernel_socket_slab_bytes_per_socket"] == 2368 + 832
    assert figures["kernel_all_slab_bytes_per_socket"] == 8_000 * 1024 / 2_000
    # divided by the sockets the run opened, not by the machine's count (other processes close theirs meanwhile)
    assert scale.kernel_per_socket(before, after, 1_000)["kernel_socket_slab_bytes_per_socket"] == 2 * (2368 + 832)
    assert scale.kernel_per_socket(after, before, 0) == {"sockets_added": -2_000}   # nothing divided by nothing


def test_the_scale_figures_are_charted_beside_one_instance(tmp_path):
    bench = {"settings": {"scale_viewers": "100000", "scale_single_viewers": "10000"},
             "medians": {"scale_instances": 7, "scale_cpu_us_per_event": 9.0, "scale_single_cpu_us_per_event": 7.5,
                         "scale_rss_per_viewer_bytes": 2900, "scale_single_rss_per_viewer_bytes": 2700}}
    (tmp_path / "bench.json").write_text(json.dumps(bench))
    subprocess.run([sys.executable, str(ROOT / "Scripts" / "lib" / "bench_charts.py"), "--draw",
                    str(tmp_path / "bench.json"), str(tmp_path / "out")], check=True, capture_output=True, timeout=60)
    # no p99 in the figures: no p99 chart
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["scale-cpu-us-per-event.svg",
                                                                    "scale-rss-per-viewer-bytes.svg"]
    texts = [t.text for t in ET.parse(tmp_path / "out" / "scale-cpu-us-per-event.svg").getroot()
             .iter("{http://www.w3.org/2000/svg}text")]
    assert "µs, lower is better (100,000 viewers over 7 instances, 10,000 on one)" in texts
    assert texts.index("one instance") < texts.index("7.50") < texts.index("N instances") < texts.index("9.00")
