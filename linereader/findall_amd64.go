package linereader

// appendEndsSSE2 writes base+i+1 to dst for every i with p[i] == c, in order, and
// returns how many (findall_amd64.s). len(dst) must be at least len(p).
//
//go:noescape
func appendEndsSSE2(p []byte, c byte, base int, dst []int) int

// appendEnds appends to ends base plus the index just past every byte c in p, in order:
// findAll for a one-byte separator. On amd64 the bytes are compared 16 at a time, with
// no call per record: for records a few dozen bytes long that is several times fewer
// instructions than a bytes.IndexByte per record (whose call spills every value live
// across it), and as fast on long records.
func appendEnds(p []byte, c byte, base int, ends []int) []int {
	n := len(ends)
	if cap(ends)-n < len(p) {
		ends = append(ends[:n:n], make([]int, len(p))...)
	}
	k := appendEndsSSE2(p, c, base, ends[n:n+len(p)])
	return ends[:n+k]
}

// reverseRecordsAsm copies the records data[ends[i]:...] up to end to dst, last first
// (findall_amd64.s). See reverseRecords for what it needs of its arguments.
//
//go:noescape
func reverseRecordsAsm(dst, data []byte, ends []int, end int) int

// reverseRecords copies the records data[ends[len(ends)-1]:end],
// data[ends[len(ends)-2]:ends[len(ends)-1]], ..., data[ends[0]:ends[1]] to dst, back to
// back, and returns their length, end - ends[0]: the records of a backward run, last
// first. ends must ascend, within [0, end], and end <= len(data), len(dst) >=
// end-ends[0]; it panics otherwise, before copying anything. On amd64 the records are
// copied without a call each (memmove's would spill every value of the loop).
func reverseRecords(dst, data []byte, ends []int, end int) int {
	checkRecords(dst, data, ends, end)
	if len(ends) == 0 {
		return 0
	}
	return reverseRecordsAsm(dst, data, ends, end)
}
