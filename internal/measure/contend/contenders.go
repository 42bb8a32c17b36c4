package contend

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"os"

	"github.com/foreachio/foreach/internal/measure/naive"
	"github.com/foreachio/foreach/linereader"
)

// Result is what one contender saw in one read of a whole file. Records, Bytes and Ends
// are checked against the file's reference before any time is reported; Last keeps the
// last record reachable, so that a record copied out is really kept (a copy nobody keeps
// may be put on the stack by the compiler, which no program that keeps its lines sees).
type Result struct {
	Records int64
	Bytes   int64  // total length of the records as yielded
	Ends    int64  // sum of the first and the last byte of each non-empty record
	Hash    uint64 // the hashing bodies: sum of FNV-1a 64 of each record
	Last    []byte // the last record, for the contenders that own their records
	Grows   int    // buffer growths, for the contenders that Report them
	Longest int    // the longest record, for the engine's contenders
}

// add is the light loop body: the record's length and its first and last byte, so that
// a borrowed view is really read and a record cut or shifted by a byte is caught.
func (r *Result) add(rec []byte) {
	r.Records++
	r.Bytes += int64(len(rec))
	if len(rec) > 0 {
		r.Ends += int64(rec[0]) + int64(rec[len(rec)-1])
	}
}

// hash is the heavy loop body: add, and FNV-1a 64 over the record, work about as costly
// as reading it.
func (r *Result) hash(rec []byte) {
	r.add(rec)
	r.Hash += FNV1a(rec)
}

// FNV1a is FNV-1a 64, written out so that the loop body makes no interface call.
func FNV1a(p []byte) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for _, c := range p {
		h ^= uint64(c)
		h *= prime
	}
	return h
}

// A Contender reads a whole open file once, as a user's program would, with reads (and a
// first buffer) of the given size, and reports what it saw. Chomps says its records come
// without their "\n" (bufio.ScanLines also drops a "\r" before it); Hashes says its body
// is the heavy one; Reports says it counts its buffer growths in Result.Grows.
type Contender struct {
	Name    string
	Chomps  bool
	Hashes  bool
	Reports bool
	Run     func(f *os.File, read int) (Result, error)
}

// ReadSize is the read size the benchmark suite gives every contender: the engine's default,
// bufio.Scanner's initial buffer, the bufio.Reader of ReadBytes.
const ReadSize = 64 << 10

// Contenders are every loop the benchmarks time, by name. The engine's records keep their
// "\n" (no Chomp): that is the engine's default, and what a program that writes its lines
// back out wants.
var Contenders = map[string]Contender{
	"Lines":        {Name: "Lines", Reports: true, Run: engineLines},
	"LinesChomp":   {Name: "LinesChomp", Reports: true, Chomps: true, Run: engineLinesChomp},
	"LinesReader":  {Name: "LinesReader", Reports: true, Run: engineLinesPlainReader},
	"Views":        {Name: "Views", Reports: true, Run: engineViews},
	"Batches":      {Name: "Batches", Reports: true, Run: engineBatches},
	"ScannerCopy":  {Name: "ScannerCopy", Chomps: true, Run: scannerCopy},
	"ScannerClone": {Name: "ScannerClone", Chomps: true, Run: scannerClone},
	"ScannerBytes": {Name: "ScannerBytes", Chomps: true, Run: scannerBytes},
	"ReadBytes":    {Name: "ReadBytes", Run: readBytes},
	"MinimalLines": {Name: "MinimalLines", Run: minimalLines},
	"MinimalViews": {Name: "MinimalViews", Run: minimalViews},
	"Naive":        {Name: "Naive", Reports: true, Run: naiveLines},

	"LinesFNV":       {Name: "LinesFNV", Reports: true, Hashes: true, Run: engineLinesFNV},
	"ScannerCopyFNV": {Name: "ScannerCopyFNV", Chomps: true, Hashes: true, Run: scannerCopyFNV},
}

// engineDone adds what the engine reports of itself to res and returns its error.
func engineDone(r *linereader.Reader, res Result) (Result, error) {
	st := r.Stats()
	res.Grows, res.Longest = st.Buffer.Grows, st.MaxRecord
	return res, r.Err()
}

func engineLines(f *os.File, read int) (res Result, err error) {
	r := linereader.New(f, linereader.Options{BufferSize: read})
	for rec := range r.Lines() {
		res.add(rec)
		res.Last = rec
	}
	return engineDone(r, res)
}

// engineLinesChomp is Lines with Options.Chomp, yielding exactly the records
// bufio.ScanLines yields: the comparison the suite made before the plain-program method.
func engineLinesChomp(f *os.File, read int) (res Result, err error) {
	r := linereader.New(f, linereader.Options{Chomp: true, BufferSize: read})
	for rec := range r.Lines() {
		res.add(rec)
		res.Last = rec
	}
	return engineDone(r, res)
}

// engineLinesPlainReader is engineLines with the file behind a plain io.Reader: the
// engine must not be faster only for what it can see of an *os.File.
func engineLinesPlainReader(f *os.File, read int) (res Result, err error) {
	r := linereader.New(struct{ io.Reader }{f}, linereader.Options{BufferSize: read})
	for rec := range r.Lines() {
		res.add(rec)
		res.Last = rec
	}
	return engineDone(r, res)
}

func engineLinesFNV(f *os.File, read int) (res Result, err error) {
	r := linereader.New(f, linereader.Options{BufferSize: read})
	for rec := range r.Lines() {
		res.hash(rec)
		res.Last = rec
	}
	return engineDone(r, res)
}

func engineViews(f *os.File, read int) (res Result, err error) {
	r := linereader.New(f, linereader.Options{BufferSize: read})
	for rec := range r.Views() {
		res.add(rec)
	}
	return engineDone(r, res)
}

func engineBatches(f *os.File, read int) (res Result, err error) {
	r := linereader.New(f, linereader.Options{BufferSize: read})
	for batch := range r.Batches() {
		for _, rec := range batch {
			res.add(rec)
		}
		res.Last = batch[len(batch)-1]
	}
	return engineDone(r, res)
}

// newScanner returns a bufio.Scanner with an initial buffer of read bytes that may grow
// to any line length, so that no line is too long for it.
func newScanner(f *os.File, read int) *bufio.Scanner {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, read), math.MaxInt)
	return sc
}

// scannerCopy is the twin of Lines as a Go programmer writes it: each token copied out
// with make and copy, the cheaper of the two usual idioms.
func scannerCopy(f *os.File, read int) (res Result, err error) {
	sc := newScanner(f, read)
	for sc.Scan() {
		b := sc.Bytes()
		rec := make([]byte, len(b))
		copy(rec, b)
		res.add(rec)
		res.Last = rec
	}
	return res, sc.Err()
}

// scannerClone is the other idiom, bytes.Clone (append to nil): its capacity is rounded
// up to the allocator's size class.
func scannerClone(f *os.File, read int) (res Result, err error) {
	sc := newScanner(f, read)
	for sc.Scan() {
		rec := bytes.Clone(sc.Bytes())
		res.add(rec)
		res.Last = rec
	}
	return res, sc.Err()
}

func scannerCopyFNV(f *os.File, read int) (res Result, err error) {
	sc := newScanner(f, read)
	for sc.Scan() {
		b := sc.Bytes()
		rec := make([]byte, len(b))
		copy(rec, b)
		res.hash(rec)
		res.Last = rec
	}
	return res, sc.Err()
}

// scannerBytes is the twin of Views: each token borrowed.
func scannerBytes(f *os.File, read int) (res Result, err error) {
	sc := newScanner(f, read)
	for sc.Scan() {
		res.add(sc.Bytes())
	}
	return res, sc.Err()
}

// readBytes is bufio.Reader.ReadBytes with a 64 KiB buffer: a fresh slice per line, a
// line longer than the buffer gathered from full buffers and copied again.
func readBytes(f *os.File, read int) (res Result, err error) {
	br := bufio.NewReaderSize(f, read)
	for {
		rec, err := br.ReadBytes('\n')
		if len(rec) > 0 {
			res.add(rec)
			res.Last = rec
		}
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
}

// naiveLines is the pattern this project replaces: a fresh buffer per line, grown by
// 1.5x from empty.
func naiveLines(f *os.File, read int) (res Result, err error) {
	res.Grows, err = naive.Lines(bufio.NewReaderSize(f, max(read, naive.Step)), func(rec []byte) {
		res.add(rec)
		res.Last = rec
	})
	return res, err
}

// minimal is the smallest loop that does the engine's plain work, for a yardstick of
// what a line reader must cost: a 64 KiB buffer, bytes.IndexByte per record, the record
// keeping its "\n", a buffer that doubles when a line does not fit. It has none of the
// engine's semantics (separators, limits, offsets, errors kept for the last record).
func minimal(src io.Reader, read int, yield func([]byte) bool) error {
	buf := make([]byte, read)
	start, end := 0, 0
	for {
		if i := bytes.IndexByte(buf[start:end], '\n'); i >= 0 {
			if !yield(buf[start : start+i+1]) {
				return nil
			}
			start += i + 1
			continue
		}
		if start > 0 {
			end = copy(buf, buf[start:end])
			start = 0
		}
		if end == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
		n, err := src.Read(buf[end:])
		end += n
		if err != nil {
			if end > start && !yield(buf[start:end]) {
				return nil
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func minimalLines(f *os.File, read int) (res Result, err error) {
	err = minimal(f, read, func(b []byte) bool {
		rec := make([]byte, len(b))
		copy(rec, b)
		res.add(rec)
		res.Last = rec
		return true
	})
	return res, err
}

func minimalViews(f *os.File, read int) (res Result, err error) {
	err = minimal(f, read, func(b []byte) bool {
		res.add(b)
		return true
	})
	return res, err
}
