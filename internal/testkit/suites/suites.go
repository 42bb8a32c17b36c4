// Package suites gives the tests the formats' own conformance files (xz-utils'
// tests/files, zstd's golden files, Go's compress/flate and compress/gzip vectors,
// zlib's infcover.c streams, bzip2's samples), each with the outcome its suite states
// and what the format's reference decoder yields from it: the one place that says
// what every case must give (testdata/EXPECTED.tsv, made by testdata/expected.py; the
// sources and licences in testdata/README). Only tests import it.
//
//	for _, c := range suites.Cases(t) {
//		got, err := decode(c.Input)
//		if msg := c.Check(got, err); msg != "" {
//			t.Errorf("%s: %s", c.Name, msg)
//		}
//	}
package suites

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

//go:embed testdata
var files embed.FS

// Outcome is what a suite says of a case.
type Outcome string

// The outcomes.
const (
	Good        Outcome = "good"        // decodes, byte for byte, with no error
	Bad         Outcome = "bad"         // an error; no byte the reference decoder does not yield
	Unsupported Outcome = "unsupported" // refused with a message saying what is not supported
	Cut         Outcome = "cut"         // a stream without its end: all the reference yields, then a truncation
	Trailing    Outcome = "trailing"    // a complete stream, then bytes that are not one: all of it, then trailing data
	Plain       Outcome = "plain"       // a format foreach does not read: passed on as it is
)

// Case is one file of a suite. Ref and RefLen/RefSum are what the reference decoder
// (Reference) yields, before its error if it fails: Ref holds the bytes when there are
// at most 512 of them, nil otherwise (then RefSum is their SHA-256).
type Case struct {
	Name      string // the suite's folder and the file's name: "xz/good-1-lzma2-1.xz"
	Suite     string // "xz", "zstd", "bzip2", "deflate" (raw deflate streams), "gzip"
	Input     []byte
	Outcome   Outcome
	Reference string // the decoder whose output Ref is: "xz 5.8.1 -dc", "zlib", ...
	RefLen    int
	RefSum    [sha256.Size]byte
	Ref       []byte
	Note      string // the suite's description, where it has one
	refCRC    uint32 // CRC-32 of the reference's output
	used      int    // the bytes of Input the deflate stream is made of (what follows is not)
}

// Cases reads every case of the suites.
func Cases(t testing.TB) []Case {
	t.Helper()
	b, err := files.ReadFile("testdata/EXPECTED.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		c, err := parse(strings.TrimSuffix(line, "\n"))
		if err != nil {
			t.Fatalf("EXPECTED.tsv: %v", err)
		}
		if c.Input, err = files.ReadFile("testdata/" + c.Name); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// parse reads a line of EXPECTED.tsv: case, outcome, the bytes of it a deflate stream
// uses, reference, its status, its bytes'
// length, SHA-256, CRC-32 and hex (or "-"), note.
func parse(line string) (Case, error) {
	f := strings.Split(line, "\t")
	if len(f) != 10 {
		return Case{}, fmt.Errorf("%q: %d fields, want 10", line, len(f))
	}
	c := Case{Name: f[0], Outcome: Outcome(f[1]), Reference: f[3], Note: f[9]}
	c.Suite, _, _ = strings.Cut(f[0], "/")
	var err error
	if c.used, err = strconv.Atoi(f[2]); err != nil {
		return c, err
	}
	f = f[1:]
	if c.RefLen, err = strconv.Atoi(f[4]); err != nil {
		return c, err
	}
	sum, err := hex.DecodeString(f[5])
	if err != nil || len(sum) != sha256.Size {
		return c, fmt.Errorf("%s: bad sha256 %q", c.Name, f[5])
	}
	copy(c.RefSum[:], sum)
	crc, err := strconv.ParseUint(f[6], 16, 32)
	if err != nil {
		return c, err
	}
	c.refCRC = uint32(crc)
	if f[7] != "-" {
		if c.Ref, err = hex.DecodeString(f[7]); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Check says how got and err, what a decoder gave for the case, depart from what the
// case must give, or "" when they do not. unsupported tells an error that says what is
// not supported; truncated one of a stream cut short; trailing one of trailing data.
func (c *Case) Check(got []byte, err error, kind func(error) ErrorKind) string {
	switch c.Outcome {
	case Good, Plain:
		if err != nil {
			return fmt.Sprintf("error %v, want none", err)
		}
		if c.Outcome == Plain && !bytes.Equal(got, c.Input) {
			return fmt.Sprintf("%d bytes, not the %d of the file as it is", len(got), len(c.Input))
		}
		if c.Outcome == Plain {
			return ""
		}
		return c.sameAsRef(got)
	case Cut, Trailing:
		want := map[Outcome]ErrorKind{Cut: Truncated, Trailing: TrailingData}[c.Outcome]
		if err == nil || kind(err) != want {
			return fmt.Sprintf("error %v, want one of %s", err, want)
		}
		return c.sameAsRef(got)
	}
	if err == nil {
		return fmt.Sprintf("no error (%d bytes), want one", len(got))
	}
	if c.Outcome == Unsupported && kind(err) != NotSupported {
		return fmt.Sprintf("error %v, want one that says what is not supported", err)
	}
	return c.prefixOfRef(got)
}

// sameAsRef: got is the reference's output.
func (c *Case) sameAsRef(got []byte) string {
	if len(got) != c.RefLen || sha256.Sum256(got) != c.RefSum {
		return fmt.Sprintf("%d bytes, not the %d bytes %s yields", len(got), c.RefLen, c.Reference)
	}
	return ""
}

// prefixOfRef: got holds no byte the reference does not yield.
func (c *Case) prefixOfRef(got []byte) string {
	if c.Ref == nil && len(got) == c.RefLen {
		return c.sameAsRef(got)
	}
	if c.Ref == nil || !bytes.HasPrefix(c.Ref, got) {
		return fmt.Sprintf("%d bytes, not a prefix of the %d bytes %s yields", len(got), c.RefLen, c.Reference)
	}
	return ""
}

// ErrorKind is what an error says, as a Check needs to know it.
type ErrorKind string

// The kinds.
const (
	Other        ErrorKind = "damage"
	Truncated    ErrorKind = "truncation"
	TrailingData ErrorKind = "trailing data"
	NotSupported ErrorKind = "not supported"
)

// KindOf tells the kind of err by what it wraps (io.ErrUnexpectedEOF, trailing) and
// what it says ("unsupported"), for decoders whose errors say so.
func KindOf(trailing error) func(error) ErrorKind {
	return func(err error) ErrorKind {
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return Truncated
		case errors.Is(err, trailing):
			return TrailingData
		case strings.Contains(err.Error(), "unsupported") || strings.Contains(err.Error(), "not supported"):
			return NotSupported
		}
		return Other
	}
}

// Framed returns the case's input as a file foreach reads: a raw deflate stream in a
// gzip member (a header of 10 bytes; after a stream with its end, the trailer of the
// reference's output, so that a good stream is a good file), any other as it is.
func (c *Case) Framed() []byte {
	if c.Suite != "deflate" {
		return c.Input
	}
	b := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}
	if c.Outcome != Good {
		return append(b, c.Input...)
	}
	b = append(b, c.Input[:c.used]...)
	b = binary.LittleEndian.AppendUint32(b, c.refCRC)
	return binary.LittleEndian.AppendUint32(b, uint32(c.RefLen))
}
