package inflate_test

import (
	"errors"
	"io"

	"github.com/foreachio/foreach/internal/inflate"
)

// refInflate is a reference decoder of raw deflate, written from RFC 1951
// for the tests alone: a bit at a time, codes looked up in maps, no tables.
// It accepts what compress/flate accepts (a prefix code, complete except a
// single codeword of length 1 or none at all). It returns the bytes decoded
// and, for each, the offset in bits at which its symbol ends (a stored
// byte's own end), so that a test knows what a stream cut at any byte must
// give: the bytes whose symbols end before the cut.
func refInflate(stream []byte) (out []byte, ends []int64, err error) {
	out, ends, _, err = refInflateBlocks(stream)
	return out, ends, err
}

// refInflateBlocks is refInflate that also returns where each block starts:
// its offset in bits and the bytes decoded before it.
func refInflateBlocks(stream []byte) (out []byte, ends []int64, blocks []inflate.Block, err error) {
	r := &refReader{data: stream}
	for final := false; !final; {
		blocks = append(blocks, inflate.Block{Bit: r.pos, Out: int64(len(out))})
		f, ok1 := r.bits(1)
		kind, ok2 := r.bits(2)
		if !ok1 || !ok2 {
			return out, ends, blocks, io.ErrUnexpectedEOF
		}
		final = f == 1
		switch kind {
		case 0:
			out, ends, err = r.stored(out, ends)
		case 1:
			lit, dist := fixedCodes()
			out, ends, err = r.codes(out, ends, lit, dist)
		case 2:
			var lit, dist refCode
			if lit, dist, err = r.dynamic(); err == nil {
				out, ends, err = r.codes(out, ends, lit, dist)
			}
		default:
			err = errRef
		}
		if err != nil {
			return out, ends, blocks, err
		}
	}
	return out, ends, blocks, nil
}

var errRef = errors.New("reference: invalid deflate data")

type refReader struct {
	data []byte
	pos  int64 // in bits
}

func (r *refReader) bits(n int) (int, bool) {
	v := 0
	for i := 0; i < n; i++ {
		if r.pos>>3 >= int64(len(r.data)) {
			return 0, false
		}
		v |= int(r.data[r.pos>>3]>>(r.pos&7)&1) << i
		r.pos++
	}
	return v, true
}

// refCode maps (length, codeword) to a symbol.
type refCode map[[2]int]int

// makeCode returns the canonical code of lengths, or nil if they make none
// that compress/flate accepts.
func makeCode(lengths []int) refCode {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	left, total := 1, 0
	for l := 1; l < 16; l++ {
		left = 2*left - count[l]
		total += count[l]
		if left < 0 {
			return nil
		}
	}
	if left > 0 && !(total == 0 || total == 1 && count[1] == 1) {
		return nil
	}
	code, next := 0, [16]int{}
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	c := refCode{}
	for s, l := range lengths {
		if l > 0 {
			c[[2]int{l, next[l]}] = s
			next[l]++
		}
	}
	return c
}

// symbol reads one symbol of c: -1 at the end of the data, -2 for bits that
// are no codeword.
func (r *refReader) symbol(c refCode) int {
	code := 0
	for l := 1; l < 16; l++ {
		b, ok := r.bits(1)
		if !ok {
			return -1
		}
		code = code<<1 | b
		if s, ok := c[[2]int{l, code}]; ok {
			return s
		}
	}
	return -2
}

func fixedCodes() (refCode, refCode) {
	lit := make([]int, 288)
	for s := range lit {
		switch {
		case s < 144:
			lit[s] = 8
		case s < 256:
			lit[s] = 9
		case s < 280:
			lit[s] = 7
		default:
			lit[s] = 8
		}
	}
	dist := make([]int, 32)
	for s := range dist {
		dist[s] = 5
	}
	return makeCode(lit), makeCode(dist)
}

func (r *refReader) stored(out []byte, ends []int64) ([]byte, []int64, error) {
	r.pos = (r.pos + 7) &^ 7
	n, ok1 := r.bits(16)
	nn, ok2 := r.bits(16)
	if !ok1 || !ok2 {
		return out, ends, io.ErrUnexpectedEOF
	}
	if n != ^nn&0xffff {
		return out, ends, errRef
	}
	for range n {
		b, ok := r.bits(8)
		if !ok {
			return out, ends, io.ErrUnexpectedEOF
		}
		out, ends = append(out, byte(b)), append(ends, r.pos)
	}
	return out, ends, nil
}

func (r *refReader) dynamic() (lit, dist refCode, err error) {
	hlit, ok1 := r.bits(5)
	hdist, ok2 := r.bits(5)
	hclen, ok3 := r.bits(4)
	if !ok1 || !ok2 || !ok3 {
		return nil, nil, io.ErrUnexpectedEOF
	}
	nlit, ndist := hlit+257, hdist+1
	if nlit > 286 || ndist > 30 {
		return nil, nil, errRef
	}
	order := []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	pre := make([]int, 19)
	for i := 0; i < hclen+4; i++ {
		v, ok := r.bits(3)
		if !ok {
			return nil, nil, io.ErrUnexpectedEOF
		}
		pre[order[i]] = v
	}
	pc := makeCode(pre)
	if pc == nil {
		return nil, nil, errRef
	}
	var lengths []int
	for len(lengths) < nlit+ndist {
		s := r.symbol(pc)
		var extra, repeat, value int
		switch {
		case s == -1:
			return nil, nil, io.ErrUnexpectedEOF
		case s < 0:
			return nil, nil, errRef
		case s < 16:
			lengths = append(lengths, s)
			continue
		case s == 16:
			if len(lengths) == 0 {
				return nil, nil, errRef
			}
			extra, repeat, value = 2, 3, lengths[len(lengths)-1]
		case s == 17:
			extra, repeat = 3, 3
		default:
			extra, repeat = 7, 11
		}
		v, ok := r.bits(extra)
		if !ok {
			return nil, nil, io.ErrUnexpectedEOF
		}
		if len(lengths)+repeat+v > nlit+ndist {
			return nil, nil, errRef
		}
		for range repeat + v {
			lengths = append(lengths, value)
		}
	}
	lit, dist = makeCode(lengths[:nlit]), makeCode(lengths[nlit:])
	if lit == nil || dist == nil {
		return nil, nil, errRef
	}
	return lit, dist, nil
}

// lengthBase and distBase give each length and distance symbol its base
// and extra bits, as RFC 1951 3.2.5 lists them.
var (
	lengthBase  = []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = []int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = []int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

func (r *refReader) codes(out []byte, ends []int64, lit, dist refCode) ([]byte, []int64, error) {
	for {
		s := r.symbol(lit)
		switch {
		case s == -1:
			return out, ends, io.ErrUnexpectedEOF
		case s < 0 || s > 285:
			return out, ends, errRef
		case s < 256:
			out, ends = append(out, byte(s)), append(ends, r.pos)
			continue
		case s == 256:
			return out, ends, nil
		}
		e, ok := r.bits(lengthExtra[s-257])
		if !ok {
			return out, ends, io.ErrUnexpectedEOF
		}
		length := lengthBase[s-257] + e
		ds := r.symbol(dist)
		switch {
		case ds == -1:
			return out, ends, io.ErrUnexpectedEOF
		case ds < 0 || ds > 29:
			return out, ends, errRef
		}
		e, ok = r.bits(distExtra[ds])
		if !ok {
			return out, ends, io.ErrUnexpectedEOF
		}
		d := distBase[ds] + e
		if d > len(out) {
			return out, ends, errRef
		}
		for range length {
			out, ends = append(out, out[len(out)-d]), append(ends, r.pos)
		}
	}
}
