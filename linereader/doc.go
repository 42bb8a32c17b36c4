// Package linereader reads an input record by record (line by line by default) with one
// reusable buffer per loop, following Ruby's IO.foreach record semantics: any separator,
// paragraph mode, whole-input mode, a byte limit per record, chomp and line numbers.
//
// # Which iterator
//
// Choose by what the loop body does with a record:
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
//   - Pieces lends records like Views, but a record longer than the buffer comes in
//     pieces (Partial reports them), so memory stays bounded whatever the input. Runs
//     does the same with a record longer than the buffer.
//
// Records keep their separator ("\n" by default) unless Options.Chomp is set, which drops
// it (and, for the default separator, a "\r" just before the "\n").
//
// The names differ from the standard library's on purpose. bytes.Lines iterates over a
// byte slice already in memory and yields subslices of it, sharing its memory; here Lines
// copies, because a record lent from a reused buffer would be overwritten by the next
// read, and a caller who kept one would see it change. Views is this package's zero-copy
// iterator, with the shorter lifetime that reuse implies. bufio.Scanner also reads an
// io.Reader into a reused buffer, but it drops the separator, accepts only tokens up to
// its buffer's maximum (64 KiB by default; longer ones end the scan with "token too
// long"), and has no limit, paragraph or line-number semantics. Here a record may be of
// any length, the buffer grows to hold it (Options.MaxRecord bounds it), and Reset reuses
// the buffer for the next input.
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
// Open checks the options first (Options.Validate); New reports invalid options through
// Err. Every iterator ends at the end of the input or at the first error: check Err after
// the loop.
//
// Every iterator runs on the caller's goroutine: nothing in a Reader from New, Open or
// NewSection starts a goroutine, and nothing touches process-wide settings (the
// collector, the memory limit). Concurrency is asked for by name: package parallel's
// Foreach, Map and Fold run the loop body on several goroutines, CountAt and Count read a file in parallel
// sections, NewSection with Partition lets a program or a distributed job do the same,
// and the follow package waits for a growing file with the help of file-system
// notifications. Each of those stops its goroutines before it returns; Map when its
// loop ends, a follow.Reader when it is closed or its context is done.
//
// # How it reads
//
// A Reader holds one bytelist.ByteList for its whole life. It reads straight into the
// buffer's spare room (BufferSize bytes at most per read) and finds each record's end
// with one search from where the last search stopped (bytes.IndexByte for a one-byte
// separator), so no byte is searched twice within a record; Batches and Runs take every
// complete record buffered at once, with one search back from the end of what is
// buffered and then, for Batches, one search per record in the batch's own block. It moves
// the unfinished record to the front only when the room after it runs short, and doubles
// the buffer only when a single record does not fit, up to a cap: a longer record is
// gathered in blocks and made one array of its own length at its end, so a record of L
// bytes needs about 2L of memory at its peak. Reset reuses the buffer for the next input;
// Release, Reset and the loop itself give back a buffer grown for a record long gone.
//
// # How a Reader is made
//
// What a Reader does is its constructor's choice, held for its life (until Reset makes
// it a forward Reader of one source): New and Open read one input forward; NewSection a
// byte range of an io.ReaderAt; NewTail its last records; NewBackward its records last
// first, from its end; NewInputs a sequence of inputs, one after the other (a file and
// the files it was rotated to, in the follow package). Options.Decompress puts a
// decompressor in front of each input. A Reader never asks its source what it is: a
// source is an io.Reader (or io.ReaderAt) and nothing else.
//
// Options.MaxRecord bounds what a record may cost; Options.TooLong says what a longer
// one gets: the loop stops (TooLongStop, the default), the record is skipped
// (TooLongSkip) or cut to MaxRecord bytes (TooLongCut). Either way the reader holds no
// more of it than about MaxRecord bytes.
//
// # Sections and counting
//
// NewSection reads the records that start in a byte range of an io.ReaderAt, so that a
// file can be read by several goroutines or machines, each taking a range: the ranges'
// records together are exactly those of one sequential read. Partition cuts an input's
// size into such ranges. CountAt counts the records of an open file, in parallel
// sections when the options allow it; Count does the same for a file name, and
// CountNamed for a file opened by name, both using its compressed text's index kept
// beside it (NAME.zidx), which CountAt, given no name, does not look for.
//
// The exact rules for cutting records, and where they differ from Ruby's, are in the
// project's docs/semantics.md.
package linereader
