package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestReadComparisonsSample(t *testing.T) {
	cs, err := readComparisons("cli.tsv", strings.NewReader(sampleCLI))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 8 {
		t.Fatalf("%d cases, want 8", len(cs))
	}
	want := comparison{foreach: "foreach -n", tool: "cat -n", data: "tall", foreachS: 0.1886, toolS: 0.3101, goal: 0.8, foreachCPU: 0.1948, toolCPU: 0.3185}
	if cs[2] != want {
		t.Errorf("third case %+v, want %+v", cs[2], want)
	}
	if got := cs[2].ratio(); !near(got, 0.1886/0.3101) {
		t.Errorf("ratio %v", got)
	}
	if got := cs[2].cpuRatio(); !near(got, 0.1948/0.3185) {
		t.Errorf("CPU ratio %v", got)
	}
	if last := cs[7]; last.tool != "zstd -dc | wc -l" || last.data != "tall.zst" || last.goal != 0 {
		t.Errorf("last case %+v, want zstd on tall.zst without a goal", last)
	}
}

// The optional columns: without them, no goal and no CPU times; a goal may be empty or "-".
func TestReadComparisonsOptional(t *testing.T) {
	cs, err := readComparisons("c", strings.NewReader("tool\tforeach\tdata\ttool_s\tforeach_s\n"+
		"cat\tforeach\treal\t2\t1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (comparison{foreach: "foreach", tool: "cat", data: "real", foreachS: 1, toolS: 2}); len(cs) != 1 || cs[0] != want {
		t.Fatalf("got %+v, want %+v", cs, want)
	}
	if cs[0].ratio() != 0.5 || cs[0].cpuRatio() != 0 {
		t.Errorf("ratios %v %v, want 0.5 0", cs[0].ratio(), cs[0].cpuRatio())
	}
	cs, err = readComparisons("c", strings.NewReader("foreach\ttool\tdata\tforeach_s\ttool_s\tgoal\n"+
		"foreach\tcat\treal\t1\t2\t\n"+
		"foreach\tcat\ttall\t1\t2\t-\n"+
		"foreach\tcat\twide\t1\t2\t1.05\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := []float64{cs[0].goal, cs[1].goal, cs[2].goal}; !slices.Equal(got, []float64{0, 0, 1.05}) {
		t.Errorf("goals %v, want [0 0 1.05]", got)
	}
}

func TestReadComparisonsErrors(t *testing.T) {
	const h = "foreach\ttool\tdata\tforeach_s\ttool_s\tgoal\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "c.tsv: empty: no header line"},
		{"header only", h, "c.tsv: no cases, only the header"},
		{"missing column", "foreach\ttool\tforeach_s\ttool_s\n", "c.tsv:1: header: no column data (want the columns foreach tool data foreach_s tool_s, tab-separated)"},
		{"one CPU column", "foreach\ttool\tdata\tforeach_s\ttool_s\tforeach_cpu_s\n", "c.tsv: header: foreach_cpu_s and tool_cpu_s come together, or neither"},
		{"fields", h + "foreach\tcat\treal\t1\t2\n", "c.tsv:2: 5 fields, want 6 as in the header (fields are separated by tabs)"},
		{"empty tool", h + "foreach\t\treal\t1\t2\t-\n", "c.tsv:2: tool is empty"},
		{"empty data", h + "foreach\tcat\t\t1\t2\t-\n", "c.tsv:2: data is empty"},
		{"milliseconds with a unit", h + "foreach\tcat\treal\t12ms\t2\t-\n", `c.tsv:2: foreach_s "12ms" is not a number of seconds`},
		{"zero", h + "foreach\tcat\treal\t1\t0\t-\n", "c.tsv:2: tool_s 0 is not positive"},
		{"negative", h + "foreach\tcat\treal\t-1\t1\t-\n", "c.tsv:2: foreach_s -1 is not positive"},
		{"infinite", h + "foreach\tcat\treal\tInf\t1\t-\n", `c.tsv:2: foreach_s "Inf" is not a number of seconds`},
		{"NaN", h + "foreach\tcat\treal\t1\tNaN\t-\n", `c.tsv:2: tool_s "NaN" is not a number of seconds`},
		{"bad goal", h + "foreach\tcat\treal\t1\t2\tnone\n", `c.tsv:2: goal "none" is not a positive ratio (or - for none)`},
		{"zero goal", h + "foreach\tcat\treal\t1\t2\t0\n", `c.tsv:2: goal "0" is not a positive ratio (or - for none)`},
		{"bad CPU", "foreach\ttool\tdata\tforeach_s\ttool_s\tforeach_cpu_s\ttool_cpu_s\nforeach\tcat\treal\t1\t2\t1\t\n", `c.tsv:2: tool_cpu_s "" is not a number of seconds`},
		{"a case twice", h + "foreach\tcat\treal\t1\t2\t-\n# c\nforeach\tcat\ttall\t1\t2\t-\nforeach\tcat\treal\t1\t3\t-\n",
			"c.tsv:5: foreach vs cat on real again (first on line 2): one line a case, with the medians"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readComparisons("c.tsv", strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// The format the README shows is the format this command reads: its example, between
// the README's markers, parses, every column in it.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	const open, end = "<!-- cli.tsv example -->\n```\n", "```\n<!-- end -->"
	s := string(b)
	i, j := strings.Index(s, open), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md: no example between %q and %q", open, end)
	}
	cs, err := readComparisons("README example", strings.NewReader(s[i+len(open):j]))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.cpuRatio() == 0 {
			t.Errorf("README example: %+v has no CPU times: show every column", c)
		}
	}
	if !slices.ContainsFunc(cs, func(c comparison) bool { return c.goal > 0 }) ||
		!slices.ContainsFunc(cs, func(c comparison) bool { return c.goal == 0 }) {
		t.Error("README example: show a case with a goal and one without")
	}
}
