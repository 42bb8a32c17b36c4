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
	magic = "\x89ZIDX\r\n\x1a"
	// version is the version of the format WriteTo writes: version 2 with
	// the file's modification time, and with each deflate block point's
	// member length and CRC-32, so that a read through the index checks the
	// text it decodes. Read reads version 2 (indexes of pieces, whose
	// decoders check their pieces); version 1, whose gzip points carry no
	// CRC-32, is refused, to be built again.
	version  = 3
	version2 = 2
	version1 = 1
	// flagTrailing: trailing data follows the last member; its offset is
	// written after the span.
	flagTrailing = 1
)

// formats are the numbers of the compressed formats in the file: gzip in
// both versions, xz and zstd from version 2 on.
var formats = []string{1: "gzip", 2: "xz", 3: "zstd"}

// formatNumber returns the number of a format in the file.
func formatNumber(f string) uint64 {
	for i, name := range formats {
		if name == f && name != "" {
			return uint64(i)
		}
	}
	panic("zindex: an index of format " + f)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes the index in the package's documented, versioned,
// checksummed format (docs/zindex.md); Read reads it back.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	b := binary.AppendUvarint([]byte(magic), version)
	b = binary.AppendUvarint(b, formatNumber(ix.format))
	var flags uint64
	if ix.trailing >= 0 {
		flags |= flagTrailing
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendUvarint(b, uint64(ix.file.size))
	b = append(append(b, ix.file.head[:]...), ix.file.tail[:]...)
	b = binary.AppendVarint(b, ix.file.modTime)
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
		switch p.kind {
		case deflateBlock:
			b = binary.AppendUvarint(b, uint64(p.windowLen))
			b = binary.AppendUvarint(b, uint64(len(p.window)))
			b = append(b, p.window...)
			b = binary.AppendUvarint(b, uint64(p.member))
			b = binary.LittleEndian.AppendUint32(b, p.crc)
		case pieceStart:
			b = binary.AppendUvarint(b, uint64(p.in/8-p.stream))
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
	switch d.version = d.uvarint(); {
	case d.err != nil:
	case d.version == version1:
		return nil, fmt.Errorf("%w 1, whose reads could not check the text they decode: build the index again", ErrVersion)
	case d.version < version2 || d.version > version:
		return nil, fmt.Errorf("%w %d (this package reads versions %d and %d)", ErrVersion, d.version, version2, version)
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
	b       []byte
	version uint64 // the index's version of the format
	err     error
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
// varint reads a signed varint.
func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("a field past the end or too long")
		return 0
	}
	d.b = d.b[n:]
	return v
}

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
	ix := &Index{trailing: -1}
	f := d.uvarint()
	if f == 0 || f >= uint64(len(formats)) {
		d.fail("an unknown compressed format")
	} else {
		ix.format = formats[f]
	}
	flags := d.uvarint()
	if flags&^flagTrailing != 0 {
		d.fail("unknown flags")
	}
	ix.file.size = d.int(huge, "the file's size")
	copy(ix.file.head[:], d.bytes(sha256.Size))
	copy(ix.file.tail[:], d.bytes(sha256.Size))
	if d.version >= version {
		ix.file.modTime = d.varint()
	}
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
	if d.err == nil && (ix.format != "gzip" || d.version == version2) && !ix.pieces() {
		// Version 2 is that of indexes of pieces; xz and zstd have no others.
		d.fail("an index of " + ix.format + " without pieces")
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
	p.kind = kind(d.int(int64(pieceStart), "a point's kind"))
	p.in = prev.in + d.int(ix.file.size*8-prev.in, "a point's compressed offset")
	p.out = prev.out + d.int(ix.size-prev.out, "a point's decompressed offset")
	first := len(ix.points) == 0
	switch {
	case p.kind == 0:
		d.fail("a point's kind out of range")
	case first && (p.out != 0 || p.kind != pieceStart && (p.kind != memberStart || p.in != 0)):
		d.fail("the first point is not the start of the file")
	case !first && p.in <= prev.in:
		d.fail("points out of order")
	case !first && (p.kind == pieceStart) != (prev.kind == pieceStart):
		d.fail("pieces among points of another kind")
	case p.kind != deflateBlock && p.in%8 != 0:
		d.fail("a member's or piece's start inside a byte")
	case p.kind == deflateBlock && d.version == version2:
		d.fail("a deflate block point in an index of version 2")
	case p.kind == deflateBlock:
		p.windowLen = int(d.int(int64(min(inflate.WindowSize, p.out)), "a window's length"))
		p.window = d.bytes(int(d.int(int64(len(d.b)), "a window's compressed length")))
		p.member = d.int(p.out, "a point's member length")
		if crc := d.bytes(4); crc != nil {
			p.crc = binary.LittleEndian.Uint32(crc)
		}
		if d.err == nil && int64(p.windowLen) != min(inflate.WindowSize, p.member) {
			d.fail("a window that is not the last 32 KiB of its member")
		}
	case p.kind == pieceStart:
		p.stream = p.in/8 - d.int(p.in/8, "a piece's stream")
	}
	ix.points = append(ix.points, p)
}

// Load returns the index kept beside the named file (NAME.zidx), checked
// against the file: its size, the digests of its first and last 64 KiB, and
// its modification time when the index records one (Save does). It returns
// ErrStale when the file no longer matches the index, and an error wrapping
// fs.ErrNotExist when there is no index (or no file).
func Load(name string) (*Index, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, err
	}
	return load(name, file, fi)
}

// LoadAt is Load for the file already open as ra, of size bytes (the file
// in hand, whatever its name points to by then): NAME.zidx is read and
// checked against ra, and against the modification time of the file at
// name when the index records one. No index is an error wrapping
// fs.ErrNotExist; one that does not match, ErrStale; one that is not an
// index, an error wrapping ErrCorrupt or ErrVersion.
func LoadAt(name string, ra io.ReaderAt, size int64) (*Index, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	return load(name, ra, sized{fi, size})
}

// sized is a FileInfo with the size of the file in hand.
type sized struct {
	fs.FileInfo
	size int64
}

func (s sized) Size() int64 { return s.size }

// load reads NAME.zidx and checks it against the file ra, as fi describes
// it.
func load(name string, ra io.ReaderAt, fi fs.FileInfo) (*Index, error) {
	f, err := os.Open(name + ".zidx")
	if err != nil {
		return nil, err
	}
	ix, err := Read(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s.zidx: %w", name, err)
	}
	if err := ix.checkTime(fi); err != nil {
		return nil, err
	}
	if err := ix.CheckAt(ra, fi.Size()); err != nil {
		return nil, err
	}
	return ix, nil
}

// Check reports whether f is the file ix was built from, as far as its
// size, the digests of its first and last 64 KiB and its modification time
// (when the index records one) tell: nil if it is, ErrStale if not, or the
// error reading f.
func (ix *Index) Check(f interface {
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := ix.checkTime(fi); err != nil {
		return err
	}
	return ix.CheckAt(f, fi.Size())
}

// checkTime returns ErrStale when the index records a modification time
// and fi has another.
func (ix *Index) checkTime(fi fs.FileInfo) error {
	if ix.file.modTime != 0 && fi.ModTime().UnixNano() != ix.file.modTime {
		return ErrStale
	}
	return nil
}

// CheckAt is Check for the file ra of size bytes, whose modification time
// is not known: its size and digests are checked.
func (ix *Index) CheckAt(ra io.ReaderAt, size int64) error {
	if size != ix.file.size {
		return ErrStale
	}
	id, err := fileIDAt(ra, size)
	if err != nil {
		return err
	}
	if id.head != ix.file.head || id.tail != ix.file.tail {
		return ErrStale
	}
	return nil
}

// fileIDAt returns the fileID of the file ra of size bytes.
func fileIDAt(ra io.ReaderAt, size int64) (fileID, error) {
	n := min(size, idBytes)
	b := make([]byte, n)
	id := fileID{size: size}
	for i, off := range []int64{0, size - n} {
		if k, err := ra.ReadAt(b, off); k < len(b) {
			if err == nil || err == io.EOF {
				err = ErrStale // shorter than its size
			}
			return id, err
		}
		if i == 0 {
			id.head = sha256.Sum256(b)
		} else {
			id.tail = sha256.Sum256(b)
		}
	}
	return id, nil
}

// Save writes the index beside the named file, as NAME.zidx (Load's file),
// through a temporary file renamed into place, so that a reader never finds
// half an index. The index records the file's modification time, which
// Load then checks with its size and digests. The index gets the file's
// read and write permissions: whoever may read the file may use its index
// (a temporary file is made 0600).
func (ix *Index) Save(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	saved := *ix // ix is not changed: it may be in use
	saved.file.modTime = fi.ModTime().UnixNano()
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".zidx.*")
	if err != nil {
		return err
	}
	if err = tmp.Chmod(fi.Mode().Perm() & 0o666); err == nil {
		_, err = saved.WriteTo(tmp)
	}
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
