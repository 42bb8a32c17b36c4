// Package blockz decodes compressed files in parallel from their formats'
// own structure: the pieces of a file that decode on their own (BGZF
// members, bzip2 blocks, xz blocks, zstd frames, lz4 frames and independent
// blocks) are found without decoding them (Scan), and decoded by several
// goroutines at once into one stream, in order, exactly the bytes and the
// errors of a sequential read (Reader).
package blockz
