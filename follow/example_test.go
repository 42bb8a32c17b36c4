package follow_test

import (
	"context"
	"fmt"
	"github.com/foreachio/foreach/follow"
	"log"
	"os"
	"path/filepath"

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
