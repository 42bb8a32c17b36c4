package blockz

// Xxh32 is xxh32Sum, for tests that write lz4 frames by hand.
var Xxh32 = xxh32Sum
