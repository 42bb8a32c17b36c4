package follow_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/foreachio/foreach/follow"
	"github.com/foreachio/foreach/linereader"
)

// Following a log as it is written and rotated: a record split over two writes comes
// whole, the old file is read to its end (what the logger writes to it after the rename
// too) before the new one, offsets count within each file and line numbers across them.
// EndOffset is the checkpoint to resume from.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "follow-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "access.log")
	if err := os.WriteFile(name, []byte("GET /index.html\nGET /about.html\n"), 0o644); err != nil {
		log.Fatal(err)
	}

	r, err := follow.Open(context.Background(), name, linereader.Options{Chomp: true}, follow.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()

	// A logger appending to the file while a log rotation renames it away and creates
	// a new one; the logger reopens the name a little later.
	go func() {
		f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString("GET /cont") // half a record: held until it ends
		f.WriteString("act.html\n")
		os.Rename(name, name+".1")
		g, _ := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		f.WriteString("POST /form\n") // still to the old file
		f.Close()
		g.WriteString("GET /thanks.html\n")
		g.Close()
	}()

	var checkpoint int64
	for line := range r.Lines() {
		fmt.Printf("%d %s (offset %d)\n", r.LineNo(), line, r.Offset())
		checkpoint = r.EndOffset()
		if r.LineNo() == 5 {
			break // or cancel the context, or Close from another goroutine
		}
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("resume at offset", checkpoint, "of the new file")
	// Output:
	// 1 GET /index.html (offset 0)
	// 2 GET /about.html (offset 16)
	// 3 GET /contact.html (offset 32)
	// 4 POST /form (offset 50)
	// 5 GET /thanks.html (offset 0)
	// resume at offset 17 of the new file
}

// Following every log a pattern matches: the files there first, in the order of their
// names, then what is written to any of them, a file that appears later included; each
// record names the file it was written under. State is where each file stands, in one
// text to store.
func ExampleOpenMany() {
	dir, err := os.MkdirTemp("", "follow-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for _, svc := range []string{"web", "db"} {
		name := filepath.Join(dir, svc+".log")
		if err := os.WriteFile(name, []byte(svc+" started\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	m, err := follow.OpenMany(context.Background(), []string{filepath.Join(dir, "*.log")},
		linereader.Options{Chomp: true}, follow.ManyOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	go func() {
		// A service that starts later, with a log of its own.
		os.WriteFile(filepath.Join(dir, "cache.log"), []byte("cache started\n"), 0o644)
	}()

	var state []byte
	for rec := range m.Lines() {
		fmt.Printf("%s: %s (line %d)\n", filepath.Base(rec.Name), rec.Data, rec.LineNo)
		if state, err = m.State().MarshalText(); err != nil {
			log.Fatal(err)
		}
		if bytes.Count(state, []byte("\n")) == 3 {
			break // or cancel the context, or Close from another goroutine
		}
	}
	if err := m.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Count(state, []byte("\n")), "files in the state")
	// Output:
	// db.log: db started (line 1)
	// web.log: web started (line 1)
	// cache.log: cache started (line 1)
	// 3 files in the state
}

// Following a log whose entries are several lines (a stack trace): an entry is yielded
// whole when the next one begins, however its lines were written, and the last one once
// the file has been quiet for Flush. Checkpoint never points inside an entry.
func ExampleOptions_flush() {
	dir, err := os.MkdirTemp("", "follow-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "app.log")
	// The logger is writing an entry: its last line is not complete yet.
	if err := os.WriteFile(name, []byte("2026-05-01 ERROR boom\n\tat a.b(C.ja"), 0o644); err != nil {
		log.Fatal(err)
	}
	opt := linereader.Options{Multiline: &linereader.Multiline{Start: regexp.MustCompile(`^\d{4}-`)}}
	r, err := follow.Open(context.Background(), name, opt, follow.Options{Flush: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()

	go func() {
		f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString("va:1)\n\tat d.e(F.j") // the entry goes on, in pieces cut anywhere
		f.WriteString("ava:2)\n2026-05-01 INFO ok\n")
		f.Close()
	}()

	for entry := range r.Lines() {
		fmt.Printf("%d: %q\n", r.LineNo(), entry)
		if r.LineNo() == 2 {
			break // the second entry came once the file was quiet for Flush
		}
	}
	cp := r.Checkpoint()
	fmt.Println("checkpoint at offset", cp.Offset)
	// Output:
	// 1: "2026-05-01 ERROR boom\n\tat a.b(C.java:1)\n\tat d.e(F.java:2)\n"
	// 2: "2026-05-01 INFO ok\n"
	// checkpoint at offset 77
}
