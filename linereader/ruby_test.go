package linereader_test

// Ruby as the oracle: testdata/ruby/cases.json holds what CRuby's IO.foreach yields (records
// and the line number after each) for many inputs and option sets; testdata/ruby/gen.rb made
// it. The test needs no Ruby. Cases where SEMANTICS.md says we deliberately differ carry the
// reason in "ours" and are not compared.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/foreachio/foreach/linereader"
)

type rubyCase struct {
	Input   int      `json:"input"` // index into rubyCases.Inputs
	Mode    string   `json:"mode"`  // default, sep, paragraph, whole
	Sep     []byte   `json:"sep"`
	Limit   int      `json:"limit"`
	Chomp   bool     `json:"chomp"`
	UTF8    bool     `json:"utf8"`
	Records [][]byte `json:"records"`
	LineNos []int64  `json:"linenos"`
	Ours    string   `json:"ours"` // non-empty: a deliberate difference, not compared
}

type rubyCases struct {
	RubyVersion string     `json:"ruby_version"`
	Inputs      [][]byte   `json:"inputs"`
	Cases       []rubyCase `json:"cases"`
}

func (c rubyCase) options() linereader.Options {
	opt := linereader.Options{Limit: c.Limit, Chomp: c.Chomp, UTF8: c.UTF8}
	switch c.Mode {
	case "sep":
		opt.Sep = c.Sep
	case "paragraph":
		opt.Paragraph = true
	case "whole":
		opt.Whole = true
	}
	return opt
}

func loadRubyCases(t *testing.T) rubyCases {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "ruby", "cases.json"))
	require.NoError(t, err)
	var rc rubyCases
	require.NoError(t, json.Unmarshal(data, &rc))
	require.NotEmpty(t, rc.Cases)
	return rc
}

func rubyRecords(c rubyCase) []refRecord {
	var recs []refRecord
	for i, r := range c.Records {
		recs = append(recs, refRecord{Data: r, LineNo: c.LineNos[i]})
	}
	return recs
}

// sameRecords compares records and line numbers, not offsets (Ruby does not report them).
func sameRecords(a, b []refRecord) bool {
	return slices.EqualFunc(a, b, func(x, y refRecord) bool {
		return bytes.Equal(x.Data, y.Data) && x.LineNo == y.LineNo
	})
}

func TestRubyOracle(t *testing.T) {
	rc := loadRubyCases(t)
	t.Logf("%d cases from %s", len(rc.Cases), rc.RubyVersion)
	compared, failures := 0, 0
	for i, c := range rc.Cases {
		if c.Ours != "" {
			continue
		}
		compared++
		in := rc.Inputs[c.Input]
		want := rubyRecords(c)
		for _, bs := range []int{1, 2, 3, 7, 0} {
			opt := c.options()
			opt.BufferSize = bs
			got, err := collect(linereader.New(bytes.NewReader(in), opt), runawayCap(in))
			if err != nil || !sameRecords(got, want) {
				t.Errorf("case %d: input %q options %s: Ruby %v, engine %v (err %v)", i, in, describeOptions(opt), want, got, err)
				if failures++; failures >= 10 {
					t.Fatal("stopping after 10 failures")
				}
				break
			}
		}
	}
	t.Logf("%d cases compared, %d skipped as deliberate differences", compared, len(rc.Cases)-compared)
}

// The reference splitter agrees with Ruby wherever we do not deliberately differ; where it
// is the reference that is wrong, this test says so directly.
func TestReferenceAgreesWithRuby(t *testing.T) {
	rc := loadRubyCases(t)
	failures := 0
	for i, c := range rc.Cases {
		if c.Ours != "" {
			continue
		}
		in := rc.Inputs[c.Input]
		if got, want := refSplit(in, c.options()), rubyRecords(c); !sameRecords(got, want) {
			t.Errorf("case %d: input %q options %s: Ruby %v, reference %v", i, in, describeOptions(c.options()), want, got)
			if failures++; failures >= 10 {
				t.Fatal("stopping after 10 failures")
			}
		}
	}
}

// The skipped cases really are the deliberate differences: for each, Ruby and the reference
// must disagree only in the way SEMANTICS.md describes, so report how many still agree.
func TestRubyDeliberateDifferences(t *testing.T) {
	rc := loadRubyCases(t)
	reasons := map[string][2]int{} // reason -> {cases, of which Ruby differs from us}
	for _, c := range rc.Cases {
		if c.Ours == "" {
			continue
		}
		n := reasons[c.Ours]
		n[0]++
		if !sameRecords(refSplit(rc.Inputs[c.Input], c.options()), rubyRecords(c)) {
			n[1]++
		}
		reasons[c.Ours] = n
	}
	for reason, n := range reasons {
		t.Log(fmt.Sprintf("%q: %d cases skipped, %d of them differ from Ruby", reason, n[0], n[1]))
	}
}
