package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -n, -H and --ors with separators of one byte and of several, over sequences of
// random inputs (some unterminated, some empty) and at read sizes that cut records
// into pieces, against refPrint (printref_test.go); standard input among the files too.
func TestPrintMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	flagSets := [][]string{{"-n"}, {"-H"}, {"-n", "-H"}, {"--ors=|"}, {"-n", "--ors=<>"}, {"-H", "--ors=|"}}
	for _, sep := range []string{"\n", ";", "\r\n", "ab"} {
		for round := range 12 {
			k := 1 + rng.IntN(3)
			inputs := make([][]byte, k)
			names := make([]string, k)
			args := []string{}
			for i := range inputs {
				in := make([]byte, rng.IntN(600))
				for j := range in {
					in[j] = "ab;\r\nx"[rng.IntN(6)]
				}
				inputs[i] = in
				names[i] = filepath.Join(dir, fmt.Sprintf("%d-%d-%d", len(sep), round, i))
				require.NoError(t, os.WriteFile(names[i], in, 0o644))
				args = append(args, names[i])
			}
			stdin := ""
			if k > 1 && round%3 == 0 {
				stdin, names[1], args[1] = string(inputs[1]), stdinName, "-"
			}
			for _, flags := range flagSets {
				var ors []byte
				if v, ok := strings.CutPrefix(flags[len(flags)-1], "--ors="); ok {
					ors = []byte(v)
				}
				number, withName := flags[0] == "-n", slices.Contains(flags, "-H")
				want := refPrint(inputs, names, printFlags{number: number, withName: withName, ors: ors, sep: []byte(sep)})
				for _, size := range []int{1, 3, 16, 4096} {
					a := append(append([]string{"--sep=" + strings.ReplaceAll(strings.ReplaceAll(sep, "\r", `\r`), "\n", `\n`), "--buffer=" + strconv.Itoa(size)}, flags...), args...)
					out, errs, status := runCmd(t, stdin, a...)
					require.Equal(t, 0, status, errs)
					if out != string(want) {
						t.Fatalf("foreach %q: differs from the model at byte %d\ngot  %q\nwant %q", a, firstDiff(out, string(want)), out, want)
					}
				}
			}
		}
	}
}
