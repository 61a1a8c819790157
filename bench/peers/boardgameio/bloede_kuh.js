// A simplified Blöde Kuh for boardgame.io 0.50: the peer that bench/bench_peer.py measures Menagerie against.
//
// Kept from domain/games/bloede_kuh: 72 cards (18 each of sheep, pig, horse, cow), 9 to each of four seats,
// the rest a hidden draw pile; a turn is a discard, a pair or a pass with a take; a cow draws a card, a pig
// makes the left neighbour take one, a horse makes every seat with cards pass one to the left, chosen in
// secret; a pair moves that species' Nobody-wants-it card to the left of its holder; the draw pile is
// refilled from the discard pile as soon as it empties; a round ends when the turn's player has no cards,
// 4 and 2 minus points go to the most and second-most cards left, three rounds, lowest total wins.
// Left out: the rulings on ties of seats with no cards and the lazy refill of rules version 1.
//
// Hidden: other seats' hands (their sizes are shown), the draw pile's order (its size is shown) and other
// seats' horse choices, in the state's views (`playerView`) and in the log (`redact` on the choice).

const { INVALID_MOVE } = require('boardgame.io/core');

const SPECIES = ['sheep', 'pig', 'horse', 'cow'];
const PER_SPECIES = 18;
const HAND_SIZE = 9;
const ROUNDS = 3;
const NWI_VALUES = { sheep: [1, 2, 3], pig: [2, 3, 4], horse: [3, 4, 5], cow: [4, 5, 6] };
const SOURCES = ['draw', 'discard'];

const leftOf = (ctx, seat) => String((Number(seat) + 1) % ctx.numPlayers);
const cardsIn = (hand) => SPECIES.reduce((sum, species) => sum + hand[species], 0);

function emptyHand() {
  return { sheep: 0, pig: 0, horse: 0, cow: 0 };
}

function deal(G, ctx, random) {
  const deck = random.Shuffle(SPECIES.flatMap((species) => Array(PER_SPECIES).fill(species)));
  for (let seat = 0; seat < ctx.numPlayers; seat++) {
    const hand = emptyHand();
    for (const card of deck.slice(seat * HAND_SIZE, (seat + 1) * HAND_SIZE)) hand[card] += 1;
    G.hands[seat] = hand;
  }
  G.secret.draw = deck.slice(ctx.numPlayers * HAND_SIZE);
  G.discard = [];
  G.nwi = { sheep: null, pig: null, horse: null, cow: null };
  G.round += 1;
}

function setup({ ctx, random }) {
  const G = {
    round: 0,
    hands: {},
    secret: { draw: [] },
    discard: [],
    nwi: {},
    choices: {},
    minus: Array(ctx.numPlayers).fill(0),
    nwiPoints: Array(ctx.numPlayers).fill(0),
    results: [],
    over: false,
  };
  deal(G, ctx, random);
  return G;
}

// Rules version 2: an emptied draw pile is refilled from the whole discard pile before anyone acts again.
function refill(G, random) {
  if (G.secret.draw.length === 0 && G.discard.length > 0) {
    G.secret.draw = random.Shuffle(G.discard);
    G.discard = [];
  }
}

function take(G, seat, source, random) {
  const pile = source === 'draw' ? G.secret.draw : G.discard;
  G.hands[seat][pile.pop()] += 1;
  refill(G, random);
}

function minusPoints(left) {
  const levels = [...new Set(left.filter((n) => n > 0))].sort((a, b) => b - a);
  const points = left.map(() => 0);
  if (levels.length === 0) return points;
  const most = left.flatMap((n, seat) => (n === levels[0] ? [seat] : []));
  if (most.length > 1) {
    for (const seat of most) points[seat] = 2;
    return points;
  }
  points[most[0]] = 4;
  if (levels.length > 1) left.forEach((n, seat) => n === levels[1] && (points[seat] = 2));
  return points;
}

// The turn's player's turn is over: the round ends if its hand is empty, and the game after the third.
function endTurn(G, ctx, events, random) {
  const player = ctx.currentPlayer;
  if (cardsIn(G.hands[player]) === 0) {
    const left = Object.keys(G.hands).map((seat) => cardsIn(G.hands[seat]));
    const minus = minusPoints(left);
    minus.forEach((points, seat) => (G.minus[seat] += points));
    for (const species of SPECIES) {
      const holder = G.nwi[species];
      if (holder !== null) G.nwiPoints[holder] += NWI_VALUES[species][G.round - 1];
    }
    G.results.push({ round: G.round, ender: player, cardsLeft: left, minus });
    if (G.round >= ROUNDS) {
      G.over = true;
      return;
    }
    deal(G, ctx, random);
  }
  events.endTurn();
}

const sources = (G) => SOURCES.filter((source) => (source === 'draw' ? G.secret.draw : G.discard).length > 0);

function discard({ G, ctx, events, random, playerID }, card) {
  if (!SPECIES.includes(card) || G.hands[playerID][card] === 0) return INVALID_MOVE;
  G.hands[playerID][card] -= 1;
  G.discard.push(card);
  refill(G, random);
  if (card === 'pig') {
    events.setActivePlayers({ value: { [leftOf(ctx, playerID)]: 'take' } });
    return;
  }
  if (card === 'horse' && cardsIn(G.hands[playerID]) > 0) {
    const holders = Object.keys(G.hands).filter((seat) => cardsIn(G.hands[seat]) > 0);
    G.choices = {};
    events.setActivePlayers({ value: Object.fromEntries(holders.map((seat) => [seat, 'horse'])) });
    return;
  }
  if (card === 'cow' && G.secret.draw.length > 0) take(G, playerID, 'draw', random);
  endTurn(G, ctx, events, random);
}

function discardPair({ G, ctx, events, random, playerID }, card) {
  if (!SPECIES.includes(card) || G.hands[playerID][card] < 2) return INVALID_MOVE;
  G.hands[playerID][card] -= 2;
  G.discard.push(card, card);
  const holder = G.nwi[card];
  G.nwi[card] = Number(leftOf(ctx, holder === null ? playerID : holder));
  refill(G, random);
  endTurn(G, ctx, events, random);
}

function pass({ G, ctx, events, random, playerID }, source) {
  const open = sources(G);
  if (open.length > 0 ? !open.includes(source) : source !== undefined) return INVALID_MOVE;
  if (source !== undefined) take(G, playerID, source, random);
  endTurn(G, ctx, events, random);
}

// The pig's player's left neighbour takes the top card of the draw or the discard pile.
function takeCard({ G, ctx, events, random, playerID }, source) {
  if (!sources(G).includes(source)) return INVALID_MOVE;
  take(G, playerID, source, random);
  endTurn(G, ctx, events, random);
}

// A seat's card for the horse pass; the pass resolves with the last choice, everyone giving to the left.
function passCard({ G, ctx, events, random, playerID }, card) {
  if (G.choices[playerID] !== undefined) return INVALID_MOVE;
  if (!SPECIES.includes(card) || G.hands[playerID][card] === 0) return INVALID_MOVE;
  G.choices[playerID] = card;
  if (Object.keys(G.choices).length < Object.keys(ctx.activePlayers).length) return;
  for (const [seat, chosen] of Object.entries(G.choices)) {
    G.hands[seat][chosen] -= 1;
    G.hands[leftOf(ctx, seat)][chosen] += 1;
  }
  G.choices = {};
  endTurn(G, ctx, events, random);
}

// What `playerID` may see: its own hand and horse choice, every hand's size, the draw pile's size.
function playerView({ G, playerID }) {
  const hands = {};
  for (const seat of Object.keys(G.hands)) {
    hands[seat] = seat === playerID ? G.hands[seat] : { cards: cardsIn(G.hands[seat]) };
  }
  const choices = {};
  for (const seat of Object.keys(G.choices)) choices[seat] = seat === playerID ? G.choices[seat] : 'chosen';
  const { secret, ...open } = G;
  return { ...open, hands, choices, drawSize: secret.draw.length };
}

// Moves touch the hidden draw pile, so the client never runs them ahead of the server.
const serverOnly = (move, extra = {}) => ({ move, client: false, ...extra });

const BloedeKuh = {
  name: 'bloede-kuh',
  minPlayers: 4,
  maxPlayers: 4,
  setup,
  playerView,
  moves: {
    discard: serverOnly(discard),
    discardPair: serverOnly(discardPair),
    pass: serverOnly(pass),
  },
  turn: {
    stages: {
      take: { moves: { take: serverOnly(takeCard) } },
      horse: { moves: { passCard: serverOnly(passCard, { redact: true }) } },
    },
  },
  endIf: ({ G }) => {
    if (!G.over) return undefined;
    const totals = G.minus.map((points, seat) => points + G.nwiPoints[seat]);
    return { totals, places: totals.map((total) => 1 + totals.filter((other) => other < total).length) };
  },
};

module.exports = { BloedeKuh, SPECIES, cardsIn };
