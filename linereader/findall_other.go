//go:build !amd64

package linereader

import "bytes"

// appendEnds appends to ends base plus the index just past every byte c in p, in order:
// findAll for a one-byte separator, with bytes.IndexByte (see findall_amd64.go).
func appendEnds(p []byte, c byte, base int, ends []int) []int {
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], c)
		if j < 0 {
			return ends
		}
		i += j + 1
		ends = append(ends, base+i)
	}
}

// reverseRecords copies the records data[ends[len(ends)-1]:end], ..., data[ends[0]:
// ends[1]] to dst, back to back, and returns their length (see findall_amd64.go).
func reverseRecords(dst, data []byte, ends []int, end int) int {
	checkRecords(dst, data, ends, end)
	pos := 0
	for i := len(ends) - 1; i >= 0; i-- {
		pos += copy(dst[pos:], data[ends[i]:end])
		end = ends[i]
	}
	return pos
}
