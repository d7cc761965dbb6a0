// Family renderers: what the table and the replay viewer draw differently for each game family.
//
// The server names a family's renderer (the `renderer` of `tapete.families`): the table gets it
// in `welcome`, the replay viewer from the profile catalog (/i18n/<lang>.json). Each renderer is
// the module `family/<renderer>.js` and exports the same interface:
//
//   playDirection() -> "clockwise"|"counterclockwise"  which way turns go (where the seats sit)
//   settings() -> [{key, label}]                  the family's own checkboxes (kept in localStorage)
//   seatChips(view, seat, ctx) -> [{text, label?, cls?}]
//                                                 the chips of a seat's badge (bid/won, cards, pass …);
//                                                 ctx.commonChips(seat) gives score, bags and tokens
//   extras(view, ctx) -> string[]                 lines of plain text on the felt
//   center(view, ctx) -> html                     the centre of the table: the trick or the play to beat,
//                                                 each card at ctx.pos(seat); ctx.held is a completed
//                                                 trick being shown (ctx.held.collect: going to its winner)
//   controls(view, ctx)                           the action controls: ctx.group(), ctx.button(),
//                                                 ctx.tool() (a button beside Hint), ctx.act(action)
//   cardClick(card, ctx)                          a tap on a card (lift it with ctx.lift, play it, select it)
//   cardDrop(card, ctx)                           a card dragged up to the table
//   selectsCards: boolean                         cards are selected (aria-pressed) rather than played
//   sortHand(cards) -> cards                      the hand in the order it is shown
//   actionText(action) -> string                  an action in a few words ("9♠ 9♥", "Nil")
//   announce(action, prev, view, ctx) -> string[] what the screen reader hears after an action
//   trickDone(prev, view, action, handOver) -> {trick, interim, last} | null
//                                                 a trick (round) this action completed, shown before
//                                                 the next state; interim: the view to show meanwhile
//   handOverlay(handOver, history, ctx) -> html   the end-of-hand summary
//   gameOver(over, history, ctx) -> html          the family's part of the game-over summary
//   replaySeats(hand) -> number                   how many seats a replayed hand has
//   replaySteps(hand) -> [{kind, k?}]             the steps of one replayed hand, "end" excluded
//   replayStep(hand, step, names) -> {stats, center, played}
//                                                 one step: stats[seat] is a list of strings, played
//                                                 the cards played so far in the hand
//   replayEnd(hand, prev, index, names, sideName) -> html
//                                                 a replayed hand's summary or settlement
//
// `ctx` is built by the page (see table.js and replay.js): names of seats and sides, the
// current selection, the page's `ui` state the renderer may keep (e.g. showLast) and helpers;
// at the table ctx.phrase(seat, own, other, params) says a sentence about a seat in the
// second person when the seat is yours ("You win the trick") and with its name otherwise.

const REQUIRED = [
  "playDirection", "settings", "seatChips", "extras", "center", "controls", "cardClick", "cardDrop", "sortHand",
  "actionText", "announce", "trickDone", "handOverlay", "gameOver", "replaySeats", "replaySteps", "replayStep", "replayEnd",
];
const cache = new Map();

/** The renderer module called `name` (loaded once, checked for the whole interface). */
export function loadRenderer(name) {
  if (!/^[a-z][a-z0-9_-]*$/.test(String(name))) return Promise.reject(new Error(`bad renderer name ${JSON.stringify(name)}`));
  if (!cache.has(name)) {
    cache.set(name, import(`./family/${name}.js`).then((mod) => {
      const missing = REQUIRED.filter((k) => typeof mod[k] !== "function");
      if (typeof mod.selectsCards !== "boolean") missing.push("selectsCards");
      if (missing.length) throw new Error(`renderer ${name} lacks ${missing.join(", ")}`);
      return mod;
    }));
  }
  return cache.get(name);
}
