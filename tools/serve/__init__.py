"""kifu serve: an authoritative game server — matches and seats over HTTP, play over WebSocket, every head signed,
the deal provably fair — and ``kifu bots``, its load generator and example client."""
