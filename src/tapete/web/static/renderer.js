// Family renderers: what the table and the replay viewer draw differently for each game family.
//
// The server names a family's renderer (the `renderer` of `tapete.families`): the table gets it
// in `welcome`, the replay viewer from the profile catalog (/i18n/<lang>.json). Each renderer is
// the module `family/<renderer>.js` and exports the same interface:
//
//   seatStats(view, seat, ctx) -> string[]        the stats under a seat's name (ctx.commonStats(seat)
//                                                 gives cards, score, bags and tokens)
//   extras(view, ctx) -> string[]                 lines of plain text above the centre of the table
//   center(view, ctx) -> html                     the centre of the table (trick or last play)
//   controls(view, ctx)                           the action controls: ctx.group(), ctx.button(),
//                                                 ctx.tool() (a button beside Hint), ctx.act(action)
//   cardClick(card, ctx)                          a click on a card of the hand (play it, or select it)
//   selectsCards: boolean                         cards are selected (aria-pressed) rather than played
//   sortHand(cards) -> cards                      the hand in the order it is shown
//   actionText(action) -> string                  an action in a few words ("9♠ 9♥", "Nil")
//   announce(action, prev, view, ctx) -> string[] what the screen reader hears after an action
//   gameOver(over, ctx) -> html                   the family's part of the game-over summary
//   handSummary(history, ctx) -> html             the summary of finished hands (may be "")
//   replaySeats(hand) -> number                   how many seats a replayed hand has
//   replaySteps(hand) -> [{kind, k?}]             the steps of one replayed hand, "end" excluded
//   replayStep(hand, step, names) -> {stats, center}
//                                                 one step: stats[seat] is a list of strings
//
// `ctx` is built by the page (see table.js and replay.js): names of seats and sides, the
// current selection, the page's `ui` state the renderer may keep (e.g. showLast) and helpers.

const REQUIRED = [
  "seatStats", "extras", "center", "controls", "cardClick", "sortHand", "actionText", "announce",
  "gameOver", "handSummary", "replaySeats", "replaySteps", "replayStep",
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
