// Command inflatebench measures gzip decoders side by side in one process:
// internal/inflate (the project's own), github.com/klauspost/compress/gzip
// and the standard library's compress/gzip, each decoding a .gz file held in
// memory into a 64 KiB buffer, as a reader of records reads it. First every
// decoder's output is checked against the file's text (length and CRC-32).
// Then each round times every decoder once, the order rotated from round to
// round so that a busy spell of a shared machine falls on all of them; the
// report gives each decoder's median throughput (decompressed bytes per
// second of wall time, and of CPU time: user + system of the process, from
// getrusage) and the median over the rounds of its time's ratio to
// klauspost's. Tools given with -tools (igzip, libdeflate-gunzip, gzip) are
// timed as processes writing to /dev/null, for reference.
//
//	go run ./benchmarks/cmd/inflatebench -make DIR        # DIR/real.txt, tall.txt, mixed.txt and their .gz
//	go run ./benchmarks/cmd/inflatebench [-rounds 7] [-tools 'igzip -dc'] FILE.gz...
//
// Each FILE.gz needs FILE beside it, its text. -make writes the corpora of
// internal/measure/contend/corpora.go (real text 128 MiB, tall and mixed 64 MiB) and
// compresses each with gzip -6 (the tool's default level). benchmarks/inflate.sh
// runs both and writes benchmarks/results/inflate.md.
package main

import (
	"bufio"
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	kgzip "github.com/klauspost/compress/gzip"

	"github.com/foreachio/foreach/internal/inflate"
	"github.com/foreachio/foreach/internal/measure/contend"
	"github.com/foreachio/foreach/internal/measure/cputime"
)

// decoder is one contender: it returns a reader of the decompressed bytes
// of the gzip file gz.
type decoder struct {
	name string
	open func(gz []byte) (io.Reader, error)
}

var decoders = []decoder{
	{"inflate", func(gz []byte) (io.Reader, error) {
		return newMembers(bytes.NewReader(gz)), nil
	}},
	{"klauspost", func(gz []byte) (io.Reader, error) {
		return kgzip.NewReader(bufio.NewReaderSize(bytes.NewReader(gz), 64<<10))
	}},
	{"compress/gzip", func(gz []byte) (io.Reader, error) {
		return stdgzip.NewReader(bufio.NewReaderSize(bytes.NewReader(gz), 64<<10))
	}},
}

// members reads the members of a gzip file one after another with
// inflate.Member, as compress/gzip's multistream mode does.
type members struct {
	src *bufio.Reader
	m   inflate.Member
	in  bool // inside a member
}

func newMembers(r io.Reader) *members {
	return &members{src: bufio.NewReaderSize(r, 64<<10)}
}

func (ms *members) Read(p []byte) (int, error) {
	for {
		if !ms.in {
			if _, err := ms.src.Peek(1); err == io.EOF {
				return 0, io.EOF
			}
			if _, err := inflate.ReadHeader(ms.src); err != nil {
				return 0, err
			}
			ms.m.Reset(ms.src)
			ms.in = true
		}
		n, err := ms.m.Read(p)
		if err == io.EOF {
			ms.in = false
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

// result is one timed decode.
type result struct {
	bytes     int64
	wall, cpu time.Duration
}

func main() {
	rounds := flag.Int("rounds", 7, "rounds, each timing every decoder once")
	tools := flag.String("tools", "", "commands timed as processes, separated by commas, such as 'igzip -dc,libdeflate-gunzip -c'")
	only := flag.String("decoders", "", "the decoders to time, separated by commas (default all)")
	makeDir := flag.String("make", "", "write the corpora and their .gz into this directory, then exit")
	flag.Parse()
	if *makeDir != "" {
		if err := makeCorpora(*makeDir); err != nil {
			fmt.Fprintln(os.Stderr, "inflatebench:", err)
			os.Exit(1)
		}
		return
	}
	ds := decoders
	if *only != "" {
		ds = nil
		for _, d := range decoders {
			if slices.Contains(strings.Split(*only, ","), d.name) {
				ds = append(ds, d)
			}
		}
	}
	var toolList []string
	if *tools != "" {
		toolList = strings.Split(*tools, ",")
	}
	for _, name := range flag.Args() {
		if err := measure(name, ds, toolList, *rounds); err != nil {
			fmt.Fprintln(os.Stderr, "inflatebench:", err)
			os.Exit(1)
		}
	}
}

// decode reads all of r into a 64 KiB buffer, returning the bytes and
// their CRC-32 when sum is set.
func decode(r io.Reader, sum bool) (int64, uint32, error) {
	buf := make([]byte, 64<<10)
	var n int64
	var crc uint32
	for {
		k, err := r.Read(buf)
		n += int64(k)
		if sum {
			crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
		}
		if err == io.EOF {
			return n, crc, nil
		}
		if err != nil {
			return n, crc, err
		}
	}
}

func timeDecoder(d decoder, gz []byte) (result, error) {
	cpu0, _ := cputime.Now()
	t0 := time.Now()
	r, err := d.open(gz)
	if err != nil {
		return result{}, err
	}
	n, _, err := decode(r, false)
	wall := time.Since(t0)
	cpu1, _ := cputime.Now()
	return result{bytes: n, wall: wall, cpu: cpu1 - cpu0}, err
}

func timeTool(command, name string) (result, error) {
	args := strings.Fields(command)
	cmd := exec.Command(args[0], append(args[1:], name)...)
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return result{}, fmt.Errorf("%s: %v", command, err)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return result{wall: wall, cpu: cpu}, nil
}

func measure(name string, ds []decoder, tools []string, rounds int) error {
	gz, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(strings.TrimSuffix(name, ".gz"))
	if err != nil {
		return err
	}
	want := crc32.ChecksumIEEE(text)
	for _, d := range ds {
		r, err := d.open(gz)
		if err != nil {
			return fmt.Errorf("%s on %s: %v", d.name, name, err)
		}
		n, crc, err := decode(r, true)
		if err != nil || n != int64(len(text)) || crc != want {
			return fmt.Errorf("%s on %s: %d bytes, CRC %08x, %v; want %d bytes, CRC %08x", d.name, name, n, crc, err, len(text), want)
		}
	}
	for _, tool := range tools {
		out, err := exec.Command("sh", "-c", tool+` "$1" | cksum`, "sh", name).Output()
		if err != nil {
			return fmt.Errorf("%s: %v", tool, err)
		}
		wantSum, _ := exec.Command("cksum", strings.TrimSuffix(name, ".gz")).Output()
		if strings.Fields(string(out))[0] != strings.Fields(string(wantSum))[0] {
			return fmt.Errorf("%s on %s: not the file's text", tool, name)
		}
	}
	n := len(ds) + len(tools)
	runs := make([][]result, n)
	for round := 0; round < rounds; round++ {
		for k := 0; k < n; k++ {
			i := (k + round) % n
			var r result
			var err error
			if i < len(ds) {
				r, err = timeDecoder(ds[i], gz)
			} else {
				r, err = timeTool(tools[i-len(ds)], name)
			}
			if err != nil {
				return err
			}
			runs[i] = append(runs[i], r)
		}
	}
	report(name, int64(len(text)), int64(len(gz)), ds, tools, runs)
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func report(name string, size, gzSize int64, ds []decoder, tools []string, runs [][]result) {
	fmt.Printf("\n%s: %.1f MiB of text, %.1f MiB compressed, %d rounds\n\n", filepath.Base(name),
		float64(size)/(1<<20), float64(gzSize)/(1<<20), len(runs[0]))
	fmt.Println("| decoder | MB/s (wall) | MB/s (CPU) | time / klauspost's (wall) | (CPU) |")
	fmt.Println("|---|---:|---:|---:|---:|")
	ref := slices.IndexFunc(ds, func(d decoder) bool { return d.name == "klauspost" })
	for i := range runs {
		label := ""
		if i < len(ds) {
			label = ds[i].name
		} else {
			label = "`" + tools[i-len(ds)] + "` (a process)"
		}
		var wall, cpu, rw, rc []float64
		for j, r := range runs[i] {
			wall = append(wall, float64(size)/r.wall.Seconds()/1e6)
			cpu = append(cpu, float64(size)/r.cpu.Seconds()/1e6)
			if ref >= 0 {
				rw = append(rw, r.wall.Seconds()/runs[ref][j].wall.Seconds())
				rc = append(rc, r.cpu.Seconds()/runs[ref][j].cpu.Seconds())
			}
		}
		ratio := func(v []float64) string {
			if len(v) == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f", median(v))
		}
		fmt.Printf("| %s | %.0f | %.0f | %s | %s |\n", label, median(wall), median(cpu), ratio(rw), ratio(rc))
	}
}

// corpora are the files -make writes: the shapes and sizes of
// internal/decompress's benchmarks.
var corpora = []struct {
	shape string
	size  int64
}{
	{contend.Real, 128 << 20},
	{"tall", 64 << 20},
	{"mixed", 64 << 20},
}

// makeCorpora writes each corpus into dir as SHAPE.txt and SHAPE.txt.gz
// (gzip -6 -n, so that the file does not depend on the time), unless both
// are there already.
func makeCorpora(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, c := range corpora {
		txt := filepath.Join(dir, c.shape+".txt")
		if _, err := os.Stat(txt + ".gz"); err == nil {
			continue
		}
		f, err := contend.MakeFile(dir, c.shape, c.size)
		if err != nil {
			return err
		}
		if f.Path != txt {
			return errors.New("unexpected corpus path " + f.Path)
		}
		cmd := exec.Command("sh", "-c", `gzip -6 -n -c "$1" > "$1.gz.tmp" && mv "$1.gz.tmp" "$1.gz"`, "sh", txt)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("gzip %s: %v: %s", txt, err, out)
		}
	}
	return nil
}
