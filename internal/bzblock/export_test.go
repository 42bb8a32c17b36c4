package bzblock

import "io"

// CPUTime is the process's CPU time so far, for the benchmarks of
// package bzblock_test.
var CPUTime = cpuTime

// RaceEnabled says whether the race detector is on: the tests decode less.
const RaceEnabled = raceEnabled

// RNums is bzip2's randomisation table, for the tests' encoder.
var RNums = rNums

// PreRLE returns the bytes of a block before its final run-length
// decoding (derandomised), before any of it is read.
func PreRLE(b *Block) []byte {
	var out []byte
	for _, p := range b.pieces {
		out = append(out, p...)
	}
	return out
}

// RunLengthDecode reads pre, a block before its final run-length decoding
// whose output has the CRC crc, as a Block reads it.
func RunLengthDecode(pre []byte, crc uint32) ([]byte, error) {
	b := Block{pieces: [][]byte{pre}, size: len(pre), want: crc}
	b.reset()
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := b.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
	}
}
