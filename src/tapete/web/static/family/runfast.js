// Run Fast's renderer (Pao De Kuai): combinations chosen by selecting cards, the play to beat in
// the centre, passes at the seats, bombs called out, the settlement. Interface: ../renderer.js.
import { t, cardName, number } from "../i18n.js";
import { cardSVG, shortCard, SUIT_ORDER } from "../cards.js";
import { esc } from "../summary.js";

export const selectsCards = true;

/** Turns go counter-clockwise: the next seat sits on your right. */
export function playDirection() { return "counterclockwise"; }

export function settings() { return []; }

const RANK_ORDER = "3456789TJQKA2";
/** Cards sorted low to high (3 … A, 2), suits grouped within a rank. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]) || SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]]);
}

/** Four of a rank, or three aces. */
function isBomb(cards) {
  if (!cards || cards.length < 3) return false;
  const same = cards.every((c) => c[0] === cards[0][0]);
  return same && (cards.length === 4 || (cards.length === 3 && cards[0][0] === "A"));
}

export function seatChips(v, i, ctx) {
  const chips = [];
  const n = v.hand_sizes ? v.hand_sizes[i] : 0;
  chips.push({ text: `▮ ${number(n)}`, label: t("Cards: {n}", { n: number(n) }), cls: n <= 1 ? "count warn" : "count" });
  if ((v.passed || []).includes(i)) chips.push({ text: t("Pass"), cls: "pass" });
  if (v.bonus && v.bonus[i]) chips.push({ text: `✸ +${number(v.bonus[i])}`, label: t("Bomb bonuses"), cls: "bonus" });
  if (v.phase === "over" || v.settlement) chips.push(...ctx.commonChips(i));
  else if (isMatch(v.match)) chips.push({ text: `Σ ${number(v.match.totals[i] ?? 0)}`, label: t("Match total"), cls: "score match-total" });
  return chips;
}

/** A match of several deals (``view.match``: deal from 0, deals, totals, results per finished deal). */
function isMatch(m) { return !!(m && m.deals > 1 && Array.isArray(m.totals)); }

export function extras(v, ctx) {
  const out = [];
  if (isMatch(v.match)) {
    out.push(t("Deal {n} of {m}", { n: number(Math.min(v.match.deal, v.match.deals - 1) + 1), m: number(v.match.deals) }));
    out.push(`${t("Match totals")}: ${v.match.totals.map((x, i) => `${ctx.seatName(i)} ${number(x)}`).join(", ")}`);
  }
  if (v.bomb_bonuses && v.bomb_bonuses.length) {
    out.push(`${t("Bomb bonuses")}: ${v.bomb_bonuses.map((b) => `${ctx.seatName(b.seat)} +${number(b.points)}`).join(", ")}`);
  }
  return out;
}

/** The cards of a play laid in the centre, nudged toward the seat that played them. */
function playHTML(cards, seat, ctx, opts = {}) {
  const p = ctx.pos(seat);
  const fresh = opts.fresh && !ctx.reduced ? ` from-${p}` : "";
  const collect = opts.collect ? ` collect to-${p}` : "";
  return `<div class="play at-${p}${fresh}${collect}" data-cards="${cards.length}" data-seat="${seat}">${cards.map((x, k) => `<div class="played" data-card="${x}" style="z-index:${k + 1};left:calc(${(k - (cards.length - 1) / 2).toFixed(2)} * var(--tw) * .42 - var(--tw) / 2)">${cardSVG(x)}<span class="sr-only">${esc(cardName(x))}</span></div>`).join("")}</div>`;
}

export function center(v, ctx) {
  if (ctx.held) {
    return `<div class="played-group" data-testid="last-play"><p class="trick-label">${esc(ctx.phrase(ctx.held.winner, "You win the round", "{name} wins the round"))}</p>${playHTML(ctx.held.cards, ctx.held.winner, ctx, { collect: ctx.held.collect })}</div>`;
  }
  let html = "";
  if (v.current) {
    const bomb = isBomb(v.current.cards);
    const fresh = ctx.fresh && "play" in ctx.fresh && ctx.fresh.seat === v.current.seat;
    html += `<div class="played-group" data-testid="last-play"><p class="trick-label">${esc(t("To beat: {name}", { name: ctx.seatName(v.current.seat) }))}</p>`
      + (bomb ? `<p class="bomb-call" role="status">✸ ${esc(t("Bomb! +{n} if nobody beats it", { n: number(20) }))}</p>` : "")
      + playHTML(v.current.cards, v.current.seat, ctx, { fresh }) + `</div>`;
  } else if ((v.plays || []).length && v.to_act !== null && v.to_act !== undefined) {
    html += `<p class="trick-label">${esc(ctx.phrase(v.to_act, "New round: you lead.", "New round: {name} leads."))}</p>`;
  } else if (v.to_act !== null && v.to_act !== undefined && v.rules && v.rules.first_lead) {
    html += `<p class="trick-label">${esc(ctx.phrase(v.to_act, "You hold {card} and lead.", "{name} holds {card} and leads.", { card: cardName(v.rules.first_lead) }))}</p>`;
  }
  return html;
}

function sameCards(a, b) { return a.length === b.length && [...a].sort().join() === [...b].sort().join(); }

export function controls(v, ctx) {
  if (ctx.seat === null || !ctx.myTurn) return;
  const legal = v.legal_actions || [];
  const sel = [...ctx.selection];
  const info = document.createElement("p"); info.className = "note";
  const matches = sel.length ? legal.filter((a) => a.play && sel.every((c) => a.play.includes(c))) : [];
  if (!sel.length) info.textContent = t("Select cards to see the plays they can make.");
  else info.textContent = matches.length ? t("Plays with the selected cards:") : t("No legal play uses these cards.");
  ctx.box.append(info);
  const opts = ctx.group(); opts.id = "suggestions";
  for (const a of matches.slice(0, 8)) {
    const exact = sameCards(a.play, sel);
    ctx.button(opts, `${t("Play")} ${sortHand(a.play).map(shortCard).join(" ")}`, () => ctx.act({ play: a.play }), exact ? "primary suggestion" : "suggestion",
      { "aria-label": `${t("Play")} ${a.play.map(cardName).join(", ")}` });
  }
  if (!opts.childElementCount) opts.remove();
  const g2 = ctx.group();
  ctx.button(g2, t("Play the selected cards"), () => ctx.act({ play: sortHand(sel) }), "", { id: "play-selected" }).disabled = !sel.length;
  ctx.button(g2, t("Clear selection"), () => { ctx.selection.clear(); ctx.rerender(); }, "", { id: "clear" }).disabled = !sel.length;
  if (legal.some((a) => a.pass)) ctx.button(g2, t("Pass"), () => ctx.act({ pass: true }), "", { id: "pass" });
}

export function cardClick(card, ctx) {
  if (ctx.selection.has(card)) ctx.selection.delete(card); else ctx.selection.add(card);
  ctx.rerender();
}

/** A card dragged to the table plays it with the cards already selected. */
export function cardDrop(card, ctx) {
  const cards = new Set(ctx.selection); cards.add(card);
  ctx.act({ play: sortHand([...cards]) });
}

export function actionText(a) {
  if ("pass" in a) return t("Pass");
  return [].concat(a.play).map(shortCard).join(" ");
}

export function announce(a, prev, view, ctx) {
  if ("pass" in a) return [ctx.phrase(a.seat, "You passed", "{name} passed")];
  if (!("play" in a)) return [];
  const out = [ctx.phrase(a.seat, "You play {cards}", "{name} plays {cards}", { cards: [].concat(a.play).map(cardName).join(", ") })];
  if (isBomb([].concat(a.play))) out.push(t("Bomb! +{n} if nobody beats it", { n: number(20) }));
  return out;
}

/** The round a pass ended: the winning play stays a moment, then goes to its player. */
export function trickDone(prev, view, a) {
  if (!("pass" in a) || !prev.current || view.current) return null;
  const c = prev.current;
  return { trick: { cards: c.cards, seats: c.cards.map(() => c.seat), winner: c.seat }, interim: null, last: false };
}

export function handOverlay() { return ""; }

/** The settlement: what each loser pays the winner, line by line; the changes sum to zero. */
function settlementTable(st, seatName) {
  const n = st.score_change.length;
  const row = (key, label, f) => `<tr data-row="${key}"><th scope="row">${esc(label)}</th>${Array.from({ length: n }, (_, i) => `<td data-seat="${i}">${f(i)}</td>`).join("")}</tr>`;
  const num = (arr, sign = false) => (i) => esc(arr && arr[i] !== undefined ? (sign && arr[i] > 0 ? "+" : "") + number(arr[i]) : "–");
  const flag = (arr, text) => (i) => (arr && arr[i] ? esc(text) : "");
  const sum = st.score_change.reduce((a, b) => a + b, 0);
  return `<table class="summary" id="settlement"><caption>${esc(t("Settlement"))}</caption>
<thead><tr><th scope="col"><span class="sr-only">${esc(t("Side"))}</span></th>${Array.from({ length: n }, (_, i) => `<th scope="col">${esc(seatName(i))}${i === st.winner ? " ★" : ""}</th>`).join("")}</tr></thead><tbody>
${row("cards", t("Cards left"), num(st.cards_left))}
${row("spring", t("Never played: doubled"), flag(st.spring, "×2"))}
${row("two", t("2♠ left: +10"), flag(st.two_of_spades, "+10"))}
${row("bombs", t("Unplayed bombs: +10 each"), (i) => (st.bombs && st.bombs[i] ? esc(number(st.bombs[i])) : ""))}
${row("payments", t("Pays"), num(st.payments))}
${row("bonus", t("Bomb bonuses"), num(st.bonus, true))}
${row("change", t("Change"), (i) => `<strong>${num(st.score_change, true)(i)}</strong>`)}</tbody>
<tfoot><tr><th scope="row">${esc(t("Sum"))}</th><td colspan="${n}" data-row="sum">${esc(number(sum))}</td></tr></tfoot></table>`;
}

/** The deals of a match, each one's changes and the running totals. */
function matchTable(m, seatName) {
  const n = m.totals.length;
  const signed = (x) => esc(typeof x === "number" && x > 0 ? `+${number(x)}` : number(x));
  const rows = (m.results || []).map((r, k) => `<tr data-deal="${k}"><th scope="row">${esc(t("Deal {n} of {m}", { n: number(k + 1), m: number(m.deals) }))}</th>${Array.from({ length: n }, (_, i) => `<td data-seat="${i}">${signed(r[i])}</td>`).join("")}</tr>`).join("");
  return `<table class="summary" id="match-totals"><caption>${esc(t("Match totals"))}</caption>
<thead><tr><th scope="col"><span class="sr-only">${esc(t("Deal"))}</span></th>${Array.from({ length: n }, (_, i) => `<th scope="col">${esc(seatName(i))}</th>`).join("")}</tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row">${esc(t("Match total"))}</th>${m.totals.map((x, i) => `<td data-seat="${i}" data-row="total"><strong>${esc(number(x))}</strong></td>`).join("")}</tr></tfoot></table>`;
}

export function gameOver(o, history, ctx) {
  let html = o.settlement ? settlementTable(o.settlement, ctx.seatName) : "";
  if (isMatch(o.match)) html += matchTable(o.match, ctx.seatName);
  return html;
}

// --- the replay viewer ---------------------------------------------------------------------
export function replaySeats(h) { return (h.remaining || []).length; }

export function replaySteps(h) {
  return [{ kind: "deal" }, ...(h.plays || []).map((p, k) => ({ kind: "play", k }))];
}

export function replayStep(h, st, names) {
  const plays = h.plays || [];
  const upto = st.kind === "play" ? st.k + 1 : st.kind === "end" ? plays.length : 0;
  const left = names.map((nm, i) => ((h.remaining || [])[i] || []).length);
  const played = [];
  plays.forEach((p, k) => {
    if (!p.cards) return;
    if (k < upto) played.push(...p.cards); else left[p.seat] += p.cards.length;
  });
  const stats = names.map((nm, i) => [t("Cards: {n}", { n: number(left[i]) })]);
  let center = "";
  if (st.kind === "play") {
    const p = plays[st.k];
    center = p.pass ? `<p>${esc(t("{name} passed", { name: names[p.seat] }))}</p>`
      : `<p>${esc(t("{name} plays {cards}", { name: names[p.seat], cards: p.cards.map(shortCard).join(" ") }))}${isBomb(p.cards) ? " ✸" : ""}</p><div class="row">${p.cards.map((x) => `<div class="played" data-card="${x}">${cardSVG(x)}<span class="sr-only">${esc(cardName(x))}</span></div>`).join("")}</div>`;
  }
  return { stats, center, played };
}

export function replayEnd(h, prev, index, names) {
  return h.settlement ? settlementTable(h.settlement, (i) => names[i]) : "";
}
