// The hand history and the SVG score chart (shared by the table and the replay viewer), and esc.
import { t, number } from "./i18n.js";

export const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

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
