// The TweakKit editor page's script; inlined into editor.html under the page's CSP nonce.
"use strict";
const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
const hash = new URLSearchParams(location.hash.slice(1));
let token = hash.get("token") || sessionStorage.getItem("tweakToken") || "";
if (hash.get("token")) { sessionStorage.setItem("tweakToken", token); history.replaceState(null, "", location.pathname + location.search); }
const tokenField = document.getElementById("token");
tokenField.value = token;
tokenField.addEventListener("change", () => { token = tokenField.value.trim(); sessionStorage.setItem("tweakToken", token); });
const search = document.getElementById("search");
const groups = document.getElementById("groups");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");
let tweaks = [];
const patterns = { Int: /^-?\d+$/, Double: /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, Float: /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/ };
const hints = { Int: "a whole number, like -3 or 42", Double: "a number, like -0.5 or 2", Float: "a number, like -0.5 or 2" };

function el(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}
// Feature and variable names may hold any character (a space, "/", "?", "#", "café"): each is one
// percent-encoded path component, which the server decodes back.
function path(t) { return base + "api/tweaks/" + encodeURIComponent(t.feature) + "/" + encodeURIComponent(t.variable); }
function key(t) { return t.feature + "." + t.variable; }
// An element id made of the name's encoded form: no spaces, the same for the same tweak.
function fieldId(t) { return "v-" + encodeURIComponent(t.feature) + "/" + encodeURIComponent(t.variable); }

async function request(url, options) {
  options = options || {};
  options.headers = Object.assign({ "Authorization": "Bearer " + token }, options.headers || {});
  const response = await fetch(url, options);
  if (!response.ok) {
    let text = response.statusText;
    try { text = (await response.json()).error || text; } catch (_) {}
    if (response.status === 401) text += " (enter the token printed by tweak serve)";
    throw new Error(text);
  }
  return response.json();
}

async function load() {
  try {
    const response = await fetch(base + "api/tweaks", { headers: token ? { "Authorization": "Bearer " + token } : {} });
    if (!response.ok) throw new Error((await response.json()).error || response.statusText);
    tweaks = await response.json();
    statusLine.textContent = tweaks.length + " tweaks";
    render();
  } catch (error) { statusLine.textContent = "Cannot load: " + error.message; }
}

// With a shared store each tweak has a version: writes send it as If-Match, so an edit made
// elsewhere since the page loaded is refused (412) instead of overwritten.
function versionHeaders(t) { return t.version === undefined ? {} : { "If-Match": '"' + t.version + '"' }; }

async function save(t, bodyText, row) {
  try {
    await request(path(t), { method: "PUT", headers: Object.assign({ "Content-Type": "application/json" }, versionHeaders(t)), body: bodyText });
    message.textContent = "";
    await load();
  } catch (error) { showError(row, error.message); }
}

function showError(row, text) {
  let line = row.querySelector(".error");
  if (!line) { line = el("div", { class: "error", role: "alert" }); row.appendChild(line); }
  line.textContent = text;
}

function control(t, row) {
  const box = el("div", { class: "control" });
  const id = fieldId(t);
  if (t.type === "Bool") {
    const input = el("input", { type: "checkbox", role: "switch", class: "switch", id: id, "aria-label": t.title || key(t) });
    input.checked = t.value === true;
    input.addEventListener("change", () => save(t, JSON.stringify({ value: input.checked }), row));
    box.appendChild(input);
  } else if (t.type === "Int" || t.type === "Double" || t.type === "Float") {
    const input = el("input", { type: "text", inputmode: t.type === "Int" ? "numeric" : "decimal", id: id, "aria-label": t.title || key(t) });
    input.value = String(t.value);
    input.addEventListener("change", () => {
      const text = input.value.trim();
      if (!patterns[t.type].test(text)) { showError(row, "Enter " + hints[t.type] + "."); return; }
      save(t, '{"value": ' + text + '}', row);
    });
    box.appendChild(input);
  } else if (t.type === "String") {
    const input = el("input", { type: "text", id: id, "aria-label": t.title || key(t) });
    input.value = t.value;
    input.addEventListener("change", () => save(t, JSON.stringify({ value: input.value }), row));
    box.appendChild(input);
  } else {
    box.appendChild(el("code", {}, JSON.stringify(t.value)));
  }
  if (t.overridden) {
    const reset = el("button", { type: "button", class: "reset", "aria-label": "Reset " + (t.title || key(t)) }, "Reset");
    reset.addEventListener("click", async () => {
      try { await request(path(t), { method: "DELETE", headers: versionHeaders(t) }); await load(); } catch (error) { showError(row, error.message); }
    });
    box.appendChild(reset);
  }
  if (t.version !== undefined) {
    const show = el("button", { type: "button", class: "history-toggle", "aria-label": "History of " + (t.title || key(t)) }, "History");
    show.addEventListener("click", () => toggleHistory(t, row));
    box.appendChild(show);
  }
  return box;
}

function shown(value) { return value === null ? "(none)" : JSON.stringify(value); }

// A tweak's changes, newest first; each can be reverted: its old value is written back (or the
// override removed) on the condition that the tweak is still at the version the page shows.
async function toggleHistory(t, row) {
  const open = row.querySelector(".history");
  if (open) { open.remove(); return; }
  const list = el("ol", { class: "history", "aria-label": "History of " + key(t) });
  row.appendChild(list);
  try {
    const query = "?feature=" + encodeURIComponent(t.feature) + "&variable=" + encodeURIComponent(t.variable) + "&limit=20";
    const changes = await request(base + "api/history" + query);
    if (changes.length === 0) list.appendChild(el("li", { class: "meta" }, "No changes yet."));
    for (const change of changes) {
      const item = el("li", { class: "meta" },
        "v" + change.version + " · " + shown(change.old) + " → " + shown(change.new) + " · " + change.author + " · " + change.at);
      const revert = el("button", { type: "button", class: "revert" }, "Revert");
      revert.addEventListener("click", async () => {
        try {
          const options = change.old === null
            ? { method: "DELETE", headers: versionHeaders(t) }
            : { method: "PUT", headers: Object.assign({ "Content-Type": "application/json" }, versionHeaders(t)), body: JSON.stringify({ value: change.old }) };
          await request(path(t), options);
          await load();
        } catch (error) { showError(row, error.message); }
      });
      item.appendChild(revert);
      list.appendChild(item);
    }
  } catch (error) { showError(row, error.message); }
}

// A field someone is typing in is not redrawn under their fingers: a refresh that arrives
// meanwhile waits until the field loses focus.
let editing = null, renderPending = false;
groups.addEventListener("input", event => { if (event.target.type === "text") editing = event.target; });
groups.addEventListener("change", () => { editing = null; });
groups.addEventListener("focusout", () => {
  editing = null;
  if (renderPending) { renderPending = false; setTimeout(render, 0); }
});

function render() {
  if (editing && document.activeElement === editing) { renderPending = true; return; }
  const query = search.value.trim().toLowerCase();
  const matching = tweaks.filter(t => !query || [t.title, t.feature, t.variable, t.description]
    .some(text => (text || "").toLowerCase().includes(query)));
  const byGroup = new Map();
  for (const t of matching) {
    const name = t.group || "Other";
    if (!byGroup.has(name)) byGroup.set(name, []);
    byGroup.get(name).push(t);
  }
  const names = [...byGroup.keys()].sort((a, b) => (a === "Other") - (b === "Other") || a.localeCompare(b));
  const focused = document.activeElement && document.activeElement.id;
  groups.replaceChildren();
  for (const name of names) {
    const section = el("section", { "aria-label": name });
    section.appendChild(el("h2", {}, name));
    for (const t of byGroup.get(name)) {
      const row = el("div", { class: "tweak", "data-tweak": key(t) });
      const label = el("div");
      label.appendChild(el("label", { class: "title", for: fieldId(t) }, t.title || key(t)));
      const meta = el("div", { class: "meta" }, key(t) + " · " + t.type + " · from ");
      meta.appendChild(el("span", { class: "source" }, t.source || "?"));
      if (t.overridden) meta.appendChild(el("span", { class: "badge over" }, "overridden"));
      if (t.evaluatedPerLookup) meta.appendChild(el("span", { class: "badge" }, "targeted"));
      label.appendChild(meta);
      row.appendChild(label);
      row.appendChild(control(t, row));
      if (t.description) row.appendChild(el("div", { class: "desc" }, t.description));
      section.appendChild(row);
    }
    groups.appendChild(section);
  }
  if (names.length === 0) groups.appendChild(el("p", { class: "meta" }, "No tweak matches “" + search.value + "”."));
  if (focused) { const again = document.getElementById(focused); if (again) again.focus(); }
}

search.addEventListener("input", render);
search.addEventListener("search", render);
document.getElementById("reset-all").addEventListener("click", async () => {
  if (!confirm("Remove every override?")) return;
  try { await request(base + "api/overrides", { method: "DELETE" }); message.textContent = ""; await load(); }
  catch (error) { message.textContent = error.message; }
});

let pending = null;
function live() {
  const events = new EventSource(base + "api/events");
  // A tweak changed, a flag changed, or (after a long disconnection) everything must be read again.
  for (const name of ["change", "flag", "resync"]) {
    events.addEventListener(name, () => {
      clearTimeout(pending);
      pending = setTimeout(() => { load(); if (!flagsView.hidden) refreshFlags(); }, 50);
    });
  }
  events.onerror = () => { statusLine.textContent = "Reconnecting…"; };
  events.onopen = () => load();
}
load().then(live);
