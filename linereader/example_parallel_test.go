package linereader_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/foreachio/foreach/linereader"
)

// A costly loop body on every line of a file, on all cores: fn runs on several
// goroutines at once, so whatever it shares is guarded. Records come in no particular
// order; their offsets say where each one is.
func ExampleForeachParallel() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "access.log")
	lines := "GET /a 200\nGET /b 404\nPOST /a 200\nGET /c 500\nGET /a 404\n"
	if err := os.WriteFile(name, []byte(lines), 0o644); err != nil {
		log.Fatal(err)
	}

	var (
		mu     sync.Mutex
		status = map[string]int{}
		errs   []int64 // offsets of the lines with a server error
	)
	err = linereader.ForeachParallel(name, linereader.Options{Chomp: true}, 4, func(rec []byte, off int64) error {
		fields := strings.Fields(string(rec)) // the costly part, outside the lock
		if len(fields) != 3 {
			return fmt.Errorf("offset %d: malformed line %q", off, rec)
		}
		mu.Lock()
		defer mu.Unlock()
		status[fields[2]]++
		if fields[2][0] == '5' {
			errs = append(errs, off)
		}
		return nil
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
	fmt.Println("server errors at offsets", errs)
	// Output:
	// 200 2
	// 404 2
	// 500 1
	// server errors at offsets [34]
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
	for v := range linereader.Map(r, 4, square) {
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
