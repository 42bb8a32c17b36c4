package bzblock_test

import (
	"container/heap"
	"slices"

	"github.com/foreachio/foreach/internal/bzblock"
)

// A bzip2 block encoder for the tests, as plain as the format allows: it
// takes a block before its BWT (after the first run-length coding, as
// bzip2's blocks hold it), randomises it if asked as bzip2 0.9.0 did, sorts
// its rotations, and codes it with two identical Huffman trees. It makes
// the randomised blocks that no installed tool writes any more.

// encodeBlock writes the block of pre (the bytes before the BWT, at least
// one), whose final output has the given CRC, to w.
func encodeBlock(w *bitWriter, pre []byte, crc uint32, randomised bool) {
	pre = randomise(pre, randomised)
	last, origPtr := bwt(pre)
	used, syms := mtfRuns(last)
	alpha := len(used) + 2
	lengths := codeLengths(syms, alpha)
	w.bits(bzblock.BlockMagic, 48)
	w.bits(uint64(crc), 32)
	w.bit(randomised)
	w.bits(uint64(origPtr), 24)
	var ranges uint16
	for _, b := range used {
		ranges |= 0x8000 >> (b / 16)
	}
	w.bits(uint64(ranges), 16)
	for r := range 16 {
		if ranges&(0x8000>>r) == 0 {
			continue
		}
		var bits uint16
		for _, b := range used {
			if int(b/16) == r {
				bits |= 0x8000 >> (b % 16)
			}
		}
		w.bits(uint64(bits), 16)
	}
	groups := (len(syms) + 49) / 50
	w.bits(2, 3) // two trees, the same: every group uses the first
	w.bits(uint64(groups), 15)
	for range groups {
		w.bit(false)
	}
	for range 2 {
		cur := int(lengths[0])
		w.bits(uint64(cur), 5)
		for _, l := range lengths {
			for ; cur < int(l); cur++ {
				w.bits(2, 2) // 10: one longer
			}
			for ; cur > int(l); cur-- {
				w.bits(3, 2) // 11: one shorter
			}
			w.bit(false)
		}
	}
	codes := canonical(lengths)
	for _, s := range syms {
		w.bits(uint64(codes[s]), int(lengths[s]))
	}
}

// randomise flips the bits bzip2's randomisation flips (a copy of pre).
func randomise(pre []byte, on bool) []byte {
	out := slices.Clone(pre)
	if !on {
		return out
	}
	// bzip2's BZ_RAND_UPD_MASK, a counter per byte, written the way bzip2
	// writes it rather than the decoder's way.
	toGo, tPos := 0, 0
	for i := range out {
		if toGo == 0 {
			toGo = int(bzblock.RNums[tPos])
			tPos = (tPos + 1) % len(bzblock.RNums)
		}
		toGo--
		if toGo == 1 {
			out[i] ^= 1
		}
	}
	return out
}

// bwt returns the last column of the sorted rotations of s and the row of
// s itself, sorting the rotations by prefix doubling with radix sorts.
func bwt(s []byte) ([]byte, int) {
	n := len(s)
	sa, rank, next := make([]int, n), make([]int, n), make([]int, n)
	for i := range sa {
		sa[i], rank[i] = i, int(s[i])
	}
	sortBy(sa, rank, 256)
	for k := 1; ; k *= 2 {
		// By the rank of the rotation k on (stably), then by their own.
		key2 := make([]int, n)
		for i := range n {
			key2[i] = rank[(i+k)%n]
		}
		sortBy(sa, key2, max(n, 256))
		sortBy(sa, rank, max(n, 256))
		distinct := 0
		for j, i := range sa {
			if j > 0 {
				p := sa[j-1]
				if rank[p] != rank[i] || key2[p] != key2[i] {
					distinct++
				}
			}
			next[i] = distinct
		}
		rank, next = next, rank
		if distinct == n-1 || k >= n {
			break
		}
	}
	last := make([]byte, n)
	origPtr := 0
	for j, i := range sa {
		last[j] = s[(i+n-1)%n]
		if i == 0 {
			origPtr = j
		}
	}
	return last, origPtr
}

// sortBy sorts sa stably by key (values below size), a counting sort.
func sortBy(sa, key []int, size int) {
	count := make([]int, size+1)
	for _, i := range sa {
		count[key[i]+1]++
	}
	for v := range size {
		count[v+1] += count[v]
	}
	out := make([]int, len(sa))
	for _, i := range sa {
		out[count[key[i]]] = i
		count[key[i]]++
	}
	copy(sa, out)
}

// mtfRuns codes the BWT's output by move-to-front over the byte values
// used (returned, in order), runs of index 0 in RUNA and RUNB, the end of
// block last.
func mtfRuns(last []byte) ([]byte, []uint16) {
	var seen [256]bool
	for _, b := range last {
		seen[b] = true
	}
	var used []byte
	for b := range 256 {
		if seen[b] {
			used = append(used, byte(b))
		}
	}
	list := slices.Clone(used)
	var syms []uint16
	zeros := 0
	flush := func() {
		for ; zeros > 0; zeros = (zeros - 1) / 2 {
			// bijective base 2: RUNA is the digit 1, RUNB the digit 2
			if zeros%2 == 1 {
				syms = append(syms, 0)
			} else {
				syms = append(syms, 1)
				zeros--
			}
		}
	}
	for _, b := range last {
		k := slices.Index(list, b)
		if k == 0 {
			zeros++
			continue
		}
		flush()
		copy(list[1:k+1], list[:k])
		list[0] = b
		syms = append(syms, uint16(k+1))
	}
	flush()
	return used, append(syms, uint16(len(used)+1))
}

// codeLengths gives every symbol of the alphabet a Huffman code length of
// at most 17 for the frequencies in syms (bzip2's rule: a symbol not used
// counts as used once, and the frequencies are halved until the longest
// code fits).
func codeLengths(syms []uint16, alpha int) []uint8 {
	freq := make([]int, alpha)
	for _, s := range syms {
		freq[s]++
	}
	for {
		lengths := huffmanLengths(freq)
		if slices.Max(lengths) <= 17 {
			return lengths
		}
		for i := range freq {
			freq[i] = 1 + freq[i]/2
		}
	}
}

// huffmanLengths returns the code lengths of a Huffman code for freq
// (each counted at least once).
func huffmanLengths(freq []int) []uint8 {
	h := &nodeHeap{}
	parent := make([]int, len(freq), 2*len(freq))
	for s, f := range freq {
		heap.Push(h, [2]int{max(f, 1), s})
	}
	for h.Len() > 1 {
		a, b := heap.Pop(h).([2]int), heap.Pop(h).([2]int)
		id := len(parent)
		parent = append(parent, -1)
		parent[a[1]], parent[b[1]] = id, id
		heap.Push(h, [2]int{a[0] + b[0], id})
	}
	root := heap.Pop(h).([2]int)[1]
	parent[root] = -1
	lengths := make([]uint8, len(freq))
	for s := range lengths {
		for p := parent[s]; p >= 0; p = parent[p] {
			lengths[s]++
		}
	}
	return lengths
}

// nodeHeap is a min-heap of (weight, node) pairs, ties by node.
type nodeHeap [][2]int

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	return h[i][0] < h[j][0] || h[i][0] == h[j][0] && h[i][1] < h[j][1]
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.([2]int)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// canonical assigns bzip2's canonical codes: by length, then by symbol.
func canonical(lengths []uint8) []uint32 {
	codes := make([]uint32, len(lengths))
	next := uint32(0)
	for l := uint8(1); l <= 20; l++ {
		for s, sl := range lengths {
			if sl == l {
				codes[s] = next
				next++
			}
		}
		next <<= 1
	}
	return codes
}

// encodeStream writes a bzip2 stream of the given level whose blocks are
// pres (each the bytes before a BWT, with the CRC of its output), each
// randomised where randomised says.
func encodeStream(level int, pres [][]byte, crcs []uint32, randomised []bool) []byte {
	var w bitWriter
	w.out = append(w.out, 'B', 'Z', 'h', byte('0'+level))
	w.nbit = 32
	combined := uint32(0)
	for i, pre := range pres {
		encodeBlock(&w, pre, crcs[i], randomised[i])
		combined = (combined<<1 | combined>>31) ^ crcs[i]
	}
	w.bits(bzblock.EndMagic, 48)
	w.bits(uint64(combined), 32)
	return w.out
}
