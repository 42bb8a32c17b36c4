package lzma

import "errors"

// The LZMA decoder, from the format's description (Igor Pavlov's
// lzma-specification.txt, and the .xz format's use of it). It decodes one operation at
// a time into a dictionary (lzDict, dict.go) whose bytes are given out as soon as they
// are written.

var (
	errLZMAData     = errors.New("lzma: compressed data is corrupt")
	errLZMADistance = errors.New("lzma: compressed data is corrupt (a match reaches before the dictionary)")
	errLZMA2Control = errors.New("lzma: compressed data is corrupt (an LZMA2 chunk header)")
	errLZMASize     = errors.New("lzma: compressed data is corrupt (its size is not the one its header declares)")
	errLZMAHeader   = errors.New("lzma: unsupported properties (lc, lp, pb)")
	// errEndMarker is the end-of-payload marker, a match at distance 2^32: the end of
	// an LZMA stream that ends with one; in LZMA2, corrupt data.
	errEndMarker = errors.New("lzma: end-of-payload marker")
)

// prob is an adaptive bit probability: the chance of a 0, in 1/2048.
type prob uint16

const (
	probBits  = 11
	probInit  = 1 << probBits / 2
	moveBits  = 5
	rangeTop  = 1 << 24
	states    = 12
	posStates = 1 << 4 // 1 << pb for the largest pb, 4
	// minMatch and maxMatch are the shortest and longest match lengths.
	minMatch = 2
	maxMatch = minMatch + 8 + 8 + 256 - 1
	// endPosModel is the first distance slot whose low bits are coded with the align
	// probabilities rather than their own; fullDistances the distance from which that
	// is so.
	endPosModel   = 14
	fullDistances = 1 << (endPosModel / 2)
	alignBits     = 4
)

// rangeDecoder is LZMA's arithmetic decoder over in, the bytes of one LZMA chunk.
// Invariants: rng >= rangeTop between bits; pos <= len(in); short is set once a bit
// needed a byte past in, after which every bit decodes as 0 and the caller stops.
type rangeDecoder struct {
	in    []byte
	pos   int
	rng   uint32
	code  uint32
	short bool
}

// init starts the decoder on in: its first byte is 0 and the next four are the code.
func (rc *rangeDecoder) init(in []byte) error {
	*rc = rangeDecoder{in: in, rng: 0xffffffff}
	if len(in) < 5 {
		rc.short = true
		return nil
	}
	if in[0] != 0 {
		return errLZMAData
	}
	rc.code = uint32(in[1])<<24 | uint32(in[2])<<16 | uint32(in[3])<<8 | uint32(in[4])
	rc.pos = 5
	return nil
}

// normalize takes in another byte when the range has narrowed below rangeTop, as
// LZMA does before every bit.
func (rc *rangeDecoder) normalize() {
	if rc.rng < rangeTop {
		if rc.pos == len(rc.in) {
			rc.short = true
			return
		}
		rc.rng <<= 8
		rc.code = rc.code<<8 | uint32(rc.in[rc.pos])
		rc.pos++
	}
}

// bit decodes one bit with the probability p and adapts p.
func (rc *rangeDecoder) bit(p *prob) uint32 {
	rc.normalize()
	bound := (rc.rng >> probBits) * uint32(*p)
	if rc.code < bound {
		rc.rng = bound
		*p += (1<<probBits - *p) >> moveBits
		return 0
	}
	rc.rng -= bound
	rc.code -= bound
	*p -= *p >> moveBits
	return 1
}

// tree decodes a symbol of n bits with the bit tree probs (1 << n of them, the first
// unused), the high bit first.
func (rc *rangeDecoder) tree(probs []prob, n uint) uint32 {
	m := uint32(1)
	for range n {
		m = m<<1 | rc.bit(&probs[m])
	}
	return m - 1<<n
}

// reverse decodes a symbol of n bits with the bit tree probs, the low bit first.
func (rc *rangeDecoder) reverse(probs []prob, n uint) uint32 {
	m, sym := uint32(1), uint32(0)
	for i := range n {
		b := rc.bit(&probs[m])
		m = m<<1 | b
		sym |= b << i
	}
	return sym
}

// direct decodes n bits of even probability.
func (rc *rangeDecoder) direct(n uint) uint32 {
	var v uint32
	for range n {
		rc.normalize()
		rc.rng >>= 1
		rc.code -= rc.rng
		t := 0 - (rc.code >> 31) // all ones when code was below rng: a 0
		rc.code += rc.rng & t
		v = v<<1 | (t + 1)
	}
	return v
}

// finished reports whether the chunk's data ended where it should: the decoder
// normalized, its code 0, every byte used.
func (rc *rangeDecoder) finished() bool {
	rc.normalize()
	return !rc.short && rc.code == 0 && rc.pos == len(rc.in)
}

// lenDecoder decodes match lengths: 2-9 (low, by position state), 10-17 (mid), 18-273
// (high).
type lenDecoder struct {
	choice, choice2 prob
	low, mid        [posStates][1 << 3]prob
	high            [1 << 8]prob
}

func (l *lenDecoder) reset() {
	l.choice, l.choice2 = probInit, probInit
	for i := range l.low {
		fill(l.low[i][:])
		fill(l.mid[i][:])
	}
	fill(l.high[:])
}

func (l *lenDecoder) decode(rc *rangeDecoder, posState uint32) int {
	switch {
	case rc.bit(&l.choice) == 0:
		return minMatch + int(rc.tree(l.low[posState][:], 3))
	case rc.bit(&l.choice2) == 0:
		return minMatch + 8 + int(rc.tree(l.mid[posState][:], 3))
	}
	return minMatch + 16 + int(rc.tree(l.high[:], 8))
}

func fill(p []prob) {
	for i := range p {
		p[i] = probInit
	}
}

// lzmaState is what LZMA carries from one operation to the next, reset at a state
// reset of LZMA2: the properties, the state machine's state (what the last operations
// were: 0-6 after a literal, 7-11 after a match), the four last distances and the
// probabilities.
type lzmaState struct {
	lc, lp, pb uint // the properties: literal context and position bits
	state      uint32
	rep        [4]uint32 // the last distances, less one
	p          lzmaProbs
}

// lzmaProbs are LZMA's probabilities, by what they decide.
type lzmaProbs struct {
	isMatch    [states * posStates]prob
	isRep      [states]prob
	isRepG0    [states]prob
	isRepG1    [states]prob
	isRepG2    [states]prob
	isRep0Long [states * posStates]prob
	posSlot    [4][1 << 6]prob
	posSpecial [1 + fullDistances - endPosModel]prob
	align      [1 << alignBits]prob
	matchLen   lenDecoder
	repLen     lenDecoder
	literal    []prob // 0x300 per literal context
}

// reset sets every probability to even and the state to its start, with the
// properties lc, lp and pb.
func (s *lzmaState) reset(lc, lp, pb uint) {
	s.lc, s.lp, s.pb = lc, lp, pb
	s.state, s.rep = 0, [4]uint32{}
	p := &s.p
	for _, probs := range [][]prob{p.isMatch[:], p.isRep[:], p.isRepG0[:], p.isRepG1[:], p.isRepG2[:],
		p.isRep0Long[:], p.posSpecial[:], p.align[:]} {
		fill(probs)
	}
	for i := range p.posSlot {
		fill(p.posSlot[i][:])
	}
	p.matchLen.reset()
	p.repLen.reset()
	n := 0x300 << (lc + lp)
	if cap(p.literal) < n {
		p.literal = make([]prob, n)
	}
	p.literal = p.literal[:n]
	fill(p.literal)
}

// lzmaChunk decodes the operations of one LZMA chunk into a dictionary. Invariants:
// left is the chunk's bytes not yet written to the dictionary; pending is the part of
// a match not yet copied (at distance dist, less one), because the dictionary's limit
// came first.
type lzmaChunk struct {
	rc      rangeDecoder
	left    int
	pending int
	dist    int
}

// decode decodes operations into d until its limit, the end of the chunk, or the end
// of the chunk's bytes (rc.short). An operation that the end of the bytes cut short is
// not written, and nothing is decoded after it: the bytes were all there were (the
// input ended), or the data is corrupt; the probabilities it changed are not used again.
func (c *lzmaChunk) decode(s *lzmaState, d *lzDict) error {
	if c.pending > 0 {
		c.copyMatch(d)
	}
	rc := &c.rc
	pbMask := uint32(1)<<s.pb - 1
	for c.left > 0 && d.pos < d.limit {
		posState := uint32(d.total) & pbMask
		st := s.state
		if rc.bit(&s.p.isMatch[st*posStates+posState]) == 0 {
			b := c.literal(s, d)
			if rc.short {
				return nil
			}
			d.put(b)
			c.left--
			switch {
			case st < 4:
				s.state = 0
			case st < 10:
				s.state = st - 3
			default:
				s.state = st - 6
			}
			continue
		}
		n, err := c.match(s, posState)
		switch {
		case rc.short:
			return nil
		case err != nil:
			return err
		case int64(s.rep[0]) >= int64(d.full):
			return errLZMADistance
		case n > c.left:
			return errLZMAData // a match past the chunk's end
		}
		c.pending, c.dist = n, int(s.rep[0])
		c.copyMatch(d)
	}
	return nil
}

// literal decodes a literal byte: after a match, with the byte at the last distance
// as context while the bits agree with it.
func (c *lzmaChunk) literal(s *lzmaState, d *lzDict) byte {
	prev := uint32(d.back(0))
	lit := ((uint32(d.total)&(1<<s.lp-1))<<s.lc + prev>>(8-s.lc)) * 0x300
	probs := s.p.literal[lit : lit+0x300]
	rc := &c.rc
	sym := uint32(1)
	if s.state >= 7 {
		match := uint32(d.back(int(s.rep[0])))
		for sym < 0x100 {
			mbit := match >> 7 & 1
			match <<= 1
			b := rc.bit(&probs[(1+mbit)<<8+sym])
			sym = sym<<1 | b
			if b != mbit {
				break
			}
		}
	}
	for sym < 0x100 {
		sym = sym<<1 | rc.bit(&probs[sym])
	}
	return byte(sym)
}

// match decodes a match or a repeated match and returns its length, with its distance
// made s.rep[0] (the caller checks that it lies in the dictionary).
func (c *lzmaChunk) match(s *lzmaState, posState uint32) (int, error) {
	rc, st := &c.rc, s.state
	if rc.bit(&s.p.isRep[st]) == 0 {
		n := s.p.matchLen.decode(rc, posState)
		dist := c.distance(s, n)
		if st < 7 {
			s.state = 7
		} else {
			s.state = 10
		}
		s.rep = [4]uint32{dist, s.rep[0], s.rep[1], s.rep[2]}
		if dist == 0xffffffff && !rc.short {
			return 0, errEndMarker
		}
		return n, nil
	}
	if rc.bit(&s.p.isRepG0[st]) == 0 {
		if rc.bit(&s.p.isRep0Long[st*posStates+posState]) == 0 {
			if st < 7 {
				s.state = 9
			} else {
				s.state = 11
			}
			return 1, nil // a single byte at the last distance
		}
	} else {
		var dist uint32
		if rc.bit(&s.p.isRepG1[st]) == 0 {
			dist = s.rep[1]
		} else {
			if rc.bit(&s.p.isRepG2[st]) == 0 {
				dist = s.rep[2]
			} else {
				dist = s.rep[3]
				s.rep[3] = s.rep[2]
			}
			s.rep[2] = s.rep[1]
		}
		s.rep[1] = s.rep[0]
		s.rep[0] = dist
	}
	n := s.p.repLen.decode(rc, posState)
	if st < 7 {
		s.state = 8
	} else {
		s.state = 11
	}
	return n, nil
}

// distance decodes the distance (less one) of a match of length n.
func (c *lzmaChunk) distance(s *lzmaState, n int) uint32 {
	rc := &c.rc
	slot := rc.tree(s.p.posSlot[min(n-minMatch, 3)][:], 6)
	if slot < 4 {
		return slot
	}
	bits := uint(slot>>1 - 1)
	dist := (2 | slot&1) << bits
	if slot < endPosModel {
		return dist + rc.reverse(s.p.posSpecial[dist-slot:], bits)
	}
	dist += rc.direct(bits-alignBits) << alignBits
	return dist + rc.reverse(s.p.align[:], alignBits)
}

// copyMatch copies what it can of the pending match into d, up to its limit.
func (c *lzmaChunk) copyMatch(d *lzDict) {
	n := min(c.pending, d.limit-d.pos)
	d.repeat(c.dist, n)
	c.pending -= n
	c.left -= n
}
