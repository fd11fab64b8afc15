"""The page's scripts are ES modules (docs/BROWSER.md, "The page's modules"): both page templates, a table's own
page and a page of several tables, load `<script type="module" src="/app.js">` and, before it, only the
render-blocking `columnsfirst.js` (the viewer's column shapes in the first paint); every import,
followed from it, resolves to a file the server serves as JavaScript (module scripts need a JavaScript MIME
type); together they are every script in Public/, so no file waits on a load order kept elsewhere; and no module
but app.js, the page's public surface, touches a `window.Rowstream*` global. No browser: plain HTTP."""
import os
import re
import urllib.parse
import urllib.request

from support import ROOT, TIMEOUT, server_fixture

server = server_fixture("--demo-items", 40, "--batch-size", 10)

PAGES = ["/", "/pages/overview"]
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.I)
# Static imports and re-exports: `import {a} from './a.js'`, `import './a.js'`, `export {a} from './a.js'`.
IMPORT = re.compile(r"""^\s*(?:import\s*(?:[\w$*\s{},]*?\bfrom\s*)?|export\s*[\w$*\s{},]*?\bfrom\s*)['"]([^'"]+)['"]""",
                    re.M)
WINDOW_GLOBAL = re.compile(r"\bwindow\b[^;\n]*\.\s*Rowstream")
COMMENT = re.compile(r"/\*.*?\*/|(?:^|\s)//[^\n]*", re.S)


def fetch(url):
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read().decode()


def module_graph(base, entry):
    """Every module reachable from `entry` (an absolute URL): {url: source}. Fails on a module not served as
    JavaScript."""
    modules, queue = {}, [entry]
    while queue:
        url = queue.pop()
        if url in modules:
            continue
        status, content_type, source = fetch(url)
        assert status == 200, url
        assert content_type.split(";")[0].strip() == "text/javascript", (url, content_type)
        modules[url] = source
        for specifier in IMPORT.findall(source):
            assert specifier.startswith(("./", "../", "/")), "%s imports a bare specifier %r" % (url, specifier)
            target = urllib.parse.urljoin(url, specifier)
            assert target.startswith(base + "/"), "%s imports %s from elsewhere" % (url, target)
            queue.append(target)
    return modules


def test_both_pages_load_one_module_script_whose_imports_are_served(server):
    for path in PAGES:
        status, content_type, html = fetch(server.url + path)
        assert status == 200 and content_type.startswith("text/html")
        assert "<!--rs:" not in html, "a placeholder is left in %s" % path
        assert SCRIPT_TAG.findall(html) == ['<script type="module" src="/columnsfirst.js" blocking="render">',
                                            '<script type="module" src="/app.js">'], path
    # The page's graph, and the embed script's (<rowstream-table>, docs/EMBED.md): together every module.
    modules = module_graph(server.url, server.url + "/app.js")
    modules.update(module_graph(server.url, server.url + "/embed.js"))
    modules.update(module_graph(server.url, server.url + "/columnsfirst.js"))
    served = sorted(urllib.parse.urlparse(url).path.lstrip("/") for url in modules)
    public = sorted(name for name in os.listdir(os.path.join(ROOT, "Public")) if name.endswith(".js"))
    assert served == public, "modules the page and the embed script load differ from Public/*.js"
    for url, source in modules.items():
        if not url.endswith("/app.js"):
            assert not WINDOW_GLOBAL.search(COMMENT.sub("", source)), "%s touches a window.Rowstream* global" % url
