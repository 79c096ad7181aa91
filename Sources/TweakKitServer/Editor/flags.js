// The editor page's Flags view: flagd flag definitions kept by the server (GET/PUT/DELETE
// api/flags/KEY), each with its kill switch, default variant, a rollout editor for fractional
// splits, a rule builder for common conditions, a JSON view, "try a context", history and revert.
// Inlined after editor.js (it uses `el`, `request`, `showError`, `versionHeaders`, `search`, `hash`
// and `base` from there).
"use strict";
const flagsView = document.getElementById("flags");
const tweaksView = document.getElementById("groups");
const flagList = document.getElementById("flag-list");
let flags = {};

// The operators the rule builder shows, with the JsonLogic each one writes. A sem_ver entry writes
// {"sem_ver": [attribute, op, version]}; the others {op: [attribute, value]}.
const operators = [
  { id: "==", label: "equals" }, { id: "!=", label: "does not equal" },
  { id: "in", label: "is one of (comma-separated)" },
  { id: "starts_with", label: "starts with" }, { id: "ends_with", label: "ends with" },
  { id: "<", label: "is less than" }, { id: ">", label: "is greater than" },
  { id: "sem_ver =", label: "version =" }, { id: "sem_ver !=", label: "version ≠" },
  { id: "sem_ver <", label: "version <" }, { id: "sem_ver <=", label: "version ≤" },
  { id: "sem_ver >", label: "version >" }, { id: "sem_ver >=", label: "version ≥" },
  { id: "sem_ver ^", label: "version ^ (same major)" }, { id: "sem_ver ~", label: "version ~ (same minor)" },
];

function flagPath(key) { return base + "api/flags/" + encodeURIComponent(key); }
function definitionOf(entry) {
  const definition = {};
  for (const name of ["state", "variants", "defaultVariant", "targeting", "metadata"]) {
    if (entry[name] !== undefined) definition[name] = entry[name];
  }
  return definition;
}

// --- Reading targeting into the builder's model, and writing it back ---------------------------

// The builder's model: rules (attribute, operator, value, variant), a rollout (bucketing
// attribute and a weight per variant) or none. `null` when the targeting is more than it shows.
function readCondition(condition) {
  if (!condition || typeof condition !== "object" || Array.isArray(condition)) return null;
  const names = Object.keys(condition);
  if (names.length !== 1) return null;
  const op = names[0], args = condition[op];
  if (!Array.isArray(args)) return null;
  const attribute = args[0] && typeof args[0] === "object" && typeof args[0].var === "string" ? args[0].var : null;
  if (attribute === null) return null;
  if (op === "sem_ver" && args.length === 3 && typeof args[1] === "string" && typeof args[2] === "string") {
    const id = "sem_ver " + args[1];
    return operators.some(o => o.id === id) ? { attribute, op: id, value: args[2] } : null;
  }
  if (args.length !== 2 || !operators.some(o => o.id === op)) return null;
  if (op === "in") return Array.isArray(args[1]) && args[1].every(v => typeof v === "string") ? { attribute, op, value: args[1].join(", ") } : null;
  if (op === "<" || op === ">") return typeof args[1] === "number" ? { attribute, op, value: String(args[1]) } : null;
  return ["string", "number", "boolean"].includes(typeof args[1]) ? { attribute, op, value: String(args[1]) } : null;
}

function readRollout(fractional) {
  if (!Array.isArray(fractional) || fractional.length === 0) return null;
  let attribute = "targetingKey", buckets = fractional;
  if (!Array.isArray(fractional[0])) {
    const first = fractional[0];
    if (first && typeof first === "object" && typeof first.var === "string") attribute = first.var;
    else return null;
    buckets = fractional.slice(1);
  }
  const weights = {};
  for (const bucket of buckets) {
    if (!Array.isArray(bucket) || typeof bucket[0] !== "string") return null;
    const weight = bucket.length === 1 ? 1 : bucket[1];
    if (bucket.length > 2 || typeof weight !== "number") return null;
    weights[bucket[0]] = weight;
  }
  return { attribute, weights };
}

function readTargeting(targeting) {
  if (targeting === undefined || targeting === null || (typeof targeting === "object" && !Array.isArray(targeting) && Object.keys(targeting).length === 0)) {
    return { rules: [], rollout: null };
  }
  if (targeting.fractional !== undefined && Object.keys(targeting).length === 1) {
    const rollout = readRollout(targeting.fractional);
    return rollout ? { rules: [], rollout } : null;
  }
  if (!Array.isArray(targeting.if) || Object.keys(targeting).length !== 1) return null;
  const parts = targeting.if, rules = [];
  let index = 0;
  for (; index + 1 < parts.length; index += 2) {
    const condition = readCondition(parts[index]);
    if (!condition || typeof parts[index + 1] !== "string") return null;
    rules.push(Object.assign(condition, { variant: parts[index + 1] }));
  }
  let rollout = null;
  if (index < parts.length) {
    const rest = parts[index];
    if (rest && typeof rest === "object" && rest.fractional !== undefined && Object.keys(rest).length === 1) {
      rollout = readRollout(rest.fractional);
      if (!rollout) return null;
    } else return null;
  }
  return { rules, rollout };
}

function writeCondition(rule) {
  const attribute = { var: rule.attribute };
  if (rule.op.startsWith("sem_ver ")) return { sem_ver: [attribute, rule.op.slice(8), rule.value] };
  if (rule.op === "in") return { in: [attribute, rule.value.split(",").map(s => s.trim()).filter(s => s.length > 0)] };
  if (rule.op === "<" || rule.op === ">") return { [rule.op]: [attribute, Number(rule.value)] };
  return { [rule.op]: [attribute, rule.value] };
}

function writeRollout(rollout) {
  const buckets = Object.entries(rollout.weights).map(([variant, weight]) => [variant, weight]);
  return { fractional: rollout.attribute === "targetingKey" ? buckets : [{ var: rollout.attribute }].concat(buckets) };
}

function writeTargeting(model) {
  const rollout = model.rollout ? writeRollout(model.rollout) : null;
  if (model.rules.length === 0) return rollout || {};
  const parts = [];
  for (const rule of model.rules) parts.push(writeCondition(rule), rule.variant);
  if (rollout) parts.push(rollout);
  return { if: parts };
}

// --- Loading and saving -------------------------------------------------------------------------

// A change from elsewhere (the live stream) re-renders the cards; while someone has typed into a
// card and not saved, that waits until the focus leaves the list (a save reloads anyway), so an
// edit in progress is never replaced under their hands.
let flagEditsUnsaved = false;
let flagRefreshWaiting = false;
flagList.addEventListener("input", () => { flagEditsUnsaved = true; });
flagList.addEventListener("focusout", event => {
  if (flagRefreshWaiting && !flagList.contains(event.relatedTarget)) { flagEditsUnsaved = false; loadFlags(); }
});

function refreshFlags() {
  if (flagEditsUnsaved) { flagRefreshWaiting = true; return; }
  loadFlags();
}

async function loadFlags() {
  try {
    const answer = await request(base + "api/flags");
    flags = answer.flags || {};
    flagEditsUnsaved = false;
    flagRefreshWaiting = false;
    renderFlags();
  } catch (error) { flagList.replaceChildren(el("p", { class: "error", role: "alert" }, "Cannot load flags: " + error.message)); }
}

async function saveFlag(key, entry, definition, card) {
  try {
    await request(flagPath(key), {
      method: "PUT",
      headers: Object.assign({ "Content-Type": "application/json" }, versionHeaders(entry)),
      body: JSON.stringify(definition),
    });
    await loadFlags();
    return true;
  } catch (error) { showError(card, error.message); return false; }
}

// --- Rendering ----------------------------------------------------------------------------------

function labelled(text, control) {
  const label = el("label", { class: "field" });
  label.appendChild(el("span", {}, text));
  label.appendChild(control);
  return label;
}

function variantSelect(entry, selected, label) {
  const select = el("select", { "aria-label": label });
  for (const name of Object.keys(entry.variants || {})) {
    const option = el("option", { value: name }, name);
    if (name === selected) option.selected = true;
    select.appendChild(option);
  }
  return select;
}

// Weights kept summing to 100: changing one variant's weight gives the difference to the next
// variant (the first after it, wrapping around), never below 0.
function balance(weights, changed) {
  const names = Object.keys(weights);
  if (names.length < 2) { weights[changed] = 100; return weights; }
  const partner = names[(names.indexOf(changed) + 1) % names.length];
  weights[changed] = Math.max(0, Math.min(100, Math.round(weights[changed])));
  const others = names.filter(n => n !== changed && n !== partner).reduce((sum, n) => sum + weights[n], 0);
  weights[partner] = 100 - weights[changed] - others;
  if (weights[partner] < 0) { weights[changed] += weights[partner]; weights[partner] = 0; }
  return weights;
}

function rolloutEditor(key, entry, model, card) {
  const box = el("fieldset", { class: "rollout" });
  box.appendChild(el("legend", {}, "Rollout (percentage split)"));
  const names = Object.keys(entry.variants || {});
  const rollout = model.rollout || { attribute: "targetingKey", weights: {} };
  const weights = {};
  for (const name of names) weights[name] = rollout.weights[name] !== undefined ? rollout.weights[name] : 0;
  if (!model.rollout && names.length > 0) weights[entry.defaultVariant in weights ? entry.defaultVariant : names[0]] = 100;
  const attribute = el("input", { type: "text", class: "bucket-by", value: rollout.attribute, "aria-label": "Bucket by attribute of " + key, list: "bucket-attributes" });
  box.appendChild(labelled("Bucket by", attribute));
  const inputs = {};
  for (const name of names) {
    const input = el("input", { type: "number", min: "0", max: "100", step: "1", class: "weight", "data-variant": name, "aria-label": "Percent for " + name + " of " + key });
    input.value = String(weights[name]);
    input.addEventListener("change", () => {
      weights[name] = Number(input.value) || 0;
      balance(weights, name);
      for (const other of names) inputs[other].value = String(weights[other]);
      sum.textContent = "Total " + names.reduce((total, n) => total + weights[n], 0) + " %";
    });
    inputs[name] = input;
    box.appendChild(labelled(name + " %", input));
  }
  const sum = el("span", { class: "meta sum" }, "Total " + names.reduce((total, n) => total + weights[n], 0) + " %");
  box.appendChild(sum);
  const apply = el("button", { type: "button", class: "apply-rollout" }, model.rollout ? "Save rollout" : "Start rollout");
  apply.addEventListener("click", () => {
    const next = { rules: model.rules, rollout: { attribute: attribute.value.trim() || "targetingKey", weights: Object.assign({}, weights) } };
    saveFlag(key, entry, Object.assign(definitionOf(entry), { targeting: writeTargeting(next) }), card);
  });
  box.appendChild(apply);
  if (model.rollout) {
    const stop = el("button", { type: "button", class: "remove-rollout" }, "Remove rollout");
    stop.addEventListener("click", () => saveFlag(key, entry, Object.assign(definitionOf(entry), { targeting: writeTargeting({ rules: model.rules, rollout: null }) }), card));
    box.appendChild(stop);
  }
  return box;
}

function ruleBuilder(key, entry, model, card) {
  const box = el("fieldset", { class: "rules" });
  box.appendChild(el("legend", {}, "Rules (first match wins)"));
  const list = el("ol", { class: "rule-list" });
  model.rules.forEach((rule, index) => {
    const item = el("li", { class: "rule" }, "If " + rule.attribute + " " + operators.find(o => o.id === rule.op).label + " " + rule.value + " → " + rule.variant + " ");
    const remove = el("button", { type: "button", class: "remove-rule", "aria-label": "Remove rule " + (index + 1) + " of " + key }, "Remove");
    remove.addEventListener("click", () => {
      const rules = model.rules.filter((_, i) => i !== index);
      saveFlag(key, entry, Object.assign(definitionOf(entry), { targeting: writeTargeting({ rules, rollout: model.rollout }) }), card);
    });
    item.appendChild(remove);
    list.appendChild(item);
  });
  box.appendChild(list);
  const attribute = el("input", { type: "text", class: "rule-attribute", placeholder: "email", "aria-label": "Attribute of a new rule for " + key, list: "bucket-attributes" });
  const op = el("select", { class: "rule-operator", "aria-label": "Operator of a new rule for " + key });
  for (const o of operators) op.appendChild(el("option", { value: o.id }, o.label));
  const valueField = el("input", { type: "text", class: "rule-value", placeholder: "@example.com", "aria-label": "Value of a new rule for " + key });
  const variant = variantSelect(entry, Object.keys(entry.variants || {})[0], "Variant of a new rule for " + key);
  variant.classList.add("rule-variant");
  const add = el("button", { type: "button", class: "add-rule" }, "Add rule");
  add.addEventListener("click", () => {
    const rule = { attribute: attribute.value.trim(), op: op.value, value: valueField.value.trim(), variant: variant.value };
    if (!rule.attribute) { showError(card, "Name the attribute the rule reads (for example email)."); return; }
    if ((rule.op === "<" || rule.op === ">") && !Number.isFinite(Number(rule.value))) { showError(card, "“" + rule.op + "” compares numbers: enter a number."); return; }
    const rules = model.rules.concat([rule]);
    saveFlag(key, entry, Object.assign(definitionOf(entry), { targeting: writeTargeting({ rules, rollout: model.rollout }) }), card);
  });
  const row = el("div", { class: "rule-new" });
  for (const part of [labelled("If", attribute), labelled("", op), labelled("", valueField), labelled("→", variant), add]) row.appendChild(part);
  box.appendChild(row);
  return box;
}

function jsonView(key, entry, card) {
  const box = el("details", { class: "json-view" });
  box.appendChild(el("summary", {}, "JSON"));
  const text = el("textarea", { class: "flag-json", rows: "10", spellcheck: "false", "aria-label": "Definition of " + key + " as JSON" });
  text.value = JSON.stringify(definitionOf(entry), null, 2);
  box.appendChild(text);
  const save = el("button", { type: "button", class: "save-json" }, "Save JSON");
  save.addEventListener("click", () => {
    let definition;
    try { definition = JSON.parse(text.value); } catch (error) { showError(card, "Not JSON: " + error.message); return; }
    saveFlag(key, entry, definition, card);
  });
  box.appendChild(save);
  return box;
}

function tryPanel(key, card) {
  const box = el("details", { class: "try" });
  box.appendChild(el("summary", {}, "Try a context"));
  const text = el("textarea", { class: "try-context", rows: "3", spellcheck: "false", "aria-label": "Context to evaluate " + key + " with" });
  text.value = '{"targetingKey": "user-1"}';
  const run = el("button", { type: "button", class: "try-run" }, "Evaluate");
  const out = el("output", { class: "try-result", "aria-live": "polite" });
  run.addEventListener("click", async () => {
    let context;
    try { context = JSON.parse(text.value); } catch (error) { out.textContent = "Not JSON: " + error.message; return; }
    try {
      const answer = await request(flagPath(key) + "/evaluate", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ context }),
      });
      out.textContent = "value " + JSON.stringify(answer.value) + " · variant " + (answer.variant === undefined ? "(none)" : answer.variant) + " · reason " + answer.reason
        + (answer.errorCode ? " · " + answer.errorCode + (answer.errorDetails ? ": " + answer.errorDetails : "") : "");
    } catch (error) { out.textContent = error.message; }
  });
  box.appendChild(text);
  box.appendChild(run);
  box.appendChild(out);
  return box;
}

async function toggleFlagHistory(key, card) {
  const open = card.querySelector(".history");
  if (open) { open.remove(); return; }
  const list = el("ol", { class: "history", "aria-label": "History of " + key });
  card.appendChild(list);
  try {
    const answer = await request(flagPath(key) + "/history");
    const versions = Array.isArray(answer) ? answer : answer.history || answer.versions || [];
    if (versions.length === 0) list.appendChild(el("li", { class: "meta" }, "No changes yet."));
    for (const change of versions) {
      const summary = change.new === null ? "deleted" : change.old === null ? "created" : describeChange(change.old, change.new);
      const item = el("li", { class: "meta", "data-version": String(change.version) }, "v" + change.version + " · " + summary + " · " + change.by + " · " + change.at);
      const revert = el("button", { type: "button", class: "revert", "aria-label": "Revert " + key + " to version " + change.version }, "Revert to this");
      revert.addEventListener("click", async () => {
        try {
          await request(flagPath(key) + "/revert", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: change.version }) });
          await loadFlags();
        } catch (error) { showError(card, error.message); }
      });
      if (change.new !== null) item.appendChild(revert);
      list.appendChild(item);
    }
  } catch (error) { showError(card, error.message); }
}

// What changed between two definitions, in words: the fields whose JSON differs.
function describeChange(old, next) {
  const changed = ["state", "defaultVariant", "variants", "targeting", "metadata"]
    .filter(name => JSON.stringify(old[name]) !== JSON.stringify(next[name]));
  if (changed.includes("state")) return "state " + old.state + " → " + next.state;
  return changed.length ? changed.join(", ") + " changed" : "no change";
}

function flagCard(key, entry) {
  const card = el("section", { class: "flag card", "data-flag": key, "aria-label": "Flag " + key });
  const head = el("div", { class: "flag-head" });
  head.appendChild(el("h2", { class: "title" }, key));
  const enabled = entry.state !== "DISABLED";
  const toggle = el("input", { type: "checkbox", role: "switch", class: "switch kill-switch", id: "state-" + encodeURIComponent(key), "aria-label": key + " enabled" });
  toggle.checked = enabled;
  toggle.addEventListener("change", () => saveFlag(key, entry, Object.assign(definitionOf(entry), { state: toggle.checked ? "ENABLED" : "DISABLED" }), card));
  head.appendChild(labelled(enabled ? "Enabled" : "Disabled (kill switch on)", toggle));
  const fallback = variantSelect(entry, entry.defaultVariant, "Default variant of " + key);
  fallback.classList.add("default-variant");
  fallback.addEventListener("change", () => saveFlag(key, entry, Object.assign(definitionOf(entry), { defaultVariant: fallback.value }), card));
  head.appendChild(labelled("Default", fallback));
  card.appendChild(head);
  const meta = el("div", { class: "meta flag-meta" },
    "variants " + Object.entries(entry.variants || {}).map(([name, value]) => name + " = " + JSON.stringify(value)).join(", ")
    + (entry.version !== undefined ? " · v" + entry.version : ""));
  card.appendChild(meta);
  const model = readTargeting(entry.targeting);
  if (model) {
    card.appendChild(ruleBuilder(key, entry, model, card));
    card.appendChild(rolloutEditor(key, entry, model, card));
  } else {
    card.appendChild(el("p", { class: "meta builder-off" }, "This flag's targeting is more than the rule builder shows: edit it as JSON."));
  }
  card.appendChild(jsonView(key, entry, card));
  card.appendChild(tryPanel(key, card));
  const actions = el("div", { class: "control" });
  const history = el("button", { type: "button", class: "history-toggle", "aria-label": "History of " + key }, "History");
  history.addEventListener("click", () => toggleFlagHistory(key, card));
  actions.appendChild(history);
  const remove = el("button", { type: "button", class: "delete-flag", "aria-label": "Delete " + key }, "Delete");
  remove.addEventListener("click", async () => {
    if (!confirm("Delete the flag " + key + "?")) return;
    try { await request(flagPath(key), { method: "DELETE", headers: versionHeaders(entry) }); await loadFlags(); } catch (error) { showError(card, error.message); }
  });
  actions.appendChild(remove);
  card.appendChild(actions);
  return card;
}

function renderFlags() {
  // A panel someone is working in (an open JSON view, a context being tried, a history) stays
  // open across a refresh.
  const open = new Set([...flagList.querySelectorAll("details[open]")].map(d => d.closest("[data-flag]").dataset.flag + "/" + d.className));
  const histories = new Set([...flagList.querySelectorAll(".history")].map(h => h.closest("[data-flag]").dataset.flag));
  const keys = Object.keys(flags).sort();
  flagList.replaceChildren();
  if (keys.length === 0) flagList.appendChild(el("p", { class: "meta" }, "No flags yet: create one above."));
  for (const key of keys) {
    const card = flagCard(key, flags[key]);
    for (const details of card.querySelectorAll("details")) if (open.has(key + "/" + details.className)) details.open = true;
    flagList.appendChild(card);
    if (histories.has(key)) toggleFlagHistory(key, card);
  }
}

// A new flag: a Boolean flag (on/off, default off) or string variants (default control). It serves
// its default variant until a rule or a rollout says otherwise: a new on/off flag answers false.
document.getElementById("new-flag").addEventListener("submit", async event => {
  event.preventDefault();
  const keyField = document.getElementById("new-flag-key");
  const kind = document.getElementById("new-flag-kind").value;
  const key = keyField.value.trim();
  const line = document.getElementById("new-flag-error");
  if (!key) { line.textContent = "Name the flag."; return; }
  if (flags[key]) { line.textContent = "A flag named " + key + " exists."; return; }
  const definition = kind === "boolean"
    ? { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "off" }
    : { state: "ENABLED", variants: { control: "control", treatment: "treatment" }, defaultVariant: "control" };
  try {
    await request(flagPath(key), { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(definition) });
    line.textContent = "";
    keyField.value = "";
    await loadFlags();
  } catch (error) { line.textContent = error.message; }
});

// The two views, as tabs: arrow keys move between them, as a tab list does.
const tabs = [document.getElementById("tab-tweaks"), document.getElementById("tab-flags")];
function show(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
  }
  const flagsShown = tab.id === "tab-flags";
  flagsView.hidden = !flagsShown;
  tweaksView.hidden = flagsShown;
  search.hidden = flagsShown;
  document.getElementById("reset-all").hidden = flagsShown;
  if (flagsShown) loadFlags();
  history.replaceState(null, "", location.pathname + location.search + (flagsShown ? "#flags" : ""));
}
for (const tab of tabs) {
  tab.addEventListener("click", () => show(tab));
  tab.addEventListener("keydown", event => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const next = tabs[(tabs.indexOf(tab) + 1) % tabs.length];
    show(next);
    next.focus();
  });
}
if (hash.has("flags")) show(tabs[1]);
