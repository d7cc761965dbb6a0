// Hand summaries, hand history and the SVG score chart (shared by the table and the replay viewer).
import { t, number } from "./i18n.js";

export const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** A bid as shown: "Nil" for 0, "–" for none, special bids by their code. */
export function bidText(b) {
  if (b === null || b === undefined) return "–";
  if (b === 0 || b === "nil") return t("Nil");
  return typeof b === "number" ? number(b) : String(b);
}

function sideSeats(side, sides, partnership, nSeats) {
  if (!partnership) return [side];
  const out = []; for (let i = side; i < nSeats; i += sides) out.push(i); return out;
}

/** The worked-example table of one hand: bid, won, points, prizes, penalty, change, total, bags per side. */
export function summaryTable(h, sides, sideName, partnership) {
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

/** One row per hand: the change and total of each side. */
export function historyTable(history, sides, sideName) {
  const head = Array.from({ length: sides }, (_, s) => `<th scope="col">${esc(sideName(s))}</th>`).join("");
  const rows = history.map((h) => `<tr><th scope="row">${esc(t("Hand {n}", { n: h.hand + 1 }))}</th>${Array.from({ length: sides }, (_, s) => {
    const ch = h.result && h.result.score_change ? h.result.score_change[s] : null;
    return `<td>${ch === null || ch === undefined ? "" : (ch > 0 ? "+" : "") + esc(number(ch)) + " → "}${esc(number((h.scores || [])[s]))}</td>`;
  }).join("")}</tr>`).join("");
  return `<section id="hand-history"><h2>${esc(t("Hand history"))}</h2><table class="summary"><tr><th></th>${head}</tr>${rows}</table></section>`;
}

const DASH = ["", "6 3", "2 3", "10 3 2 3", "1 5"];
const MARK = ["●", "■", "▲", "◆", "★"];
const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00"];
/** An SVG line chart of the running scores, one line per side (dash pattern and marker, not only colour). */
export function scoreChart(history, sides, sideName) {
  const W = 480, H = 220, P = 34;
  const series = Array.from({ length: sides }, (_, s) => [0, ...history.map((h) => (h.scores || [])[s] || 0)]);
  const all = series.flat(); const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const n = Math.max(1, history.length);
  const x = (i) => P + (i * (W - 2 * P)) / n;
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
  let svg = `<svg viewBox="0 0 ${W} ${H + 20 * sides}" role="img" aria-label="${esc(t("Score chart"))}">`;
  svg += `<line x1="${P}" y1="${y(0)}" x2="${W - P}" y2="${y(0)}" stroke="#999"/>`;
  svg += `<text x="4" y="${y(hi) + 4}" font-size="11">${esc(number(hi))}</text><text x="4" y="${y(lo) + 4}" font-size="11">${esc(number(lo))}</text>`;
  series.forEach((pts, s) => {
    const c = COLOURS[s % COLOURS.length];
    svg += `<polyline fill="none" stroke="${c}" stroke-width="2" stroke-dasharray="${DASH[s % DASH.length]}" points="${pts.map((v, i) => `${x(i)},${y(v)}`).join(" ")}"/>`;
    pts.forEach((v, i) => { svg += `<text x="${x(i)}" y="${y(v) + 4}" font-size="11" text-anchor="middle" fill="${c}">${MARK[s % MARK.length]}</text>`; });
    svg += `<text x="${P}" y="${H + 14 + 20 * s}" font-size="12" fill="${c}">${MARK[s % MARK.length]} ${esc(sideName(s))}: ${esc(number(pts[pts.length - 1]))}</text>`;
  });
  return svg + "</svg>";
}
