// A shared device (a clinic tablet, a courier's terminal): the users onboarded on it pick themselves from a list,
// sign in with a passcode of this device, and work with their own saved signature and the consents they collect.
// What a user collects is kept on the device first, in IndexedDB, encrypted with a key derived from their passcode,
// and sent to the server when the connection allows: each consent under its own submission identifier, so that a
// retry after a lost answer is kept once.
"use strict";

const $ = (id) => document.getElementById(id);
const words = JSON.parse($("words").textContent);

/** An element with attributes and text. */
function el(tag, text, attributes = {}) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

/** Sets an avatar's initials, or "?" for a name without letters. */
function avatar(node, user) { node.textContent = user.initials || "?"; }

/** The words the date `iso` reads as on this device. */
function when(iso) {
  const date = new Date(iso);
  return isNaN(date) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

// The key of a user's data on this device: AES-GCM with 256 bits, derived from the passcode with PBKDF2-SHA-256
// (WebCrypto has no memory-hard derivation) at OWASP's 600,000 iterations, from a salt of 16 random bytes that this
// device keeps for the user. The key is never stored: it lives in this page's memory while the user is signed in.
const iterations = 600000;

class Vault {
  constructor() { this.opening = null; }

  /** The database: `salts` (one per user) and `queue` (the consents waiting to be sent, encrypted). */
  open() {
    this.opening ??= new Promise((resolve, reject) => {
      const request = indexedDB.open("signature-ink-device", 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("salts", { keyPath: "user" });
        request.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true }).createIndex("user", "user");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return this.opening;
  }

  async run(store, mode, work) {
    const db = await this.open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(store, mode);
      const request = work(transaction.objectStore(store));
      transaction.oncomplete = () => resolve(request?.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  }

  /** The key of `user` from `passcode`: with the salt kept for them, or a new one. */
  async key(user, passcode) {
    let entry = await this.run("salts", "readonly", (s) => s.get(user));
    if (!entry) {
      entry = { user, salt: crypto.getRandomValues(new Uint8Array(16)) };
      await this.run("salts", "readwrite", (s) => s.put(entry));
    }
    const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(passcode), "PBKDF2", false, ["deriveKey"]);
    return crypto.subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt: entry.salt, iterations }, material,
                                   { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  }

  /** Keeps a submission of `user`, encrypted; its owner and identifier are bound to it as associated data. */
  async enqueue(user, key, body) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: this.bound(user, body.submission) }, key,
                                            new TextEncoder().encode(JSON.stringify(body)));
    return this.run("queue", "readwrite", (s) => s.add({ user, submission: body.submission, iv, data, state: "waiting",
                                                          queuedAt: new Date().toISOString() }));
  }

  bound(user, submission) { return new TextEncoder().encode(user + "\n" + submission); }

  /** The submission kept in `entry`, or `null` when `key` does not open it (a passcode changed since). */
  async read(entry, key) {
    try {
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: entry.iv, additionalData: this.bound(entry.user, entry.submission) },
                                                key, entry.data);
      return JSON.parse(new TextDecoder().decode(plain));
    } catch {
      return null;
    }
  }

  /** Every entry of `user`'s queue, oldest first. */
  entries(user) { return this.run("queue", "readonly", (s) => s.index("user").getAll(user)); }
  put(entry) { return this.run("queue", "readwrite", (s) => s.put(entry)); }
  remove(id) { return this.run("queue", "readwrite", (s) => s.delete(id)); }
}

class Device {
  constructor() {
    this.vault = new Vault();
    this.users = [];
    this.selected = null;
    this.session = null;
    this.key = null;
    this.saved = null;
    this.syncing = null;
    this.bind();
    // The browser's Back and Forward move between the views; a view that needs a signed-in user shows Sign In
    // when nobody is signed in, so Back never shows what the previous user saw.
    window.addEventListener("popstate", (event) => this.show(event.state?.view || "signin", { push: false }));
    // A page restored from the back-forward cache is loaded again rather than shown as it was.
    window.addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });
    window.addEventListener("online", () => { if (this.key && this.view === "connection-error") this.sync(); });
    // What the consent walk-through in the frame calls.
    window.signatureInkDevice = {
      collector: () => (this.session ? { ...this.session.user } : null),
      savedSignature: () => this.saved,
      submit: (body) => this.collected(body),
    };
    this.start();
  }

  bind() {
    $("passcode").addEventListener("input", () => { $("signin-button").disabled = $("passcode").value === ""; });
    $("signin-form").addEventListener("submit", (event) => { event.preventDefault(); this.signIn(); });
    $("forgot-link").addEventListener("click", (event) => { event.preventDefault(); this.show("forgot"); });
    $("switch-button").addEventListener("click", () => this.show("users"));
    for (const id of ["forgot-back", "users-back", "add-back"]) $(id).addEventListener("click", () => history.back());
    $("add-button").addEventListener("click", () => this.show("add"));
    $("user-search").addEventListener("input", () => this.listUsers());
    const addReady = () => { $("add-submit").disabled = !$("code").value.trim() || !$("new-passcode").value || !$("confirm-passcode").value; };
    for (const id of ["code", "new-passcode", "confirm-passcode"]) $(id).addEventListener("input", addReady);
    $("add-form").addEventListener("submit", (event) => { event.preventDefault(); this.onboard(); });
    $("signout").addEventListener("click", () => this.signOut("signin"));
    $("home-switch").addEventListener("click", () => this.signOut("users"));
    $("collect").addEventListener("click", () => this.collect());
    $("collect-back").addEventListener("click", () => this.home());
    $("sync-now").addEventListener("click", () => this.sync());
    $("replace-signature").addEventListener("click", () => {
      $("cell").hidden = false;
      $("replace-signature").hidden = true;
      this.cell.set("active");
      $("pad").focus();
    });
    $("sync-done").addEventListener("click", () => this.home());
    $("try-again").addEventListener("click", () => this.sync());
    $("offline-continue").addEventListener("click", () => this.home());
    $("return-to-login").addEventListener("click", () => this.signOut("signin"));
  }

  /** The users of this device, and the view to begin with. */
  async start() {
    await this.loadUsers();
    const remembered = localStorage.getItem("signature-ink.selected-user");
    this.select(this.users.find((u) => u.id === remembered) || this.users[0] || null);
    this.show(this.selected ? "signin" : "add", { push: false });
  }

  async loadUsers() {
    try {
      const response = await fetch("/device/users");
      if (response.ok) this.users = (await response.json()).users;
    } catch {
      // Offline: the list stays as it was.
    }
  }

  select(user) {
    this.selected = user;
    if (user) localStorage.setItem("signature-ink.selected-user", user.id);
    const profile = user || { displayName: "", initials: "" };
    avatar($("signin-avatar"), profile);
    $("signin-name").textContent = profile.displayName;
    $("signin-title").textContent = profile.title || "";
    $("signin-subtitle").textContent = profile.subtitle || "";
  }

  /** Shows one view, and takes focus to its heading so that a screen reader says where the user is. */
  show(view, { push = true } = {}) {
    const signedIn = ["home", "collect-view", "sync", "connection-error"];
    if (signedIn.includes(view) && !this.key) view = this.selected ? "signin" : "add";
    if (view === "user-error" && !this.refusal) view = "signin";
    if (view === "signin" && !this.selected) view = "add";
    this.view = view;
    for (const main of document.querySelectorAll("main.view")) main.hidden = main.id !== view;
    document.body.dataset.view = view;
    const heading = $(view).querySelector("h1");
    document.title = `${heading.textContent} · SignatureInk`;
    if (push) history.pushState({ view }, "");
    else history.replaceState({ view }, "");
    if (view === "signin") { $("passcode").value = ""; $("signin-button").disabled = true; }
    if (view === "users") { $("user-search").value = ""; this.listUsers(); }
    // Adding the device's first user has nowhere to go back to.
    $("add-back").hidden = this.users.length === 0;
    if (view === "add") { for (const id of ["code", "new-passcode", "confirm-passcode"]) $(id).value = ""; $("add-submit").disabled = true; }
    (view === "signin" ? $("passcode") : heading).focus();
  }

  /** The Switch or Add User list: the selected user, and the other users onboarded here that match the search. */
  listUsers() {
    const row = (user, tag) => {
      const node = el(tag, undefined, tag === "button" ? { type: "button" } : {});
      const face = el("span", undefined, { class: "avatar", "aria-hidden": "true" });
      avatar(face, user);
      const text = el("span", undefined, { class: "text" });
      text.append(el("span", user.displayName), el("span", [user.title, user.subtitle].filter(Boolean).join(" · "), { class: "sub" }));
      node.append(face, text);
      return node;
    };
    $("selected-user").replaceChildren(...(this.selected ? [...row(this.selected, "div").childNodes] : []));
    const query = $("user-search").value.trim().toLowerCase();
    const others = this.users.filter((u) => u.id !== this.selected?.id)
      .filter((u) => !query || [u.displayName, u.title, u.subtitle].some((t) => t && t.toLowerCase().includes(query)));
    $("user-list").replaceChildren(...others.map((user) => {
      const item = el("li");
      const button = row(user, "button");
      button.dataset.user = user.id;
      button.addEventListener("click", () => { this.select(user); this.show("signin"); });
      item.append(button);
      return item;
    }));
    $("user-list-empty").hidden = others.length > 0 || query !== "";
    $("user-count").textContent = query ? `${others.length} matching` : "";
  }

  async onboard() {
    const code = $("code").value.trim(), passcode = $("new-passcode").value;
    if (passcode !== $("confirm-passcode").value) { $("add-message").textContent = "The two passcodes differ."; return; }
    $("add-message").textContent = "Adding…";
    try {
      const response = await fetch("/device/users", { method: "POST", headers: { "Content-Type": "application/json" },
                                                      body: JSON.stringify({ code, passcode }) });
      const answer = await response.json();
      if (!response.ok) { $("add-message").textContent = answer.error; return; }
      $("add-message").textContent = "";
      await this.loadUsers();
      this.select(this.users.find((u) => u.id === answer.id) || answer);
      await this.signIn(passcode);
    } catch {
      $("add-message").textContent = "The server cannot be reached: adding a user needs the connection.";
    }
  }

  async signIn(given) {
    const passcode = given ?? $("passcode").value;
    const message = this.view === "add" ? $("add-message") : $("signin-message");
    if (!passcode || !this.selected) return;
    message.textContent = "Signing in…";
    $("signin-button").disabled = true;
    let response, answer;
    try {
      response = await fetch(`/device/users/${encodeURIComponent(this.selected.id)}/session`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ passcode }) });
      answer = await response.json();
    } catch {
      message.textContent = "The server cannot be reached: signing in needs the connection.";
      $("signin-button").disabled = false;
      return;
    }
    if (!response.ok) {
      message.textContent = answer.error;
      $("passcode").value = "";
      $("passcode").focus();
      return;
    }
    message.textContent = "";
    this.session = answer;
    this.key = await this.vault.key(answer.user.id, passcode);
    await this.home();
    // What was collected while offline goes as soon as the user is back.
    if ((await this.waiting()).length) this.sync();
  }

  /** Signs out: the session ends, the key and everything shown of the user go, and `view` shows. */
  async signOut(view) {
    const csrf = this.session?.csrfToken;
    this.forget();
    try { await fetch("/session", { method: "DELETE", headers: csrf ? { "X-CSRF-Token": csrf } : {} }); } catch { /* offline */ }
    await this.loadUsers();
    this.show(view);
  }

  forget() {
    this.session = null;
    this.key = null;
    this.saved = null;
    this.refusal = null;
    $("walk").src = "about:blank";
    this.walkReady = false;
    for (const id of ["consent-list", "home-title", "home-subtitle", "home-avatar", "queue-note",
                      "contact-name", "contact-title", "contact-subtitle", "contact-avatar", "user-error-description"]) {
      $(id).replaceChildren();
    }
    this.showSaved(null);
  }

  /** The saved signature's part of the home: the signature and when it was saved, or the cell to save one. */
  showSaved(latest, png) {
    $("my-signature").hidden = !png;
    if (png) $("my-signature").src = png;
    else $("my-signature").removeAttribute("src");
    const at = latest ? when(new Date(latest.savedAt).toISOString()) : "";
    $("my-signature").alt = latest ? `Your saved signature, ${at}` : "";
    $("my-signature-note").textContent = !latest ? "None saved yet." : latest.signature ? `Saved ${at}.`
      : `Saved ${at}, as your typed name “${latest.typedSignature}”.`;
    $("replace-signature").hidden = !latest;
    $("cell").hidden = Boolean(latest);
    if (this.cell) { this.cell.pad.clear(); this.cell.saved.hidden = true; this.cell.set("inactive"); this.cell.status.textContent = ""; }
  }

  headers() { return { "Content-Type": "application/json", "X-CSRF-Token": this.session.csrfToken }; }

  /** The signed-in user's home: who they are, what they collected (kept and waiting), and their saved signature. */
  async home() {
    const user = this.session.user;
    avatar($("home-avatar"), user);
    $("home-title").textContent = user.displayName;
    $("home-subtitle").textContent = [user.title, user.subtitle].filter(Boolean).join(" · ");
    if (!this.cell) {
      this.cell = new SignatureCell($("cell"), () => this.loadSaved(), words, { headers: () => ({ "X-CSRF-Token": this.session?.csrfToken || "" }) });
    }
    this.show("home", { push: this.view !== "home" });
    this.preloadWalk();
    await Promise.all([this.listConsents(), this.loadSaved()]);
  }

  /** The consents this user collected: those kept by the server, and those still on the device. */
  async listConsents() {
    const user = this.session?.user.id;
    const items = [];
    for (const entry of await this.waiting(true)) {
      const body = await this.vault.read(entry, this.key);
      const names = body ? body.signers.map((s) => s.name || s.typed).filter(Boolean).join(", ") : "Locked with an earlier passcode";
      const item = el("li");
      item.append(el("span", names), el("span", entry.state === "refused" ? "Refused by the server: " + entry.error : "Waiting to be sent",
                                         { class: "waiting" }), el("span", when(entry.queuedAt), { class: "when" }));
      items.push(item);
    }
    let kept = [];
    try {
      const response = await fetch("/me/consents?limit=100");
      if (response.ok) kept = (await response.json()).consents;
    } catch { /* offline: only what waits here */ }
    if (this.session?.user.id !== user) return;
    for (const consent of kept.reverse()) {
      const item = el("li");
      const names = consent.signers.map((s) => s.name || s.typedSignature).filter(Boolean).join(", ");
      item.dataset.consent = consent.id;
      item.append(el("span", names), el("span", when(consent.recordedAt), { class: "when" }),
                  el("a", "PDF", { href: `/me/consents/${consent.id}/pdf`, download: `consent-${consent.id}.pdf`,
                                   "aria-label": `PDF of the consent of ${names}` }));
      items.push(item);
    }
    $("consent-list").replaceChildren(...items);
    $("consent-list-empty").hidden = items.length > 0;
    const waiting = (await this.waiting()).length;
    $("queue-note").textContent = waiting ? `${waiting} waiting on this device.` : "";
    $("sync-now").hidden = waiting === 0;
  }

  /** This user's entries waiting to be sent (`all`: refused ones too). */
  async waiting(all = false) {
    if (!this.session) return [];
    return (await this.vault.entries(this.session.user.id)).filter((e) => all || e.state === "waiting");
  }

  /** The user's latest saved signature: shown, and offered for the collector's slot of a consent. */
  async loadSaved() {
    const user = this.session?.user.id;
    let latest = null;
    try {
      for (let after = 0, more = true; more;) {
        const response = await fetch(`/me/signatures?limit=100&after=${after}`);
        if (!response.ok) break;
        const page = await response.json();
        if (page.signatures.length) latest = page.signatures[page.signatures.length - 1];
        more = page.next !== null;
        after = page.next;
      }
    } catch { /* offline: as before */ }
    if (!latest || this.session?.user.id !== user) return;
    this.saved = { signature: latest.signature, typed: latest.typedSignature, savedAt: latest.savedAt };
    let png = null;
    if (latest.signature) {
      try {
        const response = await fetch("/render?format=png&width=480&height=160&fit=true", {
          method: "POST", headers: { "Content-Type": "application/json" }, body: latest.signature });
        if (response.ok) png = URL.createObjectURL(await response.blob());
      } catch { /* offline: the note alone */ }
    }
    if (this.session?.user.id === user) this.showSaved(latest, png);
  }

  /** Loads the walk-through into its frame while the connection is there, so that it works offline too. */
  preloadWalk() {
    if (this.walkReady) return;
    this.walkReady = true;
    $("walk").src = "/consent";
  }

  collect() {
    const frame = $("walk").contentWindow;
    if (frame && typeof frame.restartConsent === "function") frame.restartConsent();
    this.show("collect-view");
  }

  /** A consent the walk-through completed: kept on the device, then sent. */
  async collected(body) {
    await this.vault.enqueue(this.session.user.id, this.key, body);
    setTimeout(() => this.sync(), 0);
    return { queued: true };
  }

  sync() {
    this.syncing ??= this.send().finally(() => { this.syncing = null; });
    return this.syncing;
  }

  /** Sends each waiting consent in turn, with the Sync view's progress; stops at the first that cannot go. */
  async send() {
    // An entry this passcode does not open (locked under one replaced since) stays, and is not counted.
    const entries = [];
    for (const entry of await this.waiting()) {
      const body = await this.vault.read(entry, this.key);
      if (body) entries.push([entry, body]);
    }
    if (!entries.length) return this.home();
    const total = entries.length;
    const consents = (n) => `${n} consent${n === 1 ? "" : "s"}`;
    $("sync-title").textContent = "Syncing";
    $("sync-description").textContent = `Sending ${consents(total)} collected on this device.`;
    $("sync-done").hidden = true;
    const progress = (done) => {
      $("sync-progress").max = total;
      $("sync-progress").value = done;
      $("sync-count").textContent = `${done} of ${total} sent (${Math.round(100 * done / total)} %)`;
    };
    progress(0);
    this.show("sync", { push: this.view !== "sync" });
    for (const [k, [entry, body]] of entries.entries()) {
      let response;
      try {
        response = await fetch("/consent/sign", { method: "POST", headers: this.headers(), body: JSON.stringify(body) });
      } catch {
        return this.show("connection-error", { push: false });
      }
      if (response.status === 401) {
        this.forget();
        this.show("signin", { push: false });
        $("signin-message").textContent = "Your session has ended: sign in again to send what waits on this device.";
        return;
      }
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        $("connection-description").textContent = `The server is busy (${response.status}). What you collected stays on this device.`;
        return this.show("connection-error", { push: false });
      }
      const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
      if (!response.ok) {
        // Refused: kept on the device, marked, and never sent again by itself; the user must see someone.
        Object.assign(entry, { state: "refused", error: answer.error, retirement: answer.retirement || null });
        await this.vault.put(entry);
        return this.refused(answer);
      }
      await this.vault.remove(entry.id);
      progress(k + 1);
    }
    $("sync-title").textContent = "Sync Complete";
    $("sync-description").textContent = `${consents(total)} sent and kept by the server.`;
    $("sync-done").hidden = false;
    $("sync-done").focus();
  }

  /** The User sync error: whom to contact (the administrator who retired the document's version), and why. */
  refused(answer) {
    this.refusal = answer;
    const by = answer.retirement?.by || { displayName: "Your study administrator", initials: "" };
    avatar($("contact-avatar"), by);
    $("contact-name").textContent = by.displayName;
    $("contact-title").textContent = by.title || "";
    $("contact-subtitle").textContent = by.subtitle || "";
    const retired = answer.retirement;
    const why = retired
      ? `The version of the consent document it was signed on (${retired.document.slice(0, 12)}…) was retired on ${when(retired.retiredAt)}: `
        + `${retired.reason}. The server kept nothing.`
      : `The server refused a consent you collected: ${answer.error}.`;
    $("user-error-description").textContent = `${why} The consent stays on this device, marked as refused; `
      + `ask ${by.displayName} what to do with it.`;
    this.show("user-error", { push: false });
  }
}

window.device = new Device();
