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

/** The SVG markup of one card (face up), 60×84 user units: corner indices, a big pip or a framed court letter. */
export function cardSVG(code) {
  const joker = code.length === 2 && code[1] === "J" && "RBX".includes(code[0]);
  const colours = fourColour() ? FOUR_COLOUR : TWO_COLOUR;
  const colour = joker ? (code === "BJ" ? "#111" : "#c00") : colours[code[1]];
  const rank = joker ? "J" : rankText(code);
  const sym = joker ? "★" : SUIT_SYMBOL[code[1]];
  const narrow = rank === "10" ? ' textLength="17" lengthAdjust="spacingAndGlyphs"' : "";
  const court = !joker && "JQK".includes(rank);
  const middle = joker
    ? `<text x="33" y="56" font-size="26" text-anchor="middle" fill="${colour}">★</text><text x="33" y="72" font-size="8" text-anchor="middle" fill="${colour}" font-weight="700">JOKER</text>`
    : court
      ? `<rect x="17" y="22" width="33" height="46" rx="3" fill="${colour}" fill-opacity=".08" stroke="${colour}" stroke-width="1.2"/><text x="33.5" y="53" font-size="24" font-weight="700" text-anchor="middle" fill="${colour}" font-family="Georgia, serif">${rank}</text><text x="33.5" y="64" font-size="10" text-anchor="middle" fill="${colour}">${sym}</text>`
      : `<text x="34" y="62" font-size="${rank === "A" ? 34 : 28}" text-anchor="middle" fill="${colour}">${sym}</text>`;
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="6" fill="#fff" stroke="#8a8a8a" stroke-width="1.5"/>
<g font-family="system-ui, sans-serif" fill="${colour}"><text x="3.5" y="17" font-size="16" font-weight="800"${narrow}>${rank}</text>
<text x="3.5" y="32" font-size="15">${sym}</text></g>${middle}
<g transform="rotate(180 30 42)" font-family="system-ui, sans-serif" fill="${colour}"><text x="3.5" y="17" font-size="12" font-weight="800">${rank}</text></g>
</svg>`;
}

/** The back of a card. */
export function backSVG() {
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<defs><pattern id="bk" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 8L8 0M0 0L8 8" stroke="#f3d9a4" stroke-width=".8"/></pattern></defs>
<rect x="1" y="1" width="58" height="82" rx="6" fill="#8c1d2c" stroke="#fff" stroke-width="1.5"/><rect x="5" y="5" width="50" height="74" rx="4" fill="url(#bk)" stroke="#f3d9a4" stroke-width="1"/></svg>`;
}

/** The order of suits in a sorted hand: ♠ ♥ ♣ ♦. */
export const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
