package linereader

// Span is the byte range [Start, End) of an input.
type Span struct{ Start, End int64 }

// Partition cuts [0, size) into n contiguous spans that cover it in order, balanced
// within one byte: the first size%n spans are one byte longer than the others. It is the
// arithmetic for reading one input in parallel: give each span to NewSection, on a
// goroutine or as a task of a distributed job, and the sections' records, in span order,
// are exactly those of one sequential read. Spans cut bytes, not records: NewSection
// assigns each record to the span its first byte lies in.
//
// No span is empty, so when size < n there are only size spans, one byte each. An empty
// input (size 0) gives one empty span, [0, 0), so that a job over it still runs once and
// reports no records. n < 1 means 1: one span, the whole input. A negative size panics,
// as a negative length does in the standard library.
func Partition(size int64, n int) []Span {
	if size < 0 {
		panic("linereader: Partition with a negative size")
	}
	if n < 1 {
		n = 1
	}
	if int64(n) > size {
		n = int(max(size, 1))
	}
	spans := make([]Span, n)
	each, longer := size/int64(n), size%int64(n)
	start := int64(0)
	for i := range spans {
		end := start + each
		if int64(i) < longer {
			end++
		}
		spans[i] = Span{Start: start, End: end}
		start = end
	}
	return spans
}
