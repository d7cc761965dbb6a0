// The Analysis view: a hand solved double-dummy by the server (docs/analysis.md), shown at the table
// after a hand and in the replay viewer. It draws the report of `tapete analyze --json` as it is:
// per side the tricks makeable at the first lead against its bid, then every trick card by card with
// the tricks the card's side could still make after it; a card that lowered them is marked ▼ and
// named in words, and an answer the server could not find within its limits is shown as "?".
import { t, number, cardName, profileInfo, lang } from "./i18n.js";
import { shortCard } from "./cards.js";
import { esc } from "./summary.js";

/** Whether the server analyses games of this profile (the profile catalog says so). */
export function hasAnalysis(profile) { const p = profileInfo(profile); return !!(p && p.analysis); }

/** Ask the server for an analysis: {report} or {message} (a refusal in the page's language). */
export async function fetchAnalysis(url, init = {}) {
  let r;
  try {
    r = await fetch(url, { ...init, headers: { ...(init.headers || {}), "accept-language": lang } });
  } catch {
    return { message: t("The server is busy: try again in a moment.") };
  }
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  if (!r.ok || !body || !body.analysis) {
    return { message: (body && typeof body.message === "string" && body.message) || t("The server is busy: try again in a moment.") };
  }
  return { report: body.analysis, errorMessage: body.error_message || "" };
}

const value = (v) => (v === null || v === undefined ? "?" : number(v));
const signed = (v) => (v === null || v === undefined ? "?" : (v > 0 ? "+" : v < 0 ? "−" : "") + number(Math.abs(v)));

function cardText(code) {
  return `<span aria-hidden="true" class="a-card${"HD".includes(code[1]) ? " red" : ""}">${esc(shortCard(code))}</span><span class="sr-only">${esc(cardName(code))}</span>`;
}

function unknown() {
  return `<span aria-hidden="true">?</span><span class="sr-only">${esc(t("not analysed"))}</span>`;
}

/** The HTML of one analysed hand; `names.seat(i)` and `names.side(side)` name seats and sides. */
export function analysisHTML(hand, names, extra = {}) {
  const seats = [...new Set(hand.sides.flatMap((s) => s.seats))].sort((a, b) => a - b);
  const sideName = (s) => (s.seats.length === 1 ? names.seat(s.seats[0]) : names.side(s.side));
  const individual = hand.sides.every((s) => s.seats.length === 1);
  let html = `<p class="analysis-note">${esc(t("Double-dummy analysis: every player plays their best with every card in view."))}`;
  if (individual) html += ` ${esc(t("Each player is analysed against all the others together."))}`;
  html += "</p>";
  html += `<table class="summary analysis-sides"><caption>${esc(t("Makeable tricks at the first lead"))}</caption>
<tr><th scope="col">${esc(t("Side"))}</th><th scope="col">${esc(t("Bid"))}</th><th scope="col">${esc(t("Makeable"))}</th><th scope="col">${esc(t("Margin"))}</th></tr>
${hand.sides.map((s) => `<tr data-side="${s.side}"><th scope="row">${esc(sideName(s))}</th><td class="a-bid">${s.bid === null ? "–" : esc(number(s.bid))}</td><td class="a-makeable" data-value="${s.makeable ?? ""}">${s.makeable === null ? unknown() : esc(number(s.makeable))}</td><td class="a-margin">${s.margin === null ? "–" : esc(signed(s.margin))}</td></tr>`).join("")}
</table>`;
  const costly = hand.plays.filter((p) => p.loss);
  html += `<h4>${esc(t("Costly cards"))}</h4>`;
  if (costly.length) {
    html += `<ul class="analysis-costly">${costly.map((p) => `<li data-card="${esc(p.card)}" data-loss="${p.loss}">${esc(t("Trick {trick}: {name} played {card}: −{loss}; {best} kept {kept}.", {
      trick: number(p.trick), name: names.seat(p.seat), card: cardName(p.card), loss: number(p.loss),
      best: p.best_cards.map(cardName).join(", "), kept: number(p.best),
    }))}</li>`).join("")}</ul>`;
  } else {
    html += `<p class="analysis-none">${esc(t("No card cost its side a trick."))}</p>`;
  }
  const rows = new Map();
  for (const p of hand.plays) { if (!rows.has(p.trick)) rows.set(p.trick, new Map()); rows.get(p.trick).set(p.seat, p); }
  const cell = (p) => {
    if (!p) return `<td class="a-empty"><span aria-hidden="true">·</span></td>`;
    const mark = p.loss ? `<span class="a-loss" aria-hidden="true">▼${esc(number(p.loss))}</span><span class="sr-only">${esc(t("costly: −{n}", { n: number(p.loss) }))}</span>` : "";
    return `<td class="a-play${p.loss ? " costly" : ""}${p.kept === null ? " unknown" : ""}" data-card="${esc(p.card)}" data-kept="${p.kept ?? ""}">${cardText(p.card)} <span class="a-kept">${p.kept === null ? unknown() : esc(number(p.kept))}</span>${mark}</td>`;
  };
  html += `<h4>${esc(t("Card by card"))}</h4><p class="analysis-note">${esc(t("▼ marks a card that cost its side tricks; each number is the tricks the side could still make after the card."))}</p>
<div class="analysis-scroll" tabindex="0" role="region" aria-label="${esc(t("Card by card"))}"><table class="summary analysis-tricks">
<tr><th scope="col">${esc(t("Trick"))}</th>${seats.map((s) => `<th scope="col">${esc(names.seat(s))}</th>`).join("")}</tr>
${[...rows.entries()].map(([trick, plays]) => `<tr data-trick="${trick}"><th scope="row">${esc(number(trick))}</th>${seats.map((s) => cell(plays.get(s))).join("")}</tr>`).join("")}
</table></div>`;
  const missing = hand.plays.filter((p) => p.kept === null).length + hand.sides.filter((s) => s.makeable === null).length;
  if (missing) html += `<p class="analysis-note" id="analysis-unknown">${esc(t("{n} answers were not found within the server's limits: they are shown as ?.", { n: number(missing) }))}</p>`;
  if (extra.errorMessage) html += `<p class="analysis-note">${esc(extra.errorMessage)}</p>`;
  return html;
}

/**
 * Fill `box` with the analysis of hand `index` fetched from `url` (`init`: fetch options); the
 * heading takes the focus so that a screen reader starts there. Resolves to the report or null.
 */
export async function showAnalysis(box, url, init, index, names) {
  box.hidden = false;
  box.setAttribute("aria-busy", "true");
  box.dataset.state = "loading";
  const title = esc(t("Analysis of hand {n}", { n: number(index + 1) }));
  box.innerHTML = `<h3 id="analysis-h" tabindex="-1">${title}</h3><p role="status">${esc(t("Analysing the hand…"))}</p>`;
  const got = await fetchAnalysis(url, init);
  box.removeAttribute("aria-busy");
  const hand = got.report && (got.report.hands || []).find((h) => h.hand === index);
  if (!hand) {
    box.dataset.state = "error";
    const message = got.message || got.errorMessage || t("This hand was not analysed.");
    box.innerHTML = `<h3 id="analysis-h" tabindex="-1">${title}</h3><p role="alert" class="analysis-error">${esc(t("Could not load the analysis: {message}", { message }))}</p>`;
  } else {
    box.dataset.state = "done";
    box.innerHTML = `<h3 id="analysis-h" tabindex="-1">${title}</h3>` + analysisHTML(hand, names, { errorMessage: got.errorMessage });
  }
  const h = box.querySelector("#analysis-h");
  if (h) h.focus({ preventScroll: false });
  return hand || null;
}
