package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/foreachio/foreach/internal/blockz"
)

// measurePieces prints what the parallel decoding of the named file is
// made of: "scan MS PIECES", one "piece COMPRESSED DECOMPRESSED MS" line per
// piece decoded alone, and "consume MS" for copying the decompressed bytes
// out and counting their lines in the reading goroutine.
func measurePieces(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	t0 := time.Now()
	l, err := blockz.Scan(f, st.Size())
	if err != nil {
		return err
	}
	fmt.Printf("scan %.2f %d\n", ms(time.Since(t0)), len(l.Pieces))
	buf := make([]byte, 256<<10)
	var total int64
	pd := l.Decoder(f)
	for i, p := range l.Pieces {
		t0 := time.Now()
		r, err := pd.Open(i)
		if err != nil {
			return fmt.Errorf("piece %d at %d: %w", i, p.Offset, err)
		}
		n, err := io.CopyBuffer(io.Discard, r, buf)
		if err != nil {
			return fmt.Errorf("piece %d at %d: %w", i, p.Offset, err)
		}
		fmt.Printf("piece %d %d %.3f\n", p.Length, n, ms(time.Since(t0)))
		total += n
	}
	// The reading goroutine's share: every byte copied out of a job's
	// buffer and its lines counted, as blocksbench's count does.
	src := make([]byte, 8<<20)
	for i := range src {
		src[i] = "abcdefghijklmnopqrstuvwxyz0123\n"[i%31]
	}
	t0 = time.Now()
	var lines int
	for done := int64(0); done < total; done += int64(len(src)) {
		for off := 0; off < len(src); off += len(buf) {
			n := copy(buf, src[off:])
			lines += bytes.Count(buf[:n], []byte{'\n'})
		}
	}
	fmt.Printf("consume %.2f %d\n", ms(time.Since(t0)), lines)
	return nil
}
