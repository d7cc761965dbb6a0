// The lobby: pick a game, its options and seats, start a table; list open tables.
import { chooseLanguage, loadLanguage, t, profileList, languageSwitcher, translatePage, lang } from "./i18n.js";
import { fourColour, setFourColour } from "./cards.js";
import { esc } from "./summary.js";
import { botIcon, personIcon } from "./seats.js";
import { renderOptions, collectOptions } from "./options.js";
import { refusal } from "./apierror.js";
import { ensureIdentity, renderIdentity } from "./identity.js";

const $ = (id) => document.getElementById(id);
let player = null;
const SEAT_CHOICES = [["you", "You"], ["friend", "Friend (invite link)"], ["easy", "Bot: easy"], ["normal", "Bot: normal"], ["hard", "Bot: hard"]];

function currentProfile() { return profileList().find((p) => p.name === $("profile").value) || profileList()[0]; }

function renderProfiles() {
  const sel = $("profile"); const keep = sel.value || localStorage.getItem("tapete.lobby.profile") || "cutthroat";
  sel.innerHTML = profileList().map((p) => `<option value="${esc(p.name)}">${esc(p.title)}</option>`).join("");
  sel.value = keep;
  if (!sel.value) sel.selectedIndex = 0;
  renderProfileDetails(false);
}

function renderProfileDetails(resetSeats = true) {
  const p = currentProfile();
  $("profile-desc").textContent = p.description;
  $("profile-rules").href = `/rules/${p.name}?lang=${lang}`;
  $("rules-link").href = `/rules?lang=${lang}`;
  renderOptions(p, $("options-basic"), $("options-advanced"));
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 0; i < p.players; i++) {
    const def = i === 0 ? "you" : (p.partnership && i === 2 ? "normal" : "easy");
    const value = !resetSeats && old[i] ? old[i] : def;
    const opts = SEAT_CHOICES.filter(([v]) => (i === 0 ? v !== "friend" : v !== "you"))
      .map(([v, label]) => `<option value="${v}"${v === value ? " selected" : ""}>${esc(t(label))}</option>`).join("");
    const team = p.partnership ? ` — ${esc(t("Team {n}", { n: (i % 2) + 1 }))}${i === 2 ? ` (${esc(t("partner"))})` : ""}` : "";
    box.insertAdjacentHTML("beforeend", `<div class="seat-row"><label for="seat-${i}">${esc(t("Seat {n}", { n: i + 1 }))}${team}</label>
      <select id="seat-${i}" data-seat="${i}">${opts}</select></div>`);
  }
}

async function createTable(ev) {
  ev.preventDefault();
  $("create-error").textContent = ""; $("options-error").textContent = "";
  const p = currentProfile();
  const { options, errors } = collectOptions(p, $("create"), $("options").value);
  if (errors.length) {
    $("create-error").textContent = `${t("Could not create the table.")} ${errors.join(" ")}`;
    if (errors.some((e) => !document.querySelector(".field-error:not(:empty)"))) $("advanced").open = $("advanced").open || $("options").value.trim() !== "{}";
    return;
  }
  const name = $("name").value.trim();
  localStorage.setItem("tapete.name", name); localStorage.setItem("tapete.lobby.profile", p.name);
  const seats = [...$("seats").querySelectorAll("select")].map((s) => {
    if (s.value === "you") return { kind: "human", ...(name ? { name: name.slice(0, 40) } : {}) };
    if (s.value === "friend") return { kind: "human" };
    return { kind: "bot", level: s.value };
  });
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json", "accept-language": lang },
    body: JSON.stringify({ profile: p.name, options, seats, name: name ? `${name}` : "" }) });
  // the refusal in our language (429 too_many_tables, 503 server_full/busy included); its English detail is not shown
  if (!r.ok) {
    const why = await refusal(r);
    $("create-error").textContent = `${t("Could not create the table.")} ${why.message}`;
    $("create-error").dataset.code = why.code;
    return;
  }
  const out = await r.json();
  localStorage.setItem(`tapete.token.${out.table}`, out.seats[0].token);
  localStorage.setItem(`tapete.creator.${out.table}`, out.creator_token);
  const friends = out.seats.filter((s, i) => i > 0 && s.token);
  const url = `/table/${out.table}`;
  if (!friends.length) { location.href = url; return; }
  $("invite-list").innerHTML = friends.map((s) => `<li>${esc(t("Seat {n}", { n: s.seat + 1 }))}: <span class="invite">${esc(location.origin + "/table/" + out.table + "#token=" + s.token)}</span></li>`).join("");
  $("go").href = url; $("invites").hidden = false;
}

async function listTables() {
  const r = await fetch("/api/tables"); const tables = await r.json();
  const ul = $("tables");
  const titles = Object.fromEntries(profileList().map((p) => [p.name, p.title]));
  if (!tables.length) { ul.innerHTML = `<li>${esc(t("No open tables."))}</li>`; return; }
  ul.innerHTML = tables.map((x) => {
    const mine = localStorage.getItem(`tapete.token.${x.id}`);
    const seats = x.seats.map((s) => (s.kind === "bot" ? botIcon(s.level, t("bot")) : personIcon(s.connected ? t("Player") : t("offline")))).join("");
    const link = mine ? `<a href="/table/${esc(x.id)}">${esc(t("Join"))}</a>` : `<a href="/table/${esc(x.id)}#spectate">${esc(t("Watch"))}</a>`;
    const deal = x.deal === "creator_seed" ? ` <span class="deal-note" data-seed="${esc(x.seed)}">${esc(t("Dealt from the creator's seed {seed}", { seed: x.seed }))}</span>` : "";
    return `<li data-table="${esc(x.id)}"><strong>${esc(x.name || x.id)}</strong> — ${esc(titles[x.profile] || x.profile)} <span class="seat-icons">${seats}</span>${deal} ${link}</li>`;
  }).join("");
}

function retranslate() { translatePage(); renderProfiles(); listTables(); if (document.body.dataset.identity) renderIdentity($("identity"), player); }

async function main() {
  await loadLanguage(chooseLanguage());
  languageSwitcher($("lang"), retranslate);
  $("four").checked = fourColour();
  $("four").addEventListener("change", () => setFourColour($("four").checked));
  $("name").value = localStorage.getItem("tapete.name") || "";
  $("profile").addEventListener("change", () => renderProfileDetails(true));
  $("create").addEventListener("submit", createTable);
  player = await ensureIdentity();  // before any table is made, so its seat is bound to this person
  document.body.dataset.identity = player ? player.name : "-";
  retranslate();
  renderProfileDetails(true);
  setInterval(listTables, 5000);
  document.body.dataset.ready = "1";
}
main();
