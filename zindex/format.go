package zindex

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/foreachio/foreach/internal/inflate"
)

// The file format (docs/zindex.md): a magic number, the version, then
// unsigned varints and the file's digests, the points, and a CRC-32C of
// everything before it.
const (
	magic   = "\x89ZIDX\r\n\x1a"
	version = 1
	// formatGzip is the number of the gzip format in the file.
	formatGzip = 1
	// flagTrailing: trailing data follows the last member; its offset is
	// written after the span.
	flagTrailing = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes the index in the package's documented, versioned,
// checksummed format (docs/zindex.md); Read reads it back.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	b := []byte(magic)
	b = binary.AppendUvarint(b, version)
	b = binary.AppendUvarint(b, formatGzip)
	var flags uint64
	if ix.trailing >= 0 {
		flags |= flagTrailing
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendUvarint(b, uint64(ix.file.size))
	b = append(append(b, ix.file.head[:]...), ix.file.tail[:]...)
	b = binary.AppendUvarint(b, uint64(ix.size))
	b = binary.AppendUvarint(b, uint64(ix.span))
	if ix.trailing >= 0 {
		b = binary.AppendUvarint(b, uint64(ix.trailing))
	}
	b = binary.AppendUvarint(b, uint64(len(ix.points)))
	var in, out int64
	for _, p := range ix.points {
		b = binary.AppendUvarint(b, uint64(p.kind))
		b = binary.AppendUvarint(b, uint64(p.in-in))
		b = binary.AppendUvarint(b, uint64(p.out-out))
		in, out = p.in, p.out
		if p.kind == deflateBlock {
			b = binary.AppendUvarint(b, uint64(p.windowLen))
			b = binary.AppendUvarint(b, uint64(len(p.window)))
			b = append(b, p.window...)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	n, err := w.Write(b)
	return int64(n), err
}

// Read reads an index that WriteTo wrote. Bytes that are not one (another
// magic number, a checksum that does not match, a field out of range) are
// an error wrapping ErrCorrupt; an index of another version of the format,
// one wrapping ErrVersion.
func Read(r io.Reader) (*Index, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: no index magic number", ErrCorrupt)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	d := decoder{b: body[len(magic):]}
	if v := d.uvarint(); v != version && d.err == nil {
		return nil, fmt.Errorf("%w %d (this package reads version %d)", ErrVersion, v, version)
	}
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: the checksum does not match", ErrCorrupt)
	}
	ix, err := d.index()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return ix, nil
}

// decoder reads the fields of an index; err is the first field out of range
// or past the end.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("a field past the end or too long")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a uvarint that must be at most limit.
func (d *decoder) int(limit int64, what string) int64 {
	v := d.uvarint()
	if v > uint64(limit) {
		d.fail(what + " out of range")
		return 0
	}
	return int64(v)
}

func (d *decoder) bytes(n int) []byte {
	if n > len(d.b) {
		d.fail("a field past the end")
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = errors.New(msg)
	}
}

// index reads the fields after the version.
func (d *decoder) index() (*Index, error) {
	// Sizes past 2^56 bytes (64 PiB) are not believed: their offsets in
	// bits would overflow.
	const huge = 1 << 56
	ix := &Index{format: "gzip", trailing: -1}
	if d.uvarint() != formatGzip {
		d.fail("an unknown compressed format")
	}
	flags := d.uvarint()
	if flags&^flagTrailing != 0 {
		d.fail("unknown flags")
	}
	ix.file.size = d.int(huge, "the file's size")
	copy(ix.file.head[:], d.bytes(sha256.Size))
	copy(ix.file.tail[:], d.bytes(sha256.Size))
	ix.size = d.int(huge, "the decompressed size")
	ix.span = d.int(huge, "the span")
	if flags&flagTrailing != 0 {
		ix.trailing = d.int(ix.file.size, "the trailing data's offset")
	}
	// A point takes 3 bytes at least: a count past that is not believed.
	n := d.int(int64(len(d.b)/3), "the number of points")
	if n == 0 && d.err == nil {
		d.fail("no access point")
	}
	ix.points = make([]point, 0, n)
	for i := int64(0); i < n && d.err == nil; i++ {
		d.point(ix)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("bytes after the last point")
	}
	return ix, d.err
}

// point reads a point and checks it against the one before.
func (d *decoder) point(ix *Index) {
	var p point
	var prev point
	if len(ix.points) > 0 {
		prev = ix.points[len(ix.points)-1]
	}
	p.kind = kind(d.int(int64(deflateBlock), "a point's kind"))
	p.in = prev.in + d.int(ix.file.size*8-prev.in, "a point's compressed offset")
	p.out = prev.out + d.int(ix.size-prev.out, "a point's decompressed offset")
	switch {
	case p.kind == 0:
		d.fail("a point's kind out of range")
	case len(ix.points) == 0 && (p.kind != memberStart || p.in != 0 || p.out != 0):
		d.fail("the first point is not the start of the file")
	case len(ix.points) > 0 && p.in <= prev.in:
		d.fail("points out of order")
	case p.kind == memberStart && p.in%8 != 0:
		d.fail("a member's start inside a byte")
	case p.kind == deflateBlock:
		p.windowLen = int(d.int(int64(min(inflate.WindowSize, p.out)), "a window's length"))
		p.window = d.bytes(int(d.int(int64(len(d.b)), "a window's compressed length")))
	}
	ix.points = append(ix.points, p)
}

// Load returns the index kept beside the named file (NAME.zidx), checked
// against the file: its size and the digests of its first and last 64 KiB.
// It returns ErrStale when the file no longer matches the index, and an
// error wrapping fs.ErrNotExist when there is no index (or no file).
func Load(name string) (*Index, error) {
	f, err := os.Open(name + ".zidx")
	if err != nil {
		return nil, err
	}
	ix, err := Read(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s.zidx: %w", name, err)
	}
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if err := ix.Check(file); err != nil {
		return nil, err
	}
	return ix, nil
}

// Check reports whether f is the file ix was built from, as far as its size
// and the digests of its first and last 64 KiB tell: nil if it is,
// ErrStale if not, or the error reading f.
func (ix *Index) Check(f interface {
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() != ix.file.size {
		return ErrStale
	}
	n := min(ix.file.size, idBytes)
	head := make([]byte, n)
	if _, err := f.ReadAt(head, 0); err != nil {
		return err
	}
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, ix.file.size-n); err != nil {
		return err
	}
	if sha256.Sum256(head) != ix.file.head || sha256.Sum256(tail) != ix.file.tail {
		return ErrStale
	}
	return nil
}

// Save writes the index beside the named file, as NAME.zidx (Load's file),
// through a temporary file renamed into place, so that a reader never finds
// half an index.
func (ix *Index) Save(name string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".zidx.*")
	if err != nil {
		return err
	}
	_, err = ix.WriteTo(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name+".zidx")
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
