// What matters, in view: when your turn begins, the part of the table you pick from (your hand, your ark, your
// row) is scrolled clear of the pinned turn line above and the move bar pinned to the window's foot; when the
// game ends, its result. The page moves only at those moments, and not while the reader is scrolling or typing.

const GAP = 8; // px of air between what is shown and a pinned bar
const QUIET_MS = 800; // a reader who scrolled this recently is looking somewhere on purpose
// Each game marks its place to pick from: your hand of cards (Blöde Kuh, Life is Life), your setup tiles then the
// centre's groups (Animals on Board), your row of stacks (Zop Zoo).
export const HAND = ".board-panel [data-pick-from]";
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

const typing = (el) => !!el && el !== document.body &&
  (el.isContentEditable || el.matches("textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=button])"));

/** Bring the hand or the result into view at their moments, unless the reader is elsewhere on purpose. */
export function viewFitter(root) {
  let scrolled = 0; // when the reader last scrolled (ms)
  let acts = 0; // how many things the reader has done (scrolled, clicked, pressed a key)
  let fittedAt = -1; // `acts` when the page last brought something into view
  const act = () => {
    acts += 1;
  };
  const scroll = () => {
    act();
    scrolled = Date.now();
  };
  const key = (e) => {
    act();
    // Keys scroll the page only when no control takes them (a pick's Space is a press, not a scroll).
    if (SCROLL_KEYS.has(e.key) && (e.target === document.body || e.target === document.documentElement)) scrolled = Date.now();
  };
  window.addEventListener("wheel", scroll, {passive: true});
  window.addEventListener("touchmove", scroll, {passive: true});
  window.addEventListener("pointerdown", act, {passive: true});
  window.addEventListener("keydown", key);

  const elsewhere = () => Date.now() - scrolled < QUIET_MS || typing(document.activeElement);

  /** The room between the pinned turn line and the move bar, as it stands once the page has scrolled. */
  function room() {
    const line = root.querySelector("#turn-line");
    const bar = root.querySelector("#actions");
    const top = (line ? line.offsetHeight : 0) + GAP;
    const bottom = window.innerHeight - (bar ? bar.offsetHeight : 0) - GAP;
    return {top, bottom};
  }

  /** Scroll by the least that shows `el` whole in the room (its top first when it is taller than the room). */
  function show(el, keep) {
    // Kept in view as the table redraws (a log line added above it) only while the reader has done nothing since.
    if (!el || (keep && fittedAt !== acts) || elsewhere()) return;
    fittedAt = acts;
    const {top, bottom} = room();
    const box = el.getBoundingClientRect();
    let dy = 0;
    if (box.bottom > bottom) dy = box.bottom - bottom;
    if (box.top - dy < top) dy = box.top - top;
    if (Math.abs(dy) < 1) return;
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({top: dy, behavior: smooth ? "smooth" : "auto"});
  }

  return {
    /** Your turn has begun (or, with `keep`, goes on): your hand and the move bar, together. */
    hand(keep = false) {
      if (root.querySelector("#actions")) show(root.querySelector(HAND), keep);
    },
    /** The game has ended: its result, from its heading down (as much as the window holds). */
    result(keep = false) {
      show(root.querySelector("#result"), keep);
    },
    stop() {
      window.removeEventListener("wheel", scroll);
      window.removeEventListener("touchmove", scroll);
      window.removeEventListener("pointerdown", act);
      window.removeEventListener("keydown", key);
    },
  };
}
