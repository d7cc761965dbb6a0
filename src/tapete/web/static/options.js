// The lobby's option form: one control per option of the profile's family, built from the option
// specifications of /i18n/<lang>.json (kind, allowed values, range), checked before the server sees them.
import { t, number } from "./i18n.js";
import { esc } from "./summary.js";

/** Options shown unfolded; the others sit under "Advanced". */
const BASIC = ["target", "floor", "bag_limit", "tokens", "first_lead", "deals"];
/** Options left to the JSON box (their controls would be unwieldy). */
const JSON_ONLY = ["removed"];

export const LABELS = {
  players: "Players", partnership: "Partners sit opposite", jokers: "Jokers", target: "Target score",
  floor: "Losing score (the game ends at or below it)", bag_rule: "Bag rule", bag_limit: "Bag limit",
  special_bids: "Special bids", blind_six: "Blind six", blind_six_margin: "Points behind the leader for a blind six",
  prize_jacks: "Prize jacks", tokens: "Victory tokens (a tourney)", seating_draw: "Seating draw",
  first_lead: "First lead", dealer_sits_out_first_trick: "The dealer sits out the first trick", deals: "Deals in a match",
};
export const VALUES = {
  accumulate: "Every 10 bags cost 100", limit: "Reaching the limit costs 10 per bag", per_hand: "Bags are penalised in every hand",
  once: "Once per game", unlimited: "Unlimited", left_of_dealer: "Left of the dealer", "2C": "Holder of the 2♣",
  "3H": "Holder of the 3♥", "3S": "Holder of the 3♠", "1F": "1F", "2F": "2F", B6: "B6", BN: "BN", SM: "SM",
  JD: "J♦", JC: "J♣", JH: "J♥",
};
const label = (name) => (LABELS[name] ? t(LABELS[name]) : name);
const valueLabel = (v) => (VALUES[v] && /[a-z]/.test(VALUES[v]) ? t(VALUES[v]) : VALUES[v] || v);

function control(spec, value) {
  const id = `opt-${spec.name}`;
  const err = `<p class="field-error" id="${id}-error"></p>`;
  if (spec.kind === "bool") {
    return `<div class="field"><label class="check"><input type="checkbox" id="${id}" data-option="${spec.name}"${value ? " checked" : ""}> ${esc(label(spec.name))}</label></div>`;
  }
  if (spec.kind === "choice") {
    return `<div class="field"><label for="${id}">${esc(label(spec.name))}</label><select id="${id}" data-option="${spec.name}">${spec.allowed.map((a) => `<option value="${esc(a)}"${a === value ? " selected" : ""}>${esc(valueLabel(a))}</option>`).join("")}</select></div>`;
  }
  if (spec.kind === "subset") {
    const have = new Set(value || []);
    return `<fieldset class="field" data-option="${spec.name}" id="${id}"><legend>${esc(label(spec.name))}</legend>${spec.allowed.map((a) => `<label class="check"><input type="checkbox" value="${esc(a)}"${have.has(a) ? " checked" : ""}> ${esc(valueLabel(a))}</label>`).join("")}</fieldset>`;
  }
  if (spec.kind === "int") {
    const range = [spec.min !== null ? `min="${spec.min}"` : "", spec.max !== null ? `max="${spec.max}"` : ""].join(" ");
    const none = spec.nullable ? ` placeholder="${esc(t("none"))}"` : "";
    return `<div class="field"><label for="${id}">${esc(label(spec.name))}</label><input type="number" inputmode="numeric" id="${id}" data-option="${spec.name}" ${range}${none} value="${value === null || value === undefined ? "" : esc(value)}" aria-describedby="${id}-error">${err}</div>`;
  }
  return `<div class="field"><label for="${id}">${esc(label(spec.name))}</label><input id="${id}" data-option="${spec.name}" value="${esc(value ?? "")}"></div>`;
}

/** Fill the basic and advanced grids with the profile's option controls. */
export function renderOptions(profile, basicBox, advancedBox) {
  const specs = (profile.specs || []).filter((s) => !JSON_ONLY.includes(s.name));
  const values = profile.options || {};
  basicBox.innerHTML = specs.filter((s) => BASIC.includes(s.name)).map((s) => control(s, values[s.name])).join("");
  advancedBox.innerHTML = specs.filter((s) => !BASIC.includes(s.name)).map((s) => control(s, values[s.name])).join("");
}

/** What an integer option allows, in words. */
function rangeText(spec) {
  if (spec.min !== null && spec.max !== null) return t("a whole number from {min} to {max}", { min: number(spec.min), max: number(spec.max) });
  if (spec.min !== null) return t("a whole number of at least {min}", { min: number(spec.min) });
  if (spec.max !== null) return t("a whole number of at most {max}", { max: number(spec.max) });
  return t("a whole number");
}

/** Check one value against its spec: an error message in the page's language, or "". */
export function checkValue(spec, value) {
  const name = label(spec.name);
  if (value === null) return spec.nullable ? "" : t("{option}: {allowed}", { option: name, allowed: rangeText(spec) });
  if (spec.kind === "int") {
    const ok = Number.isInteger(value) && (spec.min === null || value >= spec.min) && (spec.max === null || value <= spec.max);
    return ok ? "" : t("{option}: {allowed}", { option: name, allowed: rangeText(spec) });
  }
  if (spec.kind === "bool") return typeof value === "boolean" ? "" : t("{option}: yes or no", { option: name });
  if (spec.kind === "choice") return spec.allowed.includes(value) ? "" : t("{option}: one of {values}", { option: name, values: spec.allowed.map(valueLabel).join(", ") });
  if (spec.kind === "subset") return Array.isArray(value) && value.every((v) => spec.allowed.includes(v)) ? "" : t("{option}: a list of {values}", { option: name, values: spec.allowed.map(valueLabel).join(", ") });
  return "";
}

/**
 * The overrides the form asks for (only values that differ from the profile), with the JSON box merged
 * last; `errors` lists what is wrong (each shown beside its control as well).
 */
export function collectOptions(profile, form, jsonText) {
  const specs = Object.fromEntries((profile.specs || []).map((s) => [s.name, s]));
  const values = profile.options || {};
  const out = {}; const errors = [];
  for (const el of form.querySelectorAll("[data-option]")) {
    const spec = specs[el.dataset.option]; if (!spec) continue;
    let v;
    if (spec.kind === "bool") v = el.checked;
    else if (spec.kind === "subset") v = [...el.querySelectorAll("input:checked")].map((x) => x.value);
    else if (spec.kind === "int") v = el.value.trim() === "" ? null : Number(el.value);
    else v = el.value;
    const problem = checkValue(spec, v);
    const box = document.getElementById(`${el.id}-error`); if (box) box.textContent = problem;
    if (el.setAttribute) el.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) { errors.push(problem); continue; }
    const same = JSON.stringify(spec.kind === "subset" ? [...v].sort() : v) === JSON.stringify(spec.kind === "subset" ? [...(values[spec.name] || [])].sort() : values[spec.name] ?? null);
    if (!same) out[spec.name] = v;
  }
  let extra = {};
  try {
    extra = JSON.parse(jsonText || "{}");
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) throw new Error("not an object");
  } catch { errors.push(t("The options are not valid JSON.")); return { options: out, errors }; }
  for (const [k, v] of Object.entries(extra)) {
    if (!specs[k]) { errors.push(t("Unknown option: {name}", { name: k })); continue; }
    const problem = checkValue(specs[k], v);
    if (problem) errors.push(problem); else out[k] = v;
  }
  return { options: out, errors };
}
