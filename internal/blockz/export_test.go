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

// NewReaderPanicking is NewReader with piece decoders that panic when they
// open the piece at offset at, as a decoder's bug would.
func NewReaderPanicking(ra io.ReaderAt, size int64, opt Options, at int64) (*Reader, error) {
	opt = opt.withDefaults()
	r, err := newReader(ra, size, opt, newScanner(ra, size))
	if err != nil {
		return nil, err
	}
	r.pipe.stop() // its workers, replaced by those of the panicking decoders
	decoder := r.src.decoder
	r.src.decoder = func(in *input) pieceDecoder { return panicking{decoder(in), at} }
	r.pipe = newPipeline(opt, ra, r.src.decoder, r.src.preload)
	return r, nil
}

// panicking is a piece decoder that panics at one piece.
type panicking struct {
	pieceDecoder
	at int64
}

func (p panicking) open(pc *Piece) (io.Reader, error) {
	if pc.Offset == p.at {
		panic("the injected panic")
	}
	return p.pieceDecoder.open(pc)
}

// Pieces returns the offsets of the pieces Scan finds.
func Pieces(ra io.ReaderAt, size int64) []int64 {
	l, _ := Scan(ra, size)
	var offs []int64
	for _, p := range l.Pieces {
		offs = append(offs, p.Offset)
	}
	return offs
}
