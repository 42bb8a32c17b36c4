// Package linereader reads an input record by record (line by line by default) with one
// reusable buffer per loop, following Ruby's IO.foreach record semantics: any separator,
// paragraph mode, whole-input mode, a byte limit per record, chomp and line numbers.
//
// A complete program that prints the lines of a file with their numbers:
//
//	r, err := linereader.Open("access.log", linereader.Options{Chomp: true})
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer r.Close()
//	for line := range r.Lines() {
//		fmt.Printf("%d: %s\n", r.LineNo(), line)
//	}
//	if err := r.Err(); err != nil {
//		log.Fatal(err)
//	}
//
// # Which iterator
//
//   - Lines (and Line, and Foreach) copy each record out into an exact-size allocation
//     that the caller owns: keep it, change it, send it to another goroutine. This is the
//     safe default and costs one allocation per record.
//   - Views (and Bytes) lend the record from the reader's buffer: no copy, no allocation,
//     but the slice is valid only until the loop body returns (the next Next). Use it to
//     look at records: count, match, hash, parse into other values.
//   - Batches copies runs of records into one fresh block per batch: one allocation per
//     batch instead of per record, and the records stay valid; retaining any record of a
//     batch keeps its whole block (up to 32 KiB) alive.
//   - Runs lends spans of whole records exactly as they are in the input: the fastest
//     way to pass records on unchanged.
//
// On a regular file, Lines and Batches read ahead on a second goroutine while the loop
// body works, when that pays (see Lines).
//
// # How it reads
//
// A Reader holds one bytelist.ByteList for its whole life. It reads straight into the
// buffer's spare room (BufferSize bytes at most per read), searches each byte once
// (bytes.IndexByte for a one-byte separator), moves the unfinished record to the front
// only when the room after it runs short, and grows the buffer geometrically only when a
// single record does not fit. Reset reuses the buffer for the next input.
//
// # Sections
//
// NewSection reads the records that start in a byte range of an io.ReaderAt, so that a
// file can be read by several goroutines or machines, each taking a range: the ranges'
// records together are exactly those of one sequential read. Count uses it to count
// records in parallel.
//
// The exact rules for cutting records, and where they differ from Ruby's, are in the
// project's SEMANTICS.md.
package linereader
