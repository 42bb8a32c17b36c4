package follow

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foreachio/foreach/linereader"
)

// Last begins with the file's last N complete records, as tail -n N -F: a record still
// being written is not one of them, and comes whole once it ends; then what is
// appended. Differential against the records of the whole file, for every N and two
// separators.
func TestFollowLast(t *testing.T) {
	for _, sep := range []string{"\n", "\r\n"} {
		name := filepath.Join(t.TempDir(), "log")
		f := logFile(t, name)
		var all []string
		for i := range 12 {
			all = append(all, fmt.Sprintf("record %d %s%s", i, strings.Repeat("z", i*5%7), sep))
		}
		write(t, f, strings.Join(all, "")+"partial")
		opt := linereader.Options{Sep: []byte(sep)}
		for n := 1; n <= 14; n++ {
			r, err := Open(t.Context(), name, opt, Options{Last: n, Poll: testPoll})
			if err != nil {
				t.Fatal(err)
			}
			want := all[max(0, len(all)-n):]
			if got := takeN(t, r, len(want)); !slices.Equal(got, want) {
				t.Fatalf("sep %q Last %d: %q, want %q", sep, n, got, want)
			}
			r.Close()
		}
		write(t, f, " ends"+sep)
		r, err := Open(t.Context(), name, opt, Options{Last: 2, Poll: testPoll})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{all[len(all)-1], "partial ends" + sep}
		if got := takeN(t, r, 2); !slices.Equal(got, want) {
			t.Fatalf("sep %q: %q, want %q", sep, got, want)
		}
		write(t, f, "next"+sep)
		if got := takeN(t, r, 1); got[0] != "next"+sep {
			t.Fatalf("after Last: %q", got)
		}
		r.Close()
	}
}
