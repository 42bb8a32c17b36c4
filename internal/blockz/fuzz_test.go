package blockz_test

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/foreachio/foreach/internal/blockz"
)

// fuzzSeeds are small files of every format with several pieces: BGZF members, zstd
// frames (sized, unsized after pzstd's skippable frames, with a seek table), lz4 blocks,
// and bzip2 and xz -T when the tools are there. Each is a few KiB, so that an execution
// costs little and the fuzzer's minimizing of what it finds does not take minutes: the
// text is short, or repetitive where a format's pieces are large (lz4's 64 KiB blocks,
// bzip2's 100 kB).
func fuzzSeeds(f testing.TB) [][]byte {
	data := text(f, 6<<10, 40)
	long := bytes.Repeat(data[:1500], 160) // 240 kB
	seeds := [][]byte{
		bgzf(f, data, 1000, true),
		zstdFrames(f, data, 1500, true, false, false),
		zstdFrames(f, data, 1500, false, true, false),
		zstdFrames(f, data, 1500, false, false, true),
		lz4Frame(f, long, lz4.BlockSizeOption(lz4.Block64Kb), lz4.ChecksumOption(true)),
	}
	for _, c := range []struct {
		command string
		input   []byte
	}{{"bzip2 -c -1", long}, {"xz -c -0 -T2 --block-size=2KiB", data}} {
		if out, err := toolOutput(c.command, c.input); err == nil {
			seeds = append(seeds, out)
		}
	}
	return seeds
}

// toolOutput runs a compressor, or returns its error (not installed, failed).
func toolOutput(command string, input []byte) ([]byte, error) {
	args := bytes.Fields([]byte(command))
	name := string(args[0])
	if _, err := exec.LookPath(name); err != nil {
		return nil, err
	}
	var rest []string
	for _, a := range args[1:] {
		rest = append(rest, string(a))
	}
	cmd := exec.Command(name, rest...)
	cmd.Stdin = bytes.NewReader(input)
	return cmd.Output()
}

// FuzzReader reads any file with the structure scan and the ordered fetcher, with two
// workers and with jobs held in chunks, and compares with the sequential decoder: the
// same bytes and the same error. The seeds are files of every format the scan follows.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		want, wantErr := sequential(t, file)
		for _, opt := range []blockz.Options{{Workers: 2}, {Workers: 3, Window: 2, JobMemory: 5000}} {
			r, err := blockz.NewReader(bytes.NewReader(file), int64(len(file)), opt)
			if errors.Is(err, blockz.ErrNoStructure) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, r)
			r.Close()
			if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%+v: %d bytes, %v; the sequential read %d bytes, %v (first difference at %d)",
					opt, len(got), err, len(want), wantErr, firstDiff(got, want))
			}
		}
	})
}

// FuzzSpanReader reads a text through the span reader, cut at any points, failing at any
// offset, with any reads: every byte up to the failure, then its error, or the end.
func FuzzSpanReader(f *testing.F) {
	f.Add(uint32(100_000), []byte{10, 200, 3}, uint32(1<<31), uint8(2), uint16(777))
	f.Add(uint32(5<<20), []byte{255, 255, 1, 0, 7}, uint32(3<<20+5), uint8(3), uint16(1))
	f.Add(uint32(0), []byte{}, uint32(0), uint8(1), uint16(0))
	text := make([]byte, 9<<20)
	for i := range text {
		text[i] = byte(i*7 + i>>11)
	}
	f.Fuzz(func(t *testing.T, size uint32, cuts []byte, bad uint32, workers uint8, read uint16) {
		size %= uint32(len(text))
		data := text[:size]
		var points []int64
		p := int64(0)
		for _, c := range cuts {
			p += int64(c) << 12
			points = append(points, p)
		}
		end := errors.New("the end")
		opt := blockz.Options{Workers: int(workers%4) + 1, JobMemory: int64(read)<<8 + 1}
		r := blockz.NewSpanReader(failingAt{data, int64(bad)}, int64(size), points, end, opt)
		defer r.Close()
		var got []byte
		buf := make([]byte, int(read)+1)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err == nil {
				continue
			}
			wantN := min(int64(bad), int64(size))
			if int64(len(got)) != wantN || !bytes.Equal(got, data[:wantN]) {
				t.Fatalf("%d bytes, want %d", len(got), wantN)
			}
			if int64(bad) < int64(size) && !errors.Is(err, errBad) || int64(bad) >= int64(size) && err != end {
				t.Fatalf("error %v (bad at %d of %d)", err, bad, size)
			}
			if n, err2 := r.Read(buf); n != 0 || err2 != err {
				t.Fatalf("a read after the error: %d, %v", n, err2)
			}
			return
		}
	})
}
