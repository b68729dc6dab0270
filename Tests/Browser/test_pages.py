#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The server's pages in a real browser: Debian's Chromium, driven through chromedriver with selenium.

Draws with real pointer input (WebDriver pen actions, dispatched by the browser as pointer events), walks the
signature form cell's life cycle (inactive, active, Cancel, signed, Clear, Save, saved, Re-enter) and the consent
walk-through to its signed PDF, and checks what the server answers. A screenshot of each state is kept in
Tests/Browser/artifacts/, and in each state axe-core checks the page against WCAG 2.2 A and AA (and axe's best
practices): no violation may be found.

axe-core is the 4.12.1 that PyPI's axe-playwright-python 0.1.8 carries (make test-browser installs it without its
dependencies; only its axe.min.js is used, injected through selenium). axe-selenium-python carries axe-core 3.1.1
of 2018, which knows no WCAG 2.2 rule.

Usage: python3 Tests/Browser/test_pages.py SERVER_BINARY      (make test-browser runs it)
"""
import base64, hashlib, json, os, re, shutil, signal, socket, struct, subprocess, sys, tempfile, time, urllib.error, urllib.request, zlib

import yaml

import shared_device

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

here = os.path.dirname(os.path.abspath(__file__))
artifacts = os.path.join(here, "artifacts")
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def png_pixels(data):
    """Decodes an 8-bit PNG (grey, RGB, palette, grey+alpha, RGBA) to (width, height, rows of RGBA tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8, "only 8-bit images"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    palette = chunks.get(b"PLTE", b"")
    alpha = chunks.get(b"tRNS", b"")
    def pixel(row, x):
        if colour == 3:
            k = row[x]
            return (palette[3 * k], palette[3 * k + 1], palette[3 * k + 2], alpha[k] if k < len(alpha) else 255)
        if colour == 6: return tuple(row[4 * x:4 * x + 4])
        if colour == 2: return tuple(row[3 * x:3 * x + 3]) + (255,)
        if colour == 4: return (row[2 * x],) * 3 + (row[2 * x + 1],)
        return (row[x],) * 3 + (255,)
    return width, height, [[pixel(r, x) for x in range(width)] for r in rows]


def wait_for_port(port):
    """Waits up to about 20 s for a server to accept connections on `port` (the test's first request fails if not)."""
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1000",
                     "--force-device-scale-factor=2", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def draw(driver, element, strokes):
    """Draws strokes (lists of (x, y) in CSS pixels from the element's top left) with a pen, as a person would."""
    pen = PointerInput(interaction.POINTER_PEN, "pen")
    actions = ActionBuilder(driver, mouse=pen, duration=16)
    box = element.rect
    for stroke in strokes:
        # move_to offsets are from the element's centre.
        cx, cy = box["width"] / 2, box["height"] / 2
        x, y = stroke[0]
        actions.pointer_action.move_to(element, int(x - cx), int(y - cy))
        actions.pointer_action.pointer_down(pressure=0.6)
        for x, y in stroke[1:]:
            actions.pointer_action.move_to(element, int(x - cx), int(y - cy), pressure=0.6, tilt_x=20, tilt_y=-10)
        actions.pointer_action.pointer_up()
    actions.perform()


def touch(driver, element, points, force=0.5):
    """Drags one finger through points (CSS pixels from the element's top left, or from the page when element is
    None) with Chromium's DevTools input: touch events the browser turns into pointer events and gestures."""
    box = element.rect if element is not None else {"x": 0, "y": 0}
    # Viewport coordinates: the element's page position less the page's scroll.
    sx, sy = driver.execute_script("return [window.scrollX, window.scrollY]")
    at = lambda p: [{"x": box["x"] - sx + p[0], "y": box["y"] - sy + p[1], "force": force, "radiusX": 4, "radiusY": 4}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": at(points[0])})
    for p in points[1:]:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": at(p)})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def press(driver, *keys):
    """Presses keys as a person at the keyboard would, on whatever has the focus."""
    ActionChains(driver).send_keys(*keys).perform()


def focused_id(driver):
    """The id of the element that has the focus (empty when it has none)."""
    return driver.execute_script("return document.activeElement.id")


def settled_scroll(driver, patience=5.0):
    """The page's vertical scroll once it has stopped moving: two readings 200 ms apart that agree, waiting at most
    patience seconds."""
    last = driver.execute_script("return window.scrollY")
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = driver.execute_script("return window.scrollY")
        if now == last:
            return now
        last = now
    return last


def downloaded(folder, name):
    """The bytes of a file the browser downloads into folder, once it is complete."""
    path = os.path.join(folder, name)
    for _ in range(100):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            break
        time.sleep(0.1)
    data = open(path, "rb").read() if os.path.exists(path) else b""
    if os.path.exists(path):
        os.remove(path)
    return data


def check_record(data, digest, strokes, pointer, channels):
    """Checks a downloaded stored record: the samples of every drawn point, with time, pressure and the pointer type."""
    try:
        record = json.loads(data)
    except ValueError:
        check(False, "the stored record downloads as JSON")
        return
    signature = record.get("signature", {})
    check(record.get("digest") == digest, "the stored record carries the digest shown")
    check(signature.get("format") == "signature-ink" and all(c in signature.get("channels", []) for c in channels),
          "the record is the native format with the channels %s (%s)" % (", ".join(channels), signature.get("channels")))
    kept = signature.get("strokes", [])
    check(len(kept) == len(strokes) and all(len(k) >= len(s) for k, s in zip(kept, strokes)),
          "every drawn point is a sample (%s samples for %s points)" % ([len(k) for k in kept], [len(s) for s in strokes]))
    t = signature["channels"].index("t") if kept else 0
    times = [sample[t] for stroke in kept for sample in stroke]
    check(times and times[0] == 0 and all(a <= b for a, b in zip(times, times[1:])) and times[-1] > 0,
          "sample times start at 0 and never go back")
    check(signature.get("metadata", {}).get("pointerTypes") == ",".join([pointer] * len(strokes)),
          "each stroke keeps its pointer type (%s)" % signature.get("metadata", {}).get("pointerTypes"))
    if "pressure" in channels:
        p = signature["channels"].index("pressure")
        pressures = [sample[p] for stroke in kept for sample in stroke]
        check(all(x is not None and 0 < x <= 1 for x in pressures), "every sample keeps its pressure")


def state(driver):
    return driver.find_element(By.ID, "cell").get_attribute("data-state")


def shot(driver, name):
    """Keeps a screenshot of the page's state, and checks the state with axe-core."""
    driver.save_screenshot(os.path.join(artifacts, name + ".png"))
    accessible(driver, name)


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def accessible(driver, state):
    """Runs axe-core on the page as it is and checks that it finds no violation of WCAG 2.2 A or AA or of axe's best
    practices; each violation is printed with the elements it names. The full report goes to the artifacts. Then
    checks that the page reflows at 320 CSS px."""
    import axe_playwright_python
    if driver.execute_script("return typeof axe") == "undefined":
        with open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")) as f:
            driver.execute_script(f.read())
    driver.set_script_timeout(60)
    report = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
        ".then(r => done(r), e => done({error: String(e)}));", AXE_TAGS)
    with open(os.path.join(artifacts, state + ".axe.json"), "w") as f:
        json.dump(report, f, indent=1)
    if "error" in report:
        check(False, "axe-core runs in state %s (%s)" % (state, report["error"]))
        return
    # Reflow (WCAG 1.4.10): at 320 CSS px, which is also a 640 px window at 200 % zoom, nothing needs a sideways
    # scroll.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 2,
                                                                  "mobile": False})
    wide, window_width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    check(wide <= window_width, "state %s reflows at 320 CSS px (%d px of content)" % (state, wide))
    violations = report["violations"]
    for v in violations:
        print("     %s (%s): %s" % (v["id"], v["impact"], ", ".join(" ".join(n["target"]) for n in v["nodes"])))
    check(not violations and len(report["passes"]) >= 15,
          "axe-core %s: no WCAG 2.2 A/AA violation in state %s (%d rules pass, %d violated, %d to review by hand)"
          % (report["testEngine"]["version"], state, len(report["passes"]), len(violations), len(report["incomplete"])))


def wave(x0, x1, y, amplitude, steps=24):
    return [(x0 + (x1 - x0) * k / steps, y + amplitude * (1 if k % 4 < 2 else -1) * (k % 2)) for k in range(steps + 1)]


def form_cell(driver, base, downloads):
    driver.get(base + "/")
    wait = WebDriverWait(driver, 10)
    check(state(driver) == "inactive", "the cell starts inactive")
    check(driver.find_element(By.CSS_SELECTOR, ".required").text == "*", "the header shows the required asterisk")
    said = lambda: driver.find_element(By.ID, "status").text
    live = driver.find_element(By.ID, "status")
    check(live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite" and said() == "",
          "the state is told in a polite live region, which says nothing when the page opens")
    shot(driver, "1-inactive")
    pad = driver.find_element(By.ID, "pad")
    # By keyboard: Tab reaches the pad, Enter starts signing, Escape cancels, and the focus stays on the pad.
    keys = lambda *k: press(driver, *k)
    focused = lambda: focused_id(driver)
    driver.execute_script("document.activeElement.blur()")
    keys(Keys.TAB)
    check(focused() == "pad", "Tab reaches the signature pad first")
    check(driver.execute_script("const s = getComputedStyle(document.activeElement);"
                                "return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2"),
          "the focused pad shows a focus ring of at least 2 px")
    shot(driver, "1b-pad-focused")
    keys(Keys.ENTER)
    check(state(driver) == "active", "Enter on the pad starts signing")
    keys(Keys.ESCAPE)
    check(state(driver) == "inactive" and focused() == "pad", "Escape cancels and leaves the focus on the pad")
    keys(Keys.SPACE)
    check(state(driver) == "active", "Space on the pad starts signing")
    keys(Keys.ESCAPE)
    pad.click()
    check(state(driver) == "active", "a tap activates the cell")
    check(said() == "The signature pad is ready: draw your signature.", "the live region says the pad is ready")
    check(driver.find_element(By.ID, "save").get_attribute("disabled") is not None, "Save is disabled until there is ink")
    shot(driver, "2-active")
    driver.find_element(By.ID, "cancel").click()
    check(state(driver) == "inactive", "Cancel returns to inactive")
    check(said() == "Not signed.", "the live region says it is not signed")
    pad.click()
    canvas = driver.find_element(By.ID, "canvas")
    draw(driver, canvas, [wave(60, 300, 110, 25)])
    wait.until(lambda d: state(d) == "signed")
    check(state(driver) == "signed", "drawing makes the cell signed")
    check(said() == "Signed. Save keeps it; Clear starts again.", "the live region says it is signed")
    shot(driver, "3-signed")
    driver.find_element(By.ID, "clear").click()
    check(state(driver) == "active", "Clear returns to active")
    check(driver.find_element(By.ID, "save").get_attribute("disabled") is not None, "Save is disabled again after Clear")
    strokes = [wave(80, 360, 100, 30), [(120, 150), (200, 158), (300, 152), (380, 150)]]
    draw(driver, canvas, strokes)
    wait.until(lambda d: state(d) == "signed")
    width = canvas.rect["width"]
    driver.find_element(By.ID, "save").click()
    wait.until(lambda d: state(d) == "saved")
    check(state(driver) == "saved", "Save stores the signature")
    status = driver.find_element(By.ID, "status").text
    check(re.search(r"SHA-256 [0-9a-f]{64}", status) is not None, "the stored record's SHA-256 is shown")
    shot(driver, "4-saved")
    saved = driver.find_element(By.ID, "saved")
    check(saved.is_displayed(), "the saved signature is shown")
    check(driver.execute_script("return getComputedStyle(arguments[0]).opacity", saved) == "0.5",
          "the saved signature is semi-transparent")
    data = base64.b64decode(saved.get_attribute("src").split(",", 1)[1])
    w, h, pixels = png_pixels(data)
    # The server renders the canvas at scale 2: the ink must be where it was drawn, in the rows and columns of the strokes.
    scale = w / width
    inked = [(x, y) for y in range(h) for x in range(w) if pixels[y][x][3] > 40]
    check(len(inked) > 200, "the returned PNG has ink (%d pixels)" % len(inked))
    xs = [x / scale for x, _ in inked]
    ys = [y / scale for _, y in inked]
    drawn = [p for s in strokes for p in s]
    check(abs(min(xs) - min(p[0] for p in drawn)) < 8 and abs(max(xs) - max(p[0] for p in drawn)) < 8,
          "the ink spans the drawn columns (%.0f...%.0f for %.0f...%.0f)" % (min(xs), max(xs), min(p[0] for p in drawn), max(p[0] for p in drawn)))
    check(abs(min(ys) - min(p[1] for p in drawn)) < 8 and abs(max(ys) - max(p[1] for p in drawn)) < 8,
          "the ink spans the drawn rows (%.0f...%.0f for %.0f...%.0f)" % (min(ys), max(ys), min(p[1] for p in drawn), max(p[1] for p in drawn)))
    digest = re.search(r"[0-9a-f]{64}", status).group(0) if re.search(r"[0-9a-f]{64}", status) else ""
    driver.find_element(By.ID, "record").click()
    check_record(downloaded(downloads, "signature-record.json"), digest, strokes, "pen",
                 ["x", "y", "t", "pressure", "altitude", "azimuth"])
    driver.find_element(By.ID, "reenter").click()
    check(state(driver) == "active" and not saved.is_displayed(), "Re-enter Signature returns to an empty active cell")
    check(not driver.find_element(By.ID, "record").is_displayed(), "Re-enter withdraws the stored record's link")
    shot(driver, "5-reenter")

    # A finger: touch input through the browser. On a page taller than the window, a drag outside the canvas
    # scrolls the page and one inside the canvas draws without scrolling.
    driver.set_window_size(900, 420)
    driver.execute_script("window.scrollTo(0, 0)")
    intro = driver.find_element(By.CSS_SELECTOR, ".intro")
    touch(driver, intro, [(40, 10 + 0 * k) for k in range(1)] + [(40, 10 - 12 * k) for k in range(1, 12)])
    # The drag ends in a fling: the page goes on scrolling after the finger lifts, so the canvas is touched only
    # once the page stands still, where the touch lands where the test aims it.
    scrolled = settled_scroll(driver)
    check(scrolled > 20, "a finger dragged outside the canvas scrolls the page (by %s px)" % scrolled)
    # However far the fling went, the canvas is brought whole into the window before the finger draws on it.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", canvas)
    before = settled_scroll(driver)
    finger = [(60 + 12 * k, 100 + (25 if k % 4 < 2 else -25) * (k % 2) - k) for k in range(24)]
    touch(driver, canvas, finger)
    wait.until(lambda d: state(d) == "signed")
    after = driver.execute_script("return window.scrollY")
    check(state(driver) == "signed" and after == before,
          "a finger dragged inside the canvas draws and does not scroll (scroll %s -> %s)" % (before, after))
    shot(driver, "5b-touch-signed")
    driver.find_element(By.ID, "save").click()
    wait.until(lambda d: state(d) == "saved")
    status = driver.find_element(By.ID, "status").text
    digest = re.search(r"[0-9a-f]{64}", status).group(0) if re.search(r"[0-9a-f]{64}", status) else ""
    driver.find_element(By.ID, "record").click()
    check_record(downloaded(downloads, "signature-record.json"), digest, [finger], "touch", ["x", "y", "t", "pressure"])
    driver.set_window_size(900, 1000)


def form_cell_typed(driver, base, downloads):
    """A name typed in place of drawing, by keyboard only: shown in the cell in a handwriting face, saved as a typed
    signature that keeps its text, and kept so by the store."""
    driver.get(base + "/")
    wait = WebDriverWait(driver, 10)
    keys = lambda *k: press(driver, *k)
    focused = lambda: focused_id(driver)
    driver.execute_script("document.activeElement.blur()")
    keys(Keys.TAB)
    keys(Keys.TAB)
    field = driver.find_element(By.ID, "cell-typed")
    check(focused() == "cell-typed", "Tab reaches the field for a typed name after the pad")
    label = driver.execute_script("return arguments[0].labels[0].textContent", field)
    note = driver.find_element(By.ID, field.get_attribute("aria-describedby")).text
    check(label.startswith("Or type your name") and "typed" in note, "the field is labelled and described (%r, %r)" % (label, note))
    keys("Ada Lovelace")
    check(state(driver) == "signed", "a typed name signs the cell")
    preview = driver.find_element(By.ID, "typed-preview")
    face = driver.execute_script("return getComputedStyle(arguments[0]).fontFamily", preview)
    check(preview.is_displayed() and preview.text == "Ada Lovelace" and "Ecolier" in face,
          "the cell shows the typed name in the handwriting face (%r in %s)" % (preview.text, face))
    check(driver.find_element(By.ID, "status").text == "Signed. Save keeps it; Clear starts again.",
          "the live region says it is signed")
    shot(driver, "5c-typed-signed")
    keys(Keys.TAB)
    check(focused() == "clear", "Tab goes from the field to Clear")
    keys(Keys.TAB)
    check(focused() == "save", "then to Save")
    keys(Keys.ENTER)
    wait.until(lambda d: state(d) == "saved")
    status = driver.find_element(By.ID, "status").text
    check(state(driver) == "saved" and "typed" in status and re.search(r"[0-9a-f]{64}", status) is not None,
          "Save keeps it as a typed signature (%s)" % status)
    check(preview.is_displayed() and not driver.find_element(By.ID, "saved").is_displayed(),
          "the saved cell shows the typed name, and no ink image")
    shot(driver, "5d-typed-saved")
    digest = re.search(r"[0-9a-f]{64}", status).group(0) if re.search(r"[0-9a-f]{64}", status) else ""
    driver.find_element(By.ID, "record").click()
    try:
        record = json.loads(downloaded(downloads, "signature-record.json"))
    except ValueError:
        record = {}
    check(record.get("kind") == "typed" and record.get("typedSignature") == "Ada Lovelace" and record.get("digest") == digest
          and digest == hashlib.sha256(b"Ada Lovelace").hexdigest() and "signature" not in record,
          "the saved record says typed and keeps the text (%s)" % record)
    status, _, body = http(base, "GET", "/signatures?limit=100", token=ADMIN_TOKEN)
    kept = json.loads(body).get("signatures", []) if status == 200 else []
    check(kept and kept[-1].get("typedSignature") == "Ada Lovelace" and "signature" not in kept[-1],
          "the store keeps it as a typed signature")
    driver.find_element(By.ID, "reenter").click()
    check(state(driver) == "active" and field.get_attribute("value") == "" and not preview.is_displayed(),
          "Re-enter Signature empties the typed name")


def consent_in_arabic(driver, server_binary):
    """The walk-through of an Arabic document that gives its words: the page is Arabic, right to left, and shows the
    document's words (titles, buttons, labels, the form cell's), no English, to the signed consent."""
    port = free_port()
    document = os.path.join(here, "..", "Fixtures", "consent", "consent-ar.json")
    words = json.load(open(document))["words"]
    process = subprocess.Popen([server_binary, "--port", str(port), "--no-store", "--consent-document", document],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        driver.get("http://127.0.0.1:%d/consent" % port)
        wait = WebDriverWait(driver, 10)
        step = lambda: driver.find_element(By.ID, "flow").get_attribute("data-step")
        text = lambda id: driver.find_element(By.ID, id).text
        click = lambda id: driver.find_element(By.ID, id).click()
        english = lambda: re.findall(r"[A-Za-z]{2,}", driver.find_element(By.TAG_NAME, "body").text)
        wait.until(lambda d: step() == "form")
        html = driver.find_element(By.TAG_NAME, "html")
        check(html.get_attribute("lang") == "ar" and html.get_attribute("dir") == "rtl", "the Arabic page is lang ar, dir rtl")
        check(driver.title == "موافقة على المشاركة في الدراسة", "its title is the document's (%s)" % driver.title)
        check(text("progress") == "موافقة على المشاركة في الدراسة: 1 من 2", "the progress is in the document's words (%s)" % text("progress"))
        check(text("cancel-flow") == words["cancel"] and text("next") == words["next"], "the buttons are the document's words")
        check(driver.find_element(By.CSS_SELECTOR, "article a").text == words["learnMore"], "so is Learn more")
        check(not english(), "no English on the first page (%s)" % english())
        shot(driver, "12-consent-ar-page")
        click("cancel-flow")
        check(text("dialog-title") == words["quit"] and text("dialog-text") == words["quitMessage"]
              and text("quit-no") == words["no"] and text("quit-yes") == words["yes"], "the Cancel dialog is in the document's words")
        shot(driver, "12b-consent-ar-cancel")
        press(driver, Keys.ESCAPE)
        click("next")
        check(text("back") == words["back"] and text("allow") == words["allow"] and text("deny") == words["deny"],
              "Back, Allow and Deny are the document's words")
        click("deny")
        check(text("dialog-title") == words["consentRequired"] and text("alert-ok") == words["ok"], "so is the alert")
        click("alert-ok")
        click("allow")
        check(step() == "review" and text("title") == words["review"] and text("agree") == words["agree"]
              and text("disagree") == words["disagree"], "the review is in the document's words")
        click("agree")
        click("agree-confirm")
        wait.until(lambda d: step() == "name")
        check(text("title") == "المشارك: اسمك" and driver.find_element(By.ID, "name-label").text == words["yourName"],
              "the name step is in the document's words")
        driver.find_element(By.ID, "name").send_keys("آدا لوفليس")
        click("next")
        wait.until(lambda d: step() == "signature")
        check(text("title") == "المشارك: توقيعك" and text("hint") == words["tapToSign"] and text("cell-label") == words["signature"]
              and driver.find_element(By.ID, "pad").get_attribute("aria-label") == words["padLabel"]
              and driver.find_element(By.ID, "typed-label").text == words["typeYourName"],
              "the signature step and its form cell are in the document's words")
        check(not english(), "no English on the signature step (%s)" % english())
        shot(driver, "12c-consent-ar-signature")
        driver.find_element(By.ID, "pad").click()
        check(text("status") == words["padReady"] and text("clear") == words["clear"], "the cell says and shows the document's words")
        driver.find_element(By.ID, "cancel").click()
        driver.find_element(By.ID, "typed").send_keys("آدا لوفليس")
        wait.until(lambda d: d.find_element(By.ID, "next").get_attribute("disabled") is None)
        click("next")
        wait.until(lambda d: step() in ("done", "error"))
        check(step() == "done" and text("title") == words["thankYou"] and text("download-pdf") == words["downloadPDF"]
              and text("download-record") == words["downloadRecord"], "the end is in the document's words")
        shot(driver, "12d-consent-ar-done")
    finally:
        process.kill()
        process.wait(timeout=10)


def consent(driver, base, downloads, server_binary):
    driver.get(base + "/consent")
    wait = WebDriverWait(driver, 10)
    step = lambda: driver.find_element(By.ID, "flow").get_attribute("data-step")
    click = lambda id: driver.find_element(By.ID, id).click()
    wait.until(lambda d: step() == "form")
    check(driver.find_element(By.ID, "progress").text == "Taking part: 1 of 5", "the first form shows 1 of 5")
    check(not driver.find_elements(By.ID, "allow"), "Allow waits for the last page")
    shot(driver, "6-consent-page")
    focused = lambda: focused_id(driver)
    check(focused() == "title", "the first step's heading has the focus")
    click("cancel-flow")
    check(driver.find_element(By.ID, "dialog").is_displayed(), "Cancel asks whether to quit")
    shot(driver, "7-consent-cancel")
    # The dialog by keyboard: focus on No, Tab and Shift+Tab kept among its buttons, Escape answers No and gives the
    # focus back to Cancel.
    check(focused() == "quit-no", "the dialog takes the focus, on No")
    keys = lambda *k: press(driver, *k)
    keys(Keys.TAB)
    check(focused() == "quit-yes", "Tab goes to Yes")
    shot(driver, "7b-consent-cancel-focus-on-yes")
    keys(Keys.TAB)
    check(focused() == "quit-no", "Tab stays in the dialog")
    keys(Keys.SHIFT + Keys.TAB)
    check(focused() == "quit-yes", "Shift+Tab stays in the dialog")
    keys(Keys.ESCAPE)
    check(not driver.find_element(By.ID, "dialog").is_displayed() and focused() == "cancel-flow",
          "Escape closes the dialog and gives the focus back to Cancel")
    check(step() == "form" and "1 of 5" in driver.find_element(By.ID, "progress").text, "Escape goes on where it was")
    click("cancel-flow")
    click("quit-no")
    check(step() == "form" and "1 of 5" in driver.find_element(By.ID, "progress").text, "No goes on where it was")
    click("next")
    check(focused() == "title" and "2 of 5" in driver.find_element(By.ID, "progress").text,
          "a new step takes the focus to its heading")
    for _ in range(3):
        click("next")
    click("back")
    click("next")
    check(driver.find_element(By.ID, "progress").text == "Taking part: 5 of 5", "Next and Back walk the pages")
    click("deny")
    check(driver.find_element(By.ID, "dialog-title").text == "Consent required", "Deny on a mandatory form raises the alert")
    shot(driver, "8-consent-required")
    click("alert-ok")
    click("allow")
    check("1 of 1" in driver.find_element(By.ID, "progress").text and driver.find_elements(By.ID, "not-now"),
          "the optional form offers Not Now")
    click("not-now")
    check(step() == "sharing", "the sharing question follows the forms")
    click("share-investigatorOnly")
    click("next")
    check(step() == "review", "then the review")
    click("agree")
    shot(driver, "9-consent-agree")
    click("agree-confirm")
    for name in ["Ada Lovelace", "Charles Babbage"]:
        wait.until(lambda d: step() == "name")
        driver.find_element(By.ID, "name").send_keys(name)
        click("next")
        wait.until(lambda d: step() == "signature")
        if name == "Ada Lovelace":
            driver.find_element(By.ID, "pad").click()
            draw(driver, driver.find_element(By.ID, "canvas"), [wave(60, 330, 100, 28), [(90, 140), (320, 146)]])
            wait.until(lambda d: state(d) == "signed")
            click("save")
            wait.until(lambda d: state(d) == "saved")
            wait.until(lambda d: d.find_element(By.ID, "next").get_attribute("disabled") is None)
            shot(driver, "10-consent-signature")
        else:
            # The second signer types a name instead of drawing: Next waits for it.
            typed = driver.find_element(By.ID, "typed")
            check(typed.is_displayed() and driver.find_element(By.ID, "next").get_attribute("disabled") is not None,
                  "a signer may type a name instead of drawing, and Next waits for one or the other")
            typed.send_keys("C. Babbage")
            wait.until(lambda d: d.find_element(By.ID, "next").get_attribute("disabled") is None)
            shot(driver, "10-consent-typed-signature")
        click("next")
    wait.until(lambda d: step() == "done")
    shot(driver, "11-consent-done")
    # Download it as a person would: the link, into a folder.
    click("download-pdf")
    data = downloaded(downloads, "consent.pdf")
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        text = subprocess.run(["pdftotext", f.name, "-"], capture_output=True, text=True).stdout
        checked = subprocess.run(["qpdf", "--check", f.name], capture_output=True, text=True).returncode
    check(data.startswith(b"%PDF") and checked == 0, "the signed consent PDF downloads and passes qpdf --check")
    check("Ada Lovelace" in text and "Charles Babbage" in text and "Signatures" in text,
          "the PDF names both signers")
    check("C. Babbage" in text, "the typed signature is written in the PDF")
    click("download-record")
    record_bytes = downloaded(downloads, "consent-record.json")
    try:
        record = json.loads(record_bytes)
    except ValueError:
        record = {}
    check(record.get("pdfSHA256") == hashlib.sha256(data).hexdigest(), "the consent record carries the PDF's SHA-256")
    check([d.get("decision") for d in record.get("decisions", [])] == ["allowed", "notNow"]
          and record.get("sharing") == "investigatorOnly"
          and [s.get("name") for s in record.get("signers", [])] == ["Ada Lovelace", "Charles Babbage"],
          "the record holds the decisions, the sharing answer and the signers as walked")
    signers = record.get("signers", [{}, {}])
    check(signers[1].get("kind") == "typed" and signers[1].get("typedSignature") == "C. Babbage"
          and "signature" not in signers[1] and "signature" in signers[0],
          "the record says the second signature was typed, keeps its text, and the first was drawn")
    # The server kept it before answering: the page gives its reference, and the administrator reads back the same
    # PDF and record.
    match = re.search(r"kept under the reference ([0-9a-f-]{36})", driver.find_element(By.TAG_NAME, "body").text)
    check(match is not None, "the done page gives the reference the consent is kept under")
    if match:
        def admin_get(path):
            request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + ADMIN_TOKEN})
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.read()
        check(admin_get("/consents/%s/pdf" % match.group(1)) == data, "the store's copy of the PDF is the one downloaded")
        kept = json.loads(admin_get("/consents/%s" % match.group(1)))
        check(kept.get("record", "").encode() == record_bytes, "the store's copy of the record is the one downloaded")
    # The command line checks every digest of the pair: the document's, each signature's and the PDF's.
    cli = os.path.join(os.path.dirname(server_binary), "signature-ink")
    check(os.path.exists(cli), "signature-ink is built beside the server (%s)" % cli)
    if os.path.exists(cli):
        folder = tempfile.mkdtemp()
        open(os.path.join(folder, "record.json"), "wb").write(record_bytes)
        open(os.path.join(folder, "consent.pdf"), "wb").write(data)
        verified = subprocess.run([cli, "consent", "verify", os.path.join(folder, "record.json"),
                                   os.path.join(folder, "consent.pdf")], capture_output=True, text=True)
        check(verified.returncode == 0, "signature-ink consent verify accepts the record and the PDF (%s)"
              % (verified.stdout + verified.stderr).strip()[:200])


def http(base, method, path, body=None, token=None):
    """(status, content type, body) of one request; a body is sent as JSON, the type every JSON route reads."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def http_checks(base, port):
    """The OpenAPI description parses and each of its routes answers; a body that stops arriving gets 408."""
    status, _, text = http(base, "GET", "/openapi.yaml")
    try:
        description = yaml.safe_load(text)
    except yaml.YAMLError as error:
        description = {}
        print(error)
    check(status == 200 and description.get("openapi", "").startswith("3."), "/openapi.yaml is valid YAML OpenAPI 3")
    for path, methods in description.get("paths", {}).items():
        concrete = path.replace("{name}", "form-cell.js").replace("{id}", "no-such-consent")
        for method, operation in methods.items():
            body = b"" if method == "post" else None
            token = None
            security = operation.get("security", [])
            if any("session" in scheme for scheme in security):
                # A signed-in user's routes: nothing without a session (AccountRouteTests signs in and uses them);
                # signing out without a session does nothing.
                code, kind, _ = http(base, method.upper(), concrete, body)
                expected = 204 if {} in security else 401
                check(code == expected and (code == 204 or kind.startswith("application/json")),
                      "%s %s answers %d without a session (%d)" % (method.upper(), path, expected, code))
                continue
            if security:
                # The administrator's routes: nothing without the token, an answer with it.
                code, kind, _ = http(base, method.upper(), concrete, body)
                check(code == 401 and kind.startswith("application/json"),
                      "%s %s refuses a request without the administrator's token (%d)" % (method.upper(), path, code))
                token = ADMIN_TOKEN
            code, kind, text = http(base, method.upper(), concrete, body, token)
            if method == "get":
                answered = code == (404 if "{id}" in path else 200)
            else:
                # A 404 of the route itself (no such user) answers; the fallback's "no such path" does not.
                answered = (400 <= code < 500 and code != 405 and kind.startswith("application/json")
                            and (code != 404 or ("{id}" in path and b"no such path" not in text)))
            check(answered, "%s %s answers as described (%d)" % (method.upper(), path, code))
    # A client that sends its headers and then trickles its declared body a byte every 0.2 s, which keeps an idle
    # timeout from ever firing: 408 at the request timeout (1 s here), and the connection closed.
    started = time.monotonic()
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n")
        s.settimeout(0.2)
        while time.monotonic() - started < 8:
            try:
                chunk = s.recv(4096)
            except socket.timeout:
                try:
                    s.sendall(b" ")
                except OSError:
                    break
                continue
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
    elapsed = time.monotonic() - started
    check(answer.startswith(b"HTTP/1.1 408") and b"application/json" in answer and elapsed < 3,
          "a body trickled a byte at a time gets 408 at the request timeout and the connection closes (%.1f s: %r)"
          % (elapsed, answer[:40]))


def graceful_stop(process, port):
    """SIGTERM while a request is being sent: the request is still answered, then the server exits with 0."""
    body = open(os.path.join(here, "..", "Fixtures", "realink", "signature-pad-chromium", "dpr1",
                             "Cell-Structure-1-19.json"), "rb").read()
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                  % len(body) + body[:100])
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        s.sendall(body[100:])
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    check(answer.startswith(b"HTTP/1.1 200") and b"image/png" in answer,
          "a request in flight at SIGTERM is still answered (%r)" % answer[:30])
    check(process.wait(timeout=10) == 0, "the server stops gracefully on SIGTERM")


# The administrator's token the server under test is started with.
ADMIN_TOKEN = "browser-test-token-" + os.urandom(8).hex()


def main():
    server = sys.argv[1]
    os.makedirs(artifacts, exist_ok=True)
    port = free_port()
    started = time.monotonic()
    store = tempfile.mkdtemp(prefix="signature-ink-browser-")
    with open(os.path.join(store, "token"), "w") as f:
        f.write(ADMIN_TOKEN + "\n")
    process = subprocess.Popen([server, "--port", str(port), "--request-timeout", "1", "--data", os.path.join(store, "data"),
                                "--admin-token-file", os.path.join(store, "token")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        base = "http://127.0.0.1:%d" % port
        http_checks(base, port)
        driver = browser()
        downloads = tempfile.mkdtemp()
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        try:
            form_cell(driver, base, downloads)
            form_cell_typed(driver, base, downloads)
            consent(driver, base, downloads, server)
            consent_in_arabic(driver, server)
            # Last: it retires the server's document.
            shared_device.run(sys.modules[__name__], driver, base, ADMIN_TOKEN)
        finally:
            driver.quit()
        graceful_stop(process, port)
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(store, ignore_errors=True)
    print("browser tests: %d checks failed, %.1f s" % (len(failures), time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
