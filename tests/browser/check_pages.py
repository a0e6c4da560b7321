#!/usr/bin/env python3
"""Opens HTML pages in headless Chromium and checks them as a reader would see them.

For each page: a full-page screenshot, then the page must have loaded every
<img> (naturalWidth > 0), hold at least MIN_SVGS inline <svg> figures, each
present and non-empty (children, a non-zero box), with every href="#id" of
theirs resolving and no id used twice, and Chromium must have logged no
error (console, uncaught exception, failed resource load).

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe):
no port, no network, and console errors arrive as events.

usage: check_pages.py SCREENSHOT_DIR PAGE.html:MIN_SVGS...
exit:  0 all pages pass, 1 a check failed, 77 Chromium is not installed (skipped).
"""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--remote-debugging-pipe",
]

CHECK_SCRIPT = r"""(() => {
  const images = [...document.images].map(i => ({src: i.getAttribute('src'),
                                                  ok: i.complete && i.naturalWidth > 0}));
  const svgs = [...document.querySelectorAll('svg')]
    .filter(s => !s.parentElement.closest('svg'))  // outermost only
    .map(s => { const box = s.getBoundingClientRect(); const inner = s.getBBox();
                return {label: s.getAttribute('aria-label'),
                        ok: s.childElementCount > 0 && box.width > 0 && box.height > 0 &&
                            inner.width > 0 && inner.height > 0}; });
  const seen = new Set(), duplicates = new Set();
  for (const e of document.querySelectorAll('[id]')) {
    (seen.has(e.id) ? duplicates : seen).add(e.id);
  }
  const dangling = [...document.querySelectorAll('use')]
    .map(u => u.getAttribute('xlink:href') || u.getAttribute('href'))
    .filter(h => h && h.startsWith('#') && !document.getElementById(h.slice(1)));
  return {title: document.title, images, svgs, duplicates: [...duplicates].slice(0, 5),
          dangling: dangling.slice(0, 5),
          height: Math.ceil(document.body.getBoundingClientRect().bottom) + 32};
})()"""


class DevTools:
    """The DevTools protocol over Chromium's pipe: fd 3 in, fd 4 out, NUL-separated JSON."""

    def __init__(self, chromium, profile_dir):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # Above 10 so that placing them at 3 and 4 in the child cannot clobber
        # each other; close-on-exec, so only the copies at 3 and 4 reach Chromium.
        child_in = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_browser_r)
        os.close(from_browser_w)

        def place_fds():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.process = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile_dir}", "about:blank"],
            # close_fds would also close 3 and 4; every other descriptor of
            # ours is close-on-exec (PEP 446), so nothing else leaks.
            preexec_fn=place_fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(child_in)
        os.close(child_out)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe: " +
                                   self.process.stderr.read().decode(errors="replace")[-2000:])
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=60):
        deadline = time.time() + timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def logged_errors(events):
    """Error messages among the events collected while a page loaded."""
    errors = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                 for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append("exception: " + params["exceptionDetails"].get("text", ""))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            errors.append(f"log: {entry.get('text')} ({entry.get('url', '')})")
    return errors


def check_page(tools, session, page, min_svgs, screenshot):
    """Returns the list of problems of one page (empty when it passes)."""
    tools.events.clear()
    tools.call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session)
    tools.wait_for("Page.loadEventFired")
    time.sleep(0.5)  # late console messages
    tools.call("Runtime.evaluate", {"expression": "1"}, session)  # drains pending events
    result = tools.call("Runtime.evaluate", {"expression": CHECK_SCRIPT, "returnByValue": True},
                        session)
    if "exceptionDetails" in result:
        return [f"the check script failed: {result['exceptionDetails']}"]
    found = result["result"]["value"]
    problems = logged_errors(tools.events)
    problems += [f"image {i['src']} did not load" for i in found["images"] if not i["ok"]]
    problems += [f"figure '{s['label']}' is empty" for s in found["svgs"] if not s["ok"]]
    if len(found["svgs"]) < min_svgs:
        problems.append(f"{len(found['svgs'])} inline SVG figures, expected at least {min_svgs}")
    problems += [f"id '{d}' used twice" for d in found["duplicates"]]
    problems += [f"reference {d} names no element" for d in found["dangling"]]

    tools.call("Emulation.setDeviceMetricsOverride",
               {"width": 1200, "height": min(int(found["height"]), 16000),
                "deviceScaleFactor": 1, "mobile": False}, session)
    shot = tools.call("Page.captureScreenshot", {"format": "png"}, session)

    with open(screenshot, "wb") as out:
        out.write(base64.b64decode(shot["data"]))
    print(f"{page}: '{found['title']}', {len(found['images'])} images, "
          f"{len(found['svgs'])} inline SVG figures, screenshot {screenshot}")
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIPPED: Chromium is not installed (Debian package chromium)")
        return 77
    shots = sys.argv[1]
    os.makedirs(shots, exist_ok=True)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="cae-chromium-") as profile:
        tools = DevTools(chromium, profile)
        try:
            target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = tools.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                tools.call(domain + ".enable", session=session)
            for spec in sys.argv[2:]:
                page, _, min_svgs = spec.rpartition(":")
                if not os.path.isfile(page):
                    print(f"FAIL {page}: no such file")
                    failures += 1
                    continue
                name = os.path.splitext(os.path.basename(page))[0]
                problems = check_page(tools, session, page, int(min_svgs),
                                      os.path.join(shots, name + ".png"))
                for problem in problems:
                    print(f"FAIL {page}: {problem}")
                failures += bool(problems)
        finally:
            tools.close()
    print(f"{len(sys.argv) - 2 - failures} of {len(sys.argv) - 2} pages pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
