// The card table: one WebSocket (docs/protocol.md), views rendered from the server's observations.
import { chooseLanguage, loadLanguage, t, cardName, languageSwitcher, translatePage, number, profileTitle, lang } from "./i18n.js";
import { cardSVG, backSVG, shortCard, sortSpades, sortRunfast, fourColour, setFourColour } from "./cards.js";
import { scoreChart, summaryTable, historyTable, bidText, esc } from "./summary.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const S = {
  ws: null, seat: null, role: null, view: null, version: -1, seats: [], profile: "", history: [], over: null,
  selection: new Set(), showLast: false, hint: null, msgId: 0, lastTricks: 0, closedByUs: false,
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
const isRunfast = () => S.view && S.view.game === "runfast";

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
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
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

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      S.seat = m.seat; S.role = m.role; S.seats = m.seats; S.profile = m.profile; break;
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

function actionText(a) {
  if ("bid" in a) return bidText(a.bid);
  if ("look" in a) return t("Look at your cards");
  if ("pass" in a) return t("Pass");
  const cards = Array.isArray(a.play) ? a.play : [a.play];
  return cards.map(shortCard).join(" ");
}
function onHint(m) {
  S.hint = m;
  const a = m.action;
  if (Array.isArray(a.play)) { S.selection = new Set(a.play); }
  $("hint-text").textContent = `${t("Hint: {action}", { action: actionText(a) })} — ${m.reason}`;
  render();
}

// --- announcements -------------------------------------------------------------------------
function announce(text) {
  const live = $("live");
  const p = document.createElement("p"); p.textContent = text; live.append(p);
  while (live.childElementCount > 4) live.firstElementChild.remove();
}
function describe(a, prev, view) {
  const who = seatName(a.seat);
  if ("bid" in a) announce(t("{name} bids {bid}", { name: who, bid: bidText(a.bid) }));
  else if ("look" in a) announce(t("{name} looks at their cards", { name: who }));
  else if ("pass" in a) announce(t("{name} passed", { name: who }));
  else if ("play" in a) {
    const cards = Array.isArray(a.play) ? a.play : [a.play];
    announce(t("{name} plays {cards}", { name: who, cards: cards.map(cardName).join(", ") }));
    if (view.tricks && prev.tricks && view.tricks.length > prev.tricks.length) {
      const w = view.tricks[view.tricks.length - 1].winner;
      announce(t("{name} wins the trick", { name: seatName(w) }));
    }
  }
}

// --- rendering -----------------------------------------------------------------------------
function render() {
  const v = S.view; if (!v) return;
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
  const v = S.view; if (!v) return;
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
    const stats = [];
    if (!isRunfast()) {
      stats.push(t("Bid: {bid}", { bid: bidText(v.bids ? v.bids[i] : null) }));
      stats.push(t("Won: {n}", { n: number(v.tricks_won ? v.tricks_won[i] : 0) }));
    }
    stats.push(t("Cards: {n}", { n: number(v.hand_sizes ? v.hand_sizes[i] : 0) }));
    if (!isPartnership() || i < 2) {
      const scores = v.scores || [];
      stats.push(t("Score: {n}", { n: number(scores[side] ?? 0) }) + (isPartnership() ? ` (${esc(sideName(side))})` : ""));
      if (v.bags) stats.push(t("Bags: {n}", { n: number(v.bags[side] ?? 0) }));
      if (v.tokens) stats.push(t("Tokens: {n}", { n: number(v.tokens[side] ?? 0) }));
    }
    if (isRunfast() && v.bonus && v.bonus[i]) stats.push(`${t("Bonus")}: ${number(v.bonus[i])}`);
    const toAct = v.to_act === i && !S.over;
    out.push(`<div class="player${toAct ? " to-act" : ""}" data-seat="${i}" aria-current="${toAct ? "true" : "false"}">
      <div><span class="turn-mark" aria-hidden="true">${toAct ? "▶ " : ""}</span><span class="name">${esc(seatName(i))}</span> ${tags.join(" · ")}</div>
      <div class="stats">${stats.map((s) => `<span>${esc(s)}</span>`).join("")}</div></div>`);
  }
  $("players").innerHTML = out.join("");
}

function renderExtras() {
  const v = S.view; const bits = [];
  const jacks = v.rules && v.rules.prize_jacks;
  if (jacks && jacks.length) bits.push(t("Prize jacks: {cards}", { cards: jacks.map(shortCard).join(" ") }));
  if (v.spades_broken) bits.push(t("Spades broken") + " ♠");
  if (isRunfast() && v.bomb_bonuses && v.bomb_bonuses.length) bits.push(`${t("Bomb bonuses")}: ${v.bomb_bonuses.map((b) => esc(typeof b === "object" ? JSON.stringify(b) : b)).join(", ")}`);
  $("extras").innerHTML = bits.map((b) => `<p>${esc(b)}</p>`).join("");
}

function playedCard(card, seat, winner) {
  return `<div class="played${winner ? " winner" : ""}" data-card="${card}"><div>${esc(seatName(seat))}</div>${cardSVG(card)}<span class="sr-only">${esc(cardName(card))}</span></div>`;
}

function renderCenter() {
  const v = S.view; const c = $("center");
  const head = `<h2 id="center-h" class="sr-only">${esc(t("Trick"))}</h2>`;
  if (isRunfast()) {
    let html = "";
    if (v.current) {
      html += `<div class="played-group" data-testid="last-play"><p>${esc(t("Last play: {name}", { name: seatName(v.current.seat) }))}</p><div class="row">${v.current.cards.map((x) => `<div class="played">${cardSVG(x)}<span class="sr-only">${esc(cardName(x))}</span></div>`).join("")}</div></div>`;
    } else if ((v.plays || []).length && v.to_act !== null) {
      html += `<p>${esc(t("New round: {name} leads.", { name: seatName(v.to_act) }))}</p>`;
    }
    if ((v.passed || []).length) html += `<p>${v.passed.map((s) => esc(t("{name} passed", { name: seatName(s) }))).join(" · ")}</p>`;
    c.innerHTML = head + html; return;
  }
  const trick = v.trick;
  const tricks = v.tricks || [];
  let shown = null; let label = "";
  if (S.showLast && tricks.length) { shown = tricks[tricks.length - 1]; label = t("Last trick"); }
  else if (trick && trick.cards.length) shown = trick;
  else if (tricks.length) { shown = tricks[tricks.length - 1]; label = t("Last trick"); }
  if (!shown) { c.innerHTML = head; return; }
  const w = shown.winner;
  c.innerHTML = head + (label ? `<p class="trick-label">${esc(label)}${w !== null && w !== undefined ? " — " + esc(t("Won by {name}", { name: seatName(w) })) : ""}</p>` : "")
    + `<div class="row">${shown.cards.map((x, k) => playedCard(x, shown.seats[k], w !== null && shown.seats[k] === w)).join("")}</div>`;
}

function sameCards(a, b) { return a.length === b.length && [...a].sort().join() === [...b].sort().join(); }

function renderControls(myTurn) {
  const v = S.view; const legal = v.legal_actions || [];
  const box = $("controls"); box.innerHTML = "";
  const add = (parent, label, fn, cls = "", extra = {}) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = label; if (cls) b.className = cls;
    for (const [k, val] of Object.entries(extra)) b.setAttribute(k, val);
    b.addEventListener("click", fn); parent.append(b); return b;
  };
  const group = () => { const g = document.createElement("div"); g.className = "group"; box.append(g); return g; };
  if (S.over) { return; }
  if (!isRunfast() && v.phase === "bid" && myTurn) {
    if (v.hand_face_down) { const p = document.createElement("p"); p.textContent = t("Your cards lie face down: bid blind or look at them."); box.append(p); }
    const g = group(); g.setAttribute("role", "group"); g.setAttribute("aria-label", t("Your bid"));
    const lab = document.createElement("span"); lab.textContent = t("Your bid") + ":"; g.append(lab);
    for (const a of legal) {
      if ("bid" in a) add(g, bidText(a.bid), () => act({ bid: a.bid }), "bid", { "data-bid": String(a.bid), "aria-label": t("Bid: {bid}", { bid: bidText(a.bid) }) });
      else if ("look" in a) add(g, t("Look at your cards"), () => act({ look: true }), "look", { "data-look": "1" });
    }
  }
  if (isRunfast() && S.seat !== null) {
    const g = group();
    const sel = [...S.selection];
    if (myTurn) {
      const info = document.createElement("p"); info.style.width = "100%"; info.style.textAlign = "center";
      if (!sel.length) info.textContent = t("Select cards to see the plays they can make.");
      const matches = sel.length ? legal.filter((a) => a.play && sel.every((c) => a.play.includes(c))) : [];
      if (sel.length) info.textContent = matches.length ? t("Plays with the selected cards:") : t("No legal play uses these cards.");
      g.append(info);
      const opts = group(); opts.id = "suggestions";
      for (const a of matches.slice(0, 12)) {
        const exact = sameCards(a.play, sel);
        add(opts, `${t("Play")} ${sortRunfast(a.play).map(shortCard).join(" ")}`, () => act({ play: a.play }), exact ? "primary suggestion" : "suggestion",
          { "aria-label": `${t("Play")} ${a.play.map(cardName).join(", ")}` });
      }
      const g2 = group();
      add(g2, t("Play the selected cards"), () => act({ play: sortRunfast(sel) }), "", { id: "play-selected" }).disabled = !sel.length;
      add(g2, t("Clear selection"), () => { S.selection.clear(); render(); }, "", { id: "clear" }).disabled = !sel.length;
      if (legal.some((a) => a.pass)) add(g2, t("Pass"), () => act({ pass: true }), "", { id: "pass" });
    }
  }
  const tools = group();
  if (myTurn) add(tools, t("Hint"), () => send({ type: "hint" }), "", { id: "hint", "aria-keyshortcuts": "H" });
  if (!isRunfast() && (v.tricks || []).length && v.trick && v.trick.cards.length) {
    add(tools, S.showLast ? t("Hide last trick") : t("Last trick"), () => { S.showLast = !S.showLast; render(); }, "", { id: "last-trick", "aria-pressed": String(S.showLast), "aria-keyshortcuts": "L" });
  }
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
  const cards = isRunfast() ? sortRunfast(v.hand) : sortSpades(v.hand);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  box.innerHTML = cards.map((c) => {
    const cls = ["card"]; if (myTurn && playable.has(c)) cls.push("playable");
    if (S.selection.has(c)) cls.push("selected"); if (hinted.has(c)) cls.push("hinted");
    const pressed = isRunfast() ? ` aria-pressed="${S.selection.has(c)}"` : "";
    return `<button type="button" class="${cls.join(" ")}" data-card="${c}"${pressed} aria-label="${esc(cardName(c))}">${cardSVG(c)}</button>`;
  }).join("");
  if (focused) { const el = box.querySelector(`[data-card="${focused}"]`); if (el) el.focus(); }
}

function onCardClick(card) {
  if (S.seat === null || !S.view) return;
  if (isRunfast()) {
    if (S.selection.has(card)) S.selection.delete(card); else S.selection.add(card);
    render(); return;
  }
  act({ play: card }); // refusals are lessons: the server explains an illegal card
}

function renderSummary() {
  const box = $("summary");
  let html = "";
  if (S.over) {
    const o = S.over;
    const winner = o.winner;
    html += `<h2>${esc(t("Game over"))}</h2>`;
    if (winner !== null && winner !== undefined) html += `<p id="winner">${esc(t("Winner: {name}", { name: isRunfast() ? seatName(winner) : sideName(winner) }))}</p>`;
    if (o.settlement) {
      const st = o.settlement; const n = st.score_change.length;
      const row = (label, arr) => `<tr><th scope="row">${esc(label)}</th>${arr.map((x) => `<td>${esc(number(x))}</td>`).join("")}</tr>`;
      html += `<table class="summary" id="settlement"><caption>${esc(t("Settlement"))}</caption><tr><th></th>${Array.from({ length: n }, (_, i) => `<th scope="col">${esc(seatName(i))}</th>`).join("")}</tr>`
        + row(t("Cards left"), st.cards_left) + row(t("Bonus"), st.bonus) + row(t("Change"), st.score_change) + `</table>`;
    }
    html += `<p><a id="download" href="/api/tables/${encodeURIComponent(tableId)}/record" download="tapete-${esc(tableId)}.json">${esc(t("Download the record"))}</a> · <a id="to-replay" href="/replay?table=${encodeURIComponent(tableId)}">${esc(t("Open in the replay viewer"))}</a></p>`;
  }
  if (S.history.length && S.view && !isRunfast()) {
    const last = S.history[S.history.length - 1];
    const sides = (last.scores || []).length;
    html += summaryTable(last, sides, sideName, isPartnership());
    html += `<h2>${esc(t("Score chart"))}</h2><div id="chart">${scoreChart(S.history, sides, sideName)}</div>`;
    html += historyTable(S.history, sides, sideName);
  }
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
    if (ev.key === "h" || ev.key === "H") { const b = $("hint"); if (b) b.click(); }
    if (ev.key === "l" || ev.key === "L") { const b = $("last-trick"); if (b) b.click(); }
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
