// Run Fast's renderer (Pao De Kuai): combinations chosen by selecting cards, the last play,
// passes, bomb bonuses and the settlement. Interface: ../renderer.js.
import { t, cardName, number } from "../i18n.js";
import { cardSVG, shortCard, SUIT_ORDER } from "../cards.js";
import { esc } from "../summary.js";

export const selectsCards = true;

const RANK_ORDER = "3456789TJQKA2";
/** Cards sorted low to high (3 … A, 2), suits grouped within a rank. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]) || SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]]);
}

export function seatStats(v, i, ctx) {
  const stats = ctx.commonStats(i);
  if (v.bonus && v.bonus[i]) stats.push(`${t("Bonus")}: ${number(v.bonus[i])}`);
  return stats;
}

export function extras(v) {
  if (!v.bomb_bonuses || !v.bomb_bonuses.length) return [];
  return [`${t("Bomb bonuses")}: ${v.bomb_bonuses.map((b) => (typeof b === "object" ? JSON.stringify(b) : String(b))).join(", ")}`];
}

/** A row of played cards; `spoken`: each card's name for screen readers (else the text beside says it). */
function cardsRow(cards, spoken) {
  return `<div class="row">${cards.map((x) => `<div class="played" data-card="${x}">${cardSVG(x)}${spoken ? `<span class="sr-only">${esc(cardName(x))}</span>` : ""}</div>`).join("")}</div>`;
}

export function center(v, ctx) {
  let html = "";
  if (v.current) {
    html += `<div class="played-group" data-testid="last-play"><p>${esc(t("Last play: {name}", { name: ctx.seatName(v.current.seat) }))}</p>${cardsRow(v.current.cards, true)}</div>`;
  } else if ((v.plays || []).length && v.to_act !== null) {
    html += `<p>${esc(t("New round: {name} leads.", { name: ctx.seatName(v.to_act) }))}</p>`;
  }
  if ((v.passed || []).length) html += `<p>${v.passed.map((s) => esc(t("{name} passed", { name: ctx.seatName(s) }))).join(" · ")}</p>`;
  return html;
}

function sameCards(a, b) { return a.length === b.length && [...a].sort().join() === [...b].sort().join(); }

export function controls(v, ctx) {
  if (ctx.seat === null) return;
  const legal = v.legal_actions || [];
  const g = ctx.group();
  if (!ctx.myTurn) return;
  const sel = [...ctx.selection];
  const info = document.createElement("p"); info.style.width = "100%"; info.style.textAlign = "center";
  const matches = sel.length ? legal.filter((a) => a.play && sel.every((c) => a.play.includes(c))) : [];
  if (!sel.length) info.textContent = t("Select cards to see the plays they can make.");
  else info.textContent = matches.length ? t("Plays with the selected cards:") : t("No legal play uses these cards.");
  g.append(info);
  const opts = ctx.group(); opts.id = "suggestions";
  for (const a of matches.slice(0, 12)) {
    const exact = sameCards(a.play, sel);
    ctx.button(opts, `${t("Play")} ${sortHand(a.play).map(shortCard).join(" ")}`, () => ctx.act({ play: a.play }), exact ? "primary suggestion" : "suggestion",
      { "aria-label": `${t("Play")} ${a.play.map(cardName).join(", ")}` });
  }
  const g2 = ctx.group();
  ctx.button(g2, t("Play the selected cards"), () => ctx.act({ play: sortHand(sel) }), "", { id: "play-selected" }).disabled = !sel.length;
  ctx.button(g2, t("Clear selection"), () => { ctx.selection.clear(); ctx.rerender(); }, "", { id: "clear" }).disabled = !sel.length;
  if (legal.some((a) => a.pass)) ctx.button(g2, t("Pass"), () => ctx.act({ pass: true }), "", { id: "pass" });
}

export function cardClick(card, ctx) {
  if (ctx.selection.has(card)) ctx.selection.delete(card); else ctx.selection.add(card);
  ctx.rerender();
}

export function actionText(a) {
  if ("pass" in a) return t("Pass");
  return [].concat(a.play).map(shortCard).join(" ");
}

export function announce(a, prev, view, ctx) {
  const who = ctx.seatName(a.seat);
  if ("pass" in a) return [t("{name} passed", { name: who })];
  if (!("play" in a)) return [];
  return [t("{name} plays {cards}", { name: who, cards: [].concat(a.play).map(cardName).join(", ") })];
}

export function gameOver(o, ctx) {
  const st = o.settlement;
  if (!st) return "";
  const n = st.score_change.length;
  const row = (label, arr) => `<tr><th scope="row">${esc(label)}</th>${arr.map((x) => `<td>${esc(number(x))}</td>`).join("")}</tr>`;
  return `<table class="summary" id="settlement"><caption>${esc(t("Settlement"))}</caption><tr><th></th>${Array.from({ length: n }, (_, i) => `<th scope="col">${esc(ctx.seatName(i))}</th>`).join("")}</tr>`
    + row(t("Cards left"), st.cards_left) + row(t("Bonus"), st.bonus) + row(t("Change"), st.score_change) + `</table>`;
}

export function handSummary() { return ""; }

// --- the replay viewer ---------------------------------------------------------------------
export function replaySeats(h) { return (h.remaining || []).length; }

export function replaySteps(h) {
  return [{ kind: "deal" }, ...(h.plays || []).map((p, k) => ({ kind: "play", k }))];
}

export function replayStep(h, st, names) {
  const plays = h.plays || [];
  const upto = st.kind === "play" ? st.k + 1 : st.kind === "end" ? plays.length : 0;
  const played = names.map(() => 0);
  const total = names.map(() => 0);
  plays.forEach((p, k) => {
    if (!p.cards) return;
    total[p.seat] += p.cards.length;
    if (k < upto) played[p.seat] += p.cards.length;
  });
  const stats = names.map((nm, i) => [t("Cards: {n}", { n: number(((h.remaining || [])[i] || []).length + total[i] - played[i]) })]);
  let center = "";
  if (st.kind === "play") {
    const p = plays[st.k];
    center = p.pass ? `<p>${esc(t("{name} passed", { name: names[p.seat] }))}</p>`
      : `<p>${esc(t("{name} plays {cards}", { name: names[p.seat], cards: p.cards.map(cardName).join(", ") }))}</p>${cardsRow(p.cards, false)}`;
  }
  return { stats, center };
}
