// "How to play", per game: a few lines in our own words (the numbers and rulings are RULES.md's).
import {h} from "./dom.js";
import {t} from "./i18n.js";
import {guideLink} from "./tutorial.js";

// How many lines each game's panel has (the lines themselves are in the language tables).
const HOW = {
  "life-is-life": 5,
  "animals-on-board": 4,
  "bloede-kuh": 5,
  "zop-zoo": 4,
};

/** The folded "How to play" panel of a game. */
export function rulesPanel(game) {
  const count = HOW[game];
  if (!count) return null;
  const lines = Array.from({length: count}, (_, i) => t(`rules.${game}.${i + 1}`));
  return h("details", {class: "panel rules", id: "rules"}, h("summary", {}, t("rules.title")), h("ul", {}, lines.map((line) => h("li", {}, line))), guideLink(game));
}
