// Package pgzip decodes a gzip file on several cores although nothing in it
// says where its deflate stream can be cut: the speculative decoding of
// rapidgzip, with the project's own decoder (internal/inflate).
//
//	f, err := os.Open("big.log.gz")
//	if err != nil {
//		return err
//	}
//	defer f.Close()
//	fi, err := f.Stat()
//	if err != nil {
//		return err
//	}
//	r := pgzip.NewReader(f, fi.Size(), pgzip.Options{Workers: runtime.GOMAXPROCS(0)})
//	defer r.Close()
//	_, err = io.Copy(os.Stdout, r) // what decompress.NewReader(f) gives, byte for byte
//
// The compressed stream of a member is cut into chunks of ChunkSize bytes.
// A worker decodes each chunk but the first from a block boundary it
// guesses in it (inflate.NextHeader: a dynamic-Huffman block's header that
// the decoder accepts), without the 32 KiB of text before it: the bytes a
// back-reference takes from there are markers naming a byte of that window
// (inflate.MarkerDecoder), until the last 32 KiB decoded hold no marker;
// from the next block boundary on it decodes bytes (inflate.Decoder). It
// stops at the first block boundary at or past the end of its share. The
// consumer (the goroutine calling Read) takes the chunks in order: a chunk
// is used when it starts exactly where the text before it ended, its
// markers replaced from that text's last 32 KiB (inflate.Resolve); a chunk
// that does not meet its predecessor (a guess that was no boundary, a
// stored or fixed-code block at the start of a share, damage) is let go,
// and the consumer decodes from where the text ended until it meets the
// start of a later chunk. So the text is always the sequential decode's:
// every byte delivered comes from a decode that started at a boundary the
// text before it reached.
//
// The result is exactly decompress.NewReader's over the same file, bytes
// and errors: the member's CRC-32 and length are checked (each chunk's CRC
// computed by its worker and combined); a damaged stream is found by the
// consumer's own decoding, which stops where the sequential one does, with
// every byte before the damage delivered and the same *decompress.Error;
// what follows a member (another member, padding, trailing data) is read
// as decompress reads it, with decompress itself. A file that is not gzip,
// or whose member is shorter than two chunks, is read by decompress
// sequentially. An error of the file itself is returned as it is, with the
// bytes decoded before it.
//
// Memory is bounded by the chunks in flight (Workers+2) times what a chunk
// holds: MaxChunkText bytes of text and, at worst, as many 16-bit symbols,
// plus each worker's compressed chunk and decoders. A chunk whose text
// would pass MaxChunkText ends at its last block boundary before, and the
// consumer decodes the rest of its share. No goroutine outlives Close, nor
// the end of the file or an error.
//
// docs/performance.md has the measurements: the speed against a
// sequential decode, where the time goes, and what more cores would give.
package pgzip
