// boardgame.io 0.50 serving the simplified Blöde Kuh over its socket.io transport, its state in memory (its
// default) or in its FlatFile storage (node-persist: a file a match's state, metadata and log, written on
// every move), the durable storage boardgame.io ships.
// Usage: NODE_ENV=production node server.js PORT [memory|flatfile DIR]   (production: no INFO line a move)

const { Server, FlatFile } = require('boardgame.io/server');
const { BloedeKuh } = require('./bloede_kuh');

const port = Number(process.argv[2] || 8000);
const storage = process.argv[3] || 'memory';
if (storage !== 'memory' && !(storage === 'flatfile' && process.argv[4])) {
  console.error('usage: node server.js PORT [memory|flatfile DIR]');
  process.exit(2);
}
// FlatFile: node-persist's defaults but no TTL (a match lives as long as the run) and no logging.
const db = storage === 'flatfile' ? new FlatFile({ dir: process.argv[4], logging: false, ttl: false }) : undefined;
// No browser plays here, so no origin is allowed (and boardgame.io does not warn of a missing list).
const server = Server({ games: [BloedeKuh], origins: [], ...(db ? { db } : {}) });
// Loopback only: `run` listens on every interface, so its listen is given the host.
const listen = server.app.listen.bind(server.app);
server.app.listen = (listenPort, callback) => listen(listenPort, '127.0.0.1', callback);
server.run({ port, callback: () => console.log(`boardgame.io (${storage}) serving on 127.0.0.1:${port}`) });
