// The trivial two-player game of the comparison: each turn is one move, which the server
// alone decides (client: false), so that a move is a round trip through the server seen by
// both players' clients, as an allfives move is refereed and stored by the server.
const Trivial = {
  name: 'trivial',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ moves: 0 }),
  moves: {
    play: {
      move: ({ G }) => {
        G.moves += 1;
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
};

module.exports = { Trivial };
