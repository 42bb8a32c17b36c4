package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Digest sums up a multiset of records: two readers that yield the same records, in any
// order and however the work was split, have equal digests, and a record lost, repeated or
// changed shows in Records, Bytes and both hash sums. The sums are order-free on purpose:
// Beam gives no order across sections, and equal records must not cancel out (as they would
// with XOR).
type Digest struct {
	Records uint64 // the number of records
	Bytes   uint64 // their total length, in bytes
	Sum     uint64 // the sum, modulo 2^64, of xxhash64 of every record
	Mix     uint64 // the sum of mix(xxhash64) of every record: a second, independent lane
}

// mix is the splitmix64 finalizer: a bijection that makes the second lane's terms unlike
// the first's, so that two multisets with equal Sum are unlikely to have equal Mix too.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

func (d *Digest) addHash(n int, h uint64) {
	d.Records++
	d.Bytes += uint64(n)
	d.Sum += h
	d.Mix += mix(h)
}

// Add counts one record.
func (d *Digest) Add(rec []byte) { d.addHash(len(rec), xxhash.Sum64(rec)) }

// AddString counts one record given as a string (no copy).
func (d *Digest) AddString(rec string) { d.addHash(len(rec), xxhash.Sum64String(rec)) }

// Merge returns the digest of both multisets together.
func (d Digest) Merge(o Digest) Digest {
	return Digest{d.Records + o.Records, d.Bytes + o.Bytes, d.Sum + o.Sum, d.Mix + o.Mix}
}

// Reference is what the sequential read of one file says the readers must deliver.
type Reference struct {
	File string // the file's path
	Size int64  // its size on disk
	// Text is the size of its text: Size, or the decompressed size of a .gz file.
	Text int64
	// LF is the digest of the records under textio's rule, the one every contender is held
	// to: a record ends after each "\n", which is not part of it; the bytes after the
	// last "\n", if any, are a last record.
	LF Digest
	// CRLF is the digest under bufio.ScanLines' rule, which textio.Immediate follows: the
	// same records with one "\r" dropped from the end of each.
	CRLF Digest
	// Prefix is the digest of the records (LF rule) whose first byte lies before text
	// offset Size: for a .gz file, what a reader yields that stops at the compressed size.
	Prefix Digest
}

// reference reads path once, sequentially, with the standard library alone (a .gz file
// through compress/gzip), and digests its records under both rules. It shares no code with
// the readers it checks.
// The file is read through the counted filesystem, so that its bytes are counted as the
// readers' are.
func reference(path string) (Reference, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Reference{}, err
	}
	f, err := countedFS{}.OpenRead(context.Background(), path)
	if err != nil {
		return Reference{}, err
	}
	defer f.Close()
	ref := Reference{File: path, Size: info.Size()}
	var src io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return Reference{}, err
		}
		defer zr.Close()
		src = zr
	}
	ref.Text, err = eachLine(src, func(off int64, line []byte) {
		ref.LF.Add(line)
		ref.CRLF.Add(bytes.TrimSuffix(line, []byte("\r")))
		if off < ref.Size {
			ref.Prefix.Add(line)
		}
	})
	return ref, err
}

// eachLine calls fn with the offset and bytes of every line of src, "\n" removed, and of
// the last unterminated line if it is not empty, and returns the number of bytes read.
// Lines of any length are assembled from bufio's pieces.
func eachLine(src io.Reader, fn func(off int64, line []byte)) (int64, error) {
	br := bufio.NewReaderSize(src, 1<<20)
	var off int64
	var long []byte // the pieces so far of a line longer than the buffer
	for {
		piece, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, piece...)
			continue
		}
		line := piece
		if long != nil {
			line = append(long, piece...)
			long = nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return off, err
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			fn(off, line[:n-1])
		} else if n > 0 {
			fn(off, line)
		}
		off += int64(len(line))
		if err != nil {
			return off, nil
		}
	}
}
