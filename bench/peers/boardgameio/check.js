// Checks the port before it is measured: games of random legal moves end, no card is lost or made, a move the
// rules forbid changes nothing, and a seat's view holds neither another hand nor the draw pile.
// Usage: node check.js [GAMES]   (exits non-zero on the first broken rule)

const { Client } = require('boardgame.io/client');
const { BloedeKuh, SPECIES, cardsIn } = require('./bloede_kuh');

const GAMES = Number(process.argv[2] || 20);
const DECK = 72;
const MAX_MOVES = 5000;

function fail(message) {
  process.stderr.write(`check.js: ${message}\n`);
  process.exit(1);
}

// A random legal move of the seat that acts, and a move of that seat the rules forbid (a card it lacks), if any.
function moves(G, ctx, pick) {
  const open = ['draw', 'discard'].filter((source) => (source === 'draw' ? G.secret.draw : G.discard).length);
  const seat = ctx.activePlayers
    ? Object.keys(ctx.activePlayers).find((id) => G.choices[id] === undefined)
    : ctx.currentPlayer;
  const held = SPECIES.filter((species) => G.hands[seat][species] > 0);
  const lacking = SPECIES.find((species) => G.hands[seat][species] === 0);
  const stage = ctx.activePlayers ? ctx.activePlayers[seat] : null;
  if (stage === 'take') return { seat, legal: ['take', pick(open)], illegal: null };
  if (stage === 'horse') return { seat, legal: ['passCard', pick(held)], illegal: lacking && ['passCard', lacking] };
  const pairs = SPECIES.filter((species) => G.hands[seat][species] >= 2);
  const roll = Math.random();
  let legal = ['discard', pick(held)];
  if (roll < 0.2 && pairs.length) legal = ['discardPair', pick(pairs)];
  else if (roll < 0.3) legal = ['pass', open.length ? pick(open) : undefined];
  return { seat, legal, illegal: lacking && ['discard', lacking] };
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];
let played = 0;
for (let game = 0; game < GAMES; game++) {
  const client = Client({ game: { ...BloedeKuh, seed: `check-${game}` }, numPlayers: 4 });
  client.start();
  // The store holds the whole state; getState() would give the current player's view.
  const state = () => client.store.getState();
  let count = 0;
  while (!state().ctx.gameover) {
    if (++count > MAX_MOVES) fail(`game ${game} has not ended after ${MAX_MOVES} moves`);
    const { G, ctx, _stateID } = state();
    const cards = Object.values(G.hands).reduce((sum, hand) => sum + cardsIn(hand), 0);
    if (cards + G.secret.draw.length + G.discard.length !== DECK) fail(`game ${game}: cards do not add up to ${DECK}`);
    if (G.secret.draw.length === 0 && G.discard.length > 0) fail(`game ${game}: the draw pile was not refilled`);
    const { seat, legal, illegal } = moves(G, ctx, pick);
    client.updatePlayerID(seat);
    if (illegal) {
      client.moves[illegal[0]](illegal[1]);
      if (state()._stateID !== _stateID) fail(`game ${game}: ${illegal.join(' ')} by seat ${seat} was accepted`);
    }
    client.moves[legal[0]](legal[1]);
    if (state()._stateID === _stateID) fail(`game ${game}: ${legal.join(' ')} by seat ${seat} was refused`);
    const view = BloedeKuh.playerView({ G: state().G, ctx: state().ctx, playerID: seat });
    const other = String((Number(seat) + 1) % 4);
    if ('secret' in view || 'sheep' in view.hands[other] || !('sheep' in view.hands[seat])) {
      fail(`game ${game}: seat ${seat}'s view shows what it must not, or not its own hand`);
    }
  }
  played += 1;
  client.stop();
}
console.log(`check.js: ${played} games of random legal moves, every rule held`);
