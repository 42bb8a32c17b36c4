// Package naive is the line reader this project exists to replace, kept as a benchmark
// contender: the pattern of JRuby's old IO.foreach, a fresh buffer for every line,
// starting empty and grown by 1.5x with a copy of what it holds each time the next
// small step of input does not fit.
package naive

import (
	"bufio"
	"bytes"
	"io"
)

// Step is how many bytes the naive reader takes from its source at a time.
const Step = 128

// Lines calls fn with each line of src ("\n" kept; an unterminated last line too), each
// in a buffer of its own, and returns how many times those buffers grew. br must read
// src; its buffer should be at least Step bytes.
func Lines(br *bufio.Reader, fn func(line []byte)) (grows int, err error) {
	var line []byte // nil at the start of every line
	for {
		step, err := br.Peek(Step)
		if len(step) == 0 {
			if len(line) > 0 {
				fn(line)
			}
			if err == io.EOF {
				err = nil
			}
			return grows, err
		}
		n, end := len(step), false
		if i := bytes.IndexByte(step, '\n'); i >= 0 {
			n, end = i+1, true
		}
		if len(line)+n > cap(line) {
			c := cap(line)
			for len(line)+n > c {
				c = c*3/2 + 1
			}
			grown := make([]byte, len(line), c)
			copy(grown, line)
			line = grown
			grows++
		}
		line = append(line, step[:n]...)
		br.Discard(n)
		if end {
			fn(line)
			line = nil
		}
	}
}
