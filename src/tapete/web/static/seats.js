// Seats around the felt: where each seat sits as seen from yours, and its badge.
import { t, number } from "./i18n.js";
import { esc } from "./summary.js";

/** Screen positions by number of players, for the seats after yours in the order of play going clockwise. */
const AROUND = {
  2: ["top"],
  3: ["left", "right"],
  4: ["left", "top", "right"],
  5: ["left", "topleft", "topright", "right"],
  6: ["left", "topleft", "top", "topright", "right"],
};

/**
 * The position of `seat` on screen: you at the bottom; the next seat in the order of play on your
 * left when play goes clockwise, on your right when it goes counter-clockwise.
 */
export function position(seat, me, n, direction) {
  const r = (seat - (me ?? 0) + n) % n;
  if (r === 0) return "bottom";
  const ring = AROUND[n] || AROUND[6];
  const k = direction === "counterclockwise" ? n - r : r;
  return ring[Math.min(k - 1, ring.length - 1)];
}

/** A bot's icon (SVG, not an emoji): a robot head with one pip per level. */
export function botIcon(level, label) {
  const pips = { easy: 1, normal: 2, hard: 3, ismcts: 4 }[level] || 1;
  const dots = Array.from({ length: pips }, (_, i) => `<circle cx="${12 - (pips - 1) * 2.5 + i * 5}" cy="19.5" r="1.6" fill="currentColor"/>`).join("");
  return `<svg class="bot-icon" viewBox="0 0 24 24" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>
<path d="M12 2v3" stroke="currentColor" stroke-width="1.6"/><circle cx="12" cy="2.2" r="1.4" fill="currentColor"/>
<rect x="4" y="5" width="16" height="11" rx="3" fill="none" stroke="currentColor" stroke-width="1.8"/>
<circle cx="9" cy="10.5" r="1.8" fill="currentColor"/><circle cx="15" cy="10.5" r="1.8" fill="currentColor"/>${dots}</svg>`;
}

/** A person's icon. */
export function personIcon(label) {
  return `<svg class="bot-icon" viewBox="0 0 24 24" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>
<circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4 21c0-4.5 3.6-7 8-7s8 2.5 8 7z" fill="currentColor"/></svg>`;
}

/** The circular arrow that shows which way play goes round the table. */
export function directionMark(direction) {
  const ccw = direction === "counterclockwise";
  const path = ccw ? "M20 12a8 8 0 1 1-3-6.2" : "M4 12a8 8 0 1 0 3-6.2";
  const head = ccw ? "M17 2v4.2h-4.2" : "M7 2v4.2h4.2";
  return `<svg viewBox="0 0 24 24" width="28" height="28"><path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/><path d="${head}" fill="none" stroke="currentColor" stroke-width="2"/></svg>`
    + `<span>${esc(t(ccw ? "Play goes counter-clockwise" : "Play goes clockwise"))}</span>`;
}

/**
 * One seat's badge. `chips`: the family's [{text, label?, cls?}] (bid/won, score, bags, …).
 * `info`: {name, pos, toAct, thinking, bot, level, botLabel, dealer, partner, offline, team}.
 */
export function badge(seat, info, chips) {
  const cls = ["player", `pos-${info.pos}`];
  if (info.toAct) cls.push("to-act");
  if (info.team !== undefined) cls.push(`team-${info.team}`);
  const icon = info.bot ? botIcon(info.level, info.botLabel) : personIcon(t("Player"));
  const tags = [];
  if (info.dealer) tags.push(`<span class="chip dealer" title="${esc(t("dealer"))}"><abbr title="${esc(t("dealer"))}" aria-label="${esc(t("dealer"))}">${esc(t("D"))}</abbr></span>`);
  if (info.partner) tags.push(`<span class="chip partner">${esc(t("partner"))}</span>`);
  if (info.offline) tags.push(`<span class="chip offline">${esc(t("offline"))}</span>`);
  const thinking = info.toAct ? `<span class="thinking" role="img" aria-label="${esc(info.thinking ? t("thinking") : t("to play"))}"><i></i><i></i><i></i></span>` : "";
  return `<div class="${cls.join(" ")}" data-seat="${seat}" data-pos="${info.pos}" aria-current="${info.toAct ? "true" : "false"}">
<div class="who">${icon}<span class="name">${esc(info.name)}</span>${thinking}</div>
<div class="stats">${tags.join("")}${chips.map((c) => `<span class="chip${c.cls ? " " + c.cls : ""}"${c.label ? ` title="${esc(c.label)}"` : ""}>${c.label ? `<span class="sr-only">${esc(c.label)}: </span><span aria-hidden="true">${esc(c.text)}</span>` : esc(c.text)}</span>`).join("")}</div></div>`;
}

export { number };
