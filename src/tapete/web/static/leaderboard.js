// The leaderboard, /leaderboard: one tab per game family; rank, name, rating and games, bots marked
// with their level (their ratings are the fixed anchors the people are measured against).
import { chooseLanguage, loadLanguage, t, languageSwitcher, translatePage, number, familyTitle, lang } from "./i18n.js";
import { esc } from "./summary.js";
import { botIcon } from "./seats.js";
import { ensureIdentity, playerUrl, playersRefusal, renderIdentity, botLabel } from "./identity.js";

const $ = (id) => document.getElementById(id);
const S = { family: "", families: [], rows: [], me: null };

function renderTabs() {
  const box = $("family-tabs");
  box.innerHTML = S.families.map((f) => `<button type="button" role="tab" id="tab-${esc(f)}" data-family="${esc(f)}" aria-controls="board"
aria-selected="${f === S.family ? "true" : "false"}" tabindex="${f === S.family ? "0" : "-1"}">${esc(familyTitle(f))}</button>`).join("");
  $("board").setAttribute("aria-labelledby", `tab-${S.family}`);
}

function nameCell(row) {
  if (row.bot) return `${botIcon(row.level, botLabel(row.level))} <span>${esc(botLabel(row.level))}</span>`;
  const me = S.me && S.me.name === row.name ? ` <span class="badge">${esc(t("you"))}</span>` : "";
  return `<a href="${playerUrl(row.name)}">${esc(row.name)}</a>${me}`;
}

function renderBoard() {
  $("board").innerHTML = S.rows.length
    ? `<table class="summary leaderboard-table" data-family="${esc(S.family)}"><caption class="sr-only">${esc(t("Leaderboard"))}: ${esc(familyTitle(S.family))}</caption>
<thead><tr><th scope="col">${esc(t("Rank"))}</th><th scope="col">${esc(t("Name"))}</th><th scope="col">${esc(t("Rating"))}</th><th scope="col">${esc(t("Games"))}</th></tr></thead><tbody>
${S.rows.map((r) => `<tr data-name="${esc(r.name)}" data-bot="${r.bot ? "1" : "0"}"${r.level ? ` data-level="${esc(r.level)}"` : ""}${S.me && S.me.name === r.name ? ' class="mine"' : ""}>
<td>${esc(number(r.rank))}</td><th scope="row">${nameCell(r)}</th><td>${esc(number(Math.round(r.rating * 10) / 10))}</td><td>${r.bot ? "–" : esc(number(r.games))}</td></tr>`).join("")}</tbody></table>`
    : `<p>${esc(t("No rated players yet."))}</p>`;
}

async function load(family) {
  $("page-status").textContent = t("Loading…");
  const q = family ? `?family=${encodeURIComponent(family)}&limit=50` : "?limit=50";
  const r = await fetch(`/api/leaderboard${q}`, { headers: { "accept-language": lang } });
  if (!r.ok) { $("page-status").textContent = (await playersRefusal(r)).message; return; }
  const out = await r.json();
  S.family = out.family; S.families = out.families || [out.family]; S.rows = out.rows || [];
  $("page-status").textContent = "";
  const url = new URL(location.href); url.searchParams.set("family", S.family); history.replaceState(null, "", url);
  renderTabs(); renderBoard();
  $("leaderboard").dataset.family = S.family;
}

function onTabKey(ev) {
  const tabs = [...$("family-tabs").querySelectorAll("[role=tab]")];
  const i = tabs.indexOf(document.activeElement);
  if (i < 0) return;
  const go = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[ev.key];
  if (go === undefined) return;
  ev.preventDefault();
  const next = tabs[(go + tabs.length) % tabs.length];
  load(next.dataset.family).then(() => $(`tab-${next.dataset.family}`).focus());
}

function renderAll() {
  translatePage();
  $("rules-link").href = `/rules?lang=${lang}`;
  if (S.me) renderIdentity($("identity"), S.me); else $("identity").innerHTML = "";
  if (S.family) { renderTabs(); renderBoard(); }
}

async function main() {
  await loadLanguage(chooseLanguage());
  translatePage();
  languageSwitcher($("lang"), renderAll);
  $("family-tabs").addEventListener("click", (ev) => {
    const tab = ev.target.closest("[role=tab]");
    const chosen = tab ? tab.dataset.family : S.family;
    if (chosen !== S.family) load(chosen).then(() => $(`tab-${chosen}`).focus());
  });
  $("family-tabs").addEventListener("keydown", onTabKey);
  const [me] = await Promise.all([ensureIdentity(), load(new URLSearchParams(location.search).get("family") || "")]);
  S.me = me;
  renderAll();
  $("leaderboard").dataset.ready = "1";
  document.body.dataset.ready = "1";
}
main();
