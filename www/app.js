// The demo admin page: search, filter and page through users with
// user-management-client. Plain ES module, no framework, no build step.
//
// Every load (a keystroke after the debounce, a filter, a page) aborts the
// calls it supersedes through an AbortController, and a sequence number
// guards the rendering too, so an old answer can never overwrite a newer one.
//
// The client's observer hooks feed two lines: while a call waits to retry,
// a notice says so (beforeRetry); after a good answer, how long the count and
// the list took (afterResponse's durationMs: from sending the request to its
// response headers, for the attempt that answered).

import init, { UsersClient } from "/pkg/web/user_management_client.js";

const DEBOUNCE_MS = 250;
const PAGE_SIZES = [10, 20, 50, 100];
const ACTIVE_VALUES = ["all", "true", "false"];
/** Extra attempts per call (the client's default, set here so the notice can count them). */
const RETRIES = 2;

const $ = (id) => document.getElementById(id);
const ui = {
  endpointForm: $("endpoint-form"),
  baseUrl: $("base-url"),
  query: $("query"),
  activeRadios: document.querySelectorAll('input[name="active"]'),
  alerts: $("alerts"),
  notice: $("notice"),
  noticeText: $("notice-text"),
  results: $("results"),
  summary: $("summary"),
  timing: $("timing"),
  timingText: $("timing-text"),
  caption: $("results-caption"),
  table: $("users-table"),
  rows: $("rows"),
  empty: $("empty"),
  emptyText: $("empty-text"),
  clearFilters: $("clear-filters"),
  pager: $("pager"),
  pageSize: $("page-size"),
  range: $("range"),
  prev: $("prev"),
  next: $("next"),
  pageInfo: $("page-info"),
};

const numberFormat = new Intl.NumberFormat();
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });

/** What is shown; the URL's query string mirrors it so views can be shared. */
const state = { query: "", active: "all", page: 1, pageSize: 20 };
/** Number of pages for the last good answer. */
let pageCount = 1;

let client = null;
let clientError = null;
let appliedBaseUrl = "";
let controller = null;
/** The load in flight, which the hooks report to: { signal, durations }. */
let inFlight = null;
let sequence = 0;
let debounceTimer = 0;

// ---------------------------------------------------------------- state & URL

function readUrlState() {
  const params = new URLSearchParams(location.search);
  state.query = (params.get("q") ?? "").trim();
  const active = params.get("active");
  if (ACTIVE_VALUES.includes(active)) state.active = active;
  const size = Number(params.get("size"));
  if (PAGE_SIZES.includes(size)) state.pageSize = size;
  const page = Number(params.get("page"));
  if (Number.isInteger(page) && page >= 1) state.page = page;
}

function writeUrlState() {
  const params = new URLSearchParams();
  if (state.query) params.set("q", state.query);
  if (state.active !== "all") params.set("active", state.active);
  if (state.pageSize !== 20) params.set("size", String(state.pageSize));
  if (state.page !== 1) params.set("page", String(state.page));
  const search = params.toString() ? `?${params}` : "";
  if (search !== location.search) history.replaceState(null, "", search || location.pathname);
}

function syncControls() {
  ui.query.value = state.query;
  for (const radio of ui.activeRadios) radio.checked = radio.value === state.active;
  ui.pageSize.value = String(state.pageSize);
}

// ---------------------------------------------------------------- client

function connect(baseUrl) {
  appliedBaseUrl = baseUrl;
  try {
    client = new UsersClient({ baseUrl, retries: RETRIES, hooks: { afterResponse, beforeRetry } });
    clientError = null;
  } catch (err) {
    // Only the constructor throws, and only a validation error for bad options.
    client = null;
    clientError = err;
  }
}

function cancelPending() {
  clearTimeout(debounceTimer);
  if (controller) controller.abort();
  controller = null;
  inFlight = null;
  clearNotice();
}

// The hooks are the client's, so they see every call: they report only to the
// load in flight, and nothing once it was superseded (aborted).
function current() {
  return inFlight && !inFlight.signal.aborted ? inFlight : null;
}

function afterResponse(info) {
  // Each attempt overwrites the last: what is kept is the attempt that answered.
  const pending = current();
  if (pending) pending.durations[info.operation] = info.durationMs;
}

function beforeRetry(info) {
  if (!current()) return;
  const seconds = (info.delayMs / 1000).toFixed(1);
  const error = info.error;
  const what = error?.kind === "http" && error.httpStatus !== undefined
    ? `Server answered HTTP ${error.httpStatus}`
    : "Server not answering";
  clearAlert(); // an earlier failure's banner: this call is being retried now
  showNotice(`${what}, retrying in ${seconds} s (attempt ${info.attempt + 1} of ${RETRIES + 1})…`);
}

/** Fetches the count and the page for the current state, then renders. */
async function load() {
  cancelPending();
  const mine = ++sequence;
  writeUrlState();

  if (!client) {
    showFailure(clientError);
    setBusy(false);
    return;
  }

  const ctrl = new AbortController();
  controller = ctrl;
  const pending = { signal: ctrl.signal, durations: {} };
  inFlight = pending;
  setBusy(true);

  const filter = { query: state.query || undefined, active: state.active };
  const options = { signal: ctrl.signal };
  try {
    const [count, list] = await Promise.all([
      client.countUsers(filter, options),
      client.listUsers({ ...filter, page: state.page, pageSize: state.pageSize }, options),
    ]);
    if (mine !== sequence) return; // superseded while the answer was on its way
    const total = count.result.totalUsers;
    const users = list.result?.users;
    if (!Array.isArray(users)) {
      throw Object.assign(new Error("the list answer has no users array"), { kind: "decode" });
    }
    pageCount = Math.max(1, Math.ceil(total / state.pageSize));
    if (state.page > pageCount) {
      // E.g. a shared link to a page that no longer exists: go to the last one.
      state.page = pageCount;
      queueMicrotask(load);
      return;
    }
    clearNotice();
    clearAlert();
    renderUsers(users, total);
    renderTiming(pending.durations);
  } catch (err) {
    if (err?.kind === "aborted" || mine !== sequence) return; // superseded: not an error
    ctrl.abort(); // the other call of the pair, if it is still running
    showFailure(err);
  } finally {
    if (mine === sequence) {
      controller = null;
      if (inFlight === pending) inFlight = null;
      setBusy(false);
    }
  }
}

// ---------------------------------------------------------------- rendering

function setBusy(busy) {
  ui.results.setAttribute("aria-busy", String(busy));
}

function filterPhrase() {
  const parts = [];
  if (state.query) parts.push(`matching “${state.query}”`);
  if (state.active === "true") parts.push("active only");
  if (state.active === "false") parts.push("inactive only");
  return parts;
}

function renderUsers(users, total) {
  const { page, pageSize } = state;
  const noun = total === 1 ? "user" : "users";
  const phrase = filterPhrase();

  ui.summary.replaceChildren(
    el("strong", { id: "total" }, numberFormat.format(total)),
    ` ${noun}`,
    ...(phrase.length ? [el("span", { class: "summary-filter" }, ` ${phrase.join(" · ")}`)] : []),
  );
  ui.caption.textContent = `Users${phrase.length ? `, ${phrase.join(", ")}` : ""}, page ${page} of ${pageCount}`;

  const fragment = document.createDocumentFragment();
  for (const user of users) fragment.append(userRow(user));
  ui.rows.replaceChildren(fragment);

  const empty = users.length === 0;
  ui.table.hidden = empty;
  ui.pager.hidden = false;
  ui.empty.hidden = !empty;
  if (empty) ui.emptyText.textContent = emptyMessage();
  ui.clearFilters.hidden = !state.query && state.active === "all";

  const first = empty ? 0 : (page - 1) * pageSize + 1;
  const last = empty ? 0 : first + users.length - 1;
  ui.range.textContent = empty
    ? ""
    : `${numberFormat.format(first)}–${numberFormat.format(last)} of ${numberFormat.format(total)}`;
  renderPager(page, pageCount);
}

function emptyMessage() {
  const which = state.active === "true" ? "active users" : state.active === "false" ? "inactive users" : "users";
  if (state.query) return `No ${which} match “${state.query}”.`;
  return `There are no ${which}.`;
}

function renderPager(page, pages) {
  ui.pageInfo.textContent = `Page ${numberFormat.format(page)} of ${numberFormat.format(pages)}`;
  const focused = document.activeElement;
  ui.prev.disabled = page <= 1;
  ui.next.disabled = page >= pages;
  // Keep keyboard focus in the pager when the button in use gets disabled.
  if (focused === ui.next && ui.next.disabled && !ui.prev.disabled) ui.prev.focus();
  if (focused === ui.prev && ui.prev.disabled && !ui.next.disabled) ui.next.focus();
}

function userRow(user) {
  const created = new Date(user.createdAt);
  const valid = !Number.isNaN(created.getTime());
  const time = el("time", { datetime: String(user.createdAt) },
    valid ? dateFormat.format(created) : String(user.createdAt ?? "—"));
  if (valid) time.title = dateTimeFormat.format(created);

  return el("tr", {},
    el("td", { class: "col-username", "data-label": "Username" },
      el("span", { class: "username" }, ...highlight(String(user.username ?? ""), state.query))),
    el("td", { class: "col-phone", "data-label": "Phone" },
      el("span", { class: "phone" }, ...highlight(String(user.phone ?? ""), state.query))),
    el("td", { class: "col-status", "data-label": "Status" },
      el("span", { class: `badge ${user.active ? "badge-on" : "badge-off"}` },
        user.active ? "Active" : "Inactive")),
    el("td", { class: "col-created", "data-label": "Created" }, time),
  );
}

/** The text with the (case-insensitive) matches of `query` in <mark>. */
function highlight(text, query) {
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  if (!needle || lower.length !== text.length) return [text];
  const out = [];
  let at = 0;
  for (let hit = lower.indexOf(needle); hit !== -1; hit = lower.indexOf(needle, at)) {
    if (hit > at) out.push(text.slice(at, hit));
    out.push(el("mark", {}, text.slice(hit, hit + needle.length)));
    at = hit + needle.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const HINTS = {
  network: "Check the API base URL above and that the server is running.",
  timeout: "The server took too long to answer. Try again in a moment.",
  decode: "The server answered, but not with a User Management API envelope.",
};

function showFailure(err) {
  const kind = typeof err?.kind === "string" ? err.kind : "error";
  const message = err?.message || String(err);
  const details = [];
  if (err?.httpStatus !== undefined) details.push(`HTTP ${err.httpStatus}`);
  if (err?.status !== undefined) details.push(`envelope status ${err.status}`);
  if (err?.param !== undefined) details.push(`parameter: ${err.param}`);

  const retry = el("button", { type: "button", class: "btn btn-small" }, "Try again");
  retry.addEventListener("click", () => {
    if (!client) connect(ui.baseUrl.value.trim());
    load();
  });
  ui.alerts.replaceChildren(
    el("div", { class: "banner", id: "error-banner", "data-kind": kind },
      el("svg", { class: "banner-icon", viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
        svg("circle", { cx: "10", cy: "10", r: "8" }),
        svg("path", { d: "M10 5.5v5.5M10 14v.5" })),
      el("div", { class: "banner-body" },
        el("p", { class: "banner-title" },
          kind === "validation" ? "That doesn’t look right" : "Couldn’t load users",
          " ", el("code", { class: "banner-kind" }, kind)),
        el("p", { class: "banner-message" }, message),
        ...(HINTS[kind] ? [el("p", { class: "banner-hint" }, HINTS[kind])] : []),
        ...(details.length ? [el("p", { class: "banner-details" }, details.join(" · "))] : [])),
      retry),
  );

  clearNotice();
  // What was on screen belongs to another query or server: do not leave it up.
  ui.summary.textContent = "No results: the last request failed.";
  ui.timing.hidden = true;
  ui.rows.replaceChildren();
  ui.table.hidden = true;
  ui.empty.hidden = true;
  ui.pager.hidden = true;
  pageCount = 1;
}

function clearAlert() {
  if (ui.alerts.firstChild) ui.alerts.replaceChildren();
}

function showNotice(text) {
  ui.noticeText.textContent = text;
  ui.notice.hidden = false;
}

function clearNotice() {
  if (ui.notice.hidden) return;
  ui.notice.hidden = true;
  ui.noticeText.textContent = "";
}

const formatMs = (ms) => `${numberFormat.format(Math.max(0, Math.round(ms)))} ms`;

/** "count 12 ms · list 35 ms", or nothing if a duration is missing. */
function renderTiming({ count, list }) {
  const known = Number.isFinite(count) && Number.isFinite(list);
  ui.timingText.textContent = known ? `count ${formatMs(count)} · list ${formatMs(list)}` : "";
  ui.timing.hidden = !known;
}

/** A tiny element builder: attributes, then children (strings or nodes). */
function el(tag, attrs, ...children) {
  const node = tag === "svg" ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

// ---------------------------------------------------------------- events

function searchNow() {
  clearTimeout(debounceTimer);
  state.query = ui.query.value.trim();
  state.page = 1;
  load();
}

ui.query.addEventListener("input", () => {
  // The calls in flight are for a query the user has moved on from.
  cancelPending();
  sequence += 1;
  setBusy(true);
  debounceTimer = setTimeout(searchNow, DEBOUNCE_MS);
});

ui.query.addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    event.preventDefault();
    searchNow();
  }
});

for (const radio of ui.activeRadios) {
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    state.active = radio.value;
    state.page = 1;
    load();
  });
}

ui.pageSize.addEventListener("change", () => {
  state.pageSize = Number(ui.pageSize.value);
  state.page = 1;
  load();
});

ui.prev.addEventListener("click", () => {
  if (state.page <= 1) return;
  state.page -= 1;
  load();
});

ui.next.addEventListener("click", () => {
  if (state.page >= pageCount) return;
  state.page += 1;
  load();
});

ui.clearFilters.addEventListener("click", () => {
  state.query = "";
  state.active = "all";
  state.page = 1;
  syncControls();
  load();
  ui.query.focus();
});

function applyBaseUrl() {
  connect(ui.baseUrl.value.trim());
  state.page = 1;
  load();
}

ui.baseUrl.addEventListener("change", () => {
  if (ui.baseUrl.value.trim() !== appliedBaseUrl) applyBaseUrl();
});

ui.endpointForm.addEventListener("submit", (event) => {
  event.preventDefault();
  applyBaseUrl();
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest("input, select, textarea"))) return;
  event.preventDefault();
  ui.query.focus();
  ui.query.select();
});

// ---------------------------------------------------------------- start

readUrlState();
syncControls();
ui.baseUrl.value = location.origin;
ui.baseUrl.placeholder = location.origin;

try {
  await init();
} catch (err) {
  showFailure(Object.assign(new Error(`could not load the WebAssembly client: ${err?.message ?? err}`), { kind: "init" }));
  setBusy(false);
  throw err;
}
connect(ui.baseUrl.value);
document.documentElement.dataset.ready = "true";
load();
