package blockz

import (
	"io"

	"github.com/foreachio/foreach/internal/decompress"
)

// A sequencer follows the pieces in file order as the reader reaches them,
// and checks what no piece's decoder can check alone: for bzip2, which
// matches of the block magic are blocks, and each stream's CRC; for lz4
// blocks, their frame's checksum and size.
type sequencer interface {
	// begin is called when the reader reaches p, before any of its bytes.
	begin(p *Piece) beginVerdict
	// see is given p's bytes as they are delivered.
	see(p *Piece, data []byte)
	// finish is called when p has been decoded whole, its own checks passed.
	finish(p *Piece, res pieceResult) finishVerdict
	// restart returns where the stream to read again sequentially (the
	// stream of p, which is damaged) starts and how many of its bytes have
	// been delivered, given streamOut, the bytes delivered since the
	// pieces' stream changed.
	restart(p *Piece, streamOut int64) (off, skip int64)
	// inStream reports whether the pieces ran out inside a stream (which
	// is then cut short, and is read again sequentially).
	inStream() bool
}

// beginVerdict is what the reader does with a piece it reaches.
type beginVerdict uint8

const (
	takePiece    beginVerdict = iota // deliver its bytes
	skipPiece                        // not a piece of the file (a false bzip2 match): drop it
	replayStream                     // read its stream sequentially from its start
)

// finishVerdict is what the reader does after a piece: go on (rest < 0,
// not replay); read the piece's stream again sequentially (replay); or stop
// reading pieces, the file's streams being read up to rest, and read on
// from there sequentially.
type finishVerdict struct {
	replay bool
	rest   int64
}

var goOn = finishVerdict{rest: -1}

// newSequencer returns the sequencer of the format's pieces.
func newSequencer(f decompress.Format, ra io.ReaderAt, size int64) sequencer {
	switch f {
	case decompress.Bzip2:
		return newBzip2Sequencer(ra, size)
	case decompress.Lz4:
		return &lz4Sequencer{}
	}
	return plainSequencer{}
}

// plainSequencer is the sequencer of formats whose pieces are certain and
// checked whole by their decoders (BGZF members, zstd frames, xz blocks).
type plainSequencer struct{}

func (plainSequencer) begin(*Piece) beginVerdict                { return takePiece }
func (plainSequencer) see(*Piece, []byte)                       {}
func (plainSequencer) finish(*Piece, pieceResult) finishVerdict { return goOn }
func (plainSequencer) inStream() bool                           { return false }
func (plainSequencer) restart(p *Piece, out int64) (int64, int64) {
	return p.stream.offset, out
}

// newPieceDecoder returns a decoder of the format's pieces, for one worker.
// Pieces that decode to at most whole bytes may be decoded at once rather
// than as a stream.
func newPieceDecoder(f decompress.Format, in *input, size, whole int64) pieceDecoder {
	switch f {
	case decompress.Gzip:
		return &gzipPieces{in: in}
	case decompress.Zstd:
		return newZstdPieces(in, whole)
	case decompress.Xz:
		return &xzPieces{in: in}
	case decompress.Lz4:
		return &lz4Pieces{in: in}
	case decompress.Bzip2:
		return newBzip2Pieces(in.ra, size)
	}
	panic("blockz: no pieces in format " + string(f))
}
