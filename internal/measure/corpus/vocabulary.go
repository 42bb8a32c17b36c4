package corpus

// vocabulary is the fixed word list every text shape draws from. It has
// exactly 64 entries (wordPicker takes six random bits per word), all
// lowercase ASCII without spaces, so a byte count is a character count and a
// line's words can be recovered with strings.Split(line, " "). Their lengths
// run from 1 to 13 bytes and average a little over 5, which puts a line of
// ten words near 60 bytes, about the length of a line of prose or code.
//
// Changing this list changes every corpus: the pinned checksums in the
// tests will say so.
var vocabulary = [64]string{
	"a", "an", "the", "of", "to", "in", "is", "it",
	"on", "and", "for", "was", "are", "with", "line", "word",
	"file", "read", "fast", "safe", "each", "byte", "loop", "text",
	"data", "buffer", "record", "stream", "reader", "scanner", "newline", "separator",
	"paragraph", "iterator", "terminal", "pipe", "block", "batch", "chunk", "offset",
	"quick", "brown", "fox", "jumps", "over", "lazy", "dog", "river",
	"mountain", "forest", "silver", "orange", "yellow", "purple", "window", "garden",
	"library", "question", "answer", "number", "extraordinary", "zebra", "x", "y",
}

// Vocabulary returns a copy of the words the text shapes are made of, in
// their fixed order.
func Vocabulary() []string {
	return append([]string(nil), vocabulary[:]...)
}
