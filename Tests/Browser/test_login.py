"""Access mode users (docs/SECURITY.md): a browser asking for a table is sent to the login page, a wrong password is
refused, the right one lands on the table with an HttpOnly, SameSite=Lax session cookie, and signing out sends it
back to the login page. The tables come from a config whose upstream is a small JSON server of this test."""
import contextlib
import subprocess

import pytest

from support import BINARY, TIMEOUT_MS, config_server, json_upstream


Items = json_upstream(lambda request: {"data": [{"id": i, "name": "Item %d" % i} for i in range(1, 8)], "next": None})
"""One page of seven items, then done."""


@contextlib.contextmanager
def users_server(folder, **more):
    """A rowstream server in access mode users (alice, password "wonderland") serving the table `items` (seven
    rows) from a small upstream of this module; its config (with `more` keys) is written to `folder`. Everything
    stopped on exit."""
    hashed = subprocess.run([BINARY, "hash-password"], input=b"wonderland\n", capture_output=True, check=True,
                            timeout=30).stdout.decode().strip()

    def config(upstream):
        return {
            "tables": [{"name": "items", "request": {"url": upstream + "/items"},
                        "items": "data", "key": "id", "columns": [{"title": "Name", "path": "name"}],
                        "pagination": {"style": "cursor", "cursorPath": "next"}}],
            "access": {"mode": "users", "users": [{"name": "alice", "password": hashed}]},
        }
    with config_server(folder, Items, lambda upstream: dict(config(upstream), **more)) as rowstream:
        yield rowstream


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with users_server(tmp_path_factory.mktemp("login")) as rowstream:
        yield rowstream


def test_sign_in_see_the_table_sign_out(server, open_page):
    probe = open_page(server.url + "/tables/items", wait_for_rows=False, allowed_console=("401",))
    page = probe.page
    page.wait_for_url("**/login?next=/tables/items", timeout=TIMEOUT_MS)
    page.fill("input[name=user]", "alice")
    page.fill("input[name=password]", "not-it")
    page.click("form[action='/login'] button")
    page.wait_for_selector(".rs-login-message", timeout=TIMEOUT_MS)
    assert "Wrong user name or password" in page.text_content(".rs-login-message")
    # Focus is back on the password field, which the (alert) message describes; the user name is kept.
    assert page.evaluate("document.activeElement.name") == "password"
    assert page.get_attribute("input[name=password]", "aria-describedby") == "rs-login-message"
    assert page.input_value("input[name=user]") == "alice"
    assert [error for error in probe.errors if "401 POST" in error] and all("401" in e for e in probe.errors)
    probe.errors.clear()                                                    # the refusal was the point

    page.fill("input[name=password]", "wonderland")
    page.click("form[action='/login'] button")
    page.wait_for_url("**/tables/items", timeout=TIMEOUT_MS)
    page.wait_for_selector("#rs-rows tr[data-key]", timeout=TIMEOUT_MS)
    assert probe.keys() == [str(i) for i in range(1, 8)]
    assert page.evaluate("document.cookie") == ""                           # HttpOnly: no script reads it
    cookie = next(c for c in probe.context.cookies() if c["name"] == "rowstream_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]

    # The table's page names the viewer and offers Sign out (docs/SECURITY.md "Signed-in header").
    assert page.text_content("header .rs-user .rs-user-name") == "Signed in as alice"
    page.goto(server.url + "/login", wait_until="domcontentloaded")
    assert "Signed in as alice" in page.text_content("main")
    page.goto(server.url + "/tables/items", wait_until="domcontentloaded")
    page.click("header form.rs-user[action='/logout'] button")
    page.wait_for_url("**/login", timeout=TIMEOUT_MS)
    assert not [c for c in probe.context.cookies() if c["name"] == "rowstream_session"]
    page.goto(server.url + "/tables/items", wait_until="domcontentloaded")
    page.wait_for_url("**/login?next=/tables/items", timeout=TIMEOUT_MS)
