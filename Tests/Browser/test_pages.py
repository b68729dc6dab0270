#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The server's pages in a real browser: Debian's Chromium, driven through chromedriver with selenium.

Draws with real pointer input (WebDriver pen actions, dispatched by the browser as pointer events), walks the
signature form cell's life cycle (inactive, active, Cancel, signed, Clear, Save, saved, Re-enter) and the consent
walk-through to its signed PDF, and checks what the server answers. A screenshot of each state is kept in
Tests/Browser/artifacts/.

Usage: python3 Tests/Browser/test_pages.py SERVER_BINARY      (make test-browser runs it)
"""
import base64, os, re, socket, struct, subprocess, sys, tempfile, time, zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
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


def state(driver):
    return driver.find_element(By.ID, "cell").get_attribute("data-state")


def shot(driver, name):
    driver.save_screenshot(os.path.join(artifacts, name + ".png"))


def wave(x0, x1, y, amplitude, steps=24):
    return [(x0 + (x1 - x0) * k / steps, y + amplitude * (1 if k % 4 < 2 else -1) * (k % 2)) for k in range(steps + 1)]


def form_cell(driver, base):
    driver.get(base + "/")
    wait = WebDriverWait(driver, 10)
    check(state(driver) == "inactive", "the cell starts inactive")
    check(driver.find_element(By.CSS_SELECTOR, ".required").text == "*", "the header shows the required asterisk")
    shot(driver, "1-inactive")
    pad = driver.find_element(By.ID, "pad")
    pad.click()
    check(state(driver) == "active", "a tap activates the cell")
    check(driver.find_element(By.ID, "save").get_attribute("disabled") is not None, "Save is disabled until there is ink")
    shot(driver, "2-active")
    driver.find_element(By.ID, "cancel").click()
    check(state(driver) == "inactive", "Cancel returns to inactive")
    pad.click()
    canvas = driver.find_element(By.ID, "canvas")
    draw(driver, canvas, [wave(60, 300, 110, 25)])
    wait.until(lambda d: state(d) == "signed")
    check(state(driver) == "signed", "drawing makes the cell signed")
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
    driver.find_element(By.ID, "reenter").click()
    check(state(driver) == "active" and not saved.is_displayed(), "Re-enter Signature returns to an empty active cell")
    shot(driver, "5-reenter")


def consent(driver, base):
    driver.get(base + "/consent")
    wait = WebDriverWait(driver, 10)
    step = lambda: driver.find_element(By.ID, "flow").get_attribute("data-step")
    click = lambda id: driver.find_element(By.ID, id).click()
    wait.until(lambda d: step() == "form")
    check(driver.find_element(By.ID, "progress").text == "Taking part: 1 of 5", "the first form shows 1 of 5")
    check(not driver.find_elements(By.ID, "allow"), "Allow waits for the last page")
    shot(driver, "6-consent-page")
    click("cancel-flow")
    check(driver.find_element(By.ID, "dialog").is_displayed(), "Cancel asks whether to quit")
    shot(driver, "7-consent-cancel")
    click("quit-no")
    check(step() == "form" and "1 of 5" in driver.find_element(By.ID, "progress").text, "No goes on where it was")
    for _ in range(4):
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
        driver.find_element(By.ID, "pad").click()
        draw(driver, driver.find_element(By.ID, "canvas"), [wave(60, 330, 100, 28), [(90, 140), (320, 146)]])
        wait.until(lambda d: state(d) == "signed")
        click("save")
        wait.until(lambda d: state(d) == "saved")
        wait.until(lambda d: d.find_element(By.ID, "next").get_attribute("disabled") is None)
        shot(driver, "10-consent-signature")
        click("next")
    wait.until(lambda d: step() == "done")
    shot(driver, "11-consent-done")
    # Download it as a person would: the link, into a folder.
    downloads = tempfile.mkdtemp()
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    click("download-pdf")
    path = os.path.join(downloads, "consent.pdf")
    for _ in range(100):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            break
        time.sleep(0.1)
    data = open(path, "rb").read() if os.path.exists(path) else b""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        text = subprocess.run(["pdftotext", f.name, "-"], capture_output=True, text=True).stdout
        checked = subprocess.run(["qpdf", "--check", f.name], capture_output=True, text=True).returncode
    check(data.startswith(b"%PDF") and checked == 0, "the signed consent PDF downloads and passes qpdf --check")
    check("Ada Lovelace" in text and "Charles Babbage" in text and "Signatures" in text,
          "the PDF names both signers")


def main():
    server = sys.argv[1]
    os.makedirs(artifacts, exist_ok=True)
    port = free_port()
    process = subprocess.Popen([server, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        driver = browser()
        try:
            form_cell(driver, "http://127.0.0.1:%d" % port)
            consent(driver, "http://127.0.0.1:%d" % port)
        finally:
            driver.quit()
    finally:
        process.terminate()
        check(process.wait(timeout=10) == 0, "the server stops gracefully on SIGTERM")
    print("browser tests: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
