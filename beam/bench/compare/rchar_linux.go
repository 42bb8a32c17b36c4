package main

import (
	"bytes"
	"os"
	"strconv"
)

// processReadBytes is the number of bytes this process has read so far by read system
// calls of any kind (rchar in /proc/self/io), or -1 if it cannot be known.
func processReadBytes() int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(data) {
		if v, ok := bytes.CutPrefix(line, []byte("rchar: ")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
