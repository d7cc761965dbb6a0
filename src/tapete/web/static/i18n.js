// Translations for the browser pages: the JSON catalog of /i18n/<lang>.json, looked up by msgid.
export const LANGUAGES = ["es", "ru", "en"];
export const LANGUAGE_NAMES = { es: "Español", ru: "Русский", en: "English" };
let messages = {};
let profiles = [];
let families = {};
export let lang = "en";

export function chooseLanguage() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && LANGUAGES.includes(q)) { localStorage.setItem("tapete.lang", q); return q; }
  const saved = localStorage.getItem("tapete.lang");
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function loadLanguage(l) {
  const r = await fetch(`/i18n/${l}.json`);
  const cat = await r.json();
  messages = cat.messages; profiles = cat.profiles; lang = l;
  families = cat.families || {};
  document.documentElement.lang = l;
  localStorage.setItem("tapete.lang", l);
  return cat;
}

function fill(s, params) {
  return s.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}
/** The translation of msgid, with {placeholders} filled from params. */
export function t(msgid, params) { return fill(messages[msgid] || msgid, params); }
/** The translation of msgid in a gettext context. */
export function tc(ctx, msgid, params) { return fill(messages[`${ctx}|${msgid}`] || msgid, params); }
export function profileList() { return profiles; }
/** A game family's title in the current language (its name when the catalog does not know it). */
export function familyTitle(name) { return families[name] || name; }
export function profileTitle(name) { const p = profileInfo(name); return p ? p.title : name; }
/** A profile of the catalog: name, title, description, family, renderer, players, … (or undefined). */
export function profileInfo(name) { return profiles.find((x) => x.name === name); }
export function number(n) { return typeof n === "number" ? n.toLocaleString(lang) : String(n ?? "–"); }

const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const JOKERS = { RJ: "big joker", BJ: "little joker", XJ: "extra joker" };
/** A card's name in the current language, e.g. "dama de picas". */
export function cardName(code) {
  if (JOKERS[code]) return tc("card", JOKERS[code]);
  return tc("card name", "{rank} of {suit}", { rank: tc("rank", RANK_NAMES[code[0]]), suit: tc("card name", SUIT_NAMES[code[1]]) });
}

/** Fill a <select> language switcher and reload the page's texts on change. */
export function languageSwitcher(select, onChange) {
  select.innerHTML = LANGUAGES.map((l) => `<option value="${l}" lang="${l}">${LANGUAGE_NAMES[l]}</option>`).join("");
  select.value = lang;
  select.addEventListener("change", async () => { await loadLanguage(select.value); onChange(); });
}

/** Translate every element with data-i18n (text) or data-i18n-label (aria-label). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}
