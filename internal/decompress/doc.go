// Package decompress reads gzip, zstd, bzip2, xz, .lzma and lz4 streams,
// recognised by their magic numbers, and passes any other input on
// unchanged: the layer under foreach's Options.Decompress and the command's
// -z.
//
//	f, err := os.Open("app.log.gz")
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer f.Close()
//	r := decompress.NewReader(f) // reads nothing yet
//	defer r.Close()
//	n, err := io.Copy(os.Stdout, r) // the decompressed bytes, or the file as it is
//	// r.Format() is "gzip"; r.CompressedBytes() the bytes of f read.
//
// A damaged stream gives the bytes decoded before the damage, then an
// *Error naming the format and the compressed offset:
//
//	gzip: unexpected end of data at compressed byte 1048576
//
// What follows the last stream is read as gzip reads it, for every format:
// zero padding is ignored, and other bytes, after every byte of the streams
// has been delivered, give an *Error that wraps ErrTrailingData, which a
// caller that reads like zcat takes for a warning:
//
//	gzip: decompression OK, trailing data at compressed byte 30 ignored
//
// # Where streams end
//
// The decoders read the streams of a file one after another on their own,
// and take whatever follows a stream for the start of another, so the
// package decides it itself, by the same rule for every format (streamend.go):
// gzip is decoded a member at a time; zstd, lz4 and xz are read through a
// framing that follows their container structure without decoding it (frame
// headers, block sizes, checksums: framing.go) and ends the decoder's input
// where the last stream ends; bzip2 is decoded a block at a time, each
// block's end (at any bit) found by decoding it, and only the stream's own
// bytes are taken from the input (bzip2.go).
//
// # Libraries
//
// Gzip is decoded by the project's own deflate decoder (internal/inflate),
// about twice as fast as github.com/klauspost/compress's gzip decoder and
// three times the standard library's on text, and able to report and start
// at block boundaries, as an index of a gzip file needs; zstd by
// github.com/klauspost/compress, whose zstd decoder is pure Go (the
// standard library has none); bzip2 by the project's own block decoder
// (internal/bzblock, also used on several cores by internal/blockz: a
// little over twice as fast as the standard library's compress/bzip2, and
// it reads the randomised blocks of bzip2 0.9.0, which compress/bzip2
// refuses); xz by the package's own container reader (xz.go) around
// the project's LZMA engine (internal/lzma: the maintained pure-Go decoder,
// github.com/ulikunitz/xz, loses what it has decoded when the input ends,
// and the standard library has none); lz4 by
// github.com/pierrec/lz4/v4, the usual pure-Go lz4 library, which reads the
// frame format, skippable and legacy frames. The package's benchmarks
// measure them (bench_test.go; the figures are in
// benchmarks/results/compress.md).
package decompress
