// Each game's drawing and wording, by game type id; the rules themselves stay on the server.
import * as animalsOnBoard from "./animals_on_board.js";
import * as bloedeKuh from "./bloede_kuh.js";
import * as lifeIsLife from "./life_is_life.js";
import * as zopZoo from "./zop_zoo.js";

export const GAMES = {
  "life-is-life": {title: "Life is Life", ...lifeIsLife},
  "animals-on-board": {title: "Animals on Board", ...animalsOnBoard},
  "bloede-kuh": {title: "Blöde Kuh", ...bloedeKuh},
  "zop-zoo": {title: "Zop Zoo", ...zopZoo},
};

/** Return a game's module (a plain fallback for an unknown type). */
export function gameModule(type) {
  return GAMES[type] || {title: type, board: () => null, label: (a) => a.type, choices: () => [], describe: () => null};
}
