package benchmarks

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"

	naivepkg "github.com/foreachio/foreach/internal/naive"
	"github.com/foreachio/foreach/linereader"
)

// result is what one contender saw in one read of a whole file. Every field but
// grows is checked against the corpus's reference after every run.
type result struct {
	records int64
	bytes   int64  // total length of the records as yielded
	ends    uint64 // sum of the first and the last byte of each non-empty record
	hash    uint64 // with hashing on, the sum of FNV-1a 64 of each record
	grows   int64  // buffer growths, for the contenders that can count them
}

// touch is the loop body of every contender: the same tiny work on each record
// (its length, its first and its last byte, so that a borrowed view is really read
// and a record cut or shifted by a byte is caught), or with hash set, work about as
// costly as reading the record: FNV-1a 64 over its bytes.
func (r *result) touch(rec []byte, hash bool) {
	r.records++
	r.bytes += int64(len(rec))
	if len(rec) > 0 {
		r.ends += uint64(rec[0]) + uint64(rec[len(rec)-1])
	}
	if hash {
		r.hash += fnv1a(rec)
	}
}

// fnv1a is FNV-1a 64, written out so that it inlines into no interface call.
func fnv1a(p []byte) uint64 {
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

// contender reads the whole named file of the given size once and calls touch on
// every record.
type contender struct {
	name   string
	chomps bool // yields records without their "\n" (bufio.ScanLines)
	grows  bool // counts its buffer growths in result.grows
	run    func(name string, size int64, hash bool) (result, error)
}

// engineOptions are the engine's options in every benchmark: lines, "\n" dropped.
var engineOptions = linereader.Options{Chomp: true}

// readBuffer is the read size of every contender that has one: the engine's
// default, bufio.Reader's size, bufio.Scanner's initial buffer.
const readBuffer = 64 << 10

// contenders, the engine first. ScannerCopy is the baseline of the tables: it is
// the standard library doing what Lines does, records copied out. The engine runs with
// engineOptions (Chomp), so that it yields exactly the records bufio.ScanLines yields:
// the same bytes copied, the same empty records (which need no allocation).
var contenders = []contender{
	{name: "Lines", chomps: true, grows: true, run: engineLines},
	{name: "LinesNoReadAhead", chomps: true, grows: true, run: engineLinesNoReadAhead},
	{name: "Views", chomps: true, grows: true, run: engineViews},
	{name: "Batches", chomps: true, grows: true, run: engineBatches},
	{name: "ScannerCopy", chomps: true, run: scannerCopy},
	{name: "ScannerBytes", chomps: true, run: scannerBytes},
	{name: "ReadBytes", run: readBytes},
	{name: "ReadBytes4K", run: readBytesDefault},
	{name: "BytesLines", run: bytesLines},
	{name: "Naive", grows: true, run: naive},
}

// contenderNamed returns the contender called name; it panics if there is none.
func contenderNamed(name string) contender {
	for _, c := range contenders {
		if c.name == name {
			return c
		}
	}
	panic("no contender " + name)
}

// engineLines: every record copied out, exact size (one allocation per record).
func engineLines(name string, _ int64, hash bool) (res result, err error) {
	r, err := linereader.Open(name, engineOptions)
	if err != nil {
		return res, err
	}
	for rec := range r.Lines() {
		res.touch(rec, hash)
	}
	res.grows = int64(r.Stats().Buffer.Grows)
	return res, errors.Join(r.Err(), r.Close())
}

// engineLinesNoReadAhead is engineLines with read-ahead off: the file is hidden
// behind a plain io.Reader, and the engine reads ahead only from a regular file it
// can see. Lines against it is what read-ahead gains or costs.
func engineLinesNoReadAhead(name string, _ int64, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	r := linereader.New(struct{ io.Reader }{f}, engineOptions)
	for rec := range r.Lines() {
		res.touch(rec, hash)
	}
	res.grows = int64(r.Stats().Buffer.Grows)
	return res, r.Err()
}

// engineViews: every record borrowed from the reader's buffer.
func engineViews(name string, _ int64, hash bool) (res result, err error) {
	r, err := linereader.Open(name, engineOptions)
	if err != nil {
		return res, err
	}
	for rec := range r.Views() {
		res.touch(rec, hash)
	}
	res.grows = int64(r.Stats().Buffer.Grows)
	return res, errors.Join(r.Err(), r.Close())
}

// engineBatches: records copied into one fresh block per batch.
func engineBatches(name string, _ int64, hash bool) (res result, err error) {
	r, err := linereader.Open(name, engineOptions)
	if err != nil {
		return res, err
	}
	for batch := range r.Batches() {
		for _, rec := range batch {
			res.touch(rec, hash)
		}
	}
	res.grows = int64(r.Stats().Buffer.Grows)
	return res, errors.Join(r.Err(), r.Close())
}

// newScanner returns a bufio.Scanner over f whose buffer may grow to hold the
// whole file, so that no line of the wide or verywide corpus is too long for it.
func newScanner(f *os.File, size int64) *bufio.Scanner {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, readBuffer), int(size)+1)
	return sc
}

// scannerCopy is the fair twin of Lines: each token copied out.
func scannerCopy(name string, size int64, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	sc := newScanner(f, size)
	for sc.Scan() {
		rec := append([]byte(nil), sc.Bytes()...)
		res.touch(rec, hash)
	}
	return res, sc.Err()
}

// scannerBytes is the twin of Views: each token borrowed.
func scannerBytes(name string, size int64, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	sc := newScanner(f, size)
	for sc.Scan() {
		res.touch(sc.Bytes(), hash)
	}
	return res, sc.Err()
}

// readBytes: bufio.Reader.ReadBytes, a fresh slice per line.
func readBytes(name string, _ int64, hash bool) (res result, err error) {
	return readBytesSized(name, readBuffer, hash)
}

// readBytesDefault is bufio.Reader.ReadBytes as most programs write it,
// bufio.NewReader with its default 4 KiB buffer: a line longer than the buffer is
// collected in intermediate full buffers and copied again at the end.
func readBytesDefault(name string, _ int64, hash bool) (res result, err error) {
	return readBytesSized(name, 0, hash)
}

// readBytesSized reads lines with bufio.Reader.ReadBytes over a buffer of the given
// size (0: bufio's default).
func readBytesSized(name string, buffer int, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if buffer > 0 {
		br = bufio.NewReaderSize(f, buffer)
	}
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			res.touch(line, hash)
		}
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
}

// bytesLines is the in-memory bound: the whole file read with os.ReadFile (part
// of the timed work), then split by bytes.Lines without copying.
func bytesLines(name string, _ int64, hash bool) (res result, err error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return res, err
	}
	for rec := range bytes.Lines(data) {
		res.touch(rec, hash)
	}
	return res, nil
}

// naive is the pattern of the JRuby story this project answers (internal/naive): a
// new buffer for every line, starting empty, grown by 1.5x as 128-byte steps arrive.
// It counts its growths.
func naive(name string, _ int64, hash bool) (res result, err error) {
	f, err := os.Open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	grows, err := naivepkg.Lines(bufio.NewReaderSize(f, readBuffer), func(line []byte) {
		res.touch(line, hash)
	})
	res.grows = int64(grows)
	return res, err
}
