// The calculator page.  It counts nothing: every number comes from the server's
// /api/view, which calls the same library as `paramledger count`.  This file keeps the
// design in the URL, sends it, and places the answer.
"use strict";

const SVG = "http://www.w3.org/2000/svg"; // the SVG namespace name, not a resource
const DEBOUNCE_MS = 150;
// One colour per component, the same as the report's treemap (Okabe-Ito hues).
const COLOURS = {
  embedding: "#0072B2", positions: "#56B4E9", attention: "#E69F00", mixer: "#F0E442", ffn: "#009E73",
  router: "#CC79A7", experts: "#009E73", shared_experts: "#66C2A5", norm: "#999999", lm_head: "#D55E00",
};

const state = { source: "", overrides: new Map(), page: new Map() };
let sequence = 0; // answers that arrive after a newer request are dropped
let timer = null;

const $ = (selector) => document.querySelector(selector);
const inputs = () => Array.from(document.querySelectorAll("[data-key]"));

function readUrl() {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of params) {
    if (key === "source") state.source = value;
    else if (key === "dtype" || key === "context") state.page.set(key, value);
    else state.overrides.set(key, value);
  }
}

function query() {
  const params = new URLSearchParams();
  if (state.source) params.set("source", state.source);
  for (const [key, value] of state.overrides) params.set(key, value);
  if (!$("#memory").hidden || state.page.size) for (const [key, value] of state.page) params.set(key, value);
  return params.toString();
}

function showOverrides() {
  for (const element of inputs()) {
    const key = element.dataset.key;
    if (!state.overrides.has(key)) continue;
    const value = state.overrides.get(key);
    if (element.type === "checkbox") element.checked = ["true", "1", "yes"].includes(value.toLowerCase());
    else element.value = value;
  }
  for (const [key, value] of state.page) {
    const element = document.querySelector(`[data-page="${key}"]`);
    if (element) element.value = value;
  }
}

function schedule() {
  const text = query();
  history.replaceState(null, "", text ? `?${text}` : location.pathname);
  clearTimeout(timer);
  timer = setTimeout(refresh, DEBOUNCE_MS);
}

async function refresh() {
  const mine = ++sequence;
  let answer;
  let body;
  try {
    answer = await fetch(`/api/view?${query()}`);
    body = await answer.json();
  } catch (error) {
    if (mine === sequence) showError(`the server did not answer (${error.message}); is paramledger serve running?`);
    return;
  }
  if (mine !== sequence) return;
  if (!answer.ok) showError(body.error || `error ${answer.status}`);
  else render(body);
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
  fillTable($("#rows tbody"), view.rows.map((row) => [row.key, [row.label, ""], [row.text, "n"], [row.detail, "detail"]]));
  fillTable($("#components tbody"), view.components.map((c) => [c.name, [c.name, ""], [c.text, "n"], [c.share, "n"]]));
  drawChart(view.components);
  const facts = $("#facts");
  facts.replaceChildren(...view.facts.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
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
    const piece = svg("rect", { x, y: 0, width: Math.max(w, 0), height: 24, fill: COLOURS[c.name] || "#777" });
    piece.append(svg("title", {}, `${c.name}: ${c.text} (${c.share})`));
    parts.push(piece);
    x += w;
  }
  components.forEach((c, i) => {
    const y = top + i * (bar + gap);
    const w = Math.max(c.fraction * (width - label - 70), c.count > 0 ? 1 : 0);
    parts.push(svg("text", { x: 0, y: y + 14 }, c.name));
    const rect = svg("rect", { x: label, y, width: w, height: bar, fill: COLOURS[c.name] || "#777" });
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
  const problem = panel.querySelector(".problem");
  problem.textContent = memory.error || "";
  problem.hidden = !memory.error;
  fillTable(panel.querySelector("tbody"), memory.rows.map((row) => [row.key, [row.label, ""], [row.text, "n"]]));
}

async function loadNames() {
  try {
    const answer = await fetch("/api/names");
    const body = await answer.json();
    const select = $("#source");
    for (const entry of body.names) select.append(new Option(`${entry.name} (${entry.kind})`, entry.name));
  } catch (error) {
    showError(`could not list the bundled designs (${error.message})`);
  }
  const select = $("#source");
  if (state.source && !Array.from(select.options).some((o) => o.value === state.source)) {
    select.append(new Option(state.source, state.source)); // the server will say what is wrong with it
  }
  select.value = state.source;
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
  for (const element of document.querySelectorAll("[data-page]")) {
    const changed = () => { state.page.set(element.dataset.page, element.value.trim()); schedule(); };
    element.addEventListener(element.tagName === "INPUT" ? "input" : "change", changed);
  }
  $("#source").addEventListener("change", (event) => {
    state.source = event.target.value;
    state.overrides.clear(); // a new starting point: its own values fill the inputs
    schedule();
  });
  $("#reset").addEventListener("click", () => { state.overrides.clear(); schedule(); });
}

readUrl();
showOverrides();
listen();
loadNames();
refresh();
