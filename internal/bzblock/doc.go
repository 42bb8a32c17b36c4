// Package bzblock decodes one bzip2 block, starting at any bit of its
// input, and says where the block ends: the piece a parallel bzip2 decoder
// needs, since a bzip2 stream's blocks are found only by their 48-bit magic
// number, at any bit offset (internal/blockz finds them), and the one the
// sequential reader (internal/decompress) decodes a stream with, block
// after block, going on with More as the input arrives. What a stream holds
// besides its blocks (its header, its end and CRC) is in stream.go, for
// both.
//
//	var d bzblock.Decoder
//	b, err := d.Decode(src, bit, level) // the block whose magic starts at bit `bit` of src[0]
//	if err != nil { ... }               // damaged, or ErrShort: src ends before the block does (then More)
//	n, err := io.Copy(w, b)             // its bytes; the block's CRC is checked at the end
//	end, crc := b.End(), b.CRC()        // where the next block (or the end of stream) starts
//
// The blocks are decoded exactly as the standard library's compress/bzip2
// decodes them, the same bytes and the same refusals (a code length out of
// range, too few selectors, a run past the block's size, an origin pointer
// out of bounds, a checksum that does not match), so that what was read
// with the standard library is read the same here, but for one kind of
// block: a randomised block (bzip2 0.9.0 and earlier wrote them; bzip2
// still reads them), which the standard library refuses, is decoded as
// bzip2 decodes it (random.go).
//
// Its Huffman trees are built by the same rule as the standard library's
// (which differs from bzip2's own for incomplete codes) and then read
// through lookup tables rather than a bit at a time, and the inverse
// Burrows-Wheeler transform follows several points of its cycle at once:
// the measurements are in docs/performance.md.
package bzblock
