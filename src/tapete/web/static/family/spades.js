// The Spades family's renderer (partnership Spades, Cutthroat and its official variants):
// bids, tricks, the last-trick toggle and the hand summaries. Interface: ../renderer.js.
import { t, cardName, number } from "../i18n.js";
import { cardSVG, shortCard, SUIT_ORDER } from "../cards.js";
import { esc, scoreChart, historyTable } from "../summary.js";

export const selectsCards = false;

/** A bid as shown: "Nil" for 0, "–" for none, special bids by their code. */
function bidText(b) {
  if (b === null || b === undefined) return "–";
  if (b === 0 || b === "nil") return t("Nil");
  return typeof b === "number" ? number(b) : String(b);
}

function sideSeats(side, sides, partnership, nSeats) {
  if (!partnership) return [side];
  const out = []; for (let i = side; i < nSeats; i += sides) out.push(i); return out;
}

/** The worked-example table of one hand: bid, won, points, prizes, penalty, change, total, bags per side. */
function summaryTable(h, sides, sideName, partnership) {
  const r = h.result || {};
  const nSeats = (h.bids || []).length;
  const head = Array.from({ length: sides }, (_, s) => `<th scope="col">${esc(sideName(s))}</th>`).join("");
  const row = (label, f) => `<tr><th scope="row">${esc(label)}</th>${Array.from({ length: sides }, (_, s) => `<td>${esc(f(s))}</td>`).join("")}</tr>`;
  const seatsOf = (s) => sideSeats(s, sides, partnership, nSeats);
  const bids = (s) => seatsOf(s).map((i) => bidText(h.bids ? h.bids[i] : null)).join(" + ");
  const won = (s) => number(seatsOf(s).reduce((a, i) => a + ((h.tricks_won || [])[i] || 0), 0));
  const arr = (a) => (s) => (a && a[s] !== undefined ? number(a[s]) : "–");
  return `<section id="hand-summary"><h2>${esc(t("Hand summary"))} — ${esc(t("Hand {n}", { n: h.hand + 1 }))}</h2>
<table class="summary"><tr><th></th>${head}</tr>
${row(t("Bid"), bids)}${row(t("Won"), won)}${row(t("Points"), arr(r.contract))}${row(t("Prizes"), arr(r.prizes))}
${row(t("Penalty"), arr(r.penalty))}${row(t("Change"), arr(r.score_change))}${row(t("Total"), arr(h.scores))}${row(t("Bags"), arr(h.bags))}</table></section>`;
}

const RANK_ORDER = "23456789TJQKA";
const JOKER_RANK = { RJ: 30, BJ: 29, XJ: 28 };
/** A hand sorted by suit (♠ ♥ ♣ ♦, jokers with spades), high to low. */
export function sortHand(cards) {
  const key = (c) => (JOKER_RANK[c] ? [-1, -JOKER_RANK[c]] : [SUIT_ORDER[c[1]], -RANK_ORDER.indexOf(c[0])]);
  return [...cards].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

export function seatStats(v, i, ctx) {
  return [
    t("Bid: {bid}", { bid: bidText(v.bids ? v.bids[i] : null) }),
    t("Won: {n}", { n: number(v.tricks_won ? v.tricks_won[i] : 0) }),
    ...ctx.commonStats(i),
  ];
}

export function extras(v) {
  const bits = [];
  const jacks = v.rules && v.rules.prize_jacks;
  if (jacks && jacks.length) bits.push(t("Prize jacks: {cards}", { cards: jacks.map(shortCard).join(" ") }));
  if (v.spades_broken) bits.push(t("Spades broken") + " ♠");
  return bits;
}

/** One card of a trick with the name of the seat that played it (none when unknown). */
function playedCard(card, name, winner) {
  return `<div class="played${winner ? " winner" : ""}" data-card="${card}"><div>${esc(name)}</div>${cardSVG(card)}<span class="sr-only">${esc(cardName(card))}</span></div>`;
}

function trickRow(trick, seatName) {
  const w = trick.winner;
  const seats = trick.seats || [];
  return `<div class="row">${trick.cards.map((c, k) => {
    const seat = seats[k];
    const known = seat !== null && seat !== undefined;
    return playedCard(c, known ? seatName(seat) : "", known && w !== null && w !== undefined && seat === w);
  }).join("")}</div>`;
}

export function center(v, ctx) {
  const trick = v.trick;
  const tricks = v.tricks || [];
  let shown = null; let label = "";
  if (ctx.ui.showLast && tricks.length) { shown = tricks[tricks.length - 1]; label = t("Last trick"); }
  else if (trick && trick.cards.length) shown = trick;
  else if (tricks.length) { shown = tricks[tricks.length - 1]; label = t("Last trick"); }
  if (!shown) return "";
  const w = shown.winner;
  return (label ? `<p class="trick-label">${esc(label)}${w !== null && w !== undefined ? " — " + esc(t("Won by {name}", { name: ctx.seatName(w) })) : ""}</p>` : "")
    + trickRow(shown, ctx.seatName);
}

export function controls(v, ctx) {
  const legal = v.legal_actions || [];
  if (v.phase === "bid" && ctx.myTurn) {
    if (v.hand_face_down) { const p = document.createElement("p"); p.textContent = t("Your cards lie face down: bid blind or look at them."); ctx.box.append(p); }
    const g = ctx.group(); g.setAttribute("role", "group"); g.setAttribute("aria-label", t("Your bid"));
    const lab = document.createElement("span"); lab.textContent = t("Your bid") + ":"; g.append(lab);
    for (const a of legal) {
      if ("bid" in a) ctx.button(g, bidText(a.bid), () => ctx.act({ bid: a.bid }), "bid", { "data-bid": String(a.bid), "aria-label": t("Bid: {bid}", { bid: bidText(a.bid) }) });
      else if ("look" in a) ctx.button(g, t("Look at your cards"), () => ctx.act({ look: true }), "look", { "data-look": "1" });
    }
  }
  if ((v.tricks || []).length && v.trick && v.trick.cards.length) {
    ctx.tool(ctx.ui.showLast ? t("Hide last trick") : t("Last trick"), () => { ctx.ui.showLast = !ctx.ui.showLast; ctx.rerender(); },
      { id: "last-trick", "aria-pressed": String(!!ctx.ui.showLast), "aria-keyshortcuts": "L" });
  }
}

export function cardClick(card, ctx) {
  ctx.act({ play: card }); // refusals are lessons: the server explains an illegal card
}

export function actionText(a) {
  if ("bid" in a) return bidText(a.bid);
  if ("look" in a) return t("Look at your cards");
  return shortCard(a.play);
}

export function announce(a, prev, view, ctx) {
  const who = ctx.seatName(a.seat);
  if ("bid" in a) return [t("{name} bids {bid}", { name: who, bid: bidText(a.bid) })];
  if ("look" in a) return [t("{name} looks at their cards", { name: who })];
  if (!("play" in a)) return [];
  const out = [t("{name} plays {cards}", { name: who, cards: cardName(a.play) })];
  if (view.tricks && prev.tricks && view.tricks.length > prev.tricks.length) {
    out.push(t("{name} wins the trick", { name: ctx.seatName(view.tricks[view.tricks.length - 1].winner) }));
  }
  return out;
}

export function gameOver() { return ""; }

export function handSummary(history, ctx) {
  if (!history.length) return "";
  const last = history[history.length - 1];
  const sides = (last.scores || []).length;
  return summaryTable(last, sides, ctx.sideName, ctx.isPartnership())
    + `<h2>${esc(t("Score chart"))}</h2><div id="chart">${scoreChart(history, sides, ctx.sideName)}</div>`
    + historyTable(history, sides, ctx.sideName);
}

// --- the replay viewer ---------------------------------------------------------------------
export function replaySeats(h) { return (h.bids || []).length; }

export function replaySteps(h) {
  return [{ kind: "bids" }, ...(h.tricks || []).map((tr, k) => ({ kind: "trick", k }))];
}

export function replayStep(h, st, names) {
  const tricks = h.tricks || [];
  const upto = st.kind === "trick" ? st.k + 1 : st.kind === "end" ? tricks.length : 0;
  const won = names.map(() => 0);
  for (const tr of tricks.slice(0, upto)) if (tr.winner !== null && tr.winner !== undefined) won[tr.winner] += 1;
  const stats = names.map((nm, i) => [t("Bid: {bid}", { bid: bidText((h.bids || [])[i]) }), t("Won: {n}", { n: number(won[i]) })]);
  let center = "";
  if (st.kind === "trick") {
    const tr = tricks[st.k];
    center = `<p>${esc(t("Trick"))} ${st.k + 1}${tr.winner !== null && tr.winner !== undefined ? " — " + esc(t("Won by {name}", { name: names[tr.winner] })) : ""}</p>`
      + trickRow(tr, (seat) => names[seat]);
  }
  return { stats, center };
}
