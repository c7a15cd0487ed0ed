// boardgame.io's own server with its default in-memory storage: node bgio-server.js PORT
const { Server, Origins } = require('boardgame.io/server');
const { Trivial } = require('./game');

const port = Number(process.argv[2] || 18400);
const server = Server({ games: [Trivial], origins: [Origins.LOCALHOST] });
server.run({ port, lobbyConfig: { apiPort: port + 1 } }, () => console.log(`boardgame.io on ${port}, lobby on ${port + 1}`));
