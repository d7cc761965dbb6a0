// Small SVG plots for a player's statistics: a line over games and horizontal percentage bars.
// Each plot is an image with a <title> and a <desc> that says in words what it shows.
import { number } from "./i18n.js";
import { esc } from "./summary.js";

const W = 480, H = 200, PAD_L = 46, PAD_R = 14, PAD_T = 14, PAD_B = 30;

/** A figure: the title shown above the plot, the SVG named by its <title> and described by its <desc>. */
function frame(id, title, desc, height, body) {
  return `<figure class="plot-figure"><figcaption aria-hidden="true">${esc(title)}</figcaption>
<svg class="plot" id="${id}" viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">
<title id="${id}-title">${esc(title)}</title><desc id="${id}-desc">${esc(desc)}</desc>${body}</svg></figure>`;
}

/** Round bounds for an axis holding ``lo``..``hi`` (a zero line included). */
function bounds(values) {
  let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  if (hi === lo) hi = lo + 1;
  const step = Math.pow(10, Math.floor(Math.log10(hi - lo)));
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/**
 * A line over games: ``values[i]`` is game i+1's value (nulls skipped). ``desc`` is the sentence a
 * screen reader hears; the x axis counts games from 1.
 */
export function linePlot(id, title, desc, values) {
  const pts = values.map((v, i) => [i, v]).filter(([, v]) => typeof v === "number" && Number.isFinite(v));
  if (!pts.length) return "";
  const [lo, hi] = bounds(pts.map(([, v]) => v));
  const n = Math.max(1, values.length - 1);
  const x = (i) => PAD_L + (values.length === 1 ? (W - PAD_L - PAD_R) / 2 : (i * (W - PAD_L - PAD_R)) / n);
  const y = (v) => PAD_T + ((hi - v) * (H - PAD_T - PAD_B)) / (hi - lo);
  let body = `<g class="axis"><line x1="${PAD_L}" y1="${PAD_T}" x2="${PAD_L}" y2="${H - PAD_B}"/>
<line x1="${PAD_L}" y1="${y(0)}" x2="${W - PAD_R}" y2="${y(0)}"/></g>`;
  for (const v of [lo, hi]) body += `<text class="tick" x="${PAD_L - 5}" y="${y(v) + 4}" text-anchor="end">${esc(number(v))}</text>`;
  body += `<text class="tick" x="${x(0)}" y="${H - 10}" text-anchor="middle">1</text>`;
  if (values.length > 1) body += `<text class="tick" x="${x(values.length - 1)}" y="${H - 10}" text-anchor="middle">${esc(number(values.length))}</text>`;
  if (pts.length > 1) body += `<polyline class="line" points="${pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
  for (const [i, v] of pts) body += `<circle class="dot" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5"><title>${esc(number(i + 1))}: ${esc(number(v))}</title></circle>`;
  return frame(id, title, desc, H, body);
}

/** Horizontal bars, one per ``[label, percent]`` (0–100; nulls left out). */
export function percentBars(id, title, desc, rows) {
  const shown = rows.filter(([, v]) => typeof v === "number" && Number.isFinite(v));
  if (!shown.length) return "";
  const row = 30, left = 150, right = 56, height = PAD_T + shown.length * row + 6;
  const width = W - left - right;
  let body = "";
  shown.forEach(([label, v], k) => {
    const top = PAD_T + k * row; const w = Math.max(0, Math.min(100, v)) * width / 100;
    body += `<text class="bar-label" x="${left - 8}" y="${top + 17}" text-anchor="end">${esc(label)}</text>
<rect class="bar-track" x="${left}" y="${top + 4}" width="${width}" height="18" rx="3"/>
<rect class="bar" x="${left}" y="${top + 4}" width="${w.toFixed(1)}" height="18" rx="3"/>
<text class="bar-value" x="${left + width + 6}" y="${top + 17}">${esc(number(Math.round(v)))} %</text>`;
  });
  return frame(id, title, desc, height, body);
}
