// Who is playing: the session (a guest made on first visit, or a claimed account), its API calls,
// the refusals of the players API in the page's language, and the sign-in dialog.
import { t, lang } from "./i18n.js";
import { esc } from "./summary.js";

/** The players API's refusals, by code, as msgids of our catalog (the server's message is the fallback). */
const REFUSALS = {
  name_taken: "That name is taken (or looks too much like a name that is).",
  name_invalid: "A name has 3 to 20 letters, digits, _ or -, and cannot start with guest-.",
  password_weak: "The password is too short: use at least 8 characters.",
  not_signed_in: "You are not signed in.",
  already_claimed: "This account already has a name and a password.",
  bad_credentials: "Wrong name or password.",
  no_player: "There is no player with that name.",
  rate_limited: "Too many attempts: wait a minute and try again.",
};
/** Which form field a refusal is about. */
const FIELD_OF = { name_taken: "name", name_invalid: "name", password_weak: "password", bad_credentials: "password" };

/** ``{code, message, field}`` of a refused response of the players API. */
export async function playersRefusal(r) {
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  const err = body && typeof body.error === "object" && body.error ? body.error : body;
  const code = err && typeof err.code === "string" ? err.code : String(r.status);
  let message = REFUSALS[code] ? t(REFUSALS[code]) : "";
  if (!message) message = err && typeof err.message === "string" && err.message ? err.message : t("The server is busy: try again in a moment.");
  return { code, message, field: FIELD_OF[code] || "" };
}

async function call(method, url, body) {
  const init = { method, credentials: "same-origin", headers: { accept: "application/json", "accept-language": lang } };
  if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
  return fetch(url, init);
}

/**
 * The player of this browser's session, made a guest on first visit (the server answers the
 * session's own player when there is one); null when the server refuses.
 */
export async function ensureIdentity() {
  const made = await call("POST", "/api/guest", {});
  return made.ok ? (await made.json()).player : null;
}

/** Each action answers ``{ok, player?, refusal?}``. */
async function answer(r) {
  if (r.ok) {
    const body = r.status === 204 ? {} : await r.json().catch(() => ({}));
    return { ok: true, player: body.player || null };
  }
  return { ok: false, refusal: await playersRefusal(r) };
}
export const signIn = async (name, password) => answer(await call("POST", "/api/session", { name, password }));
export const signOut = async () => answer(await call("DELETE", "/api/session"));
export const claim = async (name, password) => answer(await call("POST", "/api/account/claim", { name, password }));
export const deleteAccount = async (password) => answer(await call("DELETE", "/api/account", password ? { password } : {}));

const LEVELS = { easy: "Bot: easy", normal: "Bot: normal", hard: "Bot: hard", expert: "Bot: expert", ismcts: "Bot: search baseline" };
/** A bot's level as a person reads it ("Bot: hard"). */
export const botLabel = (level) => (LEVELS[level] ? t(LEVELS[level]) : `${t("bot")} ${level || ""}`.trim());

/** A person's page. */
export const playerUrl = (name) => `/players/${encodeURIComponent(name)}`;

/** Show a refusal under a form: the field it is about marked invalid, the message in the form's live region. */
export function showRefusal(form, refusal) {
  const out = form.querySelector(".form-error");
  out.textContent = refusal ? refusal.message : "";
  if (refusal) out.dataset.code = refusal.code; else delete out.dataset.code;
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  const bad = refusal && refusal.field ? form.querySelector(`input[name='${refusal.field}']`) : null;
  if (bad) { bad.setAttribute("aria-invalid", "true"); bad.focus(); }
}

/** The name + password fields of a form (ids prefixed by ``prefix``), the error's live region and a submit button labelled ``submitLabel``. */
export function credentialFields(prefix, submitLabel, newPassword) {
  return `<div class="field"><label for="${prefix}-name">${esc(t("Name"))}</label>
<input id="${prefix}-name" name="name" required minlength="3" maxlength="20" autocomplete="username" spellcheck="false" aria-describedby="${prefix}-error"></div>
<div class="field"><label for="${prefix}-password">${esc(t("Password"))}</label>
<input id="${prefix}-password" name="password" type="password" required ${newPassword ? 'minlength="8" autocomplete="new-password"' : 'autocomplete="current-password"'} aria-describedby="${prefix}-error"></div>
<p class="form-error" id="${prefix}-error" role="alert"></p>
<button class="primary" type="submit" id="${prefix}-submit">${esc(submitLabel)}</button>`;
}

/** A modal dialog appended to the page: ``{dialog, form}``; Cancel and Escape close it. */
export function makeDialog(id, title, inner) {
  const dialog = document.createElement("dialog");
  dialog.id = id; dialog.className = "sheet-dialog";
  dialog.setAttribute("aria-labelledby", `${id}-title`);
  dialog.innerHTML = `<form method="dialog" novalidate><h2 id="${id}-title">${esc(title)}</h2>${inner}
<button type="button" class="cancel">${esc(t("Cancel"))}</button></form>`;
  document.body.append(dialog);
  const form = dialog.querySelector("form");
  form.querySelector(".cancel").addEventListener("click", () => dialog.close());
  return { dialog, form };
}

/** Open the sign-in dialog; on success the page reloads as the signed-in person. */
export function openSignIn() {
  document.getElementById("signin-dialog")?.remove();
  const { dialog, form } = makeDialog("signin-dialog", t("Sign in"),
    `<p class="hint">${esc(t("Sign in with the name and password of your account to play as yourself on this device."))}</p>${credentialFields("signin", t("Sign in"), false)}`);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = form.elements.name.value.trim(); const password = form.elements.password.value;
    if (!name || !password) { showRefusal(form, { code: "missing", message: t("Enter your name and password."), field: name ? "password" : "name" }); return; }
    const out = await signIn(name, password);
    if (!out.ok) { showRefusal(form, out.refusal); return; }
    dialog.close(); location.reload();
  });
  dialog.showModal();
  form.elements.name.focus();
}

/** Who you are, with links to your page and the leaderboard and a sign-in button (the lobby's and the pages' bar). */
export function renderIdentity(box, player) {
  if (!player) { box.innerHTML = `<p>${esc(t("The server could not start a session: your games will not be remembered."))}</p>`; return; }
  const link = `<a href="${playerUrl(player.name)}" id="my-page">${esc(player.name)}</a>`;
  const who = esc(t("Playing as {name}", { name: "\u0000" })).replace("\u0000", link);
  const kind = player.guest ? ` <span class="badge">${esc(t("guest"))}</span>` : "";
  box.innerHTML = `<p class="who" data-player="${esc(player.name)}" data-guest="${player.guest ? "1" : "0"}">${who}${kind}</p>
<p class="identity-links">${location.pathname === "/leaderboard" ? "" : `<a href="/leaderboard" id="leaderboard-link">${esc(t("Leaderboard"))}</a>`}
<button type="button" id="signin-open">${esc(t("Sign in"))}</button></p>
${player.guest ? `<p class="hint">${esc(t("Claim your name and a password on your page to keep your games on every device."))}</p>` : ""}`;
  box.querySelector("#signin-open").addEventListener("click", openSignIn);
}
