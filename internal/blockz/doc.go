// Package blockz decodes compressed files in parallel from their formats'
// own structure: the pieces of a file that decode on their own (BGZF
// members, bzip2 blocks, xz blocks, zstd frames, lz4 frames and independent
// blocks) are found without decoding them (Scan), and decoded by several
// goroutines at once into one stream, in order, exactly the bytes and the
// errors of a sequential read (Reader).
//
// Its Reader is the project's one ordered fetcher: the text of an index
// (zindex: spans between access points) is read ahead in order by the same
// window of jobs (NewSpanReader), with the same memory bound (Memory), the
// same panic rule (a worker's panic is raised again in the goroutine that
// reads, or returned by Close when the reading never reached it) and the
// same stop rule (Close stops every worker and waits for it).
package blockz
