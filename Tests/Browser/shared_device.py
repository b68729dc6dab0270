# SPDX-License-Identifier: Apache-2.0
"""Users on a shared device, in a real browser (test_pages.py runs it with its helpers).

Two users onboard on one browser profile, each with their own passcode; each signs in, saves a signature and
collects a consent whose investigator line is signed with that saved signature; each sees only their own, also after
Back; wrong passcodes are limited; a consent collected with the network off (DevTools network emulation) waits on the
device, encrypted, behind the connection error's Try Again, and is kept once when the network returns, even when it
is sent twice; and a consent refused because an administrator retired the document's version shows the user sync
error, naming that administrator. Each page is kept as a screenshot at phone and tablet widths, and checked with
axe-core.
"""
import http.cookiejar, json, os, time, urllib.error, urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
TABLET = {"width": 1024, "height": 768, "deviceScaleFactor": 1, "mobile": False}
PARTICIPANTS = {"ada": "Mary Somerville", "bob": "Caroline Herschel", "offline": "Emmy Noether", "refused": "Lise Meitner"}


class Client:
    """A client of the server with its own cookies: the administrator's own device, in Python."""

    def __init__(self, base, token=None):
        self.base, self.token, self.csrf = base, token, None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def run(t, driver, base, token):
    """The shared device's tests; `t` is test_pages, whose check, shot, draw and wave they use."""
    admin = Client(base, token)
    users = {}
    for key, name, title, subtitle, administrator in [
            ("ada", "Ada Lovelace", "Study nurse", "Ward 4", False), ("bob", "Bob Kahn", "Research assistant", None, False),
            ("carol", "Carol Shaw", "Study nurse", "Ward 7", False), ("mary", "Mary Jackson", "Study administrator", "Trials office", True)]:
        status, answer = admin.call("POST", "/users", {"displayName": name, "title": title, "subtitle": subtitle,
                                                       "administrator": administrator})
        t.check(status == 201, "the administrator creates %s (%d)" % (name, status))
        users[key] = answer
    code = lambda key: users[key]["enrolmentCode"]["code"]
    wait = WebDriverWait(driver, 30)
    view = lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-view")
    click = lambda id: driver.find_element(By.ID, id).click()
    text = lambda: driver.find_element(By.TAG_NAME, "body").text

    def page(name):
        """The page as it is, at phone width (a screenshot) and at tablet width (a screenshot and axe-core)."""
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        time.sleep(0.2)
        driver.save_screenshot(os.path.join(t.artifacts, "device-%s-phone.png" % name))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TABLET)
        time.sleep(0.2)
        driver.save_screenshot(os.path.join(t.artifacts, "device-%s-tablet.png" % name))
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        t.accessible(driver, "device-" + name)

    def add_user(key, passcode):
        if view() != "add":
            click("add-button")
        wait.until(lambda d: view() == "add")
        driver.find_element(By.ID, "code").send_keys(code(key))
        driver.find_element(By.ID, "new-passcode").send_keys(passcode)
        driver.find_element(By.ID, "confirm-passcode").send_keys(passcode)
        click("add-submit")
        wait.until(lambda d: view() == "home")

    def sign_in(passcode):
        wait.until(lambda d: view() == "signin")
        field = driver.find_element(By.ID, "passcode")
        t.check(driver.find_element(By.ID, "signin-button").get_attribute("disabled") is not None,
                "Sign In is disabled until a passcode is entered")
        # By keyboard: the field has the focus, and Enter signs in.
        t.check(t.focused_id(driver) == "passcode", "Sign In puts the focus in the passcode field")
        t.press(driver, passcode, Keys.ENTER)

    def save_signature():
        driver.find_element(By.ID, "pad").click()
        t.draw(driver, driver.find_element(By.ID, "canvas"), [t.wave(40, 300, 90, 25), [(60, 130), (280, 136)]])
        wait.until(lambda d: t.state(d) == "signed")
        click("save")
        wait.until(lambda d: d.find_element(By.ID, "my-signature").is_displayed())

    def collect(participant, screenshots=False):
        """Walks the consent in the frame: the participant draws; the investigator's line takes the saved signature."""
        click("collect")
        wait.until(lambda d: view() == "collect-view")
        driver.switch_to.frame(driver.find_element(By.ID, "walk"))
        step = lambda: driver.find_element(By.ID, "flow").get_attribute("data-step")
        wait.until(lambda d: step() == "form")
        if screenshots:
            driver.switch_to.default_content()
            page("collect")
            driver.switch_to.frame(driver.find_element(By.ID, "walk"))
        for _ in range(4):
            click("next")
        click("allow")
        click("not-now")
        click("share-investigatorOnly")
        click("next")
        click("agree")
        click("agree-confirm")
        wait.until(lambda d: step() == "name")
        driver.find_element(By.ID, "name").send_keys(participant)
        click("next")
        wait.until(lambda d: step() == "signature")
        t.check(not driver.find_elements(By.ID, "use-saved"), "the participant's line offers no saved signature")
        driver.find_element(By.ID, "pad").click()
        t.draw(driver, driver.find_element(By.ID, "canvas"), [t.wave(60, 330, 100, 28)])
        wait.until(lambda d: t.state(d) == "signed")
        click("save")
        wait.until(lambda d: d.find_element(By.ID, "next").get_attribute("disabled") is None)
        click("next")
        wait.until(lambda d: step() == "name")
        collector = driver.find_element(By.ID, "name").get_attribute("value")
        click("next")
        wait.until(lambda d: step() == "signature")
        click("use-saved")
        t.check(driver.find_element(By.ID, "dialog").is_displayed(), "the saved signature is used only once confirmed")
        click("use-saved-confirm")
        wait.until(lambda d: step() == "queued")
        driver.switch_to.default_content()
        return collector

    def consents(key):
        """The consents the store keeps that `key` collected, by the administrator's route."""
        status, answer = admin.call("GET", "/consents?limit=100")
        return [c for c in answer.get("consents", []) if c.get("provenance", {}).get("user") == users[key]["user"]["id"]]

    def offline(on):
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": on, "latency": 0, "downloadThroughput": -1,
                                                                   "uploadThroughput": -1})

    def sync_complete():
        wait.until(lambda d: view() == "sync" and d.find_element(By.ID, "sync-done").is_displayed())
        bar = driver.find_element(By.ID, "sync-progress")
        return float(bar.get_attribute("value")), float(bar.get_attribute("max"))

    # A browser that no user has onboarded on: straight to Add User.
    driver.delete_all_cookies()
    driver.get(base + "/device")
    wait.until(lambda d: view() == "add")
    page("add-user")
    add_user("ada", "ada passcode 1")
    t.check("Ada Lovelace" in driver.find_element(By.ID, "home-title").text, "onboarding Ada signs her in")
    save_signature()
    collector = collect(PARTICIPANTS["ada"], screenshots=True)
    t.check(collector == "Ada Lovelace", "the investigator's line offers the collector's own name (%r)" % collector)
    done, total = sync_complete()
    t.check(done == total == 1, "the sync page reaches 100 %% (%s of %s)" % (done, total))
    page("sync")
    click("sync-done")
    wait.until(lambda d: PARTICIPANTS["ada"] in d.find_element(By.ID, "consent-list").text)
    page("home")
    kept = consents("ada")
    t.check(len(kept) == 1 and [s["name"] for s in kept[0]["signers"]] == [PARTICIPANTS["ada"], "Ada Lovelace"],
            "Ada's consent is in the store once, the investigator's line hers (%s)" % [[s["name"] for s in c["signers"]] for c in kept])
    signature_digests = {s["digest"] for s in admin.call("GET", "/signatures?limit=100")[1]["signatures"]
                         if s["provenance"].get("user") == users["ada"]["user"]["id"]}
    t.check(len(kept) == 1 and kept[0]["signers"][1].get("signatureDigest") in signature_digests,
            "the investigator's line is signed with Ada's saved signature")

    # Bob onboards on the same browser; he sees nothing of Ada's, also after Back.
    click("home-switch")
    wait.until(lambda d: view() == "users")
    add_user("bob", "bob passcode 2")
    wait.until(lambda d: d.find_element(By.ID, "consent-list-empty").is_displayed())
    t.check(PARTICIPANTS["ada"] not in text() and "Ada Lovelace" not in text(), "Bob's home shows nothing of Ada's")
    save_signature()
    collect(PARTICIPANTS["bob"])
    sync_complete()
    click("sync-done")
    wait.until(lambda d: PARTICIPANTS["bob"] in d.find_element(By.ID, "consent-list").text)
    t.check(PARTICIPANTS["ada"] not in text(), "Bob's list has his consent and not Ada's")
    mine = driver.execute_async_script("const done = arguments[0]; fetch('/me/consents/%s').then(r => done(r.status))"
                                       % (kept[0]["id"] if kept else "none"))
    t.check(mine == 404, "Ada's consent is 404 to Bob's session (%s)" % mine)
    click("signout")
    wait.until(lambda d: view() == "signin")
    for _ in range(6):
        driver.back()
        time.sleep(0.2)
        t.check(PARTICIPANTS["bob"] not in text() and PARTICIPANTS["ada"] not in text() and view() in ("signin", "add", "users", "forgot"),
                "Back after signing out shows no user's data (view %s)" % view())
    driver.get(base + "/device")
    wait.until(lambda d: view() == "signin")
    page("sign-in")
    click("forgot-link")
    wait.until(lambda d: view() == "forgot")
    page("forgot-passcode")
    driver.back()
    wait.until(lambda d: view() == "signin")
    click("switch-button")
    wait.until(lambda d: view() == "users")
    listed = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#user-list button")] + [driver.find_element(By.ID, "selected-user").text]
    t.check(any("Bob Kahn" in x for x in listed) and any("Ada Lovelace" in x for x in listed)
            and not any("Carol Shaw" in x or "Mary Jackson" in x for x in listed),
            "Switch or Add User lists the users onboarded on this device, and only those (%s)" % listed)
    page("switch-or-add-user")
    driver.find_element(By.ID, "user-search").send_keys("nurse")
    shown = driver.find_elements(By.CSS_SELECTOR, "#user-list button")
    t.check(len(shown) == 1 and "Ada" in shown[0].text, "the search narrows the list (%s)" % [b.text for b in shown])
    # Ada signs in with her passcode after Bob: her consent, not his.
    shown[0].click()
    sign_in("ada passcode 1")
    wait.until(lambda d: view() == "home" and PARTICIPANTS["ada"] in d.find_element(By.ID, "consent-list").text)
    t.check(PARTICIPANTS["bob"] not in text() and "Bob Kahn" not in text(), "Ada, signed in after Bob, sees her consent and nothing of his")
    click("home-switch")
    wait.until(lambda d: view() == "users")

    # Carol: five wrong passcodes, then a wait.
    click("add-button")
    add_user("carol", "carol passcode 3")
    click("signout")
    messages = []
    for attempt in range(6):
        sign_in("not carol's passcode")
        wait.until(lambda d: d.find_element(By.ID, "signin-message").text not in ("", "Signing in…"))
        messages.append(driver.find_element(By.ID, "signin-message").text)
    t.check(all("passcode" in m for m in messages) and "try again in" in messages[5] and view() == "signin",
            "wrong passcodes are limited: a wait after five (%r)" % messages[5])
    sign_in("carol passcode 3")
    wait.until(lambda d: d.find_element(By.ID, "signin-message").text not in ("", "Signing in…"))
    t.check("try again in" in driver.find_element(By.ID, "signin-message").text, "the right passcode waits too")

    # Bob, offline: the consent waits on the device, encrypted; Try Again sends it, once, even sent twice.
    click("switch-button")
    wait.until(lambda d: view() == "users")
    for button in driver.find_elements(By.CSS_SELECTOR, "#user-list button"):
        if "Bob Kahn" in button.text:
            button.click()
            break
    sign_in("bob passcode 2")
    wait.until(lambda d: view() == "home")
    before = len(consents("bob"))
    offline(True)
    collect(PARTICIPANTS["offline"])
    wait.until(lambda d: view() == "connection-error")
    t.check(driver.find_element(By.ID, "try-again").is_displayed(), "offline, the connection error offers Try Again")
    page("connection-error")
    entries = driver.execute_async_script("""
        const done = arguments[0];
        const open = indexedDB.open("signature-ink-device");
        open.onsuccess = () => {
          const get = open.result.transaction("queue").objectStore("queue").getAll();
          get.onsuccess = () => done(get.result.map((e) => ({ user: e.user, submission: e.submission, state: e.state,
                                                              clear: new TextDecoder().decode(e.data) })));
        };""")
    t.check(len(entries) == 1 and entries[0]["state"] == "waiting" and PARTICIPANTS["offline"] not in entries[0]["clear"]
            and "signers" not in entries[0]["clear"], "the waiting consent is kept encrypted on the device")
    # The same entry twice, as after an answer lost on the way back: the server must keep it once.
    driver.execute_async_script("""
        const done = arguments[0];
        const open = indexedDB.open("signature-ink-device");
        open.onsuccess = () => {
          const store = open.result.transaction("queue", "readwrite").objectStore("queue");
          const get = store.getAll();
          get.onsuccess = () => { const copy = { ...get.result[0] }; delete copy.id; store.add(copy).onsuccess = () => done(); };
        };""")
    offline(False)
    if view() == "connection-error":
        click("try-again")
    done, total = sync_complete()
    t.check(done == total == 2, "after the network returns the sync page reaches 100 %% (%s of %s)" % (done, total))
    after = consents("bob")
    t.check(len(after) == before + 1 and sum(PARTICIPANTS["offline"] in json.dumps(c["signers"]) for c in after) == 1,
            "the consent collected offline is in the store exactly once (%d before, %d after)" % (before, len(after)))
    click("sync-done")

    # The user sync error: a consent waits while Mary, an administrator, retires the document's version.
    offline(True)
    collect(PARTICIPANTS["refused"])
    wait.until(lambda d: view() == "connection-error")
    mary = Client(base)
    status, _ = mary.call("POST", "/device/users", {"code": code("mary"), "passcode": "mary passcode 4"})
    status, session = mary.call("POST", "/device/users/%s/session" % users["mary"]["user"]["id"], {"passcode": "mary passcode 4"})
    mary.csrf = session.get("csrfToken") if status == 200 else None
    document = urllib.request.urlopen(base + "/consent/document").headers.get("ETag", "").strip('"')
    status, retired = mary.call("POST", "/consent/document/retirement", {"document": document, "reason": "the ethics board approved version 2"})
    t.check(status == 201 and retired.get("by", {}).get("displayName") == "Mary Jackson",
            "Mary, an administrator, retires the document's version in her own session (%d)" % status)
    offline(False)
    if view() == "connection-error":
        click("try-again")
    wait.until(lambda d: view() == "user-error")
    t.check(driver.find_element(By.ID, "contact-name").text == "Mary Jackson"
            and driver.find_element(By.ID, "contact-avatar").text == "MJ"
            and "Study administrator" in driver.find_element(By.ID, "contact-title").text
            and "the ethics board approved version 2" in driver.find_element(By.ID, "user-error-description").text,
            "the user sync error names the administrator who retired the version, and why")
    page("user-sync-error")
    t.check(sum(PARTICIPANTS["refused"] in json.dumps(c["signers"]) for c in consents("bob")) == 0,
            "the refused consent is not kept by the server")
    click("return-to-login")
    wait.until(lambda d: view() == "signin")
    sign_in("bob passcode 2")
    wait.until(lambda d: view() == "home" and PARTICIPANTS["refused"] in d.find_element(By.ID, "consent-list").text)
    t.check("Refused by the server" in driver.find_element(By.ID, "consent-list").text,
            "the refused consent stays on the device, marked, for the user to take up")
    # With its version retired, the walk-through says why in place of a document.
    click("collect")
    driver.switch_to.frame(driver.find_element(By.ID, "walk"))
    wait.until(lambda d: d.find_element(By.ID, "flow").get_attribute("data-step") == "error")
    t.check("retired by Mary Jackson" in driver.find_element(By.ID, "body").text,
            "the walk-through of a retired version shows the server's reason")
    driver.switch_to.default_content()
