// The replay viewer: the server replays a record (POST /api/replay) and we step through its report.
// The family's renderer (./renderer.js), named by the profile catalog, draws each step.
import { chooseLanguage, loadLanguage, t, languageSwitcher, translatePage, number, profileInfo, lang } from "./i18n.js";
import { esc, scoreChart, historyTable } from "./summary.js";
import { cardSVG } from "./cards.js";
import { loadRenderer } from "./renderer.js";
import { hasAnalysis, showAnalysis } from "./analysis.js";

const $ = (id) => document.getElementById(id);
const R = { report: null, record: null, renderer: null, steps: [], i: 0 };

function players() {
  const rec = R.record || {}; const h0 = (R.report.hands || [])[0];
  const n = (h0 && R.renderer.replaySeats(h0)) || (R.report.scores || []).length || 3;
  return Array.from({ length: n }, (_, i) => (rec.players && rec.players[i]) || t("seat {n}", { n: i + 1 }));
}

function buildSteps() {
  const steps = [];
  (R.report.hands || []).forEach((h, hi) => {
    for (const st of R.renderer.replaySteps(h)) steps.push({ ...st, hand: hi });
    steps.push({ hand: hi, kind: "end" });
  });
  R.steps = steps; R.i = 0;
}

function sideNameOf(names, sides) { return (s) => (sides === names.length ? names[s] : t("Team {n}", { n: s + 1 })); }

/** Each seat's cards still in hand at this step, face up (the record's deal less what has been played). */
function handsAt(hi, played) {
  const deal = ((R.record && R.record.hands) || [])[hi];
  const cards = deal && Array.isArray(deal.cards) ? deal.cards : [];
  const gone = new Set(played || []);
  return cards.map((seat) => (seat || []).filter((c) => !gone.has(c)));
}

function render() {
  const st = R.steps[R.i]; if (!st) return;
  const h = R.report.hands[st.hand]; const names = players();
  $("replay").dataset.steps = String(R.steps.length); $("replay").dataset.step = String(R.i);
  $("step-label").textContent = t("Step {i} of {n}", { i: R.i + 1, n: R.steps.length });
  $("hand-label").textContent = t("Hand {n}", { n: st.hand + 1 });
  const shown = R.renderer.replayStep(h, st, names);
  const hands = handsAt(st.hand, st.kind === "end" ? null : shown.played);
  const draw = st.hand === 0 && R.i === 0 && Array.isArray(R.report.draw) ? R.report.draw : null;
  $("players").innerHTML = `<div class="replay-seats">${names.map((nm, i) => `<div class="replay-seat" data-seat="${i}"><div class="name">${esc(nm)}${draw && draw[i] ? ` · ${esc(t("Seating draw"))}: ${esc(String(draw[i]))}` : ""}</div>
<div class="stats">${(shown.stats[i] || []).map((b) => `<span class="chip">${esc(b)}</span>`).join(" ")}</div>
<div class="mini-hand" aria-label="${esc(t("Cards of {name}", { name: nm }))}" role="img">${(hands[i] || []).map((c) => `<span class="mini">${cardSVG(c)}</span>`).join("")}</div></div>`).join("")}</div>`;
  let center = shown.center;
  if (st.kind === "end") {
    const sides = (h.scores || h.score_change || []).length;
    center = `<h3>${esc(t("Hand summary"))}</h3>` + R.renderer.replayEnd(h, st.hand > 0 ? R.report.hands[st.hand - 1] : null, st.hand, names, sideNameOf(names, sides));
    // a hand only dealt (the record stops there) has nothing to analyse
    if (hasAnalysis(R.report.profile) && (shown.played || []).length) center += `<p><button type="button" id="analysis-open" aria-controls="analysis">${esc(t("Analysis"))}</button></p>`;
  }
  $("center").innerHTML = center;
  const open = $("analysis-open");
  if (open) open.addEventListener("click", () => openAnalysis(st.hand));
  $("first").disabled = $("prev").disabled = R.i === 0;
  $("next").disabled = $("last").disabled = R.i === R.steps.length - 1;
}

/** The Analysis view of hand `hand` (./analysis.js): the record is analysed by the server, that hand only. */
async function openAnalysis(hand) {
  const box = $("analysis");
  if (box.dataset.state === "done" && box.dataset.hand === String(hand)) { box.hidden = false; $("analysis-h").focus(); return; }
  box.dataset.hand = String(hand);
  const names = players();
  const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(R.record) };
  await showAnalysis(box, `/api/analyze?hand=${hand}`, init, hand, { seat: (i) => names[i], side: (s) => t("Team {n}", { n: s + 1 }) });
}

function renderSummary() {
  const hands = R.report.hands || []; const names = players();
  const hist = hands.filter((h) => h.scores).map((h, i) => ({ hand: i, scores: h.scores, result: { score_change: h.score_change } }));
  if (!hist.length || !hist[0].scores) { $("summary").innerHTML = ""; return; }
  const sides = hist[0].scores.length;
  const sideName = sideNameOf(names, sides);
  $("summary").innerHTML = `<h2>${esc(t("Score chart"))}</h2><div id="chart">${scoreChart(hist, sides, sideName)}</div>` + historyTable(hist, sides, sideName);
}

async function load(text) {
  $("replay-error").textContent = "";
  const r = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json", "accept-language": lang }, body: text });
  const out = await r.json();
  if (!r.ok || (out.report && out.report.error && !(out.report.hands || []).length)) {
    const msg = out.error_message || out.message || t("The record is not JSON.");
    $("replay-error").textContent = t("The record could not be replayed: {message}", { message: msg }); return;
  }
  if (out.report.error) $("replay-error").textContent = t("The record could not be replayed: {message}", { message: out.error_message || out.report.error.code });
  const profile = profileInfo(out.report.profile);
  if (!profile) { $("replay-error").textContent = t("The record could not be replayed: {message}", { message: t("Unknown game: {name}", { name: String(out.report.profile) }) }); return; }
  R.renderer = await loadRenderer(profile.renderer);
  R.report = out.report; R.record = out.record;
  $("analysis").hidden = true; $("analysis").dataset.state = ""; $("analysis").innerHTML = "";
  buildSteps(); $("stage").hidden = false; render(); renderSummary();
}

async function main() {
  await loadLanguage(chooseLanguage());
  translatePage();
  languageSwitcher($("lang"), () => {
    translatePage();
    if (R.report) { render(); renderSummary(); }
    const box = $("analysis");
    if (box.dataset.state === "done" && !box.hidden) { box.dataset.state = ""; openAnalysis(Number(box.dataset.hand)); }
  });
  $("file").addEventListener("change", async () => { const f = $("file").files[0]; if (f) await load(await f.text()); });
  $("load").addEventListener("click", () => load($("paste").value));
  const go = (i) => { R.i = Math.max(0, Math.min(R.steps.length - 1, i)); render(); };
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(R.i - 1));
  $("next").addEventListener("click", () => go(R.i + 1));
  $("last").addEventListener("click", () => go(R.steps.length - 1));
  document.addEventListener("keydown", (ev) => {
    if (!R.report || ev.target instanceof HTMLTextAreaElement || ev.target instanceof HTMLInputElement) return;
    if (ev.key === "ArrowRight") go(R.i + 1); else if (ev.key === "ArrowLeft") go(R.i - 1);
  });
  const table = new URLSearchParams(location.search).get("table");
  if (table) {
    const r = await fetch(`/api/tables/${encodeURIComponent(table)}/record`);
    if (r.ok) await load(await r.text());
  }
  document.body.dataset.ready = "1";
}
main();
