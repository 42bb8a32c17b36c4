package blockz

import "io"

// Xxh32 is xxh32Sum, for tests that write lz4 frames by hand.
var Xxh32 = xxh32Sum

// NewReaderWithFalseMatches is NewReader for a bzip2 file whose scanner
// also finds a match of the block magic in the middle of every block (as
// one inside compressed data would be found), which the Reader must tell
// apart from the blocks.
func NewReaderWithFalseMatches(ra io.ReaderAt, size int64, opt Options) (*Reader, error) {
	if opt.Workers < 1 {
		opt.Workers = 2
	}
	if opt.Window < 1 {
		opt.Window = opt.Workers + 1
	}
	if opt.JobMemory < 1 {
		opt.JobMemory = DefaultJobMemory
	}
	s := newScanner(ra, size).(*bzip2Scanner)
	return newReader(ra, size, opt, &falseMatches{bzip2Scanner: s})
}

// falseMatches gives a false match after every piece of its scanner.
type falseMatches struct {
	*bzip2Scanner
	pending *Piece
}

func (f *falseMatches) next() (Piece, bool) {
	if f.pending != nil {
		p := *f.pending
		f.pending = nil
		return p, true
	}
	p, ok := f.bzip2Scanner.next()
	if !ok {
		return p, false
	}
	half := p.Length / 2
	fake := Piece{Offset: p.Offset + half, Bit: 3, Length: p.Length - half, Size: -1, bound: -1, stream: p.stream}
	p.Length = half + 1
	f.pending = &fake
	return p, true
}

// Replays reports how many streams r read again sequentially (a damaged
// piece's, or one the pieces did not finish).
func Replays(r *Reader) int { return r.replays }

// RaceEnabled says whether the tests run under the race detector.
const RaceEnabled = raceEnabled
