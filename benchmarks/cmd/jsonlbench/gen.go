package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// The generated input: one JSON object per line, deterministic for a size. Every object
// has an id, a kind, a timestamp and a nested user; 1 to 6 more fields are drawn from
// tags (an array), attrs (an object of arrays and objects), score, msg (a string with
// escapes and non-ASCII text), geo (an object) and ok. Whatever the size, 4 records
// carry a blob that makes them 120 to 300 KB, and 7 lines are malformed, cut short or not
// JSON at all, spread evenly through the file.
const (
	bigRecords = 4
	badRecords = 7
)

var (
	kinds = []string{"click", "view", "purchase", "signup", "logout", "search", "error", "share"}
	langs = []string{"go", "ruby", "rust", "c", "python", "java", "zig", "ocaml"}
	words = []string{"alpha", "beta", "gamma", "delta", "naïve", "café", "日本", "quote\"d", "tab\there", "slash\\", "line\nbreak"}
)

// generate writes about size bytes of JSON lines to name.
func generate(name string, size int64) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(31, 3))
	var written int64
	nextBig, nextBad := size/(bigRecords+1), size/(badRecords+1)
	for i := int64(1); written < size; i++ {
		big := written >= nextBig
		if big {
			nextBig += size / (bigRecords + 1)
		}
		line := record(rng, i, big)
		if written >= nextBad {
			nextBad += size / (badRecords + 1)
			line = malformed(rng, line)
		}
		n, err := fmt.Fprintf(w, "%s\n", line)
		if err != nil {
			f.Close()
			return err
		}
		written += int64(n)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// record is the JSON text of record i, with a blob if big.
func record(rng *rand.Rand, i int64, big bool) []byte {
	obj := map[string]any{
		"id":   i,
		"kind": kinds[rng.IntN(len(kinds))],
		"ts":   1_700_000_000_000 + i*37 + int64(rng.IntN(1000)),
		"user": map[string]any{
			"name":  fmt.Sprintf("user%05d", rng.IntN(50_000)),
			"age":   18 + rng.IntN(60),
			"langs": pick(rng, langs, 1+rng.IntN(3)),
		},
	}
	for _, k := range rng.Perm(6)[:1+rng.IntN(6)] {
		switch k {
		case 0:
			obj["tags"] = pick(rng, words, rng.IntN(5))
		case 1:
			obj["attrs"] = map[string]any{
				"depth": map[string]any{"a": []int{rng.IntN(9), rng.IntN(99)}, "b": map[string]any{"c": rng.Float64()}},
				"list":  []any{"x", rng.IntN(1000), nil, true, map[string]any{"y": words[rng.IntN(len(words))]}},
			}
		case 2:
			obj["score"] = rng.NormFloat64() * 100
		case 3:
			obj["msg"] = strings.Join(pick(rng, words, 3+rng.IntN(8)), " ")
		case 4:
			obj["geo"] = map[string]any{"lat": rng.Float64()*180 - 90, "lon": rng.Float64()*360 - 180}
		case 5:
			obj["ok"] = rng.IntN(2) == 0
		}
	}
	if big {
		blob := make([]byte, 90_000+rng.IntN(135_000))
		for k := range blob {
			blob[k] = byte(rng.IntN(256))
		}
		obj["blob"] = base64.StdEncoding.EncodeToString(blob) // 120 to 300 KB of text
	}
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err) // only maps, slices, strings and numbers: cannot fail
	}
	return b
}

// pick returns n words drawn from from.
func pick(rng *rand.Rand, from []string, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = from[rng.IntN(len(from))]
	}
	return out
}

// malformed spoils a record: cut short, or replaced by text that is not JSON.
func malformed(rng *rand.Rand, line []byte) []byte {
	if rng.IntN(2) == 0 {
		return line[:len(line)/2]
	}
	return []byte("# not json: " + string(line[:min(len(line), 20)]))
}
