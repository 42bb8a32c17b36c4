package linereader_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

// invalidOptions holds every invalid combination that Options.Validate's doc names, one
// fault per case and then several at once, with the exact message each gives.
var invalidOptions = []struct {
	name string
	opt  linereader.Options
	msg  string // the error's text after "linereader: invalid options: "
}{
	{"paragraph and whole", linereader.Options{Paragraph: true, Whole: true},
		"Paragraph and Whole conflict"},
	{"sep and paragraph", linereader.Options{Sep: []byte("x"), Paragraph: true},
		"Sep and Paragraph conflict"},
	{"sep and whole", linereader.Options{Sep: []byte("x"), Whole: true},
		"Sep and Whole conflict"},
	{"newline sep and paragraph", linereader.Options{Sep: []byte("\n"), Paragraph: true},
		"Sep and Paragraph conflict"},
	{"negative limit", linereader.Options{Limit: -1},
		"Limit -1 is negative"},
	{"negative limit with whole", linereader.Options{Whole: true, Limit: -5},
		"Limit -5 is negative"},
	{"negative buffer size", linereader.Options{BufferSize: -1},
		"BufferSize -1 is negative"},
	{"buffer size just too large", linereader.Options{BufferSize: linereader.MaxBufferSize + 1},
		"BufferSize 1073741825 is larger than 1073741824"},
	{"negative max record", linereader.Options{MaxRecord: -1},
		"MaxRecord -1 is negative"},
	{"sep with paragraph and whole", linereader.Options{Sep: []byte("ab"), Paragraph: true, Whole: true},
		"Paragraph and Whole conflict; Sep and Paragraph conflict; Sep and Whole conflict"},
	{"every field at fault", linereader.Options{Paragraph: true, Whole: true, Limit: -2, BufferSize: -3, MaxRecord: -4, Decompress: true},
		"Paragraph and Whole conflict; Limit -2 is negative; BufferSize -3 is negative; MaxRecord -4 is negative"},
}

// validOptions are accepted, including the edge values and the fields that have nothing
// to act on (UTF8 without a Limit, Chomp with Whole).
var validOptions = []linereader.Options{
	{},
	{Sep: []byte{}, Paragraph: true}, // an empty Sep is no separator
	{Sep: []byte{}, Whole: true},
	{Paragraph: true, Limit: 3, Chomp: true},
	{Whole: true, Limit: 1, UTF8: true},
	{Whole: true, Chomp: true},
	{UTF8: true},
	{Sep: []byte("\r\n"), Limit: 1, Chomp: true, UTF8: true},
	{BufferSize: 1},
	{BufferSize: linereader.MaxBufferSize},
	{MaxRecord: 1},
	{Limit: 0, MaxRecord: 0, BufferSize: 0},
	{Decompress: true},
	{Decompress: true, Paragraph: true, Limit: 7, MaxRecord: 9, Chomp: true, UTF8: true, BufferSize: 16},
}

func TestValidateAcceptsValidOptions(t *testing.T) {
	for _, opt := range validOptions {
		assert.NoError(t, opt.Validate(), "%+v", opt)
	}
}

func TestValidateRejectsEveryInvalidCombination(t *testing.T) {
	for _, tc := range invalidOptions {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opt.Validate()
			require.ErrorIs(t, err, linereader.ErrInvalidOptions)
			assert.EqualError(t, err, "linereader: invalid options: "+tc.msg)
		})
	}
}

// Open returns the error of Validate before it opens anything: the file named here does
// not exist, and the error is about the options, not the missing file.
func TestOpenRejectsInvalidOptionsBeforeOpening(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range invalidOptions {
		r, err := linereader.Open(missing, tc.opt)
		assert.Nil(t, r, tc.name)
		require.ErrorIs(t, err, linereader.ErrInvalidOptions, tc.name)
		assert.NotErrorIs(t, err, os.ErrNotExist, tc.name)
		assert.Equal(t, tc.opt.Validate().Error(), err.Error(), tc.name)
	}
	// With valid options, the same name fails to open as it should.
	_, err := linereader.Open(missing, linereader.Options{})
	require.ErrorIs(t, err, os.ErrNotExist)
}

// Foreach, Count and CountAt return it before opening or reading anything too: fn is never
// called, and a reader that fails every read is never read.
func TestForeachAndCountRejectInvalidOptions(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range invalidOptions {
		err := linereader.Foreach(missing, tc.opt, func([]byte) error {
			t.Fatalf("%s: Foreach called fn", tc.name)
			return nil
		})
		require.ErrorIs(t, err, linereader.ErrInvalidOptions, tc.name)
		assert.NotErrorIs(t, err, os.ErrNotExist, tc.name)

		n, err := linereader.Count(missing, tc.opt, 2)
		require.ErrorIs(t, err, linereader.ErrInvalidOptions, tc.name)
		assert.NotErrorIs(t, err, os.ErrNotExist, tc.name)
		assert.Zero(t, n, tc.name)

		n, err = linereader.CountAt(failingReaderAt{}, 100, tc.opt, 2)
		require.ErrorIs(t, err, linereader.ErrInvalidOptions, tc.name)
		assert.NotErrorIs(t, err, errFailingReadAt, tc.name)
		assert.Zero(t, n, tc.name)
	}
}

// New and NewSection keep reporting invalid options through Err: the first Next returns
// false, Err is Validate's error, and it is sticky.
func TestNewAndNewSectionReportInvalidOptionsThroughErr(t *testing.T) {
	in := "a\nb\n\nc"
	for _, tc := range invalidOptions {
		want := tc.opt.Validate()
		readers := map[string]*linereader.Reader{
			"New":        linereader.New(strings.NewReader(in), tc.opt),
			"NewSection": linereader.NewSection(strings.NewReader(in), 0, int64(len(in)), tc.opt),
		}
		for kind, r := range readers {
			require.False(t, r.Next(), "%s %s: Next returned a record", kind, tc.name)
			require.ErrorIs(t, r.Err(), linereader.ErrInvalidOptions, "%s %s", kind, tc.name)
			assert.Equal(t, want.Error(), r.Err().Error(), "%s %s", kind, tc.name)
			assert.False(t, r.Next(), "%s %s: Next after the error", kind, tc.name)
			assert.Equal(t, want.Error(), r.Err().Error(), "%s %s: Err is sticky", kind, tc.name)
		}
	}
}

// Regression for issue 16: Limit -1 was accepted and meant "no limit", silently.
func TestNegativeLimitIsInvalid(t *testing.T) {
	r := linereader.New(strings.NewReader("abcdef\n"), linereader.Options{Limit: -1})
	for range r.Lines() {
		t.Fatal("a record with Limit -1")
	}
	require.ErrorIs(t, r.Err(), linereader.ErrInvalidOptions)
	assert.ErrorContains(t, r.Err(), "Limit")
}

// UTF8 without a Limit is valid and changes nothing: records, invalid bytes included, are
// those of the same options without UTF8.
func TestUTF8WithoutLimitChangesNothing(t *testing.T) {
	in := "a\xE3\x81\nb\xFF\xF0\x9F\x98\x80c\n\xE3"
	read := func(opt linereader.Options) []string {
		r := linereader.New(strings.NewReader(in), opt)
		var got []string
		for rec := range r.Lines() {
			got = append(got, string(rec))
		}
		require.NoError(t, r.Err())
		return got
	}
	for _, opt := range []linereader.Options{{}, {Chomp: true}, {Whole: true}, {Sep: []byte("\x81")}, {BufferSize: 1}} {
		without := read(opt)
		opt.UTF8 = true
		assert.Equal(t, without, read(opt), "%+v", opt)
	}
}

var errFailingReadAt = errors.New("ReadAt called")

// failingReaderAt fails every read: a function given it must not have read.
type failingReaderAt struct{}

func (failingReaderAt) ReadAt([]byte, int64) (int, error) { return 0, errFailingReadAt }
