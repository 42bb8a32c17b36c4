package linereader_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// Validate's error lists its faults one by one, each naming the field at fault (and the
// one it conflicts with) as Options names it, so that a program can name its own
// settings; the message is the faults' texts, as before.
func TestValidateFaultsNameTheFields(t *testing.T) {
	fields := map[string]bool{}
	for i := range reflect.TypeFor[linereader.Options]().NumField() {
		fields[reflect.TypeFor[linereader.Options]().Field(i).Name] = true
	}
	for _, tc := range invalidOptions {
		err := tc.opt.Validate()
		var oe *linereader.OptionsError
		require.True(t, errors.As(err, &oe), tc.name)
		require.NotEmpty(t, oe.Faults, tc.name)
		var texts []string
		for _, f := range oe.Faults {
			texts = append(texts, f.Text)
			assert.True(t, fields[f.Field], "%s: Field %q is not a field of Options", tc.name, f.Field)
			assert.True(t, strings.HasPrefix(f.Text, f.Field+" "), "%s: %q does not start with %s", tc.name, f.Text, f.Field)
			if f.With != "" {
				assert.True(t, fields[f.With], "%s: With %q is not a field of Options", tc.name, f.With)
				assert.Equal(t, f.Field+" and "+f.With+" conflict", f.Text, tc.name)
			}
		}
		assert.Equal(t, tc.msg, strings.Join(texts, "; "), tc.name)
	}
	err := linereader.Options{Sep: []byte(";"), Whole: true, BufferSize: -1}.Validate()
	var oe *linereader.OptionsError
	require.True(t, errors.As(err, &oe))
	assert.Equal(t, []linereader.OptionFault{
		{Field: "Sep", With: "Whole", Text: "Sep and Whole conflict"},
		{Field: "BufferSize", Text: "BufferSize -1 is negative"},
	}, oe.Faults)
}

// splittableCases are options with what Splittable says of them: nil, or the error
// it wraps.
var splittableCases = []struct {
	opt  linereader.Options
	want error
}{
	{linereader.Options{}, nil},
	{linereader.Options{Sep: []byte("\n")}, nil},
	{linereader.Options{Sep: []byte("\r\n")}, nil},
	{linereader.Options{Sep: []byte(";")}, nil},
	{linereader.Options{Sep: []byte("ab")}, nil},
	{linereader.Options{Sep: []byte("abc"), Chomp: true, MaxRecord: 100, BufferSize: 3}, nil},
	{linereader.Options{Paragraph: true}, linereader.ErrNotSplittable},
	{linereader.Options{Whole: true}, linereader.ErrNotSplittable},
	{linereader.Options{Limit: 3}, linereader.ErrNotSplittable},
	{linereader.Options{Sep: []byte("aa")}, linereader.ErrNotSplittable},
	{linereader.Options{Sep: []byte("aba")}, linereader.ErrNotSplittable},
	{linereader.Options{Paragraph: true, Whole: true}, linereader.ErrInvalidOptions},
}

// Splittable says what NewSection says once it reads.
func TestSplittableAgreesWithNewSection(t *testing.T) {
	for _, tc := range splittableCases {
		err := tc.opt.Splittable()
		if tc.want == nil {
			assert.NoError(t, err, "%+v", tc.opt)
		} else {
			assert.ErrorIs(t, err, tc.want, "%+v", tc.opt)
		}
		in := []byte("a;ab\naab\r\naba\n\nx")
		r := linereader.NewSection(bytes.NewReader(in), 0, int64(len(in)), tc.opt)
		for r.Next() {
		}
		if tc.want == nil {
			assert.NoError(t, r.Err(), "%+v", tc.opt)
		} else {
			assert.ErrorIs(t, r.Err(), tc.want, "%+v", tc.opt)
		}
	}
}

// Under splittable options, the runs of whole records from Runs, cut after every
// separator, are the records: the promise a program that numbers the records of a run
// relies on. Random inputs rich in separator bytes, every splittable separator above,
// buffers from 1 byte (so that records come in pieces) up.
func TestSplittableRunsAreCutBySeparators(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range splittableCases {
		if tc.want != nil {
			continue
		}
		opt := tc.opt
		opt.Chomp, opt.MaxRecord = false, 0 // Runs makes runs of several only without them
		sep := opt.Sep
		if len(sep) == 0 {
			sep = []byte("\n")
		}
		for range 40 {
			in := make([]byte, rng.IntN(3000))
			for i := range in {
				in[i] = "ab;\n\rc"[rng.IntN(6)]
			}
			for _, size := range []int{1, 2, 7, 64, 4096} {
				opt.BufferSize = size
				var want [][]byte
				for rec := range linereader.New(bytes.NewReader(in), opt).Lines() {
					want = append(want, rec)
				}
				var got [][]byte
				var long []byte // a record that comes in pieces, so far
				r := linereader.New(bytes.NewReader(in), opt)
				for run := range r.Runs() {
					if long != nil || r.Partial() {
						if long = append(long, run...); !r.Partial() {
							got, long = append(got, long), nil
						}
						continue
					}
					for len(run) > 0 {
						n := len(run)
						if i := bytes.Index(run, sep); i >= 0 {
							n = i + len(sep)
						}
						got, run = append(got, bytes.Clone(run[:n])), run[n:]
					}
				}
				require.NoError(t, r.Err())
				require.Equal(t, want, got, "sep %q, buffer %d", sep, size)
			}
		}
	}
}

// Under verbatim options the records, concatenated, are the input; each option that
// makes Verbatim false has an input where they are not, or where iteration stops.
func TestVerbatim(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	verbatim := []linereader.Options{
		{}, {Sep: []byte("\r\n")}, {Sep: []byte("aa")}, {Whole: true}, {Limit: 3, UTF8: true},
		{Whole: true, Limit: 2}, {BufferSize: 1},
	}
	for _, opt := range verbatim {
		require.True(t, opt.Verbatim(), "%+v", opt)
		for range 30 {
			in := make([]byte, rng.IntN(2000))
			for i := range in {
				in[i] = "a\n\r\xe3\x81"[rng.IntN(5)]
			}
			var got []byte
			r := linereader.New(bytes.NewReader(in), opt)
			for piece := range r.Pieces() {
				got = append(got, piece...)
			}
			require.NoError(t, r.Err())
			require.Equal(t, in, got, "%+v", opt)
		}
	}
	for _, tc := range []struct {
		opt linereader.Options
		in  []byte
	}{
		{linereader.Options{Chomp: true}, []byte("a\n")},
		{linereader.Options{Paragraph: true}, []byte("\n\na\n\n\n")},
		{linereader.Options{Decompress: true}, linereader.Gzipped(t, []byte("a\n"))},
		{linereader.Options{MaxRecord: 1}, []byte("abc\n")},
		{linereader.Options{Paragraph: true, Whole: true}, []byte("a\n")},
	} {
		assert.False(t, tc.opt.Verbatim(), "%+v", tc.opt)
		var got []byte
		r := linereader.New(bytes.NewReader(tc.in), tc.opt)
		for piece := range r.Pieces() {
			got = append(got, piece...)
		}
		assert.True(t, r.Err() != nil || !bytes.Equal(got, tc.in), "%+v: the records are the input", tc.opt)
	}
}
