// Package decompress reads gzip, zstd, bzip2 and xz streams, recognised by
// their magic numbers, and passes any other input on unchanged: the layer
// under foreach's Options.Decompress and the command's -z.
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
// # Libraries
//
// Gzip and zstd are decoded by github.com/klauspost/compress, whose gzip
// decoder is faster than the standard library's compress/gzip and whose
// zstd decoder is pure Go (the standard library has none); bzip2 by the
// standard library's compress/bzip2; xz by github.com/ulikunitz/xz, a pure-Go
// xz decoder (the standard library has none). The package's benchmarks
// measure them (bench_test.go; the figures are in
// benchmarks/results/compress.md).
package decompress
