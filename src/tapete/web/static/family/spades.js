// The Spades family's renderer (partnership Spades, Cutthroat and its official variants):
// bids and special bids, tricks at the seats, the hand summary. Interface: ../renderer.js.
import { t, cardName, number } from "../i18n.js";
import { cardSVG, shortCard } from "../cards.js";
import { esc, scoreChart, historyTable } from "../summary.js";

export const selectsCards = false;

export function playDirection() { return "clockwise"; }

const RIGHT = "tapete.spadesRight";
export function settings() { return [{ key: RIGHT, label: t("Spades on the right") }]; }

/** A bid as shown: "Nil" for 0, "–" for none, special bids by their code. */
function bidText(b) {
  if (b === null || b === undefined) return "–";
  if (b === 0 || b === "nil") return t("Nil");
  return typeof b === "number" ? number(b) : String(b);
}

/** What a bid means and scores, for the special ones (and nil and looking). */
function bidExplanation(b, rules) {
  switch (b) {
    case 0: return t("Nil: 100 if you take no trick, −100 otherwise.");
    case "1F": return t("1F, one for fifty: 50 for exactly one trick; more: 10 and a bag for each extra; none: −50.");
    case "2F": return t("2F, two for forty: 40 for exactly two tricks; more: 20 and a bag for each extra; fewer: −40.");
    case "B6": return t("B6, blind six: bid 6 before you look; 6 tricks or more: 100 and a bag for each extra; fewer: −100.");
    case "BN": return t("BN, blind nil: bid before you look; 200 if you take no trick, −200 otherwise.");
    case "SM": return t("SM, shoot the moon: 150 for 14 tricks or more, −150 otherwise; no bag penalty.");
    case "look": return t("Look at your cards, then bid: the blind bids are gone.");
    default: return "";
  }
}
const SHORT = { 0: "no tricks", "1F": "one for fifty", "2F": "two for forty", B6: "blind six", BN: "blind nil", SM: "shoot the moon" };

function sideSeats(side, sides, partnership, nSeats) {
  if (!partnership) return [side];
  const out = []; for (let i = side; i < nSeats; i += sides) out.push(i); return out;
}

const RANK_ORDER = "23456789TJQKA";
const JOKER_RANK = { RJ: 30, BJ: 29, XJ: 28 };
/** A hand sorted by suit, alternating colours (♠ ♥ ♣ ♦, or ♦ ♣ ♥ ♠ with spades on the right), high to low. */
export function sortHand(cards) {
  const order = localStorage.getItem(RIGHT) === "1" ? { D: 0, C: 1, H: 2, S: 3, J: 4 } : { J: -1, S: 0, H: 1, C: 2, D: 3 };
  const key = (c) => (JOKER_RANK[c] ? [order.J, -JOKER_RANK[c]] : [order[c[1]], -RANK_ORDER.indexOf(c[0])]);
  return [...cards].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

/** The prize jacks each seat has taken this hand (from the finished tricks). */
function jacksTaken(v) {
  const jacks = new Set((v.rules && v.rules.prize_jacks) || []);
  const out = {};
  if (!jacks.size) return out;
  for (const tr of v.tricks || []) for (const c of tr.cards) if (jacks.has(c) && tr.winner !== null && tr.winner !== undefined) (out[tr.winner] ||= []).push(c);
  return out;
}

export function seatChips(v, i, ctx) {
  const bid = v.bids ? v.bids[i] : null;
  const won = v.tricks_won ? v.tricks_won[i] : 0;
  const chips = [];
  if (bid === null || bid === undefined) chips.push({ text: v.phase === "bid" ? "…" : "–", label: t("Bid"), cls: "bid none" });
  else chips.push({ text: `${number(won)}/${bidText(bid)}`, label: t("Won {n} of a bid of {bid}", { n: number(won), bid: bidText(bid) }), cls: "bid" });
  if (v.sitting_out === i) chips.push({ text: t("sits out"), cls: "sitout" });
  for (const j of jacksTaken(v)[i] || []) chips.push({ text: shortCard(j), label: t("Prize jack"), cls: "prize" });
  if (v.phase === "bid" && v.looked && v.looked[i] === false && v.rules && (v.rules.special_bids || []).length && i !== ctx.seat && bid === null) {
    chips.push({ text: t("blind"), label: t("has not looked yet"), cls: "blind" });
  }
  return [...chips, ...ctx.commonChips(i)];
}

export function extras(v) {
  const bits = [];
  const jacks = v.rules && v.rules.prize_jacks;
  if (jacks && jacks.length) bits.push(t("Prize jacks: {cards}", { cards: jacks.map(shortCard).join(" ") }));
  if (v.spades_broken) bits.push(t("Spades broken") + " ♠");
  return bits;
}

/** The cards of a trick, each in front of the seat that played it. */
function trickHTML(trick, ctx, opts = {}) {
  const seats = trick.seats || [];
  const w = trick.winner;
  const fresh = ctx.fresh && "play" in ctx.fresh ? ctx.fresh : null;
  const cards = trick.cards.map((c, k) => {
    const seat = seats[k];
    const p = seat === null || seat === undefined ? "bottom" : ctx.pos(seat);
    const cls = ["played", `at-${p}`];
    if (w !== null && w !== undefined && seat === w) cls.push("winner");
    if (fresh && fresh.play === c && !ctx.reduced && !opts.still) cls.push(`from-${p}`);
    const who = seat === null || seat === undefined ? "" : ctx.seatName(seat);
    return `<div class="${cls.join(" ")}" data-card="${c}" data-seat="${seat ?? ""}" style="z-index:${k + 1}">${cardSVG(c)}<span class="sr-only">${esc(who)}: ${esc(cardName(c))}</span></div>`;
  }).join("");
  const collect = opts.collect && w !== null && w !== undefined ? ` collect to-${ctx.pos(w)}` : "";
  return `<div class="trick${collect}" data-cards="${trick.cards.length}" data-complete="${w !== null && w !== undefined ? "1" : "0"}">${cards}</div>`;
}

/** The seating draw at the start of a game: each seat's card, who deals and who leads. */
function drawHTML(v, ctx) {
  const d = v.draw || v.seating_draw;
  if (!Array.isArray(d) || !d.length || (v.tricks || []).length || (v.trick && v.trick.cards.length) || v.hand_number) return "";
  const leader = (v.dealer + 1) % d.length;
  return `<div class="draw" id="seating-draw"><p>${esc(t("Seating draw"))}</p><div class="draw-cards">${d.map((c, i) => `<figure data-card="${esc(c)}" data-seat="${i}">${cardSVG(c)}<span class="sr-only">${esc(cardName(c))}</span><figcaption>${esc(ctx.seatName(i))}${i === v.dealer ? ` · ${esc(t("deals"))}` : ""}${i === leader ? ` · ${esc(t("leads"))}` : ""}</figcaption></figure>`).join("")}</div></div>`;
}

export function center(v, ctx) {
  if (ctx.held) {
    const w = ctx.held.winner;
    return `<p class="trick-label">${w !== null && w !== undefined ? esc(ctx.phrase(w, "You win the trick", "{name} wins the trick")) : ""}</p>` + trickHTML(ctx.held, ctx, { collect: ctx.held.collect, still: ctx.held.collect });
  }
  const trick = v.trick;
  const tricks = v.tricks || [];
  if (ctx.ui.showLast && tricks.length) {
    const last = tricks[tricks.length - 1];
    return `<p class="trick-label">${esc(t("Last trick"))} — ${esc(t("Won by {name}", { name: ctx.seatName(last.winner) }))}</p>` + trickHTML(last, ctx, { still: true });
  }
  if (trick && trick.cards.length) return trickHTML(trick, ctx);
  return drawHTML(v, ctx);
}

export function controls(v, ctx) {
  const legal = v.legal_actions || [];
  if (v.phase === "bid" && ctx.myTurn) {
    const face = v.hand_face_down;
    if (face) { const p = document.createElement("p"); p.className = "note"; p.textContent = t("Your cards lie face down: bid blind or look at them."); ctx.box.append(p); }
    const g = ctx.group(); g.classList.add("bids"); g.setAttribute("role", "group"); g.setAttribute("aria-label", t("Your bid"));
    const specials = ctx.group(); specials.classList.add("specials"); specials.setAttribute("role", "group"); specials.setAttribute("aria-label", t("Special bids"));
    const notes = [];
    for (const a of legal) {
      if ("look" in a) {
        const b = ctx.button(specials, t("Look at your cards"), () => ctx.act({ look: true }), "look special", { "data-look": "1", title: bidExplanation("look") });
        b.setAttribute("aria-describedby", "bid-notes");
        notes.push(bidExplanation("look"));
      } else if (typeof a.bid === "number" && a.bid > 0) {
        ctx.button(g, bidText(a.bid), () => ctx.act({ bid: a.bid }), "bid", { "data-bid": String(a.bid), "aria-label": t("Bid: {bid}", { bid: bidText(a.bid) }) });
      } else {
        const label = `${bidText(a.bid)}${SHORT[a.bid] ? " · " + t(SHORT[a.bid]) : ""}`;
        const b = ctx.button(specials, label, () => ctx.act({ bid: a.bid }), "bid special", { "data-bid": String(a.bid), title: bidExplanation(a.bid), "aria-describedby": "bid-notes" });
        b.setAttribute("aria-label", t("Bid: {bid}", { bid: label }));
        notes.push(bidExplanation(a.bid));
      }
    }
    const rules = v.rules || {};
    if ((rules.special_bids || []).includes("B6") && !legal.some((a) => a.bid === "B6") && face !== undefined) {
      const b = ctx.button(specials, `B6 · ${t("blind six")}`, () => {}, "bid special unavailable", { "data-bid": "B6", "aria-describedby": "b6-reason" });
      b.disabled = true;
      const used = (v.blind_six_used || [])[ctx.seat] > 0 && rules.blind_six === "once";
      const reason = used ? t("B6 is not available: you have used your blind six in this game.")
        : t("B6 is not available: only a player {n} or more points behind the leader may bid blind six.", { n: number(rules.blind_six_margin ?? 50) });
      const p = document.createElement("p"); p.id = "b6-reason"; p.className = "note"; p.textContent = reason; ctx.box.append(p);
    }
    if (notes.length) {
      const d = document.createElement("details"); d.className = "bid-notes";
      d.innerHTML = `<summary>${esc(t("What the special bids score"))}</summary><ul id="bid-notes">${notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>`;
      ctx.box.append(d);
    }
    if (!specials.childElementCount) specials.remove();
  }
  if (v.phase === "play" && ctx.lifted && ctx.seat !== null) {
    const g = ctx.group(); g.classList.add("inline");
    ctx.button(g, `${t("Play")} ${shortCard(ctx.lifted)}`, () => ctx.act({ play: ctx.lifted }), "primary", { id: "play-lifted", "aria-keyshortcuts": "P" });
  }
  if ((v.tricks || []).length && !ctx.held) {
    ctx.tool(ctx.ui.showLast ? t("Hide last trick") : t("Last trick"), () => { ctx.ui.showLast = !ctx.ui.showLast; ctx.rerender(); },
      { id: "last-trick", "aria-pressed": String(!!ctx.ui.showLast), "aria-keyshortcuts": "L" });
  }
}

/** Tap to lift a card, tap it again to play it (an illegal card too: the server explains why not). */
export function cardClick(card, ctx) {
  if (ctx.lifted === card) ctx.act({ play: card });
  else ctx.lift(card);
}

export function cardDrop(card, ctx) { ctx.act({ play: card }); }

export function actionText(a) {
  if ("bid" in a) return bidText(a.bid);
  if ("look" in a) return t("Look at your cards");
  return shortCard(a.play);
}

export function announce(a, prev, view, ctx) {
  if ("bid" in a) return [ctx.phrase(a.seat, "You bid {bid}", "{name} bids {bid}", { bid: bidText(a.bid) })];
  if ("look" in a) return [ctx.phrase(a.seat, "You look at your cards", "{name} looks at their cards")];
  if (!("play" in a)) return [];
  const out = [ctx.phrase(a.seat, "You play {cards}", "{name} plays {cards}", { cards: cardName(a.play) })];
  if (view.tricks && prev.tricks && view.tricks.length > prev.tricks.length) {
    out.push(ctx.phrase(view.tricks[view.tricks.length - 1].winner, "You win the trick", "{name} wins the trick"));
  }
  return out;
}

/**
 * The trick a move completed, to be shown before it is gathered: {trick, interim, last}. At the end of a
 * hand the new state is the next deal, so the trick is rebuilt from the previous state and the hand's
 * result (the seat whose tricks grew won it), and `interim` is the table as it stood after the card.
 */
export function trickDone(prev, view, a, handOver) {
  if (!("play" in a) || !prev.trick) return null;
  const sameHand = view.hand_number === prev.hand_number && view.game_number === prev.game_number;
  if (sameHand && (view.tricks || []).length > (prev.tricks || []).length) {
    const last = view.tricks[view.tricks.length - 1];
    return { trick: last, interim: null, last: (view.hand_sizes || []).every((x) => x === 0) };
  }
  if (sameHand && !handOver) return null;
  const cards = [...prev.trick.cards, a.play];
  const seats = [...(prev.trick.seats || []), a.seat];
  const before = prev.tricks_won || [];
  const after = (handOver && handOver.tricks_won) || before;
  let winner = null;
  after.forEach((n, i) => { if (n > (before[i] || 0)) winner = i; });
  const hand = prev.hand && a.seat === prev.seat ? prev.hand.filter((c) => c !== a.play) : prev.hand;
  const sizes = (prev.hand_sizes || []).map((n, i) => (i === a.seat ? Math.max(0, n - 1) : n));
  const trick = { leader: prev.trick.leader, cards, seats, winner };
  return { trick, last: true, interim: { ...prev, hand, hand_sizes: sizes, tricks_won: after, trick, to_act: null, legal_actions: [] } };
}

/** The hand's table in the layout of the rules' worked example: one column per side. */
function summaryTable(h, prevBags, sides, sideName, partnership) {
  const r = h.result || {};
  const nSeats = (h.bids || []).length;
  const head = Array.from({ length: sides }, (_, s) => `<th scope="col">${esc(sideName(s))}</th>`).join("");
  const row = (key, label, f) => `<tr data-row="${key}"><th scope="row">${esc(label)}</th>${Array.from({ length: sides }, (_, s) => `<td data-side="${s}">${f(s)}</td>`).join("")}</tr>`;
  const seatsOf = (s) => sideSeats(s, sides, partnership, nSeats);
  const bids = (s) => seatsOf(s).map((i) => {
    const b = h.bids ? h.bids[i] : null; const ex = bidExplanation(b);
    return ex ? `<abbr title="${esc(ex)}">${esc(bidText(b))}</abbr>` : esc(bidText(b));
  }).join(" + ");
  const won = (s) => esc(number(seatsOf(s).reduce((a, i) => a + ((h.tricks_won || [])[i] || 0), 0)));
  const val = (a) => (s) => (a && a[s] !== undefined && a[s] !== null ? esc(signed(a[s])) : "–");
  const bags = (s) => {
    const now = (h.bags || [])[s]; const before = (prevBags || [])[s] ?? 0;
    return now === undefined ? "–" : `${esc(number(before))} → ${esc(number(now))}`;
  };
  const total = (s) => `<strong>${esc(number((h.scores || [])[s]))}</strong>`;
  const hasPrizes = (r.prizes || []).some((x) => x);
  return `<table class="summary" id="hand-summary" data-hand="${h.hand}"><thead><tr><th scope="col"><span class="sr-only">${esc(t("Side"))}</span></th>${head}</tr></thead><tbody>
${row("bid", t("Bid"), bids)}${row("won", t("Won"), won)}${row("contract", t("Contract points"), val(r.contract))}${hasPrizes ? row("prizes", t("Prize jacks"), val(r.prizes)) : ""}
${row("bags", t("Bags"), bags)}${row("penalty", t("Bag penalty"), val(r.penalty))}${row("change", t("Change"), val(r.score_change))}${row("total", t("Total"), total)}</tbody></table>`;
}

function signed(n) { return typeof n === "number" && n > 0 ? `+${number(n)}` : number(n); }

export function handOverlay(m, history, ctx) {
  const sides = (m.scores || []).length;
  const i = history.findIndex((h) => h.hand === m.hand);
  const prevBags = i > 0 ? history[i - 1].bags : null;
  const special = [...new Set((m.bids || []).filter((b) => bidExplanation(b)))].map((b) => `<li>${esc(bidExplanation(b))}</li>`).join("");
  return summaryTable(m, prevBags, sides, ctx.sideName, ctx.isPartnership())
    + (special ? `<ul class="bid-legend">${special}</ul>` : "")
    + `<details class="chart-box"><summary>${esc(t("Score chart"))}</summary><div id="chart">${scoreChart(history, sides, ctx.sideName)}</div></details>`;
}

export function gameOver(o, history, ctx) {
  const sides = (o.scores || []).length;
  let html = "";
  const last = history[history.length - 1];
  if (last) {
    const prevBags = history.length > 1 ? history[history.length - 2].bags : null;
    html += `<h3>${esc(t("Hand {n}", { n: last.hand + 1 }))}</h3>` + summaryTable(last, prevBags, sides, ctx.sideName, ctx.isPartnership());
  }
  if (o.tokens) html += `<p class="tokens-line">${esc(t("Tokens"))}: ${o.tokens.map((n, s) => `${esc(ctx.sideName(s))} ★${esc(number(n))}`).join(" · ")}</p>`;
  if (history.length) html += `<h3>${esc(t("Score chart"))}</h3><div id="chart">${scoreChart(history, sides, ctx.sideName)}</div>` + historyTable(history, sides, ctx.sideName);
  return html;
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
  const played = [];
  for (const tr of tricks.slice(0, upto)) {
    if (tr.winner !== null && tr.winner !== undefined) won[tr.winner] += 1;
    played.push(...tr.cards);
  }
  const stats = names.map((nm, i) => [t("Bid: {bid}", { bid: bidText((h.bids || [])[i]) }), t("Won: {n}", { n: number(won[i]) })]);
  let center = "";
  if (st.kind === "trick") {
    const tr = tricks[st.k];
    center = `<p>${esc(t("Trick"))} ${st.k + 1}${tr.winner !== null && tr.winner !== undefined ? " — " + esc(t("Won by {name}", { name: names[tr.winner] })) : ""}</p>`
      + `<div class="row">${tr.cards.map((c, k) => `<div class="played${tr.seats[k] === tr.winner ? " winner" : ""}" data-card="${c}"><div>${esc(names[tr.seats[k]])}</div>${cardSVG(c)}<span class="sr-only">${esc(cardName(c))}</span></div>`).join("")}</div>`;
  }
  return { stats, center, played };
}

/** A replayed hand's summary (the report's numbers); `prev`: the hand before it (its bags), or null. */
export function replayEnd(h, prev, index, names, sideName) {
  const sides = (h.scores || h.score_change || []).length;
  const result = { contract: h.contract_points, prizes: h.prize_points, penalty: h.bag_penalty, score_change: h.score_change };
  const hand = { hand: index, bids: h.bids, tricks_won: h.tricks_won, scores: h.scores, bags: h.bags, result };
  return summaryTable(hand, prev ? prev.bags : null, sides, sideName, sides !== names.length);
}
