// Cards drawn as SVG by our own code. Suit symbols always; a four-colour deck on request.
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const TWO_COLOUR = { S: "#111", H: "#c00", D: "#c00", C: "#111" };
const FOUR_COLOUR = { S: "#111", H: "#c00", D: "#0050c8", C: "#007a2a" };

export function fourColour() { return localStorage.getItem("tapete.fourColour") === "1"; }
export function setFourColour(on) { localStorage.setItem("tapete.fourColour", on ? "1" : "0"); }

export function rankText(code) { return code[0] === "T" ? "10" : code[0]; }
/** A short text form: "10♥", "Q♠", "★". */
export function shortCard(code) {
  if (code[1] === "J" && code[0] !== "J") return code === "RJ" ? "★+" : code === "BJ" ? "★" : "★×";
  return rankText(code) + SUIT_SYMBOL[code[1]];
}

/** The SVG markup of one card (face up), 60×84 user units. */
export function cardSVG(code) {
  const joker = code.length === 2 && code[1] === "J" && "RBX".includes(code[0]);
  const colours = fourColour() ? FOUR_COLOUR : TWO_COLOUR;
  const colour = joker ? (code === "BJ" ? "#111" : "#c00") : colours[code[1]];
  const rank = joker ? "J" : rankText(code);
  const sym = joker ? "★" : SUIT_SYMBOL[code[1]];
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#555"/>
<text x="5" y="17" font-size="15" font-weight="700" fill="${colour}" font-family="sans-serif">${rank}</text>
<text x="5" y="32" font-size="14" fill="${colour}" font-family="sans-serif">${sym}</text>
<text x="32" y="62" font-size="30" text-anchor="middle" fill="${colour}" font-family="sans-serif">${sym}</text>
</svg>`;
}

/** The back of a card. */
export function backSVG() {
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<defs><pattern id="bk" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 8L8 0" stroke="#fff" stroke-width="1.5"/></pattern></defs>
<rect x="1" y="1" width="58" height="82" rx="6" fill="#2a4d8f" stroke="#555"/><rect x="6" y="6" width="48" height="72" rx="4" fill="url(#bk)"/></svg>`;
}

/** The order of suits in a sorted hand: ♠ ♥ ♣ ♦. */
export const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
