package bzblock

import (
	"cmp"
	"slices"
)

// A bzip2 block gives each of its Huffman trees as code lengths, one per
// symbol. bzip2 itself assigns canonical codes to them; the standard
// library's reader builds a tree by its own rule, which gives the same codes
// for a complete set of lengths but not for an incomplete one (where it
// drops the levels at which the codes do not branch) nor an oversubscribed
// one (whose codes wrap around). The tree here is built by the standard
// library's rule, so that every block decodes to the same symbols, and is
// read through a table of its first tableBits levels.

// tableBits is the number of bits looked up at once; longer codes go on
// a bit at a time from the table's entry.
const tableBits = 10

// huffman is one tree, ready to decode.
type huffman struct {
	// table, indexed by the next tableBits bits, holds a symbol and how
	// many bits its code takes (sym<<5 | bits), or for a code longer than
	// tableBits the node reached after tableBits bits (node<<5 | 31).
	table [1 << tableBits]uint32
	// nodes are the tree's inner nodes; child[b] is the child that input
	// bit b leads to: a node's index, or ^symbol for a leaf.
	nodes []node
}

type node struct{ child [2]int32 }

const slowEntry = 31 // the bits field of a table entry that leads to a node

// code is a symbol's code as the standard library's reader assigns it: the
// code's bits at the top of a 32-bit word, taken bit by bit from the most
// significant, where an input bit 1 stands for a code bit 0.
type code struct {
	bits   uint32
	length uint8
	sym    uint16
}

// build makes h the tree of the given code lengths (1 to 20, at least two
// symbols). codes is scratch space.
func (h *huffman) build(lengths []uint8, codes []code) error {
	codes = codes[:len(lengths)]
	for i, l := range lengths {
		codes[i] = code{length: l, sym: uint16(i)}
	}
	slices.SortFunc(codes, func(a, b code) int {
		if c := cmp.Compare(a.length, b.length); c != 0 {
			return c
		}
		return cmp.Compare(a.sym, b.sym)
	})
	// From the longest code to the shortest, each code is the previous
	// one plus one unit of its length (wrapping around at 32 bits).
	next, length := uint32(0), uint8(32)
	for i := len(codes) - 1; i >= 0; i-- {
		length = min(length, codes[i].length)
		codes[i].bits, codes[i].length = next, length
		next += 1 << (32 - length)
	}
	slices.SortFunc(codes, func(a, b code) int { return cmp.Compare(a.bits, b.bits) })
	h.nodes = h.nodes[:0]
	root, err := h.grow(codes, 0)
	if err != nil {
		return err
	}
	h.fill(root, 0, 0)
	return nil
}

// grow adds the subtree of codes (sorted, sharing their bits above level)
// and returns it: a node index, or ^symbol for a single code. A level at
// which the codes do not branch takes no input bit.
func (h *huffman) grow(codes []code, level uint) (int32, error) {
	for {
		if len(codes) == 1 && level > 0 {
			return ^int32(codes[0].sym), nil
		}
		test := uint32(1) << (31 - level)
		split := len(codes)
		for i, c := range codes {
			if c.bits&test != 0 {
				split = i
				break
			}
		}
		if split > 0 && split < len(codes) {
			i := len(h.nodes)
			h.nodes = append(h.nodes, node{})
			zero, err := h.grow(codes[:split], level+1) // code bit 0: input bit 1
			if err != nil {
				return 0, err
			}
			one, err := h.grow(codes[split:], level+1)
			if err != nil {
				return 0, err
			}
			h.nodes[i].child = [2]int32{one, zero}
			return int32(i), nil
		}
		switch {
		case len(codes) < 2:
			return 0, StructuralError("empty Huffman tree")
		case level == 31:
			return 0, StructuralError("equal symbols in Huffman tree")
		}
		level++
	}
}

// fill writes the table entries under t (a node or ^symbol) reached by
// the depth input bits of prefix.
func (h *huffman) fill(t int32, prefix uint32, depth uint) {
	switch {
	case t < 0:
		e := uint32(^t)<<5 | uint32(depth)
		lo := prefix << (tableBits - depth)
		for i := lo; i < lo+1<<(tableBits-depth); i++ {
			h.table[i] = e
		}
	case depth == tableBits:
		h.table[prefix] = uint32(t)<<5 | slowEntry
	default:
		n := h.nodes[t]
		h.fill(n.child[0], prefix<<1, depth+1)
		h.fill(n.child[1], prefix<<1|1, depth+1)
	}
}

// decode reads one symbol. b has at least 20 bits (a code is at most 20
// long, and so is a path in the tree).
func (h *huffman) decode(b *bitReader) uint16 {
	e := h.table[b.peek(tableBits)]
	if e&31 != slowEntry {
		b.skip(uint(e & 31))
		return uint16(e >> 5)
	}
	return h.slow(b, e)
}

// slow finishes decoding a code longer than tableBits, whose table entry
// is e, a bit at a time from the node e leads to. It is rare, and kept out
// of the loops that call it (inlined, it costs them registers).
//
//go:noinline
func (h *huffman) slow(b *bitReader, e uint32) uint16 {
	b.skip(tableBits)
	t := int32(e >> 5)
	for t >= 0 {
		t = h.nodes[t].child[b.peek(1)]
		b.skip(1)
	}
	return uint16(^t)
}
