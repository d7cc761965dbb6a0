// The card table: one WebSocket (docs/protocol.md), views rendered from the server's observations.
// What differs between game families is drawn by the family's renderer (./renderer.js).
import { chooseLanguage, loadLanguage, t, cardName, languageSwitcher, translatePage, number, profileTitle, profileInfo, lang } from "./i18n.js";
import { cardSVG, backSVG, fourColour, setFourColour } from "./cards.js";
import { esc } from "./summary.js";
import { loadRenderer } from "./renderer.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const S = {
  ws: null, seat: null, role: null, view: null, version: -1, seats: [], profile: "", history: [], over: null,
  selection: new Set(), ui: {}, hint: null, msgId: 0, renderer: null, inbox: Promise.resolve(),
};

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
function seatName(i) {
  if (i === null || i === undefined) return "";
  if (i === S.seat) return t("you");
  const s = S.seats[i];
  if (s && s.name) return s.name;
  if (s && s.bot_playing) return `${t("bot")} ${i + 1}`;
  return t("seat {n}", { n: i + 1 });
}
function isPartnership() { return !!(S.view && S.view.partnership); }
function sideOf(i) { return isPartnership() ? i % 2 : i; }
function sideName(side) {
  if (isPartnership()) return t("Team {n}", { n: side + 1 }) + " " + (side === 0 ? "◆" : "●");
  return seatName(side);
}

/** What a renderer may know and do (../renderer.js). */
function context(myTurn = false) {
  return {
    seat: S.seat, myTurn, selection: S.selection, ui: S.ui, seatName, sideName, isPartnership,
    commonStats, act, rerender: render,
  };
}

// --- socket ------------------------------------------------------------------------------
function connect() {
  if (!S.view) $("status").textContent = t("Connecting…");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    const hello = { type: "hello", table: tableId, lang };
    if (TOKEN) hello.token = TOKEN; else hello.spectate = true;
    ws.send(JSON.stringify(hello));
  };
  // one message at a time: a welcome first loads the family's renderer
  ws.onmessage = (ev) => { S.inbox = S.inbox.then(() => onMessage(JSON.parse(ev.data))).catch(rethrow); };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    $("status").textContent = t("Disconnected. Reconnecting…");
    setTimeout(connect, 1000);
  };
}
function send(msg) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify({ ...msg, id: ++S.msgId })); }
function act(action) {
  $("message").innerHTML = "";
  send({ type: "action", version: S.version, action: { seat: S.seat, ...action } });
}

function rethrow(err) { setTimeout(() => { throw err; }); }

async function onMessage(m) {
  switch (m.type) {
    case "welcome": {
      // the server names the renderer; a server that does not yet finds it in the profile catalog
      const name = m.renderer || (profileInfo(m.profile) || {}).renderer;
      S.renderer = await loadRenderer(name);
      S.seat = m.seat; S.role = m.role; S.seats = m.seats; S.profile = m.profile; break;
    }
    case "seats": S.seats = m.seats; renderPlayers(); break;
    case "state": onState(m); break;
    case "hand_over": onHandOver(m); break;
    case "game_over": S.over = m; announce(t("Game over")); render(); break;
    case "hint": onHint(m); break;
    case "error": onError(m); break;
    default: break;
  }
}

function onState(m) {
  const prev = S.view;
  S.view = m.view; S.version = m.version;
  if (prev && m.last_action) describe(m.last_action, prev, m.view);
  if (S.hint && S.hint.version !== m.version) S.hint = null;
  if (m.last_action) S.selection.clear();
  const hand = new Set(m.view.hand || []);
  for (const c of [...S.selection]) if (!hand.has(c)) S.selection.delete(c);
  render();
}

function onHandOver(m) {
  if (!S.history.some((h) => h.hand === m.hand && JSON.stringify(h.scores) === JSON.stringify(m.scores))) {
    S.history.push({ hand: m.hand, result: m.result, scores: m.scores, bags: m.bags, bids: m.bids, tricks_won: m.tricks_won });
    saveHistory();
  }
  announce(t("Hand over. Scores: {scores}", { scores: (m.scores || []).map((s, i) => `${sideName(i)} ${number(s)}`).join(", ") }));
  renderSummary();
}

function onError(m) {
  const box = $("message");
  box.innerHTML = `<span class="refusal" data-code="${esc(m.code)}">${esc(t("Refused: {message}", { message: m.message }))}</span>`;
  $("table").dataset.refusals = String(Number($("table").dataset.refusals || 0) + 1);
  if (m.code === "stale_version") send({ type: "sync" });
}

function onHint(m) {
  S.hint = m;
  const a = m.action;
  if (S.renderer.selectsCards && "play" in a) { S.selection = new Set([].concat(a.play)); }
  $("hint-text").textContent = `${t("Hint: {action}", { action: S.renderer.actionText(a) })} — ${m.reason}`;
  render();
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
function render() {
  const v = S.view; if (!v || !S.renderer) return;
  const main = $("table");
  const myTurn = S.seat !== null && v.to_act === S.seat && (v.legal_actions || []).length > 0 && !S.over;
  main.dataset.myTurn = myTurn ? "1" : "0";
  main.dataset.version = String(S.version);
  main.dataset.phase = v.phase || "";
  main.dataset.family = v.game;
  main.dataset.over = S.over ? "1" : "0";
  main.dataset.hands = String(S.history.length);
  $("title").textContent = `tapete — ${profileTitle(S.profile)}`;
  $("rules-link").href = `/rules/${S.profile}?lang=${lang}`;
  let status;
  if (S.over) status = t("Game over");
  else if (myTurn) status = t("Your turn");
  else if (v.to_act !== null && v.to_act !== undefined) status = t("{name} to play", { name: seatName(v.to_act) });
  else status = "";
  if (S.seat === null) status = `${t(TOKEN ? "You are watching this table." : "No seat token for this table: you are watching.")} ${status}`;
  $("status").textContent = status;
  renderPlayers(); renderExtras(); renderCenter(); renderControls(myTurn); renderHand(myTurn); renderSummary();
}

function renderPlayers() {
  const v = S.view; if (!v || !S.renderer) return;
  const ctx = context();
  const n = v.players || (v.hand_sizes || []).length;
  const out = [];
  for (let i = 0; i < n; i++) {
    const side = sideOf(i);
    const seat = S.seats[i] || {};
    const tags = [];
    if (isPartnership()) tags.push(`<span class="team-mark">${esc(sideName(side))}</span>`);
    if (isPartnership() && S.seat !== null && i !== S.seat && i % 2 === S.seat % 2) tags.push(esc(t("partner")));
    if (v.dealer === i) tags.push(esc(t("dealer")));
    const levels = { easy: t("Bot: easy"), normal: t("Bot: normal"), hard: t("Bot: hard") };
    if (seat.bot_playing) tags.push(esc(levels[seat.level] || t("bot")));
    else if (seat.kind === "human" && !seat.connected && i !== S.seat) tags.push(esc(t("offline")));
    const stats = S.renderer.seatStats(v, i, ctx);
    const toAct = v.to_act === i && !S.over;
    out.push(`<div class="player${toAct ? " to-act" : ""}" data-seat="${i}" aria-current="${toAct ? "true" : "false"}">
      <div><span class="turn-mark" aria-hidden="true">${toAct ? "▶ " : ""}</span><span class="name">${esc(seatName(i))}</span> ${tags.join(" · ")}</div>
      <div class="stats">${stats.map((s) => `<span>${esc(s)}</span>`).join("")}</div></div>`);
  }
  $("players").innerHTML = out.join("");
}

/** The stats every family shows under a seat: cards held, then the side's score, bags and tokens. */
function commonStats(i) {
  const v = S.view; const side = sideOf(i); const stats = [];
  stats.push(t("Cards: {n}", { n: number(v.hand_sizes ? v.hand_sizes[i] : 0) }));
  if (!isPartnership() || i < 2) {
    const scores = v.scores || [];
    stats.push(t("Score: {n}", { n: number(scores[side] ?? 0) }) + (isPartnership() ? ` (${esc(sideName(side))})` : ""));
    if (v.bags) stats.push(t("Bags: {n}", { n: number(v.bags[side] ?? 0) }));
    if (v.tokens) stats.push(t("Tokens: {n}", { n: number(v.tokens[side] ?? 0) }));
  }
  return stats;
}

function renderExtras() {
  const bits = S.renderer.extras(S.view, context());
  $("extras").innerHTML = bits.map((b) => `<p>${esc(b)}</p>`).join("");
}

function renderCenter() {
  const head = `<h2 id="center-h" class="sr-only">${esc(t("Trick"))}</h2>`;
  $("center").innerHTML = head + S.renderer.center(S.view, context());
}

function renderControls(myTurn) {
  const v = S.view;
  const box = $("controls"); box.innerHTML = "";
  if (S.over) { return; }
  const button = (parent, label, fn, cls = "", extra = {}) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = label; if (cls) b.className = cls;
    for (const [k, val] of Object.entries(extra)) b.setAttribute(k, val);
    b.addEventListener("click", fn); parent.append(b); return b;
  };
  const group = () => { const g = document.createElement("div"); g.className = "group"; box.append(g); return g; };
  // the tools (Hint, and the family's own) come after the family's controls
  const tools = document.createElement("div"); tools.className = "group";
  if (myTurn) button(tools, t("Hint"), () => send({ type: "hint" }), "", { id: "hint", "aria-keyshortcuts": "H" });
  const tool = (label, fn, extra = {}) => button(tools, label, fn, "", extra);
  S.renderer.controls(v, { ...context(myTurn), box, group, button, tool });
  box.append(tools);
}

function renderHand(myTurn) {
  const v = S.view; const box = $("hand");
  if (S.seat === null) { box.innerHTML = ""; return; }
  if (v.hand === null || v.hand === undefined) {
    const n = v.hand_sizes ? v.hand_sizes[S.seat] : 0;
    box.innerHTML = Array.from({ length: n }, () => `<span class="card facedown">${backSVG()}</span>`).join("");
    return;
  }
  const legal = v.legal_actions || [];
  const playable = new Set();
  for (const a of legal) if (a.play) for (const c of (Array.isArray(a.play) ? a.play : [a.play])) playable.add(c);
  const hinted = new Set(S.hint && S.hint.action.play ? [].concat(S.hint.action.play) : []);
  const cards = S.renderer.sortHand(v.hand);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  box.innerHTML = cards.map((c) => {
    const cls = ["card"]; if (myTurn && playable.has(c)) cls.push("playable");
    if (S.selection.has(c)) cls.push("selected"); if (hinted.has(c)) cls.push("hinted");
    const pressed = S.renderer.selectsCards ? ` aria-pressed="${S.selection.has(c)}"` : "";
    return `<button type="button" class="${cls.join(" ")}" data-card="${c}"${pressed} aria-label="${esc(cardName(c))}">${cardSVG(c)}</button>`;
  }).join("");
  if (focused) { const el = box.querySelector(`[data-card="${focused}"]`); if (el) el.focus(); }
}

function onCardClick(card) {
  if (S.seat === null || !S.view || !S.renderer) return;
  S.renderer.cardClick(card, context());
}

function renderSummary() {
  if (!S.renderer) return;
  const box = $("summary");
  let html = "";
  if (S.over) {
    const o = S.over;
    const winner = o.winner;
    html += `<h2>${esc(t("Game over"))}</h2>`;
    if (winner !== null && winner !== undefined) html += `<p id="winner">${esc(t("Winner: {name}", { name: sideName(winner) }))}</p>`;
    html += S.renderer.gameOver(o, context());
    html += `<p><a id="download" href="/api/tables/${encodeURIComponent(tableId)}/record" download="tapete-${esc(tableId)}.json">${esc(t("Download the record"))}</a> · <a id="to-replay" href="/replay?table=${encodeURIComponent(tableId)}">${esc(t("Open in the replay viewer"))}</a></p>`;
  }
  if (S.view) html += S.renderer.handSummary(S.history, context());
  box.innerHTML = html;
}

// --- input -------------------------------------------------------------------------------
function setup() {
  $("hand").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.card"); if (b) onCardClick(b.dataset.card);
  });
  $("hand").addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    const cards = [...$("hand").querySelectorAll("button.card")];
    const i = cards.indexOf(document.activeElement); if (i < 0) return;
    const j = Math.max(0, Math.min(cards.length - 1, i + (ev.key === "ArrowRight" ? 1 : -1)));
    cards[j].focus(); ev.preventDefault();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // a control's aria-keyshortcuts is its key: H for Hint, and the renderer's (L for the last trick)
    if (ev.key.length !== 1) return;
    const key = ev.key.toUpperCase();
    const b = [...$("controls").querySelectorAll("button[aria-keyshortcuts]")].find((x) => x.getAttribute("aria-keyshortcuts") === key);
    if (b) b.click();
  });
  $("four").checked = fourColour();
  $("four").addEventListener("change", () => { setFourColour($("four").checked); render(); });
}

async function main() {
  await loadLanguage(chooseLanguage());
  translatePage();
  loadHistory();
  setup();
  languageSwitcher($("lang"), () => {
    translatePage(); render();
    // the server explains refusals in the language of the hello: say hello again
    const old = S.ws; S.ws = null; if (old) old.close(); connect();
  });
  connect();
}
main();
