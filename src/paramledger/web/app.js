// The calculator page.  It counts nothing: every number comes from the server's
// /api/view, which calls the same library as `paramledger count`.  This file keeps the
// design in the URL, sends it, and places the answer.
"use strict";

const SVG = "http://www.w3.org/2000/svg"; // the SVG namespace name, not a resource
const DEBOUNCE_MS = 150;
// One colour per component: a copy of paramledger/palette.py's COLORS and OTHER, which the report and the
// plots use (tests/test_palette.py checks that the two are equal).
const COLORS = {
  embedding: "#0072B2", positions: "#56B4E9", attention: "#E69F00", mixer: "#F0E442", ffn: "#009E73",
  router: "#CC79A7", experts: "#882255", shared_experts: "#44AA99", norm: "#999999", lm_head: "#D55E00",
  adapter: "#332288", vision: "#661100", audio: "#999933", projector: "#AA4499",
  talker: "#117733", vocoder: "#DDCC77",
};
const OTHER = "#BBBBBB";

// The memory and fit panels share the weights, the KV cache format, the context and the batch; the fit
// panel alone has the GPU and the devices.  Each is kept in the URL beside the design.
const PAGE_KEYS = ["dtype", "kv_dtype", "context", "batch"];
const FIT_KEYS = ["gpu", "gpu_memory", "tp", "pp"];
const PARTS = { weights: "#0072B2", kv_cache: "#E69F00", recurrent_state: "#F0E442", runtime: "#CC79A7", reserve: "#999999" };

// pasted: the text of a pasted config.json (null: none), posted with every request in place of a source; too
// long for a link, it is not kept in the URL.
const state = { source: "", overrides: new Map(), page: new Map(), fit: new Map(), pasted: null };
const sequence = { view: 0, fit: 0, names: 0, paste: 0 }; // answers that arrive after a newer request are dropped
const PASTED = "(pasted)"; // the source list's entry for a pasted config (no bundled name has brackets)
let timer = null;
let fitTimer = null;
let fitReady = false; // the catalog answered: the panel is shown and planned

const $ = (selector) => document.querySelector(selector);
const inputs = () => Array.from(document.querySelectorAll("[data-key]"));

function readUrl() {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of params) {
    if (key === "source") state.source = value;
    else if (PAGE_KEYS.includes(key)) state.page.set(key, value);
    else if (FIT_KEYS.includes(key)) state.fit.set(key, value);
    else state.overrides.set(key, value);
  }
}

function designParams() {
  const params = new URLSearchParams();
  if (state.source) params.set("source", state.source);
  for (const [key, value] of state.overrides) params.set(key, value);
  return params;
}

function query() {
  const params = designParams();
  if (!$("#memory").hidden || state.page.size) for (const [key, value] of state.page) params.set(key, value);
  return params.toString();
}

// The URL: the design, then the panels' choices (a pasted config's choices only).
function urlQuery() {
  const params = state.pasted === null ? designParams() : new URLSearchParams();
  for (const map of [state.page, state.fit]) for (const [key, value] of map) params.set(key, value);
  return params.toString();
}

// What /api/fit/view plans: the design the page shows, the shared choices, the GPU (H100 unless chosen).
function fitQuery(suggest) {
  const params = designParams();
  for (const map of [state.page, state.fit]) for (const [key, value] of map) if (value !== "") params.set(key, value);
  const gpu = chosenGpu();
  if (gpu) { params.set("gpu", gpu); params.delete("gpu_memory"); } else params.delete("gpu");
  if (!suggest) params.set("suggest", "false");
  return params.toString();
}
let fitDefault = "h100";

// The catalog name chosen, or "" for a memory size typed in.
function chosenGpu() {
  if (state.fit.has("gpu")) return state.fit.get("gpu");
  return state.fit.get("gpu_memory") ? "" : fitDefault;
}

function showOverrides() {
  for (const element of inputs()) {
    const key = element.dataset.key;
    if (!state.overrides.has(key)) continue;
    const value = state.overrides.get(key);
    if (element.type === "checkbox") element.checked = ["true", "1", "yes"].includes(value.toLowerCase());
    else element.value = value;
  }
  syncChoices(null);
}

// Every control of a shared choice shows its value (the memory panel's context and the fit slider are one).
function syncChoices(except) {
  for (const [attribute, map] of [["data-page", state.page], ["data-fit", state.fit]]) {
    for (const element of document.querySelectorAll(`[${attribute}]`)) {
      const key = element.getAttribute(attribute);
      if (element === except || key === "gpu" || !map.has(key)) continue;
      if (element.type !== "range" || /^\d+$/.test(map.get(key))) element.value = map.get(key);
    }
  }
  const gpu = $("#fit [data-fit=gpu]");
  if (gpu.options.length) gpu.value = chosenGpu();
  $("#fit .custom").hidden = chosenGpu() !== "";
}

// suggest false while the slider moves: the suggestions (a search each) wait until it is let go.
function schedule(suggest = true) {
  const text = urlQuery();
  history.replaceState(null, "", text ? `?${text}` : location.pathname);
  clearTimeout(timer);
  timer = setTimeout(refresh, DEBOUNCE_MS);
  if (!fitReady) return;
  clearTimeout(fitTimer);
  fitTimer = setTimeout(() => refreshFit(suggest), DEBOUNCE_MS);
}

// One API request, /api/PATH?PARAMS, or POST /api/paste/PATH?PARAMS with the pasted config as its body; an
// answer to a request older than the latest of its kind (view, fit, names, paste) is dropped: null.
async function ask(path, params, kind, pasted = state.pasted) {
  const mine = ++sequence[kind];
  let reply;
  try {
    const answer = await (pasted === null ? fetch(`/api/${path}?${params}`)
      : fetch(`/api/paste/${path}?${params}`, { method: "POST", body: pasted, headers: { "Content-Type": "application/json" } }));
    reply = { ok: answer.ok, status: answer.status, body: await answer.json() };
  } catch (error) {
    reply = { ok: false, status: 0, body: {}, failure: error.message };
  }
  return mine === sequence[kind] ? reply : null;
}

async function refresh() {
  const reply = await ask("view", query(), "view");
  if (!reply) return;
  if (reply.failure) showError(`the server did not answer (${reply.failure}); is paramledger serve running?`);
  else if (!reply.ok) showError(reply.body.error || `error ${reply.status}`);
  else render(reply.body);
}

function showError(message) {
  const box = $("#error");
  box.textContent = message;
  box.hidden = false;
  $("#results").classList.add("stale");
  for (const element of inputs()) {
    const key = element.dataset.key;
    element.classList.toggle("invalid", new RegExp(`(^|[\\s(])${key}: `).test(message));
  }
}

function render(view) {
  $("#error").hidden = true;
  $("#results").classList.remove("stale");
  for (const element of inputs()) {
    element.classList.remove("invalid");
    const key = element.dataset.key;
    const derived = view.derived.includes(key) && !state.overrides.has(key);
    element.classList.toggle("derived", derived);
    element.title = derived ? "derived from the other sizes; type a value to set it" : "";
    if (state.overrides.has(key) || !(key in view.values)) continue;
    const value = view.values[key];
    if (element.type === "checkbox") element.checked = Boolean(value);
    else element.value = value === null ? "" : String(value);
  }
  $("#summary").textContent = view.summary;
  showNotes(view.count);
  fillTable($("#rows tbody"), view.rows.map((row) => [row.key, [row.label, ""], [row.text, "n"], [row.detail, "detail"]]));
  fillTable($("#components tbody"), view.components.map((c) => [c.name, [c.name, ""], [c.text, "n"], [c.share, "n"]]));
  drawChart(view.components);
  listItems($("#facts"), view.facts);
  renderMemory(view.memory);
}

function fillTable(body, rows) {
  body.replaceChildren(...rows.map(([key, ...cells]) => {
    const tr = document.createElement("tr");
    tr.dataset.key = key;
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  }));
}

function svg(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

// A stacked bar of the whole model, then one bar per component.  The widths are the
// server's fractions scaled to pixels: drawing, not counting.
function drawChart(components) {
  const chart = $("#chart");
  const width = 640, label = 120, bar = 20, gap = 6, top = 34;
  const height = top + components.length * (bar + gap);
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const parts = [];
  let x = 0;
  for (const c of components) {
    const w = c.fraction * width;
    const piece = svg("rect", { x, y: 0, width: Math.max(w, 0), height: 24, fill: COLORS[c.name] || OTHER });
    piece.append(svg("title", {}, `${c.name}: ${c.text} (${c.share})`));
    parts.push(piece);
    x += w;
  }
  components.forEach((c, i) => {
    const y = top + i * (bar + gap);
    const w = Math.max(c.fraction * (width - label - 70), c.count > 0 ? 1 : 0);
    parts.push(svg("text", { x: 0, y: y + 14 }, c.name));
    const rect = svg("rect", { x: label, y, width: w, height: bar, fill: COLORS[c.name] || OTHER });
    rect.append(svg("title", {}, `${c.name}: ${c.text}`));
    parts.push(rect);
    parts.push(svg("text", { x: label + w + 6, y: y + 14 }, c.share));
  });
  chart.replaceChildren(...parts);
}

function renderMemory(memory) {
  const panel = $("#memory");
  if (!memory) { panel.hidden = true; return; }
  panel.hidden = false;
  const dtype = panel.querySelector("[data-page=dtype]");
  if (dtype.options.length !== memory.dtypes.length) {
    dtype.replaceChildren(...memory.dtypes.map((name) => new Option(name, name)));
  }
  dtype.value = memory.dtype;
  const context = panel.querySelector("[data-page=context]");
  if (!state.page.has("context")) context.value = memory.context;
  const fitDtype = $("#fit [data-page=dtype]");
  if (fitDtype.options.length && document.activeElement !== fitDtype) fitDtype.value = memory.dtype;
  const problem = panel.querySelector(".problem");
  problem.textContent = memory.error || "";
  problem.hidden = !memory.error;
  fillTable(panel.querySelector("tbody"), memory.rows.map((row) => [row.key, [row.label, ""], [row.text, "n"]]));
}

// The source list: the designs, then the bundled models by who released them, as /api/models orders and
// searches them (every word of the search in the name, the repo or the model_type, as `paramledger models`).
async function loadNames() {
  const search = $("#search").value.trim();
  const reply = await ask("models", new URLSearchParams(search ? { search } : {}).toString(), "names", null);
  if (!reply) return;
  if (!reply.ok) { showError(reply.failure ? `could not list the bundled models (${reply.failure})` : reply.body.error); return; }
  const select = $("#source");
  const first = select.options[0]; // the blank design, always offered
  const groups = reply.body.groups.map((group) => {
    const element = document.createElement("optgroup");
    element.label = group.label;
    element.append(...group.names.map((entry) => {
      const option = new Option(entry.label, entry.name);
      if (entry.repo) option.title = entry.repo;
      return option;
    }));
    return element;
  });
  select.replaceChildren(first, ...groups);
  $("#matches").textContent = reply.body.text;
  showSource();
}

// The source list shows what is counted, even when the search hides it.
function showSource() {
  const select = $("#source");
  const shown = state.pasted === null ? state.source : PASTED;
  if (!Array.from(select.options).some((o) => o.value === shown)) {
    // a pasted config, or a name the search hides (or the server refuses: its message says why)
    select.options[0].after(new Option(shown === PASTED ? "pasted config.json" : shown, shown));
  }
  select.value = shown;
  $("#pasted-note").hidden = state.pasted === null;
}

// The library's notes on what is counted (a multimodal model's text decoder only, config keys not understood,
// a quantization_config read or assumed), at the top of the results.
function showNotes(count) {
  const notes = [...count.notes];
  const stored = count.stored_format;
  if (stored && (stored.quant_method || stored.unread)) notes.push(`stored as: ${stored.description}`);
  listItems($("#notes"), notes);
  $("#notes").hidden = !notes.length;
}

// "count it": the pasted text is checked by the library first; a refusal is shown beside it and the page keeps
// what it showed.
async function countPasted() {
  const text = $("#paste-text").value;
  const problem = $("#paste .problem");
  const reply = await ask("count", "", "paste", text);
  if (!reply) return;
  if (!reply.ok) {
    problem.textContent = reply.failure ? `the server did not answer (${reply.failure})` : reply.body.error;
    problem.hidden = false;
    return;
  }
  problem.hidden = true;
  state.pasted = text;
  state.source = "";
  state.overrides.clear(); // the pasted config's own values fill the inputs
  showSource();
  schedule();
}

// ---------------------------------------------------------------- the fit panel

async function loadGpus() {
  let body;
  try {
    const answer = await fetch("/api/gpus");
    if (!answer.ok) return; // no memory estimates in this paramledger: no panel
    body = await answer.json();
  } catch (error) {
    return; // the design's own error line says the server is gone
  }
  fitDefault = body.default;
  const panel = $("#fit");
  panel.querySelector("[data-fit=gpu]").replaceChildren(
    ...body.gpus.map((gpu) => {
      const option = new Option(`${gpu.label}: ${gpu.text}`, gpu.name);
      option.title = `${gpu.memory_bytes.toLocaleString("en")} bytes: ${gpu.source}`;
      return option;
    }),
    new Option("another size: type the memory per GPU", ""));
  panel.querySelector("[data-page=dtype]").replaceChildren(...body.dtypes.map((name) => new Option(name, name)));
  panel.querySelector("[data-page=kv_dtype]").replaceChildren(
    new Option("as the weights", ""), ...body.kv_dtypes.map((name) => new Option(name, name)));
  panel.hidden = false;
  fitReady = true;
  syncChoices(null);
  refreshFit(true);
}

async function refreshFit(suggest) {
  const reply = await ask("fit/view", fitQuery(suggest), "fit");
  if (!reply) return;
  if (reply.failure) showFitProblem(`the server did not answer (${reply.failure})`);
  else if (!reply.ok) showFitProblem(reply.body.error || `error ${reply.status}`);
  else renderFit(reply.body);
}

function showFitProblem(message) {
  const panel = $("#fit");
  const problem = panel.querySelector(".problem");
  problem.textContent = message;
  problem.hidden = false;
  panel.classList.add("stale");
  for (const element of panel.querySelectorAll("[data-fit], [data-page]")) {
    const key = element.dataset.fit || element.dataset.page;
    element.classList.toggle("invalid", new RegExp(`(^|[\\s(])(--)?${key.replace("_", "[-_]")}: `).test(message));
  }
}

function listItems(list, texts) {
  list.replaceChildren(...texts.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}

function renderFit(view) {
  const panel = $("#fit");
  panel.classList.remove("stale");
  panel.querySelector(".problem").hidden = true;
  for (const element of panel.querySelectorAll(".invalid")) element.classList.remove("invalid");
  const verdict = panel.querySelector(".verdict");
  verdict.textContent = view.verdict;
  verdict.className = `verdict ${view.fits ? "fits" : "nofit"}`;
  panel.querySelector(".setup").textContent = view.setup;
  panel.querySelector(".devices").replaceChildren(...view.devices.map(deviceBlock));
  listItems(panel.querySelector(".reasons"), view.reasons);
  panel.querySelector(".suggested").hidden = !view.suggestions.length;
  listItems(panel.querySelector(".suggestions"), view.suggestions);
  listItems(panel.querySelector(".notes"), view.notes);
  panel.querySelector(".batch").textContent = view.max_batch;
  const assumptions = panel.querySelector(".assumptions");
  assumptions.replaceChildren(...view.assumptions.map((a) => {
    const item = document.createElement("li");
    const source = document.createElement("small");
    source.textContent = a.source;
    item.append(a.text, " ", source);
    return item;
  }));
  const slider = $("#fit-context");
  const context = view.context;
  for (const key of ["min", "max", "step"]) slider[key] = context[key];
  if (document.activeElement !== slider) slider.value = context.value;
  if (!state.page.has("context") || state.page.get("context") === "") {
    for (const element of panel.querySelectorAll("input[data-page=context]")) {
      if (document.activeElement !== element && element.type !== "range") element.value = context.value;
    }
  }
  const reach = panel.querySelector(".reach");
  const edge = context.marker === null ? 1 : context.marker;
  reach.replaceChildren(svg("rect", { x: 0, y: 0, width: edge * 1000, height: 8, class: "fits" }),
    svg("rect", { x: edge * 1000, y: 0, width: (1 - edge) * 1000, height: 8, class: "nofit" }));
  panel.querySelector(".reach-text").textContent = context.max_text || "";
}

// One device (or several alike): a bar of its parts against the card, the card's edge marked, then the rows.
function deviceBlock(device) {
  const block = document.createElement("div");
  block.className = `device ${device.fits ? "fits" : "nofit"}`;
  const title = document.createElement("h3");
  title.textContent = device.title;
  const bar = svg("svg", { viewBox: "0 0 1000 20", preserveAspectRatio: "none", class: "bar", role: "img",
    "aria-label": `${device.total.text} of ${device.memory.text}` });
  let x = 0;
  for (const row of device.rows) {
    const rect = svg("rect", { x, y: 0, width: row.fraction * 1000, height: 20, fill: PARTS[row.key] || "#777" });
    rect.append(svg("title", {}, `${row.label}: ${row.title}`));
    bar.append(rect);
    x += row.fraction * 1000;
  }
  bar.append(svg("rect", { x: device.edge * 1000 - 3, y: 0, width: 3, height: 20, class: "edge" }));
  const rows = device.rows.map((row) => [row.key, [row.label, ""], [row.text, "n"]]);
  rows.push(["total", [`total (the card holds ${device.memory.text}: ${device.free})`, ""], [device.total.text, "n"]]);
  const table = document.createElement("table");
  table.append(document.createElement("tbody"));
  fillTable(table.tBodies[0], rows);
  for (const [i, row] of device.rows.entries()) table.tBodies[0].rows[i].title = row.title;
  table.tBodies[0].rows[device.rows.length].title = device.total.title;
  block.append(title, bar, table);
  return block;
}

function listen() {
  $("#design").addEventListener("submit", (event) => event.preventDefault());
  for (const element of inputs()) {
    const key = element.dataset.key;
    const changed = () => {
      if (element.type === "checkbox") state.overrides.set(key, element.checked ? "true" : "false");
      else if (element.value.trim() === "" && element.hasAttribute("data-optional")) state.overrides.delete(key);
      else state.overrides.set(key, element.value.trim());
      schedule();
    };
    element.addEventListener(element.tagName === "INPUT" && element.type !== "checkbox" ? "input" : "change", changed);
  }
  for (const [attribute, map] of [["data-page", state.page], ["data-fit", state.fit]]) {
    for (const element of document.querySelectorAll(`[${attribute}]`)) {
      const key = element.getAttribute(attribute);
      const changed = (suggest) => {
        map.set(key, element.value.trim());
        if (key === "gpu" && element.value) map.delete("gpu_memory");
        syncChoices(element);
        schedule(suggest);
      };
      if (element.type === "range") { // dragging plans without suggestions; letting go plans with them
        element.addEventListener("input", () => changed(false));
        element.addEventListener("change", () => changed(true));
      } else element.addEventListener(element.tagName === "INPUT" ? "input" : "change", () => changed(true));
    }
  }
  $("#source").addEventListener("change", (event) => {
    if (event.target.value === PASTED) return;
    state.source = event.target.value;
    state.pasted = null;
    state.overrides.clear(); // a new starting point: its own values fill the inputs
    for (const option of Array.from(event.target.options)) if (option.value === PASTED) option.remove();
    showSource();
    schedule();
  });
  let searchTimer = null;
  $("#search").addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(loadNames, 100); });
  $("#paste-count").addEventListener("click", countPasted);
  $("#reset").addEventListener("click", () => { state.overrides.clear(); schedule(); });
}

readUrl();
listen();
loadNames();
loadGpus();
showOverrides();
refresh();
