// A person's page, /players/<name>: who they are, their ratings, statistics per profile (table and
// plots), their finished games with replay and download links; on one's own page, claiming the
// guest account, signing out and deleting the account.
import { chooseLanguage, loadLanguage, t, languageSwitcher, translatePage, number, profileTitle, familyTitle, lang } from "./i18n.js";
import { esc } from "./summary.js";
import { botIcon, personIcon } from "./seats.js";
import { linePlot, percentBars } from "./plots.js";
import {
  ensureIdentity, claim, signOut, deleteAccount, playerUrl, playersRefusal, showRefusal, credentialFields, makeDialog, botLabel,
} from "./identity.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20;
const S = { name: "", data: null, me: null, games: [], total: 0 };

/** The statistics shown as numbers, in order: key, msgid, kind (count, mean, percent). */
const STAT_ROWS = [
  ["games", "Games", "count"], ["wins", "Wins", "count"], ["hands", "Hands", "count"],
  ["points_per_hand", "Points per hand", "mean"], ["contracts_pct", "Contracts made", "percent"],
  ["nil_pct", "Nil bids made", "percent"], ["blind_nil_pct", "Blind nil bids made", "percent"],
  ["special_pct", "Special bids made", "percent"], ["bags_per_hand", "Bags per hand", "mean"],
  ["sets", "Hands set", "count"], ["deals", "Deals", "count"], ["deals_won", "Deals won", "count"],
  ["settlement_avg", "Average settlement", "mean"], ["springs", "Springs", "count"], ["bombs", "Bombs played", "count"],
];

const round = (v, digits) => Math.round(v * 10 ** digits) / 10 ** digits;
/** A percentage as the page shows it (the API's numbers are 0–100). */
const pct = (v) => `${number(round(v, 1))} %`;
function statValue(v, kind) {
  if (typeof v !== "number") return "–";
  if (kind === "percent") return pct(v);
  return number(kind === "mean" ? round(v, 2) : v);
}
const rating = (v) => (typeof v === "number" ? number(round(v, 1)) : "–");
const when = (ts) => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ts * 1000));

function pageName() {
  const part = location.pathname.replace(/^\/players\//, "").split("/")[0];
  try { return decodeURIComponent(part); } catch { return part; }
}

function status(text) { $("page-status").textContent = text; }

function renderProfile() {
  const p = S.data.player;
  document.title = `${p.name} — tapete`;
  $("player-name").textContent = p.name;
  const kind = p.guest ? t("Guest") : t("Account");
  $("player-kind").textContent = `${kind} · ${t("Joined {date}", { date: when(p.joined) })}`;
  $("profile").hidden = false;
}

function renderRatings() {
  const entries = Object.entries(S.data.ratings || {});
  $("ratings-body").innerHTML = entries.length
    ? `<table class="summary" id="ratings-table"><thead><tr><th scope="col">${esc(t("Game family"))}</th><th scope="col">${esc(t("Rating"))}</th><th scope="col">${esc(t("Games"))}</th></tr></thead><tbody>
${entries.map(([fam, r]) => `<tr data-family="${esc(fam)}"><th scope="row">${esc(familyTitle(fam))}</th><td data-value="${esc(r.rating)}">${rating(r.rating)} <span class="hint">(μ ${rating(r.mu)}, σ ${rating(r.sigma)})</span></td><td>${esc(number(r.games))}</td></tr>`).join("")}</tbody></table>`
    : `<p>${esc(t("No rated games yet."))}</p>`;
  $("ratings").hidden = false;
}

function statsTable(profile, st) {
  const rows = STAT_ROWS.filter(([key]) => key in st && st[key] !== null && st[key] !== undefined);
  return `<table class="summary stats-table" data-profile="${esc(profile)}"><caption>${esc(t("Numbers"))}</caption><tbody>
${rows.map(([key, label, kind]) => `<tr data-stat="${esc(key)}" data-value="${esc(st[key])}"><th scope="row">${esc(t(label))}</th><td>${esc(statValue(st[key], kind))}</td></tr>`).join("")}</tbody></table>`;
}

function levelTable(st) {
  const levels = Object.entries(st.by_level || {});
  if (!levels.length) return "";
  return `<table class="summary level-table"><caption>${esc(t("Against bots, by level"))}</caption><thead><tr><th scope="col">${esc(t("Level"))}</th><th scope="col">${esc(t("Games"))}</th><th scope="col">${esc(t("Wins"))}</th></tr></thead><tbody>
${levels.map(([level, x]) => `<tr data-level="${esc(level)}"><th scope="row">${esc(botLabel(level))}</th><td>${esc(number(x.games))}</td><td>${esc(number(x.wins))}</td></tr>`).join("")}</tbody></table>`;
}

function plots(st, k) {
  const series = st.series || {};
  const points = Array.isArray(series.points) ? series.points : [];
  const ratings = Array.isArray(series.rating) ? series.rating : [];
  const last = (xs) => (xs.length ? number(round(xs[xs.length - 1], 1)) : "–");
  let out = "";
  if (points.length) {
    out += linePlot(`plot-points-${k}`, t("Points per game"),
      t("Points in each of {n} games; the last: {last}.", { n: number(points.length), last: last(points) }), points);
  }
  if (ratings.length) {
    out += linePlot(`plot-rating-${k}`, t("Rating over games"),
      t("Rating after each of {n} games; now {last}.", { n: number(ratings.length), last: last(ratings) }), ratings);
  }
  const bars = [["contracts_pct", t("Contracts made")], ["nil_pct", t("Nil bids made")], ["blind_nil_pct", t("Blind nil bids made")], ["special_pct", t("Special bids made")]]
    .filter(([key]) => typeof st[key] === "number").map(([key, label]) => [label, st[key]]);
  if (st.deals) bars.push([t("Deals won"), (100 * (st.deals_won || 0)) / st.deals]);
  if (bars.length) {
    out += percentBars(`plot-made-${k}`, t("Made, in percent"), bars.map(([label, v]) => `${label}: ${pct(v)}`).join("; "), bars);
  }
  return out ? `<div class="plots">${out}</div>` : "";
}

function renderStats() {
  const entries = Object.entries(S.data.stats || {});
  $("stats-body").innerHTML = entries.length
    ? entries.map(([profile, st], k) => `<section class="profile-stats" data-profile="${esc(profile)}" aria-labelledby="stats-${k}"><h3 id="stats-${k}">${esc(profileTitle(profile))}</h3>
<div class="stats-grid"><div>${statsTable(profile, st)}${levelTable(st)}</div>${plots(st, k)}</div></section>`).join("")
    : `<p>${esc(t("No finished games yet."))}</p>`;
  $("stats").hidden = false;
}

function opponent(p) {
  if (p.bot) return `<span class="opponent">${botIcon(p.level, botLabel(p.level))} ${esc(botLabel(p.level))}</span>`;
  if (!p.name || p.name === "(deleted)") return `<span class="opponent">${personIcon(t("Player"))} ${esc(t("(deleted)"))}</span>`;
  return `<span class="opponent">${personIcon(t("Player"))} <a href="${playerUrl(p.name)}">${esc(p.name)}</a></span>`;
}

function gameItem(g) {
  const others = (g.players || []).filter((p) => p.seat !== g.seat);
  const res = g.result || {};
  const outcome = res.won ? t("Won the game") : t("Lost the game");
  const detail = t("Place {place}, {score} points", { place: number(res.place), score: number(res.score) });
  const record = g.record_url || `/api/tables/${encodeURIComponent(g.table)}/record`;
  const replay = g.replay_url || `/replay?table=${encodeURIComponent(g.table)}`;
  return `<li class="game" data-table="${esc(g.table)}" data-profile="${esc(g.profile)}" data-won="${res.won ? "1" : "0"}" data-score="${esc(res.score)}" data-place="${esc(res.place)}">
<p class="game-title"><strong>${esc(profileTitle(g.profile))}</strong> · <time datetime="${esc(new Date(g.finished_at * 1000).toISOString())}">${esc(when(g.finished_at))}</time></p>
<p class="result ${res.won ? "won" : "lost"}"><strong>${esc(outcome)}</strong> · ${esc(detail)}</p>
<p class="opponents"><span class="sr-only">${esc(t("Opponents"))}:</span> ${others.map(opponent).join(" ")}</p>
<p class="game-links"><a href="${esc(replay)}${replay.includes("?") ? "&" : "?"}lang=${esc(lang)}" class="replay-link">${esc(t("Replay"))}</a>
<a href="${esc(record)}" download="tapete-${esc(g.table)}.json" class="download-link">${esc(t("Download"))}</a></p></li>`;
}

function renderHistory() {
  $("history-body").innerHTML = S.games.length
    ? `<ol class="history-list" id="history-list">${S.games.map(gameItem).join("")}</ol>`
    : `<p>${esc(t("No finished games yet."))}</p>`;
  $("history-more").hidden = S.games.length >= S.total;
  $("history").hidden = false;
}

async function moreHistory() {
  const r = await fetch(`/api/players/${encodeURIComponent(S.name)}/history?offset=${S.games.length}&limit=${PAGE}`, { headers: { "accept-language": lang } });
  if (!r.ok) { status((await playersRefusal(r)).message); return; }
  const out = await r.json();
  const first = S.games.length;
  S.games = S.games.concat(out.games || []); S.total = out.total ?? S.games.length;
  renderHistory();
  const row = $("history-list")?.querySelectorAll("li.game")[first];
  if (row) { row.tabIndex = -1; row.focus(); }
}

/** The controls only the page's owner sees: claim (guests), sign out, delete. */
function renderOwn() {
  const box = $("own");
  const mine = S.me && S.me.name === S.data.player.name;
  box.hidden = !mine;
  if (!mine) { box.innerHTML = ""; return; }
  const claimForm = S.me.guest
    ? `<form id="claim" class="claim-form" novalidate aria-labelledby="claim-h"><h2 id="claim-h">${esc(t("Keep this account"))}</h2>
<p class="hint">${esc(t("Choose a name and a password: your games and ratings stay with you, and you can sign in on other devices."))}</p>
${credentialFields("claim", t("Claim the account"), true)}</form>`
    : "";
  box.innerHTML = `<p>${esc(t("This is your page."))}</p>${claimForm}
<div class="row"><button type="button" id="signout">${esc(t("Sign out"))}</button>
<button type="button" id="delete-open" class="danger">${esc(t("Delete the account"))}</button></div>
<p class="form-error" id="own-error" role="alert"></p>`;
  const form = $("claim");
  if (form) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = form.elements.name.value.trim(); const password = form.elements.password.value;
      if (!name) { showRefusal(form, { code: "name_invalid", message: t("A name has 3 to 20 letters, digits, _ or -, and cannot start with guest-."), field: "name" }); return; }
      if (password.length < 8) { showRefusal(form, { code: "password_weak", message: t("The password is too short: use at least 8 characters."), field: "password" }); return; }
      const out = await claim(name, password);
      if (!out.ok) { showRefusal(form, out.refusal); return; }
      location.href = playerUrl(out.player ? out.player.name : name);
    });
  }
  $("signout").addEventListener("click", async () => {
    const out = await signOut();
    if (!out.ok) { $("own-error").textContent = out.refusal.message; return; }
    location.href = "/";
  });
  $("delete-open").addEventListener("click", openDelete);
}

function openDelete() {
  $("delete-dialog")?.remove();
  const guest = S.me.guest;
  const pw = guest ? "" : `<div class="field"><label for="delete-password">${esc(t("Password"))}</label>
<input id="delete-password" name="password" type="password" autocomplete="current-password" required aria-describedby="delete-error"></div>`;
  const { dialog, form } = makeDialog("delete-dialog", t("Delete the account?"),
    `<p>${esc(t("Your account, its ratings, statistics and history will be deleted. Other players keep their games, with your name removed. This cannot be undone."))}</p>${pw}
<p class="form-error" id="delete-error" role="alert"></p>
<button type="submit" class="danger" id="delete-confirm">${esc(t("Delete"))}</button>`);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = await deleteAccount(guest ? "" : form.elements.password.value);
    if (!out.ok) { showRefusal(form, out.refusal); return; }
    dialog.close(); location.href = "/";
  });
  dialog.addEventListener("close", () => { dialog.remove(); $("delete-open")?.focus(); });
  dialog.showModal();
  (form.elements.password || form.querySelector(".cancel")).focus();
}

function renderAll() {
  translatePage();
  $("rules-link").href = `/rules?lang=${lang}`;
  if (!S.data) return;
  renderProfile(); renderOwn(); renderRatings(); renderStats(); renderHistory();
}

async function load() {
  const r = await fetch(`/api/players/${encodeURIComponent(S.name)}`, { headers: { "accept-language": lang } });
  if (!r.ok) {
    const why = await playersRefusal(r);
    status(why.code === "no_player" ? t("There is no player named {name}.", { name: S.name }) : why.message);
    $("player-page").dataset.error = why.code;
    return;
  }
  S.data = await r.json();
  S.games = S.data.history || [];
  S.total = S.games.length;
  if (S.games.length < PAGE) return;  // the whole history is already here
  const h = await fetch(`/api/players/${encodeURIComponent(S.name)}/history?offset=0&limit=${PAGE}`, { headers: { "accept-language": lang } });
  if (h.ok) { const out = await h.json(); S.games = out.games || S.games; S.total = out.total ?? S.games.length; }
}

async function main() {
  await loadLanguage(chooseLanguage());
  S.name = pageName();
  translatePage();
  status(t("Loading…"));
  languageSwitcher($("lang"), renderAll);
  $("history-more").addEventListener("click", moreHistory);
  const [me] = await Promise.all([ensureIdentity(), load()]);
  S.me = me;
  if (S.data) status("");
  renderAll();
  $("player-page").dataset.ready = "1";
  document.body.dataset.ready = "1";
}
main();
