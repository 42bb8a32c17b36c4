package corpus

import "math/bits"

// splitmix64 is the whole random source of the package. It is written out
// here, with its constants fixed, because the corpus must be the same bytes on
// every machine and with every Go release; math/rand makes no such promise
// about its streams.
//
// Reference: Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators" (OOPSLA 2014); the constants are those of Vigna's splitmix64.c.
type splitmix64 struct {
	state uint64 // advanced by the golden-ratio increment on every draw
}

func (r *splitmix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below returns a number in [0, n) for n > 0 by Lemire's multiply-shift
// (the high word of next*n). Its bias is at most n/2^64, which no corpus size
// can reveal, and it needs no retry loop, so the number of draws per call is
// always one and the stream stays easy to reason about.
func (r *splitmix64) below(n uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), n)
	return hi
}

// wordPicker hands out vocabulary indices six bits at a time, ten per draw
// from the generator: the vocabulary has exactly 64 words, so every index is
// equally likely and a line of words costs a tenth of a draw per word.
type wordPicker struct {
	rng  *splitmix64
	pool uint64 // unused random bits, lowest first
	left int    // indices still in pool, 0..10
}

func (p *wordPicker) next() string {
	if p.left == 0 {
		p.pool = p.rng.next()
		p.left = 10
	}
	w := vocabulary[p.pool&63]
	p.pool >>= 6
	p.left--
	return w
}
