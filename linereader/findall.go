package linereader

// checkRecords panics unless ends ascend within [0, end], end <= len(data) and dst holds
// end-ends[0] bytes: what reverseRecords needs to stay within its slices.
func checkRecords(dst, data []byte, ends []int, end int) {
	if end > len(data) || len(ends) > 0 && (ends[0] < 0 || len(dst) < end-ends[0]) {
		panic("linereader: reverseRecords out of bounds")
	}
	for i := 1; i < len(ends); i++ {
		if ends[i] < ends[i-1] {
			panic("linereader: reverseRecords: ends do not ascend")
		}
	}
	if len(ends) > 0 && ends[len(ends)-1] > end {
		panic("linereader: reverseRecords: an end past end")
	}
}
