// The card table: one WebSocket (docs/protocol.md), views rendered from the server's observations.
// What differs between game families is drawn by the family's renderer (./renderer.js); the seats
// (./seats.js), the hand (./fan.js), the pace of the messages (./pacer.js) and the overlays
// (./overlay.js) are the same for every family.
import { chooseLanguage, loadLanguage, t, languageSwitcher, translatePage, number, profileTitle, profileInfo, lang } from "./i18n.js";
import { fourColour, setFourColour } from "./cards.js";
import { esc } from "./summary.js";
import { loadRenderer } from "./renderer.js";
import { position, badge, directionMark } from "./seats.js";
import { fanHTML, layout, bindFan } from "./fan.js";
import { Queue, HOLD, LAST_HOLD, SLIDE, reducedMotion } from "./pacer.js";
import { openOverlay, closeOverlay, overlayOpen } from "./overlay.js";
import { refusal } from "./apierror.js";
import { hasAnalysis, showAnalysis } from "./analysis.js";
import { ViewDeltas } from "./deltas.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const S = {
  ws: null, seat: null, role: null, view: null, version: -1, seats: [], profile: "", options: {}, history: [], over: null,
  selection: new Set(), lifted: null, ui: {}, hint: null, msgId: 0, renderer: null, held: null, fresh: null,
  pendingHandOver: null, features: [], welcomed: false, deal: "secret", seed: null, retries: 0, connects: 0, hintRef: null,
  pingAt: 0, pongAt: 0, outbox: [],
};
/** A ping every minute keeps the socket alive (the server closes a silent one); a ping left
 * unanswered for a whole period means the connection is gone: it is replaced. ``tapete.ping``
 * (milliseconds) in ``localStorage`` changes the period (tests). */
const PING_EVERY = Number(localStorage.getItem("tapete.ping")) || 60000;
const RECONNECT_MAX = 15000;
const queue = new Queue(onMessage);
/** States come as changes; each whole view is rebuilt as it arrives (./deltas.js). */
const views = new ViewDeltas(() => send({ type: "sync" }));

// --- tokens ------------------------------------------------------------------------------
function seatToken() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("token")) {
    localStorage.setItem(`tapete.token.${tableId}`, frag.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  if (frag.has("spectate")) return null;
  return localStorage.getItem(`tapete.token.${tableId}`);
}
const TOKEN = seatToken();

function loadHistory() {
  try { S.history = JSON.parse(localStorage.getItem(`tapete.history.${tableId}`) || "[]"); } catch { S.history = []; }
}
function saveHistory() { localStorage.setItem(`tapete.history.${tableId}`, JSON.stringify(S.history.slice(-200))); }

// --- names -------------------------------------------------------------------------------
const LEVELS = { easy: "Bot: easy", normal: "Bot: normal", hard: "Bot: hard", ismcts: "Bot: search baseline", expert: "Bot: expert" };
function seatName(i) {
  if (i === null || i === undefined) return "";
  if (i === S.seat) return t("you");
  const s = S.seats[i];
  if (s && s.name) return s.name;
  if (s && s.bot_playing) return `${t("bot")} ${i + 1}`;
  return t("seat {n}", { n: i + 1 });
}
/** A sentence about a seat: the second-person form ``own`` when it is you, else ``other`` with its name. */
function phrase(seat, own, other, params = {}) {
  if (seat !== null && seat !== undefined && seat === S.seat) return t(own, params);
  return t(other, { ...params, name: seatName(seat) });
}
function isPartnership() { return !!(S.view && S.view.partnership); }
function sideOf(i) { return isPartnership() ? i % 2 : i; }
function sideName(side) {
  if (isPartnership()) return t("Team {n}", { n: side + 1 });
  return seatName(side);
}
function nSeats() { const v = S.view; return v ? (v.players || (v.hand_sizes || []).length) : 0; }
function pos(seat) { return position(seat, S.seat, nSeats(), S.renderer ? S.renderer.playDirection() : "clockwise"); }

/** What a renderer may know and do (../renderer.js). */
function context(myTurn = false) {
  return {
    seat: S.seat, myTurn, selection: S.selection, lifted: S.lifted, ui: S.ui, seatName, phrase, sideName, isPartnership,
    commonChips, act, rerender: render, pos, held: S.held, fresh: S.freshShown ? null : S.fresh, reduced: reducedMotion(),
    lift: (card) => { S.lifted = card; render(); },
  };
}

// --- socket ------------------------------------------------------------------------------
function connect() {
  if (!S.view) $("status").textContent = t("Connecting…");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?lang=${lang}`);
  S.ws = ws;
  S.pingAt = 0; S.pongAt = 0;
  views.reset();
  ws.onopen = () => {
    const hello = { type: "hello", table: tableId, lang, deltas: true };
    if (TOKEN) hello.token = TOKEN; else hello.spectate = true;
    ws.send(JSON.stringify(hello));
    for (const text of S.outbox.splice(0)) ws.send(text);
  };
  ws.onmessage = (ev) => {
    if (S.ws !== ws) return; // a socket already replaced
    let m = JSON.parse(ev.data);
    if (m.type === "state" && (m = views.accept(m)) === null) return; // a gap: the whole view is on its way
    if (m.type === "welcome") { S.retries = 0; S.connects += 1; $("table").dataset.connects = String(S.connects); }
    if (m.type === "pong") S.pongAt = Date.now();
    // answers to what you just did are shown at once; what happens at the table is shown in order
    if (m.type === "error") onError(m);
    else if (m.type === "hint") onHint(m);
    else if (m.type === "seats") { S.seats = m.seats; renderPlayers(); }
    else if (m.type !== "pong") queue.push(m);
  };
  // closed by the server (1008 timeout, 1013 too many sockets), by a proxy or by the network:
  // a new socket (to whichever node answers) says hello again and gets the full current state
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.outbox = []; // a lost connection: what was asked meanwhile is not sent later
    $("status").textContent = t("Disconnected. Reconnecting…");
    S.retries += 1;
    // waits that double up to 15 s, each half of it drawn at random: the sockets a stopping or
    // dead node closed together come back over a spread of time, not all in one instant
    const wait = Math.min(RECONNECT_MAX, 500 * 2 ** Math.min(S.retries, 5));
    setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
  };
}
function keepAlive() {
  const ws = S.ws;
  if (!ws || ws.readyState !== 1) return;
  if (S.pingAt > S.pongAt && Date.now() - S.pingAt >= PING_EVERY * 0.9) {
    // the last ping was never answered: the connection is gone even if the browser has not noticed
    S.pingAt = 0; S.pongAt = 0; ws.onclose(); ws.close();
    return;
  }
  if (S.pingAt <= S.pongAt) { S.pingAt = Date.now(); send({ type: "ping" }); }
}
setInterval(keepAlive, PING_EVERY);
/** Send a message with a fresh id (returned, so that an answer can be matched to it). */
function send(msg) {
  const ws = S.ws;
  if (!ws || ws.readyState > 1) return null;
  const id = ++S.msgId;
  const text = JSON.stringify({ ...msg, id });
  // a socket still opening (it replaces one, as a language switch does) takes it after its hello
  if (ws.readyState === 0) S.outbox.push(text); else ws.send(text);
  return id;
}
function act(action) {
  $("message").innerHTML = "";
  S.lifted = null;
  queue.skip(); // a move cuts a pause short
  send({ type: "action", version: S.version, action: { seat: S.seat, ...action } });
}

async function onMessage(m) {
  switch (m.type) {
    case "welcome": {
      // the server names the renderer; a server that does not yet finds it in the profile catalog
      const name = m.renderer || (profileInfo(m.profile) || {}).renderer;
      S.renderer = await loadRenderer(name);
      S.seat = m.seat; S.role = m.role; S.seats = m.seats; S.profile = m.profile; S.options = m.options || {};
      S.features = m.features || [];
      S.deal = m.deal || "secret"; S.seed = m.seed ?? null;
      renderSettings();
      break;
    }
    case "state": await onState(m); break;
    case "hand_over": S.pendingHandOver = m; break;
    case "game_over": await onGameOver(m); break;
    default: break;
  }
}

function clearHint() { S.hint = null; $("hint-text").textContent = ""; }

async function onState(m) {
  const prev = S.view;
  const ho = S.pendingHandOver; S.pendingHandOver = null;
  clearHint();
  if (m.last_action) { S.selection.clear(); S.lifted = null; }
  const done = prev && m.last_action ? S.renderer.trickDone(prev, m.view, m.last_action, ho) : null;
  if (prev && m.last_action) describe(m.last_action, prev, done && done.interim ? done.interim : m.view);
  S.fresh = m.last_action; S.freshShown = false;
  S.version = m.version;
  if (ho) recordHand(ho);
  if (done) {
    // the completed trick stays on the felt, then slides to its winner
    S.view = done.interim || m.view; S.held = done.trick; render();
    await queue.wait(done.last ? LAST_HOLD : HOLD);
    if (!reducedMotion()) { S.held = { ...done.trick, collect: true }; S.fresh = null; renderCenter(); await queue.wait(SLIDE); }
    S.held = null; S.fresh = null;
  }
  S.view = m.view;
  const hand = new Set(m.view.hand || []);
  for (const c of [...S.selection]) if (!hand.has(c)) S.selection.delete(c);
  render();
  if (ho && !queue.has((x) => x.type === "game_over")) showHandOver(ho);
  else if (m.last_action && !done && queue.items.length) await queue.wait(120); // a burst of moves is still seen one by one
}

function recordHand(m) {
  if (!S.history.some((h) => h.hand === m.hand && JSON.stringify(h.scores) === JSON.stringify(m.scores))) {
    S.history.push({ hand: m.hand, result: m.result, scores: m.scores, bags: m.bags, bids: m.bids, tricks_won: m.tricks_won, tokens: m.tokens });
    saveHistory();
  }
  announce(t("Hand over. Scores: {scores}", { scores: (m.scores || []).map((s, i) => `${sideName(i)} ${number(s)}`).join(", ") }));
}

/** The end-of-hand overlay; the table waits for "Next hand" (a spectator's goes on by itself). */
function showHandOver(m) {
  const body = S.renderer.handOverlay(m, S.history, context());
  const next = `<div class="sheet-actions">${analysisButton()}<button type="button" class="primary" id="next-hand">${esc(t("Next hand"))}</button></div>`;
  openOverlay(`<h2 id="summary-h">${esc(t("Hand {n}", { n: m.hand + 1 }))} — ${esc(t("Hand summary"))}</h2>${body}${analysisBox()}${next}`, "hand");
  $("table").dataset.overlay = "hand";
  bindAnalysis(m.hand);
  queue.pause();
  const go = () => {
    closeOverlay(); $("table").dataset.overlay = "";
    if (S.features.includes("next_hand")) send({ type: "next_hand", hand: m.hand });
    queue.resume();
  };
  $("next-hand").addEventListener("click", go);
  // a spectator's summary goes on by itself, unless they opened the analysis to read it
  if (S.seat === null) setTimeout(() => { const a = $("analysis-box"); if (overlayOpen("hand") && (!a || a.hidden)) go(); }, 6000);
}

// --- the Analysis view of a finished hand (./analysis.js) -----------------------------------
function analysisButton() {
  if (!hasAnalysis(S.profile)) return "";
  return `<button type="button" id="analysis-open" aria-controls="analysis-box" aria-expanded="false">${esc(t("Analysis"))}</button>`;
}
function analysisBox() { return hasAnalysis(S.profile) ? `<section id="analysis-box" class="analysis" aria-labelledby="analysis-h" hidden></section>` : ""; }
function bindAnalysis(hand) {
  const b = $("analysis-open"); if (!b || hand === null || hand === undefined) return;
  b.addEventListener("click", async () => {
    const box = $("analysis-box");
    if (box.dataset.state === "done" && !box.hidden) { box.hidden = true; b.setAttribute("aria-expanded", "false"); return; }
    b.setAttribute("aria-expanded", "true");
    if (box.dataset.state === "done") { box.hidden = false; box.querySelector("#analysis-h").focus(); return; }
    b.disabled = true;
    const url = `/api/tables/${encodeURIComponent(tableId)}/hands/${hand}/analysis`;
    await showAnalysis(box, url, {}, hand, { seat: seatName, side: sideName });
    b.disabled = false;
  });
}

async function onGameOver(m) {
  const fresh = S.over === null && S.view && S.fresh;
  S.over = m;
  announce(t("Game over"));
  render();
  if (fresh) await queue.wait(HOLD); // the last play stays in view a moment
  showGameOver();
}

function showGameOver() {
  const o = S.over;
  let html = `<h2 id="summary-h">${esc(t("Game over"))}</h2>`;
  if (o.winner !== null && o.winner !== undefined) html += `<p id="winner" class="winner-line">★ ${esc(t("Winner: {name}", { name: sideName(o.winner) }))}</p>`;
  html += S.renderer.gameOver(o, S.history, context());
  html += `<div class="sheet-actions">
<a class="button" id="download" href="/api/tables/${encodeURIComponent(tableId)}/record" download="tapete-${esc(tableId)}.json">${esc(t("Download the record"))}</a>
<a class="button" id="to-replay" href="/replay?table=${encodeURIComponent(tableId)}">${esc(t("Open in the replay viewer"))}</a>
${S.history.length ? analysisButton() : ""}
${S.seat !== null ? `<button type="button" class="primary" id="play-again">${esc(t("Play again"))}</button>` : ""}
<button type="button" id="close-summary">${esc(t("Close"))}</button></div><div id="again-links"></div>`;
  if (S.history.length) html = html.replace('<div class="sheet-actions">', `${analysisBox()}<div class="sheet-actions">`);
  openOverlay(html, "over");
  if (S.history.length) bindAnalysis(S.history[S.history.length - 1].hand);
  $("table").dataset.overlay = "over";
  const again = $("play-again"); if (again) again.addEventListener("click", playAgain);
  $("close-summary").addEventListener("click", () => { closeOverlay(); $("table").dataset.overlay = ""; renderControls(false); });
}

/** A new table with the same game, options and seats (bots at their levels, people by new links). */
async function playAgain() {
  const seats = S.seats.map((s, i) => {
    if (s.kind === "bot" || (s.level && s.bot_playing && s.kind !== "human")) return { kind: "bot", level: s.level || "normal" };
    return i === S.seat || !s.name ? { kind: "human", ...(s.name ? { name: s.name } : {}) } : { kind: "human", name: s.name };
  });
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json", "accept-language": lang },
    body: JSON.stringify({ profile: S.profile, options: S.options, seats }) });
  if (!r.ok) { $("again-links").textContent = `${t("Could not create the table.")} ${(await refusal(r)).message}`; return; }
  const out = await r.json();
  localStorage.setItem(`tapete.token.${out.table}`, out.seats[S.seat].token);
  localStorage.setItem(`tapete.creator.${out.table}`, out.creator_token);
  const others = out.seats.filter((s) => s.seat !== S.seat && s.token);
  const url = `/table/${encodeURIComponent(out.table)}`;
  if (!others.length) { location.href = url; return; }
  $("again-links").innerHTML = `<p>${esc(t("Send each friend their link."))}</p><ul>${others.map((s) => `<li>${esc(t("Seat {n}", { n: s.seat + 1 }))}: <span class="invite">${esc(`${location.origin}/table/${out.table}#token=${s.token}`)}</span></li>`).join("")}</ul><a class="button primary" href="${url}">${esc(t("Go to the table"))}</a>`;
}

function onError(m) {
  // the server closes the socket after this one: onclose reconnects
  if (m.code === "timeout" || m.code === "too_many_connections") { $("status").textContent = t("Disconnected. Reconnecting…"); return; }
  if (m.ref !== undefined && m.ref === S.hintRef) {
    S.hintRef = null;
    if (m.code === "busy") { $("hint-text").textContent = t("The server is busy: try again in a moment."); return; }
  }
  const box = $("message");
  box.innerHTML = `<span class="refusal" data-code="${esc(m.code)}">${esc(t("Refused: {message}", { message: m.message }))}</span>`;
  $("table").dataset.refusals = String(Number($("table").dataset.refusals || 0) + 1);
  if (m.code === "stale_version") send({ type: "sync" });
}

function onHint(m) {
  if (m.version !== undefined && m.version !== S.version) return; // an answer to an older state
  S.hint = m;
  const a = m.action;
  if (S.renderer.selectsCards && "play" in a) { S.selection = new Set([].concat(a.play)); }
  render();
  $("hint-text").textContent = `${t("Hint: {action}", { action: S.renderer.actionText(a) })} — ${m.reason}`;
}

// --- announcements -------------------------------------------------------------------------
function announce(text) {
  const live = $("live");
  const p = document.createElement("p"); p.textContent = text; live.append(p);
  while (live.childElementCount > 4) live.firstElementChild.remove();
}
function describe(a, prev, view) {
  for (const text of S.renderer.announce(a, prev, view, context())) announce(text);
}

// --- rendering -----------------------------------------------------------------------------
function isMyTurn() {
  const v = S.view;
  return !!v && S.seat !== null && v.to_act === S.seat && (v.legal_actions || []).length > 0 && !S.over && !S.held;
}

function render() {
  const v = S.view; if (!v || !S.renderer) return;
  const main = $("table");
  const myTurn = isMyTurn();
  main.dataset.myTurn = myTurn ? "1" : "0";
  main.dataset.version = String(S.version);
  main.dataset.phase = v.phase || "";
  main.dataset.family = v.game;
  main.dataset.over = S.over ? "1" : "0";
  main.dataset.hands = String(S.history.length);
  main.dataset.held = S.held ? "1" : "0";
  main.dataset.players = String(nSeats());
  const title = profileTitle(S.profile);
  $("title").textContent = title;
  document.title = `${title} — ${t("Table")} ${tableId} · tapete`;
  $("rules-link").href = `/rules/${S.profile}?lang=${lang}`;
  let status;
  if (S.over) status = t("Game over");
  else if (myTurn) status = t("Your turn");
  else if (v.to_act !== null && v.to_act !== undefined && !S.held) status = t("{name} to play", { name: seatName(v.to_act) });
  else status = "";
  if (S.seat === null) status = `${t(TOKEN ? "You are watching this table." : "No seat token for this table: you are watching.")} ${status}`;
  $("status").textContent = status;
  renderPlayers(); renderExtras(); renderCenter(); renderControls(myTurn); renderHand(myTurn);
}

function renderPlayers() {
  const v = S.view; if (!v || !S.renderer) return;
  const ctx = context();
  const n = nSeats();
  const out = [];
  for (let i = 0; i < n; i++) {
    const seat = S.seats[i] || {};
    const toAct = v.to_act === i && !S.over && !S.held;
    const info = {
      name: seatName(i), pos: pos(i), toAct, thinking: toAct && !!seat.bot_playing,
      bot: !!seat.bot_playing, level: seat.level, botLabel: t(LEVELS[seat.level] || "bot"),
      dealer: v.dealer === i, offline: seat.kind === "human" && !seat.bot_playing && !seat.connected && i !== S.seat,
      partner: isPartnership() && S.seat !== null && i !== S.seat && i % 2 === S.seat % 2,
      team: isPartnership() ? sideOf(i) : undefined,
    };
    out.push(badge(i, info, S.renderer.seatChips(v, i, ctx)));
  }
  $("players").innerHTML = out.join("");
  $("felt").dataset.players = String(n);
  $("direction").innerHTML = directionMark(S.renderer.playDirection());
}

/** The chips every family shows on a seat: the side's score, bags and tokens. */
function commonChips(i) {
  const v = S.view; const side = sideOf(i); const chips = [];
  const scores = v.scores || [];
  chips.push({ text: number(scores[side] ?? 0), label: t("Score"), cls: "score" });
  if (v.bags) chips.push({ text: `${number(v.bags[side] ?? 0)}`, label: t("Bags"), cls: "bags" });
  if (v.tokens) chips.push({ text: `★${number(v.tokens[side] ?? 0)}`, label: t("Tokens"), cls: "tokens" });
  return chips;
}

function renderExtras() {
  const bits = S.renderer.extras(S.view, context());
  // a table dealt from its creator's seed says so to everyone (its deals can be known)
  const deal = S.deal === "creator_seed" && S.seed !== null
    ? `<p id="deal-note" class="deal-note">${esc(t("Dealt from the creator's seed {seed}", { seed: S.seed }))}</p>` : "";
  $("extras").innerHTML = deal + bits.map((b) => `<p>${esc(b)}</p>`).join("");
}

function renderCenter() {
  const head = `<h2 id="center-h" class="sr-only">${esc(t("Trick"))}</h2>`;
  $("center").innerHTML = head + S.renderer.center(S.view, context());
  S.freshShown = true; // a card flies in once, not again on every redraw
}

function renderControls(myTurn) {
  const v = S.view;
  const box = $("controls"); box.innerHTML = "";
  if (S.over) {
    if (!overlayOpen("over")) {
      const b = document.createElement("button"); b.type = "button"; b.className = "primary"; b.id = "show-summary";
      b.textContent = t("Game over"); b.addEventListener("click", showGameOver); box.append(b);
    }
    return;
  }
  const button = (parent, label, fn, cls = "", extra = {}) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = label; if (cls) b.className = cls;
    for (const [k, val] of Object.entries(extra)) b.setAttribute(k, val);
    b.addEventListener("click", fn); parent.append(b); return b;
  };
  const group = () => { const g = document.createElement("div"); g.className = "group"; box.append(g); return g; };
  // the tools (Hint, and the family's own) come after the family's controls
  const tools = document.createElement("div"); tools.className = "group tools";
  if (myTurn) button(tools, t("Hint"), () => { S.hintRef = send({ type: "hint" }); }, "", { id: "hint", "aria-keyshortcuts": "H" });
  const tool = (label, fn, extra = {}) => button(tools, label, fn, "", extra);
  S.renderer.controls(v, { ...context(myTurn), box, group, button, tool });
  if (tools.childElementCount) box.append(tools);
}

function renderHand(myTurn) {
  const v = S.view; const box = $("hand");
  if (S.seat === null) { box.innerHTML = ""; return; }
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  if (v.hand === null || v.hand === undefined) {
    box.innerHTML = fanHTML({ faceDown: v.hand_sizes ? v.hand_sizes[S.seat] : 0 });
  } else {
    const playable = new Set();
    for (const a of v.legal_actions || []) if (a.play) for (const c of [].concat(a.play)) playable.add(c);
    box.innerHTML = fanHTML({
      cards: S.renderer.sortHand(v.hand), playable, myTurn, playing: playable.size > 0, selected: S.selection, lifted: S.lifted,
      hinted: new Set(S.hint && S.hint.action.play ? [].concat(S.hint.action.play) : []), selects: S.renderer.selectsCards,
    });
  }
  box.dataset.count = String(box.childElementCount);
  layout(box);
  if (focused) { const el = box.querySelector(`[data-card="${focused}"]`); if (el) el.focus(); }
}

function renderSettings() {
  const box = $("family-settings"); box.innerHTML = "";
  for (const s of S.renderer.settings()) {
    const id = `set-${s.key.replace(/\W/g, "-")}`;
    box.insertAdjacentHTML("beforeend", `<label><input type="checkbox" id="${id}"${localStorage.getItem(s.key) === "1" ? " checked" : ""}> <span>${esc(s.label)}</span></label>`);
    $(id).addEventListener("change", (ev) => { localStorage.setItem(s.key, ev.target.checked ? "1" : "0"); render(); });
  }
}

// --- input -------------------------------------------------------------------------------
function setup() {
  bindFan($("hand"), {
    onTap: (card) => { if (S.seat !== null && S.view && S.renderer) S.renderer.cardClick(card, context(isMyTurn())); },
    onDrop: (card) => { if (S.seat !== null && S.view && S.renderer) S.renderer.cardDrop(card, context(isMyTurn())); },
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape" && S.lifted) { S.lifted = null; render(); return; }
    // a control's aria-keyshortcuts is its key: H for Hint, and the renderer's (L for the last trick)
    if (ev.key.length !== 1 || overlayOpen()) return;
    const key = ev.key.toUpperCase();
    const b = [...$("controls").querySelectorAll("button[aria-keyshortcuts]")].find((x) => x.getAttribute("aria-keyshortcuts") === key);
    if (b) b.click();
  });
  $("four").checked = fourColour();
  $("four").addEventListener("change", () => { setFourColour($("four").checked); render(); });
  let timer = null;
  addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(() => layout($("hand")), 60); });
}

async function main() {
  await loadLanguage(chooseLanguage());
  translatePage();
  loadHistory();
  setup();
  languageSwitcher($("lang"), () => {
    translatePage(); clearHint(); if (S.renderer) renderSettings(); render();
    if (overlayOpen("over")) showGameOver();
    // the server explains refusals in the language of the hello: say hello again
    const old = S.ws; S.ws = null; if (old) old.close(); connect();
  });
  connect();
}
main();
