//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// A mapped file reads as the file does, at every offset and length, with io.EOF at its
// end; CountAt over it counts what it counts over the file.
func TestMappedReadsAsTheFile(t *testing.T) {
	text := realText(t, 1<<20)
	name := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(name, text, 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	m := mapFile(f, int64(len(text)))
	require.NotNil(t, m)
	defer m.Close()
	for _, c := range []struct{ off, n int }{{0, 10}, {5000, 1 << 16}, {len(text) - 3, 10}, {len(text), 1}} {
		got := make([]byte, c.n)
		k, err := m.ReadAt(got, int64(c.off))
		want := text[min(c.off, len(text)):min(c.off+c.n, len(text))]
		assert.Equal(t, want, got[:k], "%+v", c)
		if c.off+c.n > len(text) {
			assert.ErrorIs(t, err, io.EOF, "%+v", c)
		} else {
			assert.NoError(t, err, "%+v", c)
		}
	}
	for _, workers := range []int{1, 2} {
		n, err := linereader.CountAt(m, int64(len(text)), linereader.Options{}, workers)
		require.NoError(t, err)
		assert.Equal(t, int64(bytes.Count(text, []byte("\n"))), n)
	}
	assert.Nil(t, mapFile(f, 0), "an empty file is not mapped")
}

// A file cut short after it was mapped makes reading its lost part fault: an error,
// not a crash.
func TestMappedFileThatShrinks(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(name, bytes.Repeat([]byte("line\n"), 1<<16), 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	m := mapFile(f, 5<<16)
	require.NotNil(t, m)
	defer m.Close()
	require.NoError(t, os.Truncate(name, 0))
	_, err = m.ReadAt(make([]byte, 100), 1<<16)
	assert.True(t, errors.Is(err, errShrank), "%v", err)
	_, err = linereader.CountAt(m, 5<<16, linereader.Options{}, 2)
	assert.ErrorContains(t, err, "shrank")
}
