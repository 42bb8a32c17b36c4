package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// countedScheme names a Beam filesystem that is the local one with its reads counted:
// counted:///data/plain.txt is /data/plain.txt. Both readers are given counted:// paths, so
// the bytes each one asks of the filesystem are measured the same way, whatever it does with
// them (textio reads through bufio.Reader, foreachio through ReadAt).
const countedScheme = "counted"

// fsStats counts what the counted filesystem served in this process. Prism runs the
// pipeline's workers inside the launching process (the loopback environment), so the
// counts taken after the run are the workers' reads; on a runner with workers elsewhere
// they would stay 0, and the run reports that instead of a figure.
var fsStats struct {
	bytes atomic.Int64 // bytes returned by Read and ReadAt
	opens atomic.Int64 // files opened for reading
}

func init() {
	filesystem.Register(countedScheme, func(context.Context) filesystem.Interface { return countedFS{} })
}

// countedPath is the counted:// path of a local file.
func countedPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return countedScheme + "://" + filepath.ToSlash(abs), nil
}

func localPath(path string) string {
	return filepath.FromSlash(strings.TrimPrefix(path, countedScheme+"://"))
}

type countedFS struct{}

func (countedFS) Close() error { return nil }

func (countedFS) List(_ context.Context, glob string) ([]string, error) {
	names, err := filepath.Glob(localPath(glob))
	for i, name := range names {
		names[i] = countedScheme + "://" + filepath.ToSlash(name)
	}
	return names, err
}

func (countedFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	f, err := os.Open(localPath(name))
	if err != nil {
		return nil, err
	}
	fsStats.opens.Add(1)
	return countedFile{f}, nil
}

func (countedFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, errors.New("the counted filesystem is read-only")
}

func (countedFS) Size(_ context.Context, name string) (int64, error) {
	info, err := os.Stat(localPath(name))
	if err != nil {
		return -1, err
	}
	return info.Size(), nil
}

// countedFile is an open local file whose reads are counted. It has ReadAt, as the local
// filesystem's *os.File does, so that foreachio reads it in sections just the same.
type countedFile struct{ f *os.File }

func (c countedFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	fsStats.bytes.Add(int64(n))
	return n, err
}

func (c countedFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	fsStats.bytes.Add(int64(n))
	return n, err
}

func (c countedFile) Close() error { return c.f.Close() }

// LastModified is the local file's, for fileio.MatchFiles, which asks for it.
func (countedFS) LastModified(_ context.Context, name string) (time.Time, error) {
	info, err := os.Stat(localPath(name))
	if err != nil {
		return time.Time{}, err
	}
	return info.ModTime(), nil
}
