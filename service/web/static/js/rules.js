// "How to play", per game: a few lines in our own words (the numbers and rulings are RULES.md's).
import {h} from "./dom.js";

const HOW = {
  "life-is-life": [
    "Each phase, everyone gets ten cards and four rows of 1, 2, 3 and 4 cards lie face up.",
    "On your turn, take a whole row and lay down as many cards from your hand in its place (not the same cards back), or knock once you have traded this phase.",
    "After a knock everyone else has one more turn. Then, per animal, whoever holds strictly the most cards scores its value (the number on the card).",
    "Highest total loses no life, lowest loses two, the others one. Holding all the cats, rabbits or pigs is sudden death: everyone else loses a life.",
    "At zero lives you are out; the last player in wins.",
  ],
  "animals-on-board": [
    "At the start everyone keeps one of three tiles face down on their ark; the rest go to the centre.",
    "On your turn either split a group of two or more tiles into two groups and take a crate, or take a whole group, paying one crate a tile, and sit out the round.",
    "The last player left has one final turn. The game ends after a round in which someone has ten tiles.",
    "At departure every animal held exactly twice is thrown overboard. A single animal scores its number, each animal of a herd of three or more scores 5, each crate 1. Highest total wins.",
  ],
  "bloede-kuh": [
    "Three rounds; nine cards each. On your turn discard a card and do its action, discard a pair, or pass and take a card.",
    "Sheep: nothing. Pig: your left neighbour takes a card. Horse: everyone passes a card to the left at once. Cow: you draw a card.",
    "A pair sends that animal's \"Nobody wants it\" card to your left neighbour, or on from whoever holds it. Its value grows each round.",
    "The round ends when the player to move has no cards: most cards left costs 4 points, second most 2.",
    "After three rounds the lowest total wins.",
  ],
  "zop-zoo": [
    "Everyone has a row of six white cards. Draw a black card (or take the discard pile's top card when it matches) and cover a white card of the same animal; a match lets you draw again.",
    "Wild cards cover any card; a MOLE digs matches out of the discard pile; HYENA, RACCOON and EARTHWORM move cards between rows; side bonus cards add their category's points.",
    "The first player whose every card scores wins the round and scores all of them; the others score their side bonuses and uncovered minus cards only.",
    "After the round in which someone reaches the target, the highest total wins.",
  ],
};

/** The folded "How to play" panel of a game. */
export function rulesPanel(game) {
  const lines = HOW[game];
  if (!lines) return null;
  return h("details", {class: "panel rules", id: "rules"}, h("summary", {}, "How to play"), h("ul", {}, lines.map((line) => h("li", {}, line))));
}
