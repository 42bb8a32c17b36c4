package parallel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/foreachio/foreach/linereader"
	"github.com/foreachio/foreach/parallel"
)

// exampleFile writes content to a temporary file and returns its name and a function
// that removes it.
func exampleFile(content string) (string, func()) {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	name := filepath.Join(dir, "input")
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		log.Fatal(err)
	}
	return name, func() { os.RemoveAll(dir) }
}

// A costly loop body on every line of a file, on all cores: fn runs on several
// goroutines at once, so whatever it shares is guarded. Records come in no particular
// order; their offsets say where each one is.
func ExampleForeach() {
	name, remove := exampleFile("GET /a 200\nGET /b 404\nPOST /a 200\nGET /c 500\nGET /a 404\n")
	defer remove()

	var (
		mu   sync.Mutex
		errs []int64 // offsets of the lines with a server error
	)
	err := parallel.Foreach(context.Background(), name, linereader.Options{Chomp: true}, 4, func(rec []byte, off int64) error {
		fields := strings.Fields(string(rec)) // the costly part, outside the lock
		if len(fields) != 3 {
			return fmt.Errorf("offset %d: malformed line %q", off, rec)
		}
		if fields[2][0] == '5' {
			mu.Lock()
			errs = append(errs, off)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("server errors at offsets", errs)
	// Output:
	// server errors at offsets [34]
}

// Counting by a field on every core: each worker counts into a map of its own, and the
// maps are merged at the end. Nothing is shared, so nothing is locked.
func ExampleFold() {
	name, remove := exampleFile("GET /a 200\nGET /b 404\nPOST /a 200\nGET /c 500\nGET /a 404\n")
	defer remove()

	status, err := parallel.Fold(context.Background(), name, linereader.Options{Chomp: true}, 4,
		func() map[string]int { return map[string]int{} },
		func(acc map[string]int, rec []byte, off int64) (map[string]int, error) {
			fields := strings.Fields(string(rec))
			if len(fields) != 3 {
				return acc, fmt.Errorf("offset %d: malformed line %q", off, rec)
			}
			acc[fields[2]]++
			return acc, nil
		},
		func(a, b map[string]int) map[string]int {
			for k, n := range b {
				a[k] += n
			}
			return a
		})
	if err != nil {
		log.Fatal(err)
	}
	codes := make([]string, 0, len(status))
	for code := range status {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		fmt.Println(code, status[code])
	}
	// Output:
	// 200 2
	// 404 2
	// 500 1
}

// Results of a costly function of each record, in input order, with the function
// running on several goroutines: here each line parsed into a number and squared.
func ExampleMap() {
	input := "3\n1\n4\n1\n5\n9\n2\n6\n"
	r := linereader.New(strings.NewReader(input), linereader.Options{Chomp: true})
	square := func(rec []byte) int {
		n, err := strconv.Atoi(string(bytes.TrimSpace(rec)))
		if err != nil {
			return -1
		}
		return n * n
	}
	for v := range parallel.Map(context.Background(), r, 4, square) {
		fmt.Println(v)
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 9
	// 1
	// 16
	// 1
	// 25
	// 81
	// 4
	// 36
}

// Decoding JSON lines on every core, in input order: fn returns the decoded value or the
// error of its line, with the line's offset, so that a malformed line is reported where
// it is and skipped, and the loop goes on.
func ExampleMap_jsonLines() {
	input := `{"user":"ann","n":1}
{"user":"bob","n":2}
{"user":"cy", "n":
{"user":"dee","n":4}
not json
`
	type event struct {
		User string `json:"user"`
		N    int    `json:"n"`
	}
	// A line decoded, or why not. Records are kept whole, "\n" included (the default
	// options), so their sizes add up to each one's offset.
	type line struct {
		ev   event
		size int
		err  error
	}
	r := linereader.New(strings.NewReader(input), linereader.Options{})
	var off int64
	total := 0
	for l := range parallel.Map(context.Background(), r, 4, func(rec []byte) line {
		l := line{size: len(rec)}
		l.err = json.Unmarshal(rec, &l.ev)
		return l
	}) {
		at := off
		off += int64(l.size)
		if l.err != nil {
			fmt.Printf("offset %d: skipped: %v\n", at, l.err)
			continue
		}
		total += l.ev.N
		fmt.Println(l.ev.User, l.ev.N)
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("total", total)
	// Output:
	// ann 1
	// bob 2
	// offset 42: skipped: unexpected end of JSON input
	// dee 4
	// offset 82: skipped: invalid character 'o' in literal null (expecting 'u')
	// total 7
}
