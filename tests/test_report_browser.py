"""The HTML report in a real browser: headless Chromium lays it out on a
390 x 844 phone and a 1280 x 800 screen, and the tests assert what the
browser measures.

* the page never scrolls sideways on the phone (its tables scroll inside
  their own container), and the verdict is the first section, on the first
  screen;
* the provenance is the last section, inside a closed ``<details>`` (not
  rendered until opened);
* no interval cell wraps (its text is one line box);
* figure text is at least 9 CSS px on the phone (the glyphs of the inline
  SVG, measured through their transform on screen);
* no error, every image and SVG decodes;
* screenshots of the first screen at both sizes match the references in
  ``tests/fixtures/report_screens/`` (mean absolute difference of grey
  levels on 8 x 8 pixel blocks, under a tolerance that another machine's
  text rendering passes and a moved section does not).  The screenshots are
  of the page with its fonts pinned to matplotlib's bundled DejaVu Sans
  (:func:`pin_fonts`; the layout facts above are measured on the page as it
  is), so that they do not depend on the fonts of the machine.  Regenerate
  them with
  ``python tests/fixtures/make_report_screens.py`` after a deliberate change
  of the page, and look at them before committing.

The browser is driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: NUL-separated JSON on file descriptors 3 and 4),
so no Python package is needed and the phone is a real device emulation
(``Emulation.setDeviceMetricsOverride``), which honours the page's viewport
meta tag.  Without Chromium (Debian's ``chromium``, or ``SKBRIER_CHROMIUM``)
the tests are skipped, except when ``CI=true``: there a missing browser is a
failure (``.ci/run`` installs it).  When ``SKBRIER_TEST_ARTIFACTS`` names a
directory, the page and its screenshots are copied there.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from skbrier.report import calibration_report, reports_to_html

SCREENS = Path(__file__).parent / "fixtures" / "report_screens"
#: (width, height, mobile): a phone (iPhone 12-15 size) and a laptop screen
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}
#: screenshots are compared on BLOCK x BLOCK pixel means of grey levels in [0, 1]
BLOCK = 8
#: largest mean absolute difference of a screenshot to its reference: other
#: hinting, antialiasing or colour profile gave at most 0.002 here; a section
#: moved, hidden or opened 0.058-0.094; the phone's padding doubled 0.068
MAX_SCREEN_DIFF = 0.02
#: smallest font, in CSS px, of any text in a figure on the phone
MIN_FIGURE_FONT_PX = 9.0


def _find_chromium() -> str | None:
    for p in (
        os.environ.get("SKBRIER_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
    ):
        if p and os.path.exists(p):
            return p
    return None


CHROMIUM = _find_chromium()


def need_chromium() -> str:
    """The browser, or a skip (a failure when ``CI=true``: CI must run these)."""
    if CHROMIUM is not None:
        return CHROMIUM
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(
            "CI=true but no Chromium was found: install Debian's chromium "
            "(apt-get install chromium; .ci/run does) or set SKBRIER_CHROMIUM.",
            pytrace=False,
        )
    pytest.skip(
        "Chromium is not installed (apt-get install chromium, or set "
        "SKBRIER_CHROMIUM); with CI=true this is a failure"
    )


class Chromium:
    """Headless Chromium driven over the DevTools protocol on a pipe."""

    def __init__(self, exe: str, profile: Path, extra: tuple[str, ...] = ()) -> None:
        import fcntl

        cmd_r, cmd_w = os.pipe()  # we write commands, Chromium reads fd 3
        res_r, res_w = os.pipe()  # Chromium writes answers on fd 4
        # above 9 so that moving them onto 3 and 4 clobbers nothing
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (cmd_r, res_w)]
        os.close(cmd_r)
        os.close(res_w)
        trampoline = (
            "import os, sys; r, w = int(sys.argv[1]), int(sys.argv[2]); "
            "os.dup2(r, 3); os.dup2(w, 4); os.close(r); os.close(w); "
            "os.execv(sys.argv[3], sys.argv[3:])"
        )
        flags = [
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            *extra,
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", trampoline, *map(str, high), exe, *flags],
            pass_fds=high,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for fd in high:
            os.close(fd)
        self._w, self._r = cmd_w, res_r
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=self.session)

    def _message(self, timeout: float) -> dict:
        end = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError(f"Chromium did not answer within {timeout} s")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise RuntimeError(f"Chromium exited (code {self.proc.poll()})")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(
        self,
        method: str,
        params: dict | None = None,
        session: str | None = None,
        timeout: float = 60,
    ) -> dict:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._message(timeout)
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def page(self, method: str, params: dict | None = None) -> dict:
        return self.send(method, params, session=self.session)

    def load(self, url: str, width: int, height: int, mobile: bool) -> None:
        """Open ``url`` on a screen of ``width`` x ``height`` CSS px."""
        self.page(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        self.events.clear()
        self.page("Page.navigate", {"url": url})
        end = time.monotonic() + 60
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._message(end - time.monotonic()))
        self.evaluate("document.fonts.ready.then(() => true)")

    def evaluate(self, expression: str) -> Any:
        res = self.page(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in res:
            raise RuntimeError(str(res["exceptionDetails"]))
        return res["result"].get("value")

    def screenshot(self) -> bytes:
        """The first screen (the viewport), as PNG."""
        return base64.b64decode(
            self.page("Page.captureScreenshot", {"format": "png"})["data"]
        )

    def errors(self) -> list[str]:
        """Script exceptions, console errors and failed loads since the last load."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(str(p.get("exceptionDetails", {}).get("text")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
                out.append(str(p.get("args")))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(str(p["entry"].get("text")))
        return out

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)


#: what the browser measures on the page (JSON-ready)
MEASURE = r"""
(() => {
  const de = document.documentElement;
  const sections = [...document.querySelectorAll("body > section")];
  const prov = document.getElementById("provenance");
  const details = prov && prov.querySelector("details");
  const lines = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].filter((q) => q.width > 0)
      .map((q) => Math.round(q.top))).size;
  };
  const ci = [...document.querySelectorAll("td.ci, th.ci")]
    .filter((c) => c.textContent.trim() && c.getClientRects().length);
  const marker = /^#?(?:[a-z]+-)?m[0-9a-f]{10}$/;
  const glyphs = [...document.querySelectorAll("figure svg use")].filter((u) =>
    !marker.test(u.getAttribute("href") || u.getAttribute("xlink:href") || ""));
  // matplotlib draws a glyph at font size s as a path scaled by s / 100
  const fonts = glyphs.map((u) => { const m = u.getScreenCTM(); return 100 * Math.hypot(m.a, m.b); });
  const bad = [];
  document.querySelectorAll("img").forEach((im, i) => {
    if (!im.complete || im.naturalWidth === 0) bad.push("img" + i);
  });
  document.querySelectorAll("figure > svg").forEach((s, i) => {
    const b = s.getBBox();
    if (!(b.width > 0 && b.height > 0)) bad.push("svg" + i);
  });
  return {
    innerWidth: innerWidth,
    clientWidth: de.clientWidth,
    scrollWidth: de.scrollWidth,
    bodyScrollWidth: document.body.scrollWidth,
    sections: sections.map((s) => s.id || ""),
    verdictTop: document.getElementById("verdict")?.getBoundingClientRect().top ?? null,
    overviewTop: document.getElementById("overview")?.getBoundingClientRect().top ?? null,
    provenanceDetails: !!details && details.parentElement === prov,
    provenanceOpen: !!details && details.open,
    provenanceTableShown: !!details && [...details.querySelectorAll("table")]
      .some((t) => t.checkVisibility()),
    provenanceSummary: details ? details.querySelector("summary").textContent : "",
    scrollers: [...document.querySelectorAll(".scroll")].map((d) => [d.scrollWidth, d.clientWidth]),
    tablesOutsideScroller: [...document.querySelectorAll("table")]
      .filter((t) => !(t.parentElement && t.parentElement.classList.contains("scroll"))).length,
    ciCells: ci.length,
    ciWrapped: ci.filter((c) => lines(c) !== 1).map((c) => c.textContent),
    ciHeights: ci.map((c) => {
      const r = document.createRange(); r.selectNodeContents(c);
      return r.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight);
    }),
    glyphs: fonts.length,
    minFont: fonts.length ? Math.min(...fonts) : null,
    svgs: document.querySelectorAll("figure > svg").length,
    bad: bad,
    // last: open the provenance for a moment (its long values must not widen the page)
    provenanceOpenScrollWidth: (() => {
      if (!details) return null;
      details.open = true;
      const w = de.scrollWidth;
      details.open = false;
      return w;
    })(),
  };
})()
"""


def report_page() -> str:
    """The page the tests (and the reference screenshots) look at: two models
    on the same rows, fixed data, fixed provenance (no date or version that
    would change the picture)."""
    rng = np.random.default_rng(0)
    n = 600
    p = rng.uniform(0.02, 0.98, size=n)
    y = (rng.uniform(size=n) < p**1.2).astype(int)
    reps = {
        name: calibration_report(y, f, thresholds=[0.1, 0.3], name=name, random_state=0)
        for name, f in (("logreg", p), ("gbm", np.clip(p * 0.8 + 0.1, 0, 1)))
    }
    return reports_to_html(
        reps,
        provenance={
            "input": "forecasts.csv",
            "sha256": "0123456789abcdef" * 4,  # long unbreakable value
            "rows_read": n,
            "command": "skbrier report forecasts.csv --html report.html",
            "date": "2026-01-01",
            "versions": {"skbrier": "test"},
        },
    )


def pin_fonts(page: str) -> str:
    """``page`` with every text in matplotlib's own DejaVu Sans (embedded as
    data URLs): the screenshots then do not depend on the machine's fonts."""
    import matplotlib

    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    faces = "".join(
        f'@font-face {{ font-family: "pinned"; font-weight: {weight}; src: '
        f"url(data:font/ttf;base64,{base64.b64encode((ttf / name).read_bytes()).decode()}); }}"
        for name, weight in (("DejaVuSans.ttf", 400), ("DejaVuSans-Bold.ttf", 700))
    )
    css = faces + '* { font-family: "pinned" !important; }'
    return page.replace("</style>", css + "</style>", 1)


def render(page: str, workdir: Path, flags: tuple[str, ...] = ()) -> dict[str, dict]:
    """``{size: {"measure": ..., "errors": [...], "png": bytes}}``: what the
    browser measures on ``page`` as it is, and the first screen of ``page``
    with its fonts pinned (:func:`pin_fonts`)."""
    plain, pinned = workdir / "report.html", workdir / "report_pinned_fonts.html"
    plain.write_text(page, encoding="utf-8")
    pinned.write_text(pin_fonts(page), encoding="utf-8")
    browser = Chromium(need_chromium(), workdir / "profile", flags)
    try:
        out = {}
        for key, (w, h, mobile) in SIZES.items():
            browser.load(plain.as_uri(), w, h, mobile)
            out[key] = {"measure": browser.evaluate(MEASURE), "errors": browser.errors()}
            browser.load(pinned.as_uri(), w, h, mobile)
            out[key]["png"] = browser.screenshot()
        return out
    finally:
        browser.close()


def _grey_blocks(png: bytes) -> np.ndarray:
    """Grey levels in [0, 1], averaged over BLOCK x BLOCK pixel blocks."""
    import io

    from matplotlib.image import imread

    img = np.asarray(imread(io.BytesIO(png), format="png"), dtype=float)
    grey = img[..., :3].mean(axis=2) if img.ndim == 3 else img
    h, w = (s // BLOCK * BLOCK for s in grey.shape)
    return grey[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).mean(axis=(1, 3))


def screen_difference(png: bytes, reference: bytes) -> float:
    """Mean absolute difference of grey-level blocks (1.0 when the sizes differ)."""
    a, b = _grey_blocks(png), _grey_blocks(reference)
    if a.shape != b.shape:
        return 1.0
    return float(np.abs(a - b).mean())


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Iterator[dict[str, dict]]:
    need_chromium()
    workdir = tmp_path_factory.mktemp("browser")
    out = render(report_page(), workdir)
    artifacts = os.environ.get("SKBRIER_TEST_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(workdir / "report.html", Path(artifacts) / "report.html")
        for key, r in out.items():
            (Path(artifacts) / f"report_{key}.png").write_bytes(r["png"])
    yield out


@pytest.mark.parametrize("size", list(SIZES))
def test_page_never_scrolls_sideways(rendered, size):
    m = rendered[size]["measure"]
    width = SIZES[size][0]
    # the viewport meta tag makes the phone lay out at its own width
    assert m["innerWidth"] == m["clientWidth"] == width, m
    assert m["scrollWidth"] <= width and m["bodyScrollWidth"] <= width, m
    assert m["provenanceOpenScrollWidth"] <= width, m  # also once opened
    assert m["tablesOutsideScroller"] == 0, m


def test_wide_tables_scroll_inside_their_container(rendered):
    m = rendered["phone"]["measure"]
    # the overview (16 columns) is wider than a phone: it scrolls, the page does not
    assert any(sw > cw for sw, cw in m["scrollers"]), m["scrollers"]
    assert all(cw <= SIZES["phone"][0] for _, cw in m["scrollers"])


@pytest.mark.parametrize("size", list(SIZES))
def test_verdict_first_provenance_last_and_closed(rendered, size):
    m = rendered[size]["measure"]
    s = m["sections"]
    assert s[0] == "verdict" and s[1] == "overview", s
    assert s[-1] == "provenance" and s.index("comparison") < s.index("provenance"), s
    assert 0 <= m["verdictTop"] < min(SIZES[size][1], m["overviewTop"]), m  # first screen
    assert m["provenanceDetails"] and not m["provenanceOpen"], m
    assert not m["provenanceTableShown"], m  # collapsed: nothing laid out
    assert m["provenanceSummary"].startswith("Provenance")


@pytest.mark.parametrize("size", list(SIZES))
def test_interval_cells_do_not_wrap(rendered, size):
    m = rendered[size]["measure"]
    # every interval of the overview, comparison and model tables
    assert m["ciCells"] >= 20, m["ciCells"]
    assert m["ciWrapped"] == [], m["ciWrapped"]
    assert max(m["ciHeights"]) < 1.5, m["ciHeights"]  # one line high


def test_figure_text_legible_on_a_phone(rendered):
    m = rendered["phone"]["measure"]
    assert m["svgs"] == 2 and m["glyphs"] > 200, m
    assert m["minFont"] >= MIN_FIGURE_FONT_PX, m["minFont"]


@pytest.mark.parametrize("size", list(SIZES))
def test_no_error_and_everything_decodes(rendered, size):
    r = rendered[size]
    assert r["errors"] == []
    assert r["measure"]["bad"] == []


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshot_matches_reference(rendered, size, tmp_path):
    w, h, _ = SIZES[size]
    ref = SCREENS / f"report_{w}x{h}.png"
    png = rendered[size]["png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert ref.exists(), f"no reference {ref}: run tests/fixtures/make_report_screens.py"
    diff = screen_difference(png, ref.read_bytes())
    (tmp_path / ref.name).write_bytes(png)
    assert diff < MAX_SCREEN_DIFF, (
        f"the first screen at {w}x{h} differs from {ref.name} by {diff:.4g} "
        f"(limit {MAX_SCREEN_DIFF}); this run's screenshot is {tmp_path / ref.name}. "
        "After a deliberate change: python tests/fixtures/make_report_screens.py"
    )


def test_screenshot_comparison_sees_a_moved_section(tmp_path):
    """The tolerance is loose enough for fonts, not for layout: the page with
    its provenance open and first differs from the reference."""
    need_chromium()
    page = report_page()
    start = page.index('<section id="provenance">')
    end = page.index("</section>", start) + len("</section>")
    prov = page[start:end].replace("<details>", "<details open>")
    moved = page[:start] + page[end:]
    moved = moved.replace('<section id="verdict">', prov + '<section id="verdict">', 1)
    other = render(moved, tmp_path)
    for size, (w, h, _) in SIZES.items():
        ref = (SCREENS / f"report_{w}x{h}.png").read_bytes()
        assert screen_difference(other[size]["png"], ref) > 2 * MAX_SCREEN_DIFF
