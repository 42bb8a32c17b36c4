package pgzip_test

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/foreachio/foreach/internal/pgzip"
)

// compressors are the gzip tools of the machine, each cutting blocks its own
// way: gzip at its fastest and best, pigz (independent 128 KiB pieces, each
// ended by an empty stored block), igzip (ISA-L's, large blocks) and
// libdeflate's, and bgzip (BGZF: many members of 64 KiB).
var compressors = [][]string{
	{"gzip", "-1", "-c", "-n"},
	{"gzip", "-9", "-c", "-n"},
	{"pigz", "-p", "2", "-c"},
	{"pigz", "-p", "2", "-11", "-c"}, // pigz's zopfli mode
	{"igzip", "-1", "-c"},
	{"igzip", "-3", "-c"},
	{"libdeflate-gzip", "-6", "-c"},
	{"libdeflate-gzip", "-12", "-c"},
	{"bgzip", "-c"},
	{"zopfli", "-c"},
}

// TestTools: files made by every compressor of the machine read as
// decompress and gzip -dc read them.
func TestTools(t *testing.T) {
	data := goSources(t, 1<<20)
	if underRace {
		data = data[:256<<10]
	}
	ran := 0
	for _, args := range compressors {
		if _, err := exec.LookPath(args[0]); err != nil {
			t.Logf("%s: not on this machine", args[0])
			continue
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdin = bytes.NewReader(data)
		file, err := cmd.Output()
		if err != nil {
			t.Logf("%v: %v (skipped)", args, err)
			continue
		}
		ran++
		st := same(t, args[0]+" "+args[1], file, pgzip.Options{Workers: 2, ChunkSize: int64(len(file) / 12)}, pgzip.Options{Workers: 3, ChunkSize: int64(len(file) / 5)})
		t.Logf("%v: %d bytes, %+v", args, len(file), st)
		if got := gunzip(t, file); got != nil && !bytes.Equal(got, data) {
			t.Fatalf("%v: gzip -dc gives other bytes", args)
		}
	}
	if ran == 0 {
		t.Skip("no gzip compressor on this machine")
	}
}

// gunzip returns what gzip -dc gives for file, or nil without gzip.
func gunzip(t *testing.T, file []byte) []byte {
	if _, err := exec.LookPath("gzip"); err != nil {
		return nil
	}
	cmd := exec.Command("gzip", "-dc")
	cmd.Stdin = bytes.NewReader(file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gzip -dc: %v", err)
	}
	return out
}
