// Your hand as one overlapping fan at the bottom: every card in one row at any width, legal cards
// raised, the rest dimmed; tap to lift and tap again to play, drag up to play, or the keyboard.
import { cardName } from "./i18n.js";
import { cardSVG, backSVG } from "./cards.js";
import { esc } from "./summary.js";

/** The overlap of `n` cards of width `w` in a row `width` wide (the step from one card to the next). */
export function step(width, n, w) {
  if (n <= 1) return w;
  return Math.max(8, Math.min(w * 0.72, (width - w) / (n - 1)));
}

/** Lay the fan out: the step, and a slight arc (each card turned a little, the ends lower). */
export function layout(box) {
  const cards = [...box.querySelectorAll(".card")];
  if (!cards.length) return;
  const w = cards[0].offsetWidth || 60;
  const width = box.clientWidth - 24; // room for the turned cards at the ends
  const s = step(width, cards.length, w);
  box.style.setProperty("--step", `${s - w}px`);
  const total = s * (cards.length - 1) + w;
  box.style.setProperty("--pad", `${8 + Math.max(0, (width - total) / 2)}px`);
  const mid = (cards.length - 1) / 2;
  cards.forEach((c, i) => {
    const d = cards.length > 1 ? (i - mid) / Math.max(mid, 1) : 0;
    c.style.setProperty("--rot", `${(d * Math.min(4, cards.length * 0.4)).toFixed(2)}deg`);
    c.style.setProperty("--drop", `${(d * d * Math.min(7, cards.length * 0.5)).toFixed(1)}px`);
    c.style.zIndex = String(i + 1);
  });
}

/**
 * The fan's markup. `state`: {cards, faceDown (a number of backs), playable (Set), myTurn, selected (Set),
 * lifted, hinted (Set), selects (cards are selected rather than played)}.
 */
export function fanHTML(st) {
  if (st.faceDown) return Array.from({ length: st.faceDown }, () => `<span class="card facedown">${backSVG()}</span>`).join("");
  return st.cards.map((c) => {
    const cls = ["card"];
    if (st.myTurn && st.playing) cls.push(st.playable.has(c) ? "playable" : "dimmed");
    if (st.selected.has(c)) cls.push("selected");
    if (st.lifted === c) cls.push("lifted");
    if (st.hinted.has(c)) cls.push("hinted");
    const pressed = st.selects ? ` aria-pressed="${st.selected.has(c)}"` : "";
    return `<button type="button" class="${cls.join(" ")}" data-card="${c}"${pressed} aria-label="${esc(cardName(c))}">${cardSVG(c)}</button>`;
  }).join("");
}

/**
 * Pointer and keyboard input on the fan: `onTap(card)` for a tap or Enter, `onDrop(card)` when a card
 * is dragged up out of the hand and let go.
 */
export function bindFan(box, { onTap, onDrop }) {
  let drag = null;
  box.addEventListener("pointerdown", (ev) => {
    const b = ev.target.closest("button.card"); if (!b || ev.button > 0) return;
    drag = { b, x: ev.clientX, y: ev.clientY, moved: false, id: ev.pointerId };
  });
  box.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 12) return;
    if (!drag.moved) { drag.moved = true; try { drag.b.setPointerCapture(ev.pointerId); } catch { /* gone */ } drag.b.classList.add("dragging"); }
    drag.b.style.translate = `${dx}px ${dy}px`;
  });
  const end = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag; drag = null;
    if (!d.moved) return; // a tap: the click handler does it
    d.b.classList.remove("dragging"); d.b.style.translate = "";
    d.b.dataset.dragged = "1"; setTimeout(() => { delete d.b.dataset.dragged; }, 0);
    const top = box.getBoundingClientRect().top;
    if (ev.type === "pointerup" && ev.clientY < top - 10) onDrop(d.b.dataset.card);
  };
  box.addEventListener("pointerup", end);
  box.addEventListener("pointercancel", end);
  box.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.card"); if (!b || b.dataset.dragged) return;
    onTap(b.dataset.card);
  });
  box.addEventListener("keydown", (ev) => {
    const cards = [...box.querySelectorAll("button.card")];
    const i = cards.indexOf(document.activeElement); if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowLeft") j = i - 1; else if (ev.key === "ArrowRight") j = i + 1;
    else if (ev.key === "Home") j = 0; else if (ev.key === "End") j = cards.length - 1;
    if (j === null) return;
    cards[Math.max(0, Math.min(cards.length - 1, j))].focus(); ev.preventDefault();
  });
}
