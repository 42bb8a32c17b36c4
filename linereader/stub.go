package linereader

// TEMPORARY: compile-only stand-in for the engine while it is being written.
// Every signature here is the API.md contract; the bodies are replaced by the engine.

import (
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/foreachio/foreach/bytelist"
)

type Options struct {
	Sep        []byte
	Paragraph  bool
	Whole      bool
	Limit      int
	Chomp      bool
	UTF8       bool
	BufferSize int
	MaxRecord  int
}

type Reader struct{ buf bytelist.ByteList }

var errStub = errors.New("linereader: not implemented")

func New(src io.Reader, opt Options) *Reader                             { return &Reader{} }
func Open(name string, opt Options) (*Reader, error)                     { return nil, errStub }
func (r *Reader) Next() bool                                             { return false }
func (r *Reader) Bytes() []byte                                          { return nil }
func (r *Reader) Line() []byte                                           { return nil }
func (r *Reader) Text() string                                           { return "" }
func (r *Reader) LineNo() int64                                          { return 0 }
func (r *Reader) Offset() int64                                          { return 0 }
func (r *Reader) Err() error                                             { return errStub }
func (r *Reader) Lines() iter.Seq[[]byte]                                { return func(func([]byte) bool) {} }
func (r *Reader) Views() iter.Seq[[]byte]                                { return func(func([]byte) bool) {} }
func (r *Reader) Batches() iter.Seq[[][]byte]                            { return func(func([][]byte) bool) {} }
func (r *Reader) Stats() Stats                                           { return Stats{} }
func (r *Reader) Reset(src io.Reader)                                    {}
func (r *Reader) Close() error                                           { return nil }
func Foreach(name string, opt Options, fn func(line []byte) error) error { return errStub }

type TooLongError struct {
	Offset int64
	LineNo int64
	Max    int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("linereader: record at offset %d (line %d) exceeds %d bytes", e.Offset, e.LineNo, e.Max)
}

type Stats struct {
	Records   int64
	Bytes     int64
	Reads     int
	MaxRecord int
	Buffer    bytelist.Stats
}

func NewSection(src io.ReaderAt, start, end int64, opt Options) *Reader { return &Reader{} }
func Count(name string, opt Options, workers int) (int64, error)        { return 0, errStub }
