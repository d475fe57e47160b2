#!/usr/bin/python3
"""Opens an HTML report in headless Chromium and checks that it renders on its own.

    render_check.py PAGE.html OUTDIR

Drives the browser over the DevTools protocol on a pipe (--remote-debugging-pipe: no port, no
network, no package beyond Python's own), with every request outside the file blocked. Writes
OUTDIR/screen.png (the whole page at 900 px wide), OUTDIR/print.png (the top of the page as it
prints, A4 width) and OUTDIR/shot-N.png (the page in 1200 px high pieces, to look at), and prints
one JSON object: the console messages that are errors, the requests that left the file, the page
height, how much of the screenshot is not white, and what does not fit a 390 px phone or a 1280 px
desktop (`fit`: elements sticking out of the viewport outside a box that scrolls sideways, chart
text drawn under about 7 px). Exit 0 when the page rendered, fits both, has no console error and
made no request; 1 otherwise; 77 when no Chromium is installed (a skip).
"""
import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_pixels(data):
    """Width, height, channels and rows of an 8-bit RGB/RGBA PNG without interlacing."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def ink(data):
    """Fraction of sampled pixels that are not white, and how many distinct colours they have."""
    width, height, channels, rows = png_pixels(data)
    total = inked = 0
    colours = set()
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width, 4):
            px = row[x * channels:x * channels + 3]
            total += 1
            if px != b"\xff\xff\xff":
                inked += 1
                colours.add(px)
    return inked / max(total, 1), len(colours)


class Browser:
    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def fds():
            # through fresh numbers first: dup2 onto the same number would keep close-on-exec
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-default-apps", "--disable-sync",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars", "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        # the child has its copies on 3 and 4; ours close
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        want = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            msg = self.read(deadline)
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                del self.events[i]
                return ev
        while True:
            msg = self.read(deadline)
            if msg.get("method") == method:
                return msg
            self.events.append(msg)

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


# What sticks out of the viewport (outside a box that scrolls sideways) and the chart text drawn
# too small to read, as JSON.
FIT_SCRIPT = r"""(() => {
  const w = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className : '');
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1 && !scrolls(el)) over.push(name(el) + ': ' + (el.textContent || '').trim().slice(0, 40));
  }
  const small = [];
  for (const t of document.querySelectorAll('svg text')) {
    const h = t.getBoundingClientRect().height;
    if (h > 0 && h < 8) small.push((t.textContent || '').trim().slice(0, 30) + ' (' + h.toFixed(1) + ' px)');
  }
  return JSON.stringify({width: w, scroll_width: document.documentElement.scrollWidth, overflow: over.slice(0, 12),
                         overflow_count: over.length, small_text: small.slice(0, 8), small_text_count: small.length});
})()"""


def main():
    page, outdir = sys.argv[1], sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print(json.dumps({"skip": "Chromium is not installed (scripts/deps.sh installs it for the tests)"}))
        return 77
    url = "file://" + os.path.abspath(page)
    profile = tempfile.mkdtemp(prefix="fwadvisor-chromium-")
    browser = Browser(chromium, profile)
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(domain + ".enable", session=session)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 900, "height": 1200, "deviceScaleFactor": 1, "mobile": False}, session=session)
        browser.call("Page.navigate", {"url": url}, session=session)
        browser.wait_event("Page.loadEventFired")
        time.sleep(0.3)  # late console messages
        metrics = browser.call("Page.getLayoutMetrics", session=session)
        height = int(metrics["cssContentSize"]["height"])
        shots = []
        for n, top in enumerate(range(0, height, 1200)):
            clip = {"x": 0, "y": top, "width": 900, "height": min(1200, height - top), "scale": 1}
            shot = browser.call("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                           "captureBeyondViewport": True}, session=session)
            data = base64.b64decode(shot["data"])
            with open(os.path.join(outdir, "shot-%d.png" % n), "wb") as f:
                f.write(data)
            shots.append(data)
        whole = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                        "clip": {"x": 0, "y": 0, "width": 900, "height": height,
                                                                 "scale": 0.5}}, session=session)
        with open(os.path.join(outdir, "screen.png"), "wb") as f:
            f.write(base64.b64decode(whole["data"]))
        # a phone (390 px, as an iPhone 12-15 shows a page) and a desktop (1280 px): nothing may
        # stick out of the viewport except inside a box that scrolls sideways, and no chart text
        # may be drawn smaller than about 7 px
        fit = {}
        for name, width, mobile in (("phone", 390, True), ("desktop", 1280, False)):
            browser.call("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": mobile}, session=session)
            browser.call("Page.reload", session=session)
            browser.wait_event("Page.loadEventFired")
            got = browser.call("Runtime.evaluate", {"expression": FIT_SCRIPT, "returnByValue": True},
                               session=session)
            fit[name] = json.loads(got["result"]["value"])
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 900, "height": 1200, "deviceScaleFactor": 1, "mobile": False}, session=session)
        # as it prints: A4 at 96 px per inch is 794 px wide
        browser.call("Emulation.setEmulatedMedia", {"media": "print"}, session=session)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 794, "height": 1123, "deviceScaleFactor": 1, "mobile": False}, session=session)
        printed = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(os.path.join(outdir, "print.png"), "wb") as f:
            f.write(base64.b64decode(printed["data"]))
        pdf = browser.call("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69, "printBackground": True},
                           session=session, timeout=60)
        pdf_bytes = base64.b64decode(pdf["data"])
        with open(os.path.join(outdir, "print.pdf"), "wb") as f:
            f.write(pdf_bytes)
        time.sleep(0.2)
        # drain what arrived meanwhile
        browser.call("Runtime.evaluate", {"expression": "1"}, session=session)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)

    errors, requests = [], []
    for ev in browser.events:
        m, p = ev.get("method"), ev.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            errors.append(p.get("exceptionDetails", {}).get("text", "exception"))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            errors.append(p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            req = p.get("request", {}).get("url", "")
            if req != url:
                requests.append(req)
    fraction, colours = ink(shots[0]) if shots else (0.0, 0)
    pages = pdf_bytes.count(b"/Type /Page") - pdf_bytes.count(b"/Type /Pages")
    result = {"console_errors": errors, "requests": requests, "height": height, "ink": round(fraction, 4),
              "colours": colours, "pdf_pages": pages, "fit": fit}
    print(json.dumps(result))
    blank = fraction < 0.01 or colours < 4
    unfit = any(f["overflow_count"] or f["small_text_count"] or f["scroll_width"] > f["width"] for f in fit.values())
    return 1 if errors or requests or blank or unfit else 0


if __name__ == "__main__":
    sys.exit(main())
