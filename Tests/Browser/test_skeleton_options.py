"""Skeleton options (issue 28, part 7; docs/CONFIG.md "Skeletons"): the config file's `skeleton` and a table's own
choose the bones' animation (shimmer, pulse, none), its speed and a shimmer's direction; the page runs exactly that
animation (its computed name, duration and direction), and none at all for a viewer who asks for reduced motion.
The upstream, a small server of this test, holds every page until the test ends, so the skeletons stay."""
import contextlib
import threading

import pytest

from support import TIMEOUT, config_server, json_upstream

RELEASED = threading.Event()


def held_page(request):
    """One page of one item, answered once the test is over (bounded: TIMEOUT)."""
    RELEASED.wait(TIMEOUT)
    return {"data": [{"id": 1}], "next": None}


Held = json_upstream(held_page)


TABLES = {   # name: its own skeleton object (None: none)
    "pulsing": {"animation": "pulse", "speed": 0.8},
    "shared": None,
    "still": {"animation": "none"},
    "backwards": {"direction": "right-to-left"},
}


@contextlib.contextmanager
def skeleton_server(folder):
    def config(upstream):
        tables = []
        for name, own in TABLES.items():
            table = {"name": name, "request": {"url": upstream + "/items"}, "items": "data",
                     "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "next-url", "nextPath": "next"}}
            if own is not None:
                table["skeleton"] = own
            tables.append(table)
        return {"skeleton": {"speed": 2.5, "direction": "top-to-bottom"}, "tables": tables}
    with config_server(folder, Held, config, release=RELEASED.set) as rowstream:
        yield rowstream


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with skeleton_server(tmp_path_factory.mktemp("skeleton")) as rowstream:
        yield rowstream


ANIMATION = """() => { const s = getComputedStyle(document.querySelector('#rs-pending .rs-bone'));
  return [s.animationName, s.animationDuration, s.animationDirection]; }"""


def test_the_config_chooses_the_animation_and_reduced_motion_stops_it(server, open_page):
    expected = {
        "pulsing": ["rs-pulse", "0.8s", "alternate"],             # its own animation and speed
        "shared": ["rs-shimmer-down", "2.5s", "normal"],          # the file's speed and direction
        "still": ["none", "2.5s", "normal"],
        "backwards": ["rs-shimmer", "2.5s", "reverse"],           # its own direction, the file's speed
    }
    for name, animation in expected.items():
        page = open_page(server.url + "/tables/" + name, wait_for_rows=False).page
        page.wait_for_selector("#rs-pending .rs-bone")
        assert page.evaluate(ANIMATION) == animation, name
    calm = open_page(server.url + "/tables/shared", wait_for_rows=False, reduced_motion="reduce").page
    calm.wait_for_selector("#rs-pending .rs-bone")
    assert calm.evaluate(ANIMATION)[0] == "none"
