package corpus

import "strconv"

// exceptions are the exception class names of the stacktrace shape.
var exceptions = [8]string{
	"java.lang.IllegalStateException", "java.lang.NullPointerException", "java.lang.IllegalArgumentException",
	"java.lang.RuntimeException", "java.io.IOException", "java.util.ConcurrentModificationException",
	"java.net.SocketTimeoutException", "java.lang.ArrayIndexOutOfBoundsException",
}

// stackTrace writes the stacktrace shape: Lines log entries (a line that begins with a
// timestamp, and for some a stack trace under it), or, with a Size, entries up to the
// first line end at or past Size (the last entry's trace may then be cut short).
func (g *generator) stackTrace(s Spec) {
	for i := 0; g.out.err == nil && (s.Size > 0 || i < s.Lines); i++ {
		if !g.logEntry(i, s) {
			return
		}
	}
}

// logEntry writes entry i: its header line and, for an ERROR and a third of the WARN
// entries, an exception line, 3 to 20 frames and, one time in three, a cause with 2 to
// 6 frames and a "... N more" line. It reports false once the corpus has its Size.
func (g *generator) logEntry(i int, s Spec) bool {
	level := "INFO"
	trace := false
	switch r := g.rng.below(20); {
	case r >= 17:
		level, trace = "ERROR", true
	case r >= 14:
		level, trace = "WARN", g.rng.below(3) == 0
	}
	g.header(i, level)
	g.appendWords(s.Phrases)
	if !g.endLine(s) {
		return false
	}
	if !trace {
		return true
	}
	g.out.buf = append(g.out.buf, exceptions[g.rng.below(uint64(len(exceptions)))]...)
	g.out.buf = append(g.out.buf, ": "...)
	g.appendWords(1 + int(g.rng.below(8)))
	if !g.endLine(s) || !g.frames(3+int(g.rng.below(18)), s) {
		return false
	}
	if g.rng.below(3) != 0 {
		return true
	}
	g.out.buf = append(g.out.buf, "Caused by: "...)
	g.out.buf = append(g.out.buf, exceptions[g.rng.below(uint64(len(exceptions)))]...)
	g.out.buf = append(g.out.buf, ": "...)
	g.appendWords(1 + int(g.rng.below(5)))
	if !g.endLine(s) || !g.frames(2+int(g.rng.below(5)), s) {
		return false
	}
	g.out.buf = append(g.out.buf, "\t... "...)
	g.out.buf = strconv.AppendUint(g.out.buf, 3+g.rng.below(40), 10)
	g.out.buf = append(g.out.buf, " more"...)
	return g.endLine(s)
}

// header appends entry i's timestamp (milliseconds that grow with i, from a fixed
// day), level, thread and logger, and the " - " before the message.
func (g *generator) header(i int, level string) {
	ms := uint64(i)*1237 + g.rng.below(1000)
	b := append(g.out.buf, "2026-05-"...)
	b = appendPadded(b, 1+ms/86_400_000%28, 2)
	b = append(b, ' ')
	b = appendPadded(b, ms/3_600_000%24, 2)
	b = append(b, ':')
	b = appendPadded(b, ms/60_000%60, 2)
	b = append(b, ':')
	b = appendPadded(b, ms/1000%60, 2)
	b = append(b, '.')
	b = appendPadded(b, ms%1000, 3)
	b = append(b, ' ')
	b = append(b, level...)
	b = append(b, " [worker-"...)
	b = strconv.AppendUint(b, g.rng.below(16), 10)
	b = append(b, "] com.example."...)
	b = append(b, g.words.next()...)
	b = append(b, '.')
	b = append(b, g.words.next()...)
	g.out.buf = append(b, " - "...)
}

// frames appends n stack frames, "\tat com.example.WORD.WORD.WORD(WORD.java:N)", each on
// a line of its own; false once the corpus has its Size.
func (g *generator) frames(n int, s Spec) bool {
	for range n {
		g.out.buf = append(g.out.buf, "\tat com.example."...)
		for range 3 {
			g.out.buf = append(g.out.buf, g.words.next()...)
			g.out.buf = append(g.out.buf, '.')
		}
		g.out.buf[len(g.out.buf)-1] = '('
		g.out.buf = append(g.out.buf, g.words.next()...)
		g.out.buf = append(g.out.buf, ".java:"...)
		g.out.buf = strconv.AppendUint(g.out.buf, 1+g.rng.below(2000), 10)
		g.out.buf = append(g.out.buf, ')')
		if !g.endLine(s) {
			return false
		}
	}
	return true
}

// endLine ends a line and flushes when the buffer is full; it reports false once the
// corpus has its Size (or a write failed).
func (g *generator) endLine(s Spec) bool {
	g.out.buf = append(g.out.buf, '\n')
	if len(g.out.buf) >= flushAt {
		g.out.flush()
	}
	return g.out.err == nil && (s.Size == 0 || g.out.size() < s.Size)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v uint64, width int) []byte {
	s := strconv.FormatUint(v, 10)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
