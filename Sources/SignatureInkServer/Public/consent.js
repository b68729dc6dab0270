// The consent walk-through: the document's forms page by page ("n of N", Next and Back, Allow / Deny / Not Now on
// the last page), the sharing question, the review with Agree and its confirmation, each signer's name and
// signature (the form cell), and at the end the signed PDF and the consent record from the server, which replays
// every decision through the engine's own consent flow. Text is always set as text, never parsed as HTML.
//
// Every word the page shows or announces is the document's (its `words`, English where it gives none): the server
// writes them all into the page as the JSON block #words, and sets <html lang dir> from the document's language and
// direction. `say` is form-cell.js's: a word with its placeholders filled in.
"use strict";

const $ = (id) => document.getElementById(id);
const words = JSON.parse($("words").textContent);
/** The page's word `key`, its placeholders filled in from `values`. */
const w = (key, values) => say(words[key], values);
const el = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
};

/** Consent markup to DOM nodes: paragraphs, lists, **bold**, *italic*, [links](https:...). */
function markup(text) {
  const out = document.createDocumentFragment();
  const inline = (line, parent) => {
    const pattern = /\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(((?:https?|mailto):[^ )]+)\)/g;
    let last = 0, m;
    while ((m = pattern.exec(line)) !== null) {
      parent.append(line.slice(last, m.index));
      if (m[1] !== undefined) parent.append(el("strong", m[1]));
      else if (m[2] !== undefined) parent.append(el("em", m[2]));
      else parent.append(el("a", m[3], { href: m[4], rel: "noopener noreferrer", target: "_blank" }));
      last = pattern.lastIndex;
    }
    parent.append(line.slice(last));
  };
  for (const block of (text || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    if (lines.every((l) => /^[-*] /.test(l)) || lines.every((l) => /^\d{1,6}\. /.test(l))) {
      const list = el(/^\d/.test(lines[0]) ? "ol" : "ul");
      for (const l of lines) { const item = el("li"); inline(l.replace(/^([-*]|\d+\.) /, ""), item); list.append(item); }
      out.append(list);
    } else {
      const p = el("p"); inline(lines.join(" "), p); out.append(p);
    }
  }
  return out;
}

// A new identifier for one walk-through's submission (a version 4 UUID): the server keeps the consent under it, so a
// submission sent again after a lost answer is kept once. crypto.getRandomValues works on plain HTTP too.
function newSubmissionID() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// The shared device's page when this walk-through runs in its frame (device.js): it knows the signed-in collector and
// their saved signature, and keeps the submission on the device until it is sent. `undefined` on a page of its own.
const device = (() => {
  try { return window.parent !== window ? window.parent.signatureInkDevice : undefined; } catch { return undefined; }
})();

class ConsentWalkThrough {
  // `digest` is the document's SHA-256 (the ETag of /consent/document): the server refuses a submission for
  // another version than the one this page shows.
  constructor(document, digest) {
    this.doc = document;
    this.digest = digest;
    this.submission = newSubmissionID();
    const visible = document.sections.filter((s) => s.kind !== "onlyInDocument").map((s) => s.identifier);
    this.forms = document.forms.length ? document.forms
      : (visible.length ? [{ identifier: "consent", title: document.title, sections: visible, mandatory: true }] : []);
    this.decisions = [];
    this.sharing = null;
    this.signers = document.slots.filter((s) => s.requiresName !== false || s.requiresSignature !== false);
    this.collected = [];
    $("name-label").textContent = w("yourName");
    $("typed-label").textContent = w("typeYourName");
    $("typed-note").textContent = w("typedNote");
    // On a shared device the ink stays in the page until the consent is signed, so that it works offline.
    this.cell = new SignatureCell($("cell"), (native) => { this.pendingInk = JSON.stringify(native); this.render(); }, words,
                                  { local: device !== undefined });
    this.step = this.forms.length ? { kind: "form", form: 0, page: 0 } : this.afterForms();
    $("dialog").hidden = true;
    this.render();
  }

  afterForms() { return this.doc.sharing ? { kind: "sharing" } : { kind: "review" }; }

  section(id) { return this.doc.sections.find((s) => s.identifier === id); }

  go(step) { this.step = step; this.render(); }

  // A modal dialog: focus goes to its first button, the one that changes nothing (No, OK, Cancel), which Escape also
  // presses; Tab and Shift+Tab stay among its buttons; when it closes, focus returns to what opened it, or goes to
  // the new step's heading when the answer moved the walk-through on.
  dialog(title, text, buttons) {
    $("dialog-title").textContent = title;
    $("dialog-text").textContent = text;
    const actions = $("dialog-actions");
    actions.replaceChildren();
    const opener = document.activeElement;
    const step = this.step;
    for (const [label, id, action] of buttons) {
      const b = el("button", label, { type: "button", id });
      b.addEventListener("click", () => {
        $("dialog").hidden = true;
        action();
        if (this.step === step && opener && opener.isConnected) opener.focus();
      });
      actions.append(b);
    }
    $("dialog").hidden = false;
    actions.firstChild.focus();
  }

  dialogKey(event) {
    if ($("dialog").hidden) return;
    const buttons = [...$("dialog-actions").children];
    if (event.key === "Escape") {
      event.preventDefault();
      buttons[0].click();
    } else if (event.key === "Tab") {
      event.preventDefault();
      const at = buttons.indexOf(document.activeElement);
      buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
    }
  }

  cancel() {
    this.dialog(w("quit"), w("quitMessage"), [
      [w("no"), "quit-no", () => {}],
      [w("yes"), "quit-yes", () => this.go({ kind: "abandoned" })],
    ]);
  }

  decide(decision) {
    const form = this.forms[this.step.form];
    if (decision === "denied" && form.mandatory !== false) {
      this.dialog(w("consentRequired"), w("consentRequiredMessage"), [[w("ok"), "alert-ok", () => {}]]);
      return;
    }
    this.decisions.push({ form: form.identifier, decision });
    const next = this.step.form + 1;
    this.go(next < this.forms.length ? { kind: "form", form: next, page: 0 } : this.afterForms());
  }

  button(label, id, action, disabled = false) {
    const b = el("button", label, { type: "button", id });
    b.disabled = disabled;
    b.addEventListener("click", action);
    $("actions").append(b);
  }

  signerStep(k) {
    if (k >= this.signers.length) return { kind: "submit" };
    this.pendingInk = null;
    return this.signers[k].requiresName !== false ? { kind: "name", signer: k } : { kind: "signature", signer: k };
  }

  render() {
    const s = this.step;
    // A new step (not the same one drawn again as ink comes in) takes focus to its heading, so that a screen reader
    // reads where the walk-through has gone and Tab starts from the top of it.
    const moved = s !== this.rendered;
    this.rendered = s;
    $("flow").dataset.step = s.kind;
    $("progress").textContent = "";
    $("body").replaceChildren();
    $("actions").replaceChildren();
    $("name-entry").hidden = s.kind !== "name";
    $("cell").hidden = s.kind !== "signature";
    // A slot may require a drawn signature; elsewhere the signer may type their name instead.
    $("typed-entry").hidden = s.kind !== "signature" || this.signers[s.signer].requiresDrawnSignature === true;
    if (s.kind === "form") {
      const form = this.forms[s.form], section = this.section(form.sections[s.page]);
      const last = s.page === form.sections.length - 1;
      $("progress").textContent = w("progress", { form: form.title, n: s.page + 1, N: form.sections.length });
      $("title").textContent = section.title || "";
      if (section.summary) $("body").append(el("p", section.summary, { class: "summary" }));
      $("body").append(markup(section.content));
      // The link's text as the document's PDF prints it.
      if (section.learnMore) $("body").append(el("a", w("learnMore"), { href: section.learnMore, rel: "noopener noreferrer", target: "_blank" }));
      this.button(w("cancel"), "cancel-flow", () => this.cancel());
      if (s.page > 0) this.button(w("back"), "back", () => this.go({ ...s, page: s.page - 1 }));
      if (!last) this.button(w("next"), "next", () => this.go({ ...s, page: s.page + 1 }));
      if (last) {
        this.button(w("deny"), "deny", () => this.decide("denied"));
        if (form.mandatory === false) this.button(w("notNow"), "not-now", () => this.decide("notNow"));
        this.button(w("allow"), "allow", () => this.decide("allowed"));
      }
    } else if (s.kind === "sharing") {
      const who = this.doc.sharing.investigator;
      $("title").textContent = w("sharingOptions");
      $("body").append(markup(this.doc.sharing.learnMore));
      const set = el("fieldset");
      for (const [value, label] of [["broadly", w("shareBroadly", { investigator: who })],
                                    ["investigatorOnly", w("shareInvestigatorOnly", { investigator: who })]]) {
        const id = "share-" + value;
        const input = el("input", null, { type: "radio", name: "sharing", id, value });
        input.addEventListener("change", () => { this.sharing = value; $("next").disabled = false; });
        const label_ = el("label", null, { for: id });
        label_.append(input, " " + label);
        set.append(el("div"));
        set.lastChild.append(label_);
      }
      $("body").append(set);
      this.button(w("cancel"), "cancel-flow", () => this.cancel());
      this.button(w("next"), "next", () => this.go({ kind: "review" }), this.sharing === null);
    } else if (s.kind === "review") {
      $("title").textContent = w("review");
      $("body").append(el("h2", this.doc.title));
      if (this.doc.reviewContent) $("body").append(markup(this.doc.reviewContent));
      else for (const section of this.doc.sections) { $("body").append(el("h3", section.title)); $("body").append(markup(section.content)); }
      this.button(w("cancel"), "cancel-flow", () => this.cancel());
      this.button(w("disagree"), "disagree", () => this.go({ kind: "declined" }));
      this.button(w("agree"), "agree", () => this.dialog(w("review"), this.doc.reasonForConsent, [
        [w("cancel"), "agree-cancel", () => {}],
        [w("agree"), "agree-confirm", () => this.go(this.signerStep(0))],
      ]));
    } else if (s.kind === "name") {
      const slot = this.signers[s.signer];
      $("title").textContent = w("nameTitle", { slot: slot.title });
      // The collector's own line: their name, which they may change.
      $("name").value = slot.signedByCollector && device?.collector() ? device.collector().displayName : "";
      this.button(w("cancel"), "cancel-flow", () => this.cancel());
      this.button(w("next"), "next", () => {
        const name = $("name").value.trim();
        if (!name) return;
        this.pendingName = name;
        this.go(slot.requiresSignature !== false ? { kind: "signature", signer: s.signer } : this.finishSigner(s.signer));
      });
    } else if (s.kind === "signature") {
      const slot = this.signers[s.signer];
      $("title").textContent = w("signatureTitle", { slot: slot.title });
      if (this.cell.state === "saved" && !this.pendingInk) { this.cell.pad.clear(); this.cell.saved.hidden = true; this.cell.set("inactive"); }
      if (moved) $("typed").value = "";
      const typed = () => (slot.requiresDrawnSignature === true || this.pendingInk ? "" : $("typed").value.trim());
      this.button(w("cancel"), "cancel-flow", () => this.cancel());
      // The collector's own line on a shared device: their saved signature, once they confirm it is theirs to give.
      const saved = slot.signedByCollector ? device?.savedSignature() : null;
      if (saved) {
        this.button(w("useSaved"), "use-saved", () => this.dialog(w("useSaved"), w("useSavedConfirm", { slot: slot.title }), [
          [w("cancel"), "use-saved-cancel", () => {}],
          [w("yes"), "use-saved-confirm", () => {
            this.pendingInk = saved.signature || null;
            this.go(this.finishSigner(s.signer, saved.signature ? "" : saved.typed));
          }],
        ]));
      }
      this.button(w("next"), "next", () => this.go(this.finishSigner(s.signer, typed())), !this.pendingInk && !typed());
      $("typed").oninput = () => { $("next").disabled = !this.pendingInk && !typed(); };
    } else if (s.kind === "submit") {
      $("title").textContent = w("signing");
      this.submit();
    } else if (s.kind === "done") {
      $("title").textContent = w("thankYou");
      $("body").append(el("p", w("ready", { pages: this.result.pages })));
      if (this.result.id) $("body").append(el("p", w("reference", { id: this.result.id })));
      const pdf = URL.createObjectURL(new Blob([Uint8Array.from(atob(this.result.pdf), (c) => c.charCodeAt(0))], { type: "application/pdf" }));
      const record = URL.createObjectURL(new Blob([this.result.record], { type: "application/json" }));
      $("body").append(el("a", w("downloadPDF"), { href: pdf, download: "consent.pdf", id: "download-pdf", class: "download" }));
      $("body").append(el("a", w("downloadRecord"), { href: record, download: "consent-record.json", id: "download-record", class: "download" }));
    } else if (s.kind === "queued") {
      $("title").textContent = w("thankYou");
      $("body").append(el("p", w("queued")));
    } else if (s.kind === "abandoned") {
      $("title").textContent = w("abandoned");
    } else if (s.kind === "declined") {
      $("title").textContent = w("declined");
    } else if (s.kind === "error") {
      $("title").textContent = w("signingFailed");
      $("body").append(el("p", this.error));
    }
    if (moved) $("title").focus();
  }

  // Records signer `k`: the saved ink, or else the name typed in its place.
  finishSigner(k, typed = "") {
    const signer = { slot: this.signers[k].identifier, name: this.pendingName || null, ink: this.pendingInk };
    if (!this.pendingInk && typed) { signer.ink = null; signer.typed = typed; }
    this.collected.push(signer);
    this.pendingName = null;
    this.cell.pad.clear();
    this.cell.saved.hidden = true;
    this.cell.set("inactive");
    return this.signerStep(k + 1);
  }

  async submit() {
    const body = { submission: this.submission, decisions: this.decisions, sharing: this.sharing,
                   utcOffsetMinutes: -new Date().getTimezoneOffset(), pageSize: "a4", signers: this.collected };
    if (this.digest) body.document = this.digest;
    if (device) {
      // Kept on the device, encrypted, and sent by the device's page (now, or when the connection returns).
      await device.submit(body);
      this.go({ kind: "queued" });
      return;
    }
    try {
      const response = await fetch("/consent/sign", { method: "POST", headers: { "Content-Type": "application/json" },
                                                     body: JSON.stringify(body) });
      const answer = await response.json();
      if (!response.ok) { this.error = answer.error; this.go({ kind: "error" }); return; }
      this.result = answer;
      this.go({ kind: "done" });
    } catch (error) {
      this.error = error.message;
      this.go({ kind: "error" });
    }
  }
}

$("dialog").addEventListener("keydown", (event) => window.consentWalkThrough?.dialogKey(event));

fetch("/consent/document").then(async (r) => {
  const digest = (r.headers.get("ETag") || "").replaceAll('"', "") || null;
  const loaded = await r.json();
  if (!r.ok) {
    // No document to sign (a retired version): the server's reason, in place of the walk-through.
    $("flow").dataset.step = "error";
    $("title").textContent = document.title;
    $("body").replaceChildren(el("p", loaded.error));
    return;
  }
  window.consentWalkThrough = new ConsentWalkThrough(loaded, digest);
  // A new walk-through of the same document, without loading it again (the shared device's next consent, offline too).
  window.restartConsent = () => { window.consentWalkThrough = new ConsentWalkThrough(loaded, digest); };
});
