import Foundation
import Hummingbird
import HTTPTypes
import NIOCore

extension TweakEditor {
    /// The editor page: static HTML, CSS and script, no external resources. Tweak texts are put
    /// into the page with `textContent` only, so a title like `<script>` shows as text.
    func page(_ request: Request) -> Response {
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let html = Self.pageTemplate.replacingOccurrences(of: "{{nonce}}", with: nonce)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'self'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }

    static let pageTemplate = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Tweaks</title>
    <style nonce="{{nonce}}">
      :root { --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --bg: #f5f5f7; --card: #fff; --accent: #0a66c2; --warn: #b3261e; --over: #8a4b00; }
      @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --muted: #a1a1a6; --line: #3a3a3c; --bg: #000; --card: #1c1c1e; --accent: #4da3ff; --warn: #ff6b60; --over: #ffb347; } }
      * { box-sizing: border-box; }
      body { margin: 0; font: 15px/1.4 -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
      header { position: sticky; top: 0; z-index: 1; background: var(--card); border-bottom: 1px solid var(--line); padding: 12px 16px; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
      header h1 { font-size: 18px; margin: 0 12px 0 0; }
      input[type=search], input[type=text], input[type=password] { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); min-width: 0; }
      #search { flex: 1 1 220px; }
      button { font: inherit; padding: 6px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); cursor: pointer; }
      button:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
      main { max-width: 960px; margin: 0 auto; padding: 8px 16px 48px; }
      section h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 24px 0 8px; }
      .tweak { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; margin: 6px 0; display: grid; grid-template-columns: 1fr auto; gap: 4px 12px; align-items: center; }
      .title { font-weight: 600; overflow-wrap: anywhere; }
      .meta { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
      .desc { grid-column: 1 / -1; color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
      .control { display: flex; gap: 6px; align-items: center; justify-content: flex-end; flex-wrap: wrap; }
      .control input[type=text] { width: 12em; }
      .badge { display: inline-block; font-size: 12px; padding: 1px 6px; border-radius: 999px; border: 1px solid var(--line); margin-left: 4px; }
      .badge.over { color: var(--over); border-color: var(--over); }
      .error { grid-column: 1 / -1; color: var(--warn); font-size: 13px; }
      .switch { width: 2.6em; height: 1.5em; accent-color: var(--accent); }
      #status { font-size: 13px; color: var(--muted); }
      #message { color: var(--warn); font-size: 13px; width: 100%; }
      @media (max-width: 560px) { .tweak { grid-template-columns: 1fr; } .control { justify-content: flex-start; } }
    </style>
    </head>
    <body>
    <header>
      <h1>Tweaks</h1>
      <label for="search" class="visually-hidden" hidden>Search</label>
      <input id="search" type="search" placeholder="Search title, feature, variable, description" aria-label="Search tweaks">
      <input id="token" type="password" placeholder="Token" aria-label="Token for changes" autocomplete="off" size="10">
      <button id="reset-all" type="button">Reset all overrides</button>
      <span id="status" role="status">Loading…</span>
      <div id="message" role="alert"></div>
    </header>
    <main id="groups" aria-live="polite"></main>
    <script nonce="{{nonce}}">
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
    function path(t) { return base + "api/tweaks/" + encodeURIComponent(t.feature) + "/" + encodeURIComponent(t.variable); }
    function key(t) { return t.feature + "." + t.variable; }

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

    async function save(t, bodyText, row) {
      try {
        await request(path(t), { method: "PUT", headers: { "Content-Type": "application/json" }, body: bodyText });
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
      const id = "v-" + key(t);
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
          try { await request(path(t), { method: "DELETE" }); await load(); } catch (error) { showError(row, error.message); }
        });
        box.appendChild(reset);
      }
      return box;
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
          label.appendChild(el("label", { class: "title", for: "v-" + key(t) }, t.title || key(t)));
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
      events.addEventListener("change", () => { clearTimeout(pending); pending = setTimeout(load, 50); });
      events.onerror = () => { statusLine.textContent = "Reconnecting…"; };
      events.onopen = () => load();
    }
    load().then(live);
    </script>
    </body>
    </html>
    """#
}
