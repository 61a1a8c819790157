// Load client for server.js: N clients each play whole four-seat games of the simplified Blöde Kuh until the
// deadline, every seat on a socket of its own, as boardgame.io's own client does (moves go over socket.io
// only: its REST API is the lobby). A game is made with the lobby's create and join, then every seat's
// socket syncs to it; the sockets stay open from game to game and sync to the next one, as the client's
// `updateMatchID` does. A move is timed from its `update` being sent to the mover's socket getting the new
// state, that is: until the mover knows what happened.
//
// Every socket is connected before the clock starts: the client prints `ready` and waits for a line on its
// standard input (bench_peer.py reads the server's CPU time in between), then plays for SECONDS.
//
// Usage: node load.js PORT CLIENTS SECONDS
// Prints `ready`, then, after the go line and the run, one JSON line:
// {"moves", "seconds", "games" (finished), "errors", "latencies_ms": [...]}.

const http = require('node:http');
const { io } = require('socket.io-client');
const { SPECIES } = require('./bloede_kuh');

const [port, clients, seconds] = process.argv.slice(2).map(Number);
const BASE = `http://127.0.0.1:${port}`;
const GAME = 'bloede-kuh';
const SEATS = 4;
const WAIT_MS = 10000;

// The lobby over keep-alive connections, as bench_http's clients make their requests.
const agent = new http.Agent({ keepAlive: true });

function lobby(path, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${BASE}/games/${GAME}${path}`,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${path}: HTTP ${response.statusCode}`));
          else resolve(JSON.parse(Buffer.concat(chunks).toString()));
        });
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

// One seat's socket: the latest state it was sent, and who waits for a newer one.
class Seat {
  constructor(playerID) {
    this.playerID = playerID;
    this.matchID = null;
    this.state = null;
    this.waiters = [];
    this.socket = io(`${BASE}/${GAME}`, { transports: ['websocket'], forceNew: true });
    this.connected = new Promise((resolve) => this.socket.once('connect', resolve));
    const receive = (matchID, state) => {
      if (matchID !== this.matchID) return;
      this.state = state;
      this.waiters = this.waiters.filter(({ stateID, resolve }) => state._stateID < stateID || resolve(state));
    };
    this.socket.on('sync', (matchID, syncInfo) => receive(matchID, syncInfo.state));
    this.socket.on('update', (matchID, state) => receive(matchID, state));
  }

  // Resolve with this seat's state once it is at `stateID` or later.
  stateAt(stateID) {
    if (this.state && this.state._stateID >= stateID) return Promise.resolve(this.state);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`seat ${this.playerID}: no state ${stateID}`)), WAIT_MS);
      this.waiters.push({ stateID, resolve: (state) => (clearTimeout(timer), resolve(state), true) });
    });
  }

  sync(matchID, credentials) {
    this.matchID = matchID;
    this.credentials = credentials;
    this.state = null;
    this.waiters = [];
    this.socket.emit('sync', matchID, this.playerID, credentials, SEATS);
    return this.stateAt(0);
  }

  move(type, args, stateID) {
    const action = { type: 'MAKE_MOVE', payload: { type, args, playerID: this.playerID, credentials: this.credentials } };
    this.socket.emit('update', action, stateID, this.matchID, this.playerID);
  }
}

// The seat to act and its move, the first legal one in Menagerie's order (bench_http plays legal_actions[0]).
function nextMove(state) {
  const { ctx, G } = state;
  if (ctx.activePlayers) {
    const seat = Object.keys(ctx.activePlayers).find((id) => G.choices[id] === undefined);
    if (ctx.activePlayers[seat] === 'take') return { seat, type: 'take', args: [G.drawSize ? 'draw' : 'discard'] };
    return { seat, type: 'passCard', args: [] };
  }
  return { seat: ctx.currentPlayer, type: 'discard', args: [] };
}

function firstHeld(hand) {
  return SPECIES.find((species) => hand[species] > 0);
}

async function playGame(seats, deadline, record) {
  const { matchID } = await lobby('/create', { numPlayers: SEATS });
  const joined = [];
  for (const seat of seats) {
    joined.push(await lobby(`/${matchID}/join`, { playerID: seat.playerID, playerName: `p${seat.playerID}` }));
  }
  const states = await Promise.all(seats.map((seat, i) => seat.sync(matchID, joined[i].playerCredentials)));
  let state = states[0];
  while (Date.now() < deadline && state.ctx.gameover === undefined) {
    const { seat: id, type, args } = nextMove(state);
    const seat = seats[Number(id)];
    // The actor's own view (its hand) may arrive a moment after the mover's.
    const own = await seat.stateAt(state._stateID);
    const arg = args.length ? args[0] : firstHeld(own.G.hands[id]);
    const start = process.hrtime.bigint();
    seat.move(type, [arg], own._stateID);
    state = await seat.stateAt(own._stateID + 1);
    record(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return state.ctx.gameover !== undefined;
}

async function client(seats, deadline, totals) {
  while (Date.now() < deadline) {
    try {
      if (await playGame(seats, deadline, (ms) => totals.latencies.push(ms))) totals.games += 1;
    } catch (error) {
      totals.errors += 1;
      process.stderr.write(`${error.message}\n`);
    }
  }
}

function go() {
  return new Promise((resolve) => {
    process.stdin.once('data', resolve);
    process.stdout.write('ready\n');
  });
}

async function main() {
  const tables = Array.from({ length: clients }, () => Array.from({ length: SEATS }, (_, i) => new Seat(String(i))));
  await Promise.all(tables.flat().map((seat) => seat.connected));
  await go();
  process.stdin.pause();
  const totals = { latencies: [], games: 0, errors: 0 };
  const start = Date.now();
  const deadline = start + seconds * 1000;
  await Promise.all(tables.map((seats) => client(seats, deadline, totals)));
  const wall = (Date.now() - start) / 1000;
  const out = { moves: totals.latencies.length, seconds: wall, games: totals.games, errors: totals.errors };
  // Out before the sockets close: the server's work of closing them is not a move's.
  process.stdout.write(`${JSON.stringify({ ...out, latencies_ms: totals.latencies })}\n`, () => {
    for (const seat of tables.flat()) seat.socket.close();
    agent.destroy();
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
