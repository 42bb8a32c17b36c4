package bzblock

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// cycles fills d.tt with n entries whose successors make the given number
// of cycles (of random lengths, in random order) through random bytes, and
// returns an entry of the first cycle.
func cycles(d *Decoder, rng *rand.Rand, n, count int) uint32 {
	if len(d.tt) < n+1 {
		d.tt = make([]uint32, n+1)
	}
	perm := rng.Perm(n)
	// Cut the permutation into count runs; each run is a cycle.
	cuts := []int{0}
	for len(cuts) < count {
		cuts = append(cuts, 1+rng.IntN(n-1))
	}
	cuts = append(cuts, n)
	for i := range cuts {
		for j := i; j > 0 && cuts[j] < cuts[j-1]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	for c := 0; c+1 < len(cuts); c++ {
		run := perm[cuts[c]:cuts[c+1]]
		for i, p := range run {
			d.tt[p] = uint32(run[(i+1)%len(run)])<<8 | uint32(rng.IntN(256))
		}
	}
	return uint32(perm[0])
}

// plainWalk is the chain from first the plain way, one entry after another.
func plainWalk(tt []uint32, first uint32, n int) []byte {
	out := make([]byte, n)
	p := first
	for i := range out {
		e := tt[p]
		out[i] = byte(e)
		p = e >> 8
	}
	return out
}

// TestWalks checks the walks against the plain walk on single cycles of
// every size they are used for, from starts at and between their marks,
// and that they refuse chains of several cycles.
func TestWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d Decoder
	sizes := []int{minWalks, minWalks + 1, 100000, 333333, 900000}
	if raceEnabled {
		sizes = sizes[:3]
	}
	for _, n := range sizes {
		for trial := range 3 {
			first := cycles(&d, rng, n, 1)
			switch trial {
			case 1:
				first = uint32(n / walkCount) // a mark's place
			case 2:
				first = uint32(n - 1)
			}
			want := plainWalk(d.tt, first, n)
			before := bytes.Clone(u32bytes(d.tt[:n]))
			if !d.walks(first, n) {
				t.Fatalf("n=%d trial %d: one cycle refused", n, trial)
			}
			var got []byte
			for _, p := range d.pieces {
				got = append(got, p...)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("n=%d trial %d: the walks differ from the plain walk", n, trial)
			}
			if !bytes.Equal(before, u32bytes(d.tt[:n])) {
				t.Fatalf("n=%d trial %d: the entries were not put back", n, trial)
			}
		}
		for _, count := range []int{2, 3, 50} {
			first := cycles(&d, rng, n, count)
			if d.walks(first, n) {
				t.Fatalf("n=%d: %d cycles accepted", n, count)
			}
		}
	}
}

func u32bytes(v []uint32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return b
}
