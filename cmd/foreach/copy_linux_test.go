package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernelCopy copies inside the kernel into a regular file and into a pipe, telling
// progress of every call, and declines a file opened for appending without copying a
// byte, both offsets where they were, so that the caller can copy it by reading.
func TestKernelCopy(t *testing.T) {
	dir := t.TempDir()
	text := realText(t, 1<<20)
	src := filepath.Join(dir, "src")
	require.NoError(t, os.WriteFile(src, text, 0o644))
	open := func() *os.File {
		f, err := os.Open(src)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}

	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	defer out.Close()
	var told int64
	require.True(t, kernelCopy(out, true, open(), func(n int64) { told += n }))
	assert.Equal(t, int64(len(text)), told)
	got, err := os.ReadFile(out.Name())
	require.NoError(t, err)
	assert.True(t, bytes.Equal(text, got), "into a file")

	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- b
	}()
	in := open()
	_, err = in.Seek(10, io.SeekStart)
	require.NoError(t, err)
	require.True(t, kernelCopy(pw, false, in, nil))
	pw.Close()
	assert.True(t, bytes.Equal(text[10:], <-done), "into a pipe, from an offset")

	app, err := os.OpenFile(filepath.Join(dir, "app"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	require.NoError(t, err)
	defer app.Close()
	in = open()
	require.False(t, kernelCopy(app, true, in, nil))
	pos, err := in.Seek(0, io.SeekCurrent)
	require.NoError(t, err)
	assert.Zero(t, pos)
	fi, err := app.Stat()
	require.NoError(t, err)
	assert.Zero(t, fi.Size())
}
