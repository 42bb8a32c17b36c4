package blockz

import "io"

type bzipBlockEnd struct{}

func newBzip2Scanner(f *file) scanner { return &noScanner{f: f} }

type stubPieces struct{}

func (stubPieces) open(*Piece) (io.Reader, error) { return nil, io.ErrUnexpectedEOF }
func (stubPieces) result() pieceResult            { return pieceResult{} }

func newBzip2Pieces(io.ReaderAt, int64) pieceDecoder { return stubPieces{} }
func newBzip2Sequencer(io.ReaderAt, int64) sequencer { return plainSequencer{} }
