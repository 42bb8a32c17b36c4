// Package corpus generates the benchmark and test inputs of foreach: text of
// a known shape (many short lines, a few very long ones, a long tail of
// lengths, CRLF endings, no final newline, one huge line, logs with stack
// traces) and binary noise,
// the same bytes for the same Spec on every machine and with every Go release.
//
// A small example, three lines of four words:
//
//	b, err := corpus.Bytes(corpus.Spec{Shape: corpus.Tall, Lines: 3, Phrases: 4, Seed: 1})
//	if err != nil {
//		log.Fatal(err)
//	}
//	os.Stdout.Write(b)
//	// an orange batch a
//	// and silver newline was
//	// for to offset forest
//
// and a 64 MiB file for a benchmark:
//
//	n, err := corpus.WriteFile(name, corpus.Spec{Shape: corpus.Mixed, Size: 64 << 20})
//
// The command at testdata/gen is a front end to this package:
//
//	go run ./testdata/gen --shape mixed --size 64MiB -o mixed.txt
//
// # Shapes
//
// A phrase is one word from a fixed vocabulary of 64 lowercase ASCII words
// (see Vocabulary); a line is its phrases joined by single spaces, then "\n".
//
//   - tall: Lines lines (default 10,000) of Phrases words (default 10), about
//     565 KiB.
//   - wide: the same, with defaults of 10 lines of 10,000 words.
//   - verywide: Lines lines (default 10) of words, each at least 512 KiB: a
//     line ends at the first word end at or past a length drawn uniformly in
//     [512 KiB, 768 KiB) (VerywideMinLine, VerywideSpread), about 640 KiB on
//     average. Phrases is ignored.
//   - mixed: Lines lines (default 10,000) whose word counts have a long tail:
//     one line in eight is empty, and a non-empty line has between p<<k/2+1
//     and p<<k words, p being Phrases (default 10), where each of k = 0, 1, ...
//     MixedMaxDoublings is reached with probability 9/16 from the one before.
//     Most lines are about 60 bytes; a few reach hundreds of KiB. The tail
//     makes the total vary with the seed: 5.4 MiB for seed 0, 7.4 MiB for 42.
//   - crlf: tall with "\r\n" endings.
//   - no-final-newline: tall whose last line has no terminator.
//   - huge-line: one line of exactly Size bytes (default 16 MiB), "\n"
//     included: words separated by single spaces, the last one cut to fit.
//   - binary: exactly Size uniformly random bytes (default 1 MiB), so about
//     one byte in 256 is NUL and one in 256 is "\n".
//   - stacktrace: Lines log entries (default 10,000), records of many lines
//     for Multiline: each a line "2026-05-DD HH:MM:SS.mmm LEVEL [worker-N]
//     com.example.W.W - " and Phrases words (default 10), the timestamps growing
//     with the entry; an ERROR entry (3 in 20) and a third of the WARN entries
//     (3 in 20) have a stack trace under the line, as a Java program logs one:
//     "java.lang.SomeException: words", 3 to 20 lines "\tat
//     com.example.W.W.W(W.java:N)", and one time in three a "Caused by: ..."
//     line, 2 to 6 frames and "\t... N more". About 3.9 lines and 270 bytes an
//     entry; a record begins at each line that starts with a digit (^\d) or, as
//     a continuation pattern, continues at each that does not start with one.
//     With a Size, it ends at the first line end at or past Size, whichever
//     line of an entry that is.
//
// The text shapes draw the same stream of words for the same seed: wide is
// tall with the line breaks moved, crlf is tall with "\n" replaced by "\r\n",
// and no-final-newline is tall without its last byte.
//
// # Size
//
// Spec.Size > 0 overrides Lines. The text shapes then generate whole lines
// until the target is reached: the corpus ends at the first line end at or
// past Size, so it is at least Size bytes and shorter than Size plus one line.
// (For no-final-newline a line ends after its last word, as the lines are
// joined rather than terminated.) Huge-line and binary are exactly Size bytes.
//
// # Determinism
//
// The only source of randomness is a splitmix64 generator written out in this
// package with fixed constants, seeded with Spec.Seed; it draws only integers
// and no map is iterated. math/rand is not used, because its streams are not
// promised to stay the same across Go releases. The tests pin a SHA-256 of
// every shape at its defaults for two seeds: a change to the bytes of any
// corpus fails them.
package corpus
