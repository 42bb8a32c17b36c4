package linereader_test

// Options.TooLong: a record longer than MaxRecord skipped or cut, against a reference
// built on refSplit (the records as a read without MaxRecord cuts them, then each one
// too long dropped or cut), for every kind of separator, Limit, UTF8, Chomp, read
// pattern, buffer size and iterator; in sections, counted, and read backwards; and in
// memory about MaxRecord whatever the record's length.

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// refTooLong is the reference: refSplit's records with MaxRecord and TooLong applied.
// A record's length is its length in the input (its separator included, before Chomp);
// line numbers are those of the read without MaxRecord, a skipped record's included.
// It returns the records and how many were skipped or cut.
func refTooLong(in []byte, opt linereader.Options) ([]linereader.Seen, int64) {
	plain := opt
	plain.MaxRecord, plain.TooLong, plain.Chomp = 0, linereader.TooLongStop, false
	sep := []byte(opt.Separator())
	var out []linereader.Seen
	var n int64
	for _, rec := range refSplit(in, plain) {
		raw := []byte(rec.Rec)
		terminated := len(sep) > 0 && bytes.HasSuffix(raw, sep) && !refCutByLimit(in, rec, opt)
		if len(raw) <= opt.MaxRecord {
			if opt.Chomp && terminated {
				raw = refChomp(raw, sep, opt)
			}
			rec.Rec = string(raw)
			out = append(out, rec)
			continue
		}
		n++
		if opt.TooLong == linereader.TooLongSkip {
			continue
		}
		cut := raw[:opt.MaxRecord:opt.MaxRecord]
		if terminated && !opt.Chomp {
			cut = append(cut, sep...)
		}
		rec.Rec = string(cut)
		out = append(out, rec)
	}
	return out, n
}

// refCutByLimit reports whether rec, a record of refSplit without Chomp, was cut by the
// Limit rather than ended by its separator (a record cut by Limit may end with the
// separator's bytes when the cut falls right after them only if the separator was
// found: refRecordEnd says which).
func refCutByLimit(in []byte, rec linereader.Seen, opt linereader.Options) bool {
	sep := []byte(opt.Separator())
	_, terminated, _ := refRecordEnd(in[rec.Off:], sep, opt)
	return !terminated
}

// tooLongOptions picks random options with a MaxRecord and a TooLong other than Stop.
func tooLongOptions(rng *rand.Rand) linereader.Options {
	opt := optionsFor(rng.IntN(len(diffSeps)), rng.IntN(10), rng.IntN(2) == 0, rng.IntN(2) == 0,
		diffBufferSizes[rng.IntN(len(diffBufferSizes))])
	opt.MaxRecord = 1 + rng.IntN(8)
	opt.TooLong = linereader.TooLong(1 + rng.IntN(2))
	return opt
}

func TestTooLongAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 1))
	failures := 0
	for i := range 6000 {
		in := linereader.RandomOver(rng, diffAlphabet, rng.IntN(40))
		opt := tooLongOptions(rng)
		want, wantN := refTooLong(in, opt)
		for _, how := range linereader.Iterators {
			src, pattern := wrapSource(in, rng.IntN(6), uint64(i))
			r := linereader.New(src, opt)
			got, err := linereader.ReadAtMost(r, how, runawayCap(in))
			diff := ""
			switch {
			case err != nil:
				diff = fmt.Sprintf("Err %v", err)
			case how == "Batches" || how == "Runs" || how == "Pieces":
				diff = firstDiff(linereader.Texts(linereader.Joined(got)), seenTexts(want))
			default:
				diff = firstDiff(seenStrings(got), seenStrings(want))
			}
			if diff == "" && how == "Next" {
				st := r.Stats()
				if st.TooLong != wantN || st.Records != int64(len(want)) || st.Bytes != int64(len(in)) {
					diff = fmt.Sprintf("Stats %+v, want TooLong %d Records %d Bytes %d", st, wantN, len(want), len(in))
				}
			}
			if diff != "" {
				t.Errorf("case %d input %q %s TooLong %v MaxRecord %d, %s, %s:\n%s", i, in, describeOptions(opt), opt.TooLong, opt.MaxRecord, how, pattern, diff)
				if failures++; failures > 5 {
					t.FailNow()
				}
			}
		}
	}
}

func seenTexts(s []linereader.Seen) []string {
	var out []string
	for _, r := range s {
		out = append(out, r.Rec)
	}
	return out
}

func seenStrings(s []linereader.Seen) []string {
	var out []string
	for _, r := range s {
		out = append(out, r.String())
	}
	return out
}

// firstDiff describes the first difference between got and want, records shortened
// to keep the message readable, or returns "".
func firstDiff(got, want []string) string {
	short := func(s string) string {
		if len(s) > 60 {
			return fmt.Sprintf("%.40q...(%d bytes)", s, len(s))
		}
		return fmt.Sprintf("%q", s)
	}
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return fmt.Sprintf("record %d missing: want %s (got %d, want %d records)", i, short(want[i]), len(got), len(want))
		case i >= len(want):
			return fmt.Sprintf("extra record %d: %s (got %d, want %d records)", i, short(got[i]), len(got), len(want))
		case got[i] != want[i]:
			return fmt.Sprintf("record %d: got %s, want %s", i, short(got[i]), short(want[i]))
		}
	}
	return ""
}

// Records far longer than the buffer and than MaxRecord, with separators straddling
// every read, are skipped or cut exactly, and the line numbers count them.
func TestTooLongRecordsLongerThanTheBuffer(t *testing.T) {
	for _, sep := range []string{"\n", "\r\n", "xyz"} {
		var b strings.Builder
		for i := range 30 {
			b.WriteString(strings.Repeat("q", i*i*97%5000))
			b.WriteString(sep)
		}
		b.WriteString(strings.Repeat("u", 3000)) // unterminated
		in := []byte(b.String())
		for _, how := range []linereader.TooLong{linereader.TooLongSkip, linereader.TooLongCut} {
			for _, chomp := range []bool{false, true} {
				for _, bufSize := range []int{1, 7, 64, 1000} {
					opt := linereader.Options{Sep: []byte(sep), MaxRecord: 700, TooLong: how, Chomp: chomp, BufferSize: bufSize}
					want, _ := refTooLong(in, opt)
					got, err := linereader.ReadAll(linereader.New(iotestHalf(in), opt), "Next")
					require.NoError(t, err)
					if d := firstDiff(seenStrings(got), seenStrings(want)); d != "" {
						t.Fatalf("sep %q %v chomp %v buffer %d: %s", sep, how, chomp, bufSize, d)
					}
				}
			}
		}
	}
}

func iotestHalf(in []byte) io.Reader {
	return &randomReader{r: bytes.NewReader(in), rng: rand.New(rand.NewPCG(1, 2)), max: 1000}
}

// Sections, CountAt and NewTail agree with a sequential read that skips or cuts.
func TestTooLongSectionsAndCountAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 2))
	for range 300 {
		in := linereader.RandomOver(rng, "ab\n\r", 1+rng.IntN(200))
		for _, how := range []linereader.TooLong{linereader.TooLongSkip, linereader.TooLongCut} {
			opt := linereader.Options{MaxRecord: 1 + rng.IntN(6), TooLong: how, BufferSize: 1 + rng.IntN(9)}
			want, _ := refTooLong(in, opt)
			var got []string
			for _, sp := range linereader.Partition(int64(len(in)), 1+rng.IntN(5)) {
				r := linereader.NewSection(bytes.NewReader(in), sp.Start, sp.End, opt)
				for rec := range r.Lines() {
					got = append(got, string(rec))
				}
				require.NoError(t, r.Err())
			}
			if d := firstDiff(got, seenTexts(want)); d != "" {
				t.Fatalf("input %q %+v: %s", in, opt, d)
			}
			n, err := linereader.CountAt(bytes.NewReader(in), int64(len(in)), opt, 3)
			require.NoError(t, err)
			require.Equal(t, int64(len(want)), n, "count of %q %+v", in, opt)
		}
	}
}

// Backwards, the same records as forward, last first.
func TestTooLongBackward(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 3))
	for range 2000 {
		in := linereader.RandomOver(rng, "ab\n\r", rng.IntN(60))
		sep := []string{"", "\n", "b", "\r\n"}[rng.IntN(4)]
		opt := linereader.Options{Sep: []byte(sep), MaxRecord: 1 + rng.IntN(6), TooLong: linereader.TooLong(1 + rng.IntN(2)),
			Chomp: rng.IntN(2) == 0, BufferSize: 1 + rng.IntN(9)}
		want, _ := refTooLong(in, opt)
		texts := seenTexts(want)
		for i, j := 0, len(texts)-1; i < j; i, j = i+1, j-1 {
			texts[i], texts[j] = texts[j], texts[i]
		}
		for _, how := range linereader.Iterators {
			got, err := linereader.ReadAll(linereader.NewBackward(bytes.NewReader(in), int64(len(in)), opt), how)
			require.NoError(t, err)
			if d := firstDiff(linereader.Texts(got), texts); d != "" {
				t.Fatalf("input %q %+v %s: %s", in, opt, how, d)
			}
		}
	}
}

// A record of 256 MiB is skipped or cut holding about MaxRecord: the bytes allocated
// while reading it stay far below its length.
func TestTooLongMemoryStaysAboutMaxRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MiB")
	}
	const long, maxRecord = 256 << 20, 1 << 20
	for _, how := range []linereader.TooLong{linereader.TooLongSkip, linereader.TooLongCut} {
		src := io.MultiReader(strings.NewReader("first\n"), &repeated{b: 'x', n: long}, strings.NewReader("\nlast\n"))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := linereader.New(src, linereader.Options{MaxRecord: maxRecord, TooLong: how})
		var got []string
		for rec := range r.Views() {
			got = append(got, fmt.Sprintf("%d:%.8s", len(rec), rec))
		}
		runtime.ReadMemStats(&after)
		require.NoError(t, r.Err())
		if how == linereader.TooLongSkip {
			assert.Equal(t, []string{"6:first\n", "5:last\n"}, got)
		} else {
			assert.Equal(t, []string{"6:first\n", fmt.Sprintf("%d:xxxxxxxx", maxRecord+1), "5:last\n"}, got)
		}
		assert.Equal(t, int64(3), r.LineNo())
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8*maxRecord), "%v: bytes allocated", how)
	}
}

// repeated is n bytes b.
type repeated struct {
	b byte
	n int
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}
