package main

import (
	"fmt"
	"time"

	"github.com/foreachio/foreach/internal/bytesize"
)

// printStats writes the --stats summary line on standard error, e.g.
//
//	foreach: 2 files, 1,000,000 records, 1.2 GiB, longest record 80 B, 3 buffer growths, 1.4s, 850 MiB/s
//
// With -z and compressed inputs, the size is followed by
// "(1 compressed file: 120 MiB decompressed to 1.2 GiB, ratio 10.2)".
func (c *command) printStats() {
	elapsed := time.Since(c.start)
	size := bytesize.IEC(uint64(c.tot.bytes))
	if c.tot.compressedFiles > 0 {
		// -z: what the compressed inputs took on disk against what they gave.
		size += fmt.Sprintf(" (%s: %s decompressed to %s, ratio %.1f)",
			plural(int64(c.tot.compressedFiles), "compressed file"),
			bytesize.IEC(uint64(c.tot.compressedIn)), bytesize.IEC(uint64(c.tot.compressedOut)),
			float64(c.tot.compressedOut)/float64(max(c.tot.compressedIn, 1)))
	}
	fmt.Fprintf(c.stderr, "foreach: %s, %s, %s, longest record %s, %s, %s, %s\n",
		plural(int64(c.tot.files), "file"),
		plural(c.tot.records, "record"),
		size,
		formatSize(c.tot.longest),
		plural(int64(c.tot.grows), "buffer growth"),
		formatDuration(elapsed),
		formatRate(c.tot.bytes, elapsed),
	)
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return bytesize.Comma(n) + " " + noun + "s"
}

// formatSize prints a byte count in binary units, as --max-record and --buffer take them.
func formatSize(n int) string {
	if n < 0 {
		n = 0
	}
	return bytesize.IEC(uint64(n))
}

func formatDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	default:
		return d.Round(time.Microsecond).String()
	}
}

// formatRate is bytes per second in IEC units, as every size the command prints: "850 MiB/s".
func formatRate(bytes int64, d time.Duration) string {
	if d <= 0 {
		return "- B/s"
	}
	return bytesize.IEC(uint64(float64(bytes)/d.Seconds())) + "/s"
}
