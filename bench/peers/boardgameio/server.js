// boardgame.io 0.50 serving the simplified Blöde Kuh with its defaults: in-memory storage, socket.io transport.
// Usage: NODE_ENV=production node server.js PORT   (production: boardgame.io logs no INFO line a move)

const { Server } = require('boardgame.io/server');
const { BloedeKuh } = require('./bloede_kuh');

const port = Number(process.argv[2] || 8000);
// No browser plays here, so no origin is allowed (and boardgame.io does not warn of a missing list).
const server = Server({ games: [BloedeKuh], origins: [] });
// Loopback only: `run` listens on every interface, so its listen is given the host.
const listen = server.app.listen.bind(server.app);
server.app.listen = (listenPort, callback) => listen(listenPort, '127.0.0.1', callback);
server.run({ port, callback: () => console.log(`boardgame.io serving on 127.0.0.1:${port}`) });
