// The overlay sheet of the table (hand summary, game over): a modal dialog that takes the focus and
// gives it back when it closes.
const $ = (id) => document.getElementById(id);
let kind = null;
let before = null;

/** Show `html` in the sheet; `what` names it ("hand", "over"). */
export function openOverlay(html, what) {
  const sheet = $("summary");
  if (!kind) before = document.activeElement;
  kind = what;
  sheet.innerHTML = html;
  sheet.dataset.kind = what;
  $("overlay").hidden = false;
  document.body.classList.add("has-overlay");
  const first = sheet.querySelector("button.primary, button, a");
  (first || sheet).focus({ preventScroll: true });
}

export function closeOverlay() {
  $("overlay").hidden = true;
  $("summary").dataset.kind = "";
  document.body.classList.remove("has-overlay");
  kind = null;
  if (before && before.isConnected) before.focus({ preventScroll: true });
  before = null;
}

/** Whether the overlay is open (showing `what`, when given). */
export function overlayOpen(what) { return what ? kind === what : kind !== null; }

// Tab stays inside the dialog while it is open
document.addEventListener("keydown", (ev) => {
  if (!kind || ev.key !== "Tab") return;
  const items = [...$("summary").querySelectorAll("button, a[href], select, input")].filter((el) => !el.disabled);
  if (!items.length) return;
  const first = items[0], last = items[items.length - 1];
  if (ev.shiftKey && document.activeElement === first) { last.focus(); ev.preventDefault(); }
  else if (!ev.shiftKey && document.activeElement === last) { first.focus(); ev.preventDefault(); }
});
