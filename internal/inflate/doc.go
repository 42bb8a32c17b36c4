// Package inflate decodes deflate streams (RFC 1951) and the gzip members
// that frame them (RFC 1952): the project's own decoder, under
// internal/decompress's gzip and package zindex.
//
//	src := bufio.NewReader(f)       // at a gzip member
//	if _, err := inflate.ReadHeader(src); err != nil {
//		return err
//	}
//	var m inflate.Member
//	m.Reset(src)
//	_, err := io.Copy(os.Stdout, &m) // its bytes; then src is at the byte after the member
//
// Three things set it apart from compress/flate:
//
//   - It is fast: a table-driven decoder with a 64-bit bit buffer refilled a
//     word at a time and a fast loop that runs while the input holds 16
//     bytes and the output the room of a match, as libdeflate's and zlib's
//     inffast do (about twice the throughput of
//     github.com/klauspost/compress/flate on text; docs/performance.md).
//   - It says where blocks start: a function given to SetBlockFunc is called
//     at every block boundary with the boundary's bit offset in the
//     compressed stream and its decompressed offset, and Window gives the
//     32 KiB of history there.
//   - It starts at a block boundary: ResetAt takes a source at the byte of
//     the boundary's first bit, the bit within it, and the window before
//     it, as zlib's zran.c does with an access point.
//
// A Decoder reads a Source (a *bufio.Reader) in place and consumes exactly
// the bytes of its stream, so that the caller finds the bytes after it (the
// gzip trailer, another member, trailing data) where they are. What follows
// a member is the caller's to decide (internal/decompress does it as gzip
// does). Memory is fixed: a 32 KiB window, a buffer of 128 KiB of output
// ahead of it, and the tables, about 175 KiB in all.
//
// Damage is reported after every byte decoded before it: a *CorruptError
// (wrapping ErrCorrupt) for invalid data, io.ErrUnexpectedEOF for a stream
// cut short (the bytes of every symbol complete before the cut are
// delivered), ErrHeader and ErrChecksum for a gzip member's framing.
package inflate
