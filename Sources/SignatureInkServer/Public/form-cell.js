// The signature form cell: inactive -> active (drawing) -> signed -> saved, with Cancel, Clear, Save and
// Re-enter Signature. Every pointer sample is kept (coalesced events included) with its time, pressure, tilt and
// pointer type, and sent on Save in the engine's native format. On its own page the cell also takes a name typed in
// place of drawing, for anyone who cannot draw: shown in a handwriting face, and saved as a typed signature.
"use strict";

/** A signature pad on a canvas: live ink, and the samples as the engine's native document. */
class SignaturePad {
  constructor(canvas, onInk) {
    this.canvas = canvas;
    this.onInk = onInk;
    this.strokes = [];
    this.pointerTypes = [];
    this.active = null;
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", (e) => this.up(e));
  }

  /** Sizes the backing store to the device's pixels, so the ink is crisp on HiDPI screens. */
  resize() {
    const ratio = window.devicePixelRatio || 1;
    const box = this.canvas.getBoundingClientRect();
    this.width = box.width;
    this.height = box.height;
    this.canvas.width = Math.max(1, Math.round(box.width * ratio));
    this.canvas.height = Math.max(1, Math.round(box.height * ratio));
    const context = this.canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#1d2d3e";
    this.context = context;
    this.redraw();
  }

  sample(e) {
    const box = this.canvas.getBoundingClientRect();
    // Altitude and azimuth in radians; from tiltX/tiltY where the browser gives only those.
    let altitude = e.altitudeAngle, azimuth = e.azimuthAngle;
    if (altitude === undefined && (e.tiltX || e.tiltY)) {
      const tx = Math.tan(e.tiltX * Math.PI / 180), ty = Math.tan(e.tiltY * Math.PI / 180);
      azimuth = (Math.atan2(ty, tx) + 2 * Math.PI) % (2 * Math.PI);
      altitude = Math.atan(1 / Math.hypot(tx, ty));
    }
    return {
      x: e.clientX - box.left, y: e.clientY - box.top, t: performance.timeOrigin + e.timeStamp,
      pressure: e.pointerType === "mouse" ? null : e.pressure,
      altitude: e.pointerType === "pen" && altitude !== undefined ? altitude : null,
      azimuth: e.pointerType === "pen" && azimuth !== undefined ? azimuth : null,
    };
  }

  down(e) {
    if (this.active !== null || !e.isPrimary) return;
    e.preventDefault();
    this.canvas.setPointerCapture(e.pointerId);
    this.active = e.pointerId;
    this.strokes.push([this.sample(e)]);
    this.pointerTypes.push(e.pointerType);
    this.drawLast(1);
  }

  move(e) {
    if (e.pointerId !== this.active) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [];
    const stroke = this.strokes[this.strokes.length - 1];
    const before = stroke.length;
    for (const event of events.length ? events : [e]) {
      const s = this.sample(event);
      const last = stroke[stroke.length - 1];
      if (s.t < last.t) s.t = last.t;  // a coalesced event may not be later than the last one kept
      stroke.push(s);
    }
    this.drawLast(stroke.length - before + 1);
  }

  up(e) {
    if (e.pointerId !== this.active) return;
    this.active = null;
    this.onInk(this.strokes.length > 0);
  }

  /** Draws the last `count` segments of the current stroke. */
  drawLast(count) {
    const stroke = this.strokes[this.strokes.length - 1];
    const c = this.context;
    const start = Math.max(0, stroke.length - count - 1);
    for (let i = start; i < stroke.length; i++) {
      const a = stroke[Math.max(0, i - 1)], b = stroke[i];
      c.lineWidth = 1 + 2.5 * (b.pressure === null ? 0.5 : b.pressure);
      c.beginPath();
      c.moveTo(a.x, a.y);
      c.lineTo(b.x + (a === b ? 0.01 : 0), b.y);
      c.stroke();
    }
  }

  redraw() {
    this.context.clearRect(0, 0, this.width, this.height);
    const strokes = this.strokes;
    this.strokes = [];
    for (const stroke of strokes) {
      this.strokes.push(stroke);
      this.drawLast(stroke.length);
    }
  }

  clear() {
    this.strokes = [];
    this.pointerTypes = [];
    this.active = null;
    this.redraw();
  }

  get hasInk() { return this.strokes.length > 0; }

  /** The samples as the engine's native JSON document: canvas in CSS pixels, times from the first sample. */
  toNative() {
    const start = this.strokes[0][0].t;
    const all = this.strokes.flat();
    const has = (key) => all.some((s) => s[key] !== null && s[key] !== undefined);
    const channels = ["x", "y", "t"].concat(["pressure", "altitude", "azimuth"].filter(has));
    const round = (v, d) => v === null || v === undefined ? null : Math.round(v * d) / d;
    return {
      format: "signature-ink", version: 1,
      canvas: { width: round(this.width, 100), height: round(this.height, 100), unitsPerInch: 96 },
      startTime: Math.round(start),
      metadata: { pointerTypes: this.pointerTypes.join(","), devicePixelRatio: String(window.devicePixelRatio || 1) },
      channels,
      strokes: this.strokes.map((stroke) => stroke.map((s) => channels.map((c) =>
        c === "t" ? round(Math.max(0, s.t - start), 1000) : round(s[c], c === "x" || c === "y" ? 100 : 10000)))),
    };
  }
}

/** Builds the cell's parts inside its (empty) section: header with the required asterisk, pad, the typed name's field
 * (when `typing`), actions, status; every word from `words`. */
function buildCell(root, words, typing) {
  const node = (tag, attributes = {}, text) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attributes)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    return n;
  };
  const header = node("header", { class: "cell-header" });
  header.append(node("span", { id: "cell-label" }, root.dataset.label || words.signature),
                node("span", { class: "required", title: words.required }, "*"));
  // The pad is a control of its own for the keyboard: Enter or Space starts signing, Escape cancels.
  const pad = node("div", { class: "pad", id: "pad", tabindex: "0", role: "group", "aria-label": words.padLabel });
  // The typed name as it signs, in the handwriting face; the field itself is what a screen reader reads.
  pad.append(node("canvas", { id: "canvas", "aria-label": words.canvasLabel }),
             node("p", { class: "hint", id: "hint" }, words.tapToSign),
             node("p", { class: "typed-preview", id: "typed-preview", "aria-hidden": "true" }),
             node("img", { id: "saved", alt: words.savedSignature, hidden: "" }));
  const parts = [header, pad];
  if (typing) {
    const entry = node("div", { class: "typed-entry" });
    entry.append(node("label", { for: "cell-typed" }, words.typeInstead),
                 node("input", { id: "cell-typed", autocomplete: "name", "aria-describedby": "cell-typed-note" }),
                 node("p", { class: "note", id: "cell-typed-note" }, words.typedNote));
    parts.push(entry);
  }
  const actions = node("div", { class: "actions" });
  actions.append(node("button", { type: "button", id: "cancel" }, words.cancel),
                 node("button", { type: "button", id: "clear", disabled: "" }, words.clear),
                 node("button", { type: "button", id: "save", disabled: "" }, words.save),
                 node("button", { type: "button", id: "reenter" }, words.reenter));
  const record = node("a", { id: "record", class: "download", download: "signature-record.json", hidden: "" },
                      words.downloadStored);
  root.replaceChildren(...parts, actions, node("p", { class: "status", id: "status", role: "status", "aria-live": "polite" }),
                       record);
}

/** A word with its placeholders (`{digest}`) filled in from `values`. */
function say(word, values = {}) {
  return word.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** The cell's life cycle around a pad. `onSaved` gets the native document and the server's answer. `words` are what
 * the cell shows and says: the page's words, which the server writes into every page (a consent document's, English
 * where it gives none); the cell of a page of its own (not `data-embedded`) also takes a typed name. `options.local`
 * keeps the ink in the page (the server sees it only with the consent it signs: the walk-through works offline);
 * `options.headers()` gives headers that saving sends too (a signed-in session's CSRF token). */
class SignatureCell {
  constructor(root, onSaved, words, options = {}) {
    this.words = words;
    this.options = options;
    buildCell(root, this.words, !root.dataset.embedded);
    this.root = root;
    this.onSaved = onSaved;
    this.pad = new SignaturePad(root.querySelector("canvas"), () => this.inked());
    this.saved = root.querySelector("#saved");
    this.status = root.querySelector("#status");
    this.record = root.querySelector("#record");
    this.typed = root.querySelector("#cell-typed");
    this.preview = root.querySelector("#typed-preview");
    if (this.typed) this.typed.addEventListener("input", () => this.typedChanged());
    root.querySelector(".pad").addEventListener("pointerdown", () => { if (this.state === "inactive") this.set("active"); });
    root.querySelector(".pad").addEventListener("keydown", (event) => {
      if ((event.key === "Enter" || event.key === " ") && this.state === "inactive") {
        event.preventDefault();
        this.set("active");
      } else if (event.key === "Escape" && (this.state === "active" || this.state === "signed")) {
        event.preventDefault();
        this.cancel();
      }
    });
    root.querySelector("#cancel").addEventListener("click", () => this.cancel());
    root.querySelector("#clear").addEventListener("click", () => { this.pad.clear(); this.forgetTyped(); this.set("active"); });
    root.querySelector("#save").addEventListener("click", () => this.save());
    root.querySelector("#reenter").addEventListener("click", () => {
      this.pad.clear();
      this.forgetTyped();
      this.saved.hidden = true;
      this.forgetRecord();
      this.set("active");
    });
    this.set("inactive");
  }

  get state() { return this.root.dataset.state; }

  /** Cancel, by its button or by Escape on the pad: the ink or typed name goes and the cell is inactive again. */
  cancel() { this.pad.clear(); this.forgetTyped(); this.set("inactive"); }

  /** The word the status line says when the cell enters a state. */
  static said = { inactive: "unsigned", active: "padReady", signed: "signed" };

  /** The typed name, trimmed; empty when there is none (or no field for one). */
  get typedName() { return this.typed ? this.typed.value.trim() : ""; }

  set(state) {
    const before = this.root.dataset.state;
    this.root.dataset.state = state;
    const given = this.pad.hasInk || this.typedName !== "";
    this.root.querySelector("#clear").disabled = !given;
    this.root.querySelector("#save").disabled = !given;
    // A saved typed name stays as it was saved until Re-enter.
    if (this.typed) this.typed.readOnly = state === "saved";
    // The status line is a polite live region: each change of state is said once to a screen reader (saving says
    // its own outcome). Nothing is said when the page opens.
    if (before !== undefined && before !== state && SignatureCell.said[state]) this.status.textContent = this.words[SignatureCell.said[state]];
    if (state === "active") requestAnimationFrame(() => this.pad.resize());
  }

  /** A name typed (or changed): it takes the place of any ink, shown in the handwriting face, and signs the cell. */
  typedChanged() {
    if (this.state === "saved") return;
    const name = this.typedName;
    this.preview.textContent = name;
    if (name) {
      if (this.pad.hasInk) this.pad.clear();
      this.root.dataset.typed = "";
      this.set("signed");
    } else {
      delete this.root.dataset.typed;
      this.set(this.state === "inactive" ? "inactive" : "active");
    }
  }

  forgetTyped() {
    if (!this.typed) return;
    this.typed.value = "";
    this.preview.textContent = "";
    delete this.root.dataset.typed;
  }

  forgetRecord() {
    if (this.record.href) URL.revokeObjectURL(this.record.href);
    this.record.removeAttribute("href");
    this.record.hidden = true;
  }

  /** Ink drawn: the cell is signed, and a typed name it had goes. */
  inked() {
    if (this.pad.hasInk && this.typedName) this.forgetTyped();
    if (this.state === "active" || this.state === "signed") this.set(this.pad.hasInk ? "signed" : "active");
  }

  async save() {
    const typed = this.typedName;
    if (!this.pad.hasInk && !typed) return;
    // The ink in the engine's native format, or the typed name as `{"typed": ...}`.
    const native = typed ? null : this.pad.toNative();
    if (this.options.local) {
      this.saved.src = this.pad.canvas.toDataURL("image/png");
      this.saved.hidden = false;
      this.status.textContent = this.words.savedSignature;
      this.set("saved");
      if (this.onSaved) this.onSaved(native, null);
      return;
    }
    this.status.textContent = this.words.saving;
    try {
      const headers = { "Content-Type": "application/json", ...(this.options.headers ? this.options.headers() : {}) };
      const response = await fetch("/signatures", { method: "POST", headers, body: JSON.stringify(typed ? { typed } : native) });
      const answer = await response.json();
      if (!response.ok) { this.status.textContent = answer.error; return; }
      let text;
      if (answer.kind === "typed") {
        this.status.textContent = say(this.words.savedTyped, { digest: answer.digest });
        // The stored record of a typed signature: its kind and text, the digest of the text and the save time.
        text = JSON.stringify({ digest: answer.digest, kind: "typed", savedAt: answer.savedAt, typedSignature: answer.typedSignature }) + "\n";
      } else {
        this.saved.src = answer.png;
        this.saved.hidden = false;
        this.saved.dataset.digest = answer.digest;
        this.status.textContent = say(this.words.saved, { digest: answer.digest });
        // The stored record as the server keeps it: the native document (text as answered, so it reads back to
        // the same digest), the digest and the save time.
        text = '{"digest":' + JSON.stringify(answer.digest) + ',"savedAt":' + JSON.stringify(answer.savedAt)
          + ',"signature":' + answer.signature + "}\n";
      }
      this.forgetRecord();
      this.record.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      this.record.hidden = false;
      this.set("saved");
      if (this.onSaved) this.onSaved(native, answer);
    } catch (error) {
      this.status.textContent = say(this.words.saveFailed, { reason: error.message });
    }
  }
}

// The cell of a page of its own takes the page's words, which the server writes as the JSON block #words.
const cell = document.getElementById("cell");
if (cell && !cell.dataset.embedded) {
  window.signatureCell = new SignatureCell(cell, undefined, JSON.parse(document.getElementById("words").textContent));
}
