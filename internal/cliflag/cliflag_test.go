package cliflag

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// The package stands in for pflag in the command: the same definitions must give the
// same help, byte for byte, and the same command lines the same values, arguments and
// errors. These tests define one set of flags in both and compare them.

// text is a flag value kept as typed; with numeric, Set refuses what is not a number.
type text struct {
	s       *string
	typ     string
	numeric bool
}

func (v text) String() string { return *v.s }
func (v text) Type() string   { return v.typ }
func (v text) Set(s string) error {
	if v.numeric {
		if _, err := strconv.Atoi(s); err != nil {
			return errors.New("not a whole number")
		}
	}
	*v.s = s
	return nil
}

// switchValue is a flag of no value defined through Var, as foreach's --progress.
type switchValue struct{ s *string }

func (v switchValue) String() string   { return "false" }
func (v switchValue) Type() string     { return "bool" }
func (v switchValue) IsBoolFlag() bool { return true }
func (v switchValue) Set(s string) error {
	if _, err := strconv.ParseBool(s); err != nil {
		return errors.New("not true or false")
	}
	*v.s = s
	return nil
}

// definer is what both flag sets are defined through.
type definer struct {
	boolVarP   func(p *bool, name, short string, value bool, usage string)
	varPF      func(v any, name, short, usage string) (setDef func(string), setNoOpt func(string))
	stringVar  func(p *string, name, value, usage string)
	parse      func([]string) error
	args       func() []string
	changed    func(string) bool
	usages     func(int) string
	bools      map[string]*bool
	texts      map[string]*string
	flagsNames []string
}

// define defines the test's flags (foreach's own, with their help texts) through d.
func define(d *definer) {
	d.bools, d.texts = map[string]*bool{}, map[string]*string{}
	b := func(name, short, usage string) {
		d.bools[name] = new(bool)
		d.boolVarP(d.bools[name], name, short, false, usage)
		d.flagsNames = append(d.flagsNames, name)
	}
	v := func(name, short, typ, def string, numeric bool, usage string) (func(string), func(string)) {
		s := def
		d.texts[name] = &s
		d.flagsNames = append(d.flagsNames, name)
		return d.varPF(text{&s, typ, numeric}, name, short, usage)
	}
	v("sep", "s", "STR", `\n`, false, "record separator")
	b("null", "0", `records end with NUL, as from find -print0 (same as --sep '\0')`)
	b("paragraph", "p", `paragraph mode: records end at a blank line (\n\n)`)
	b("whole", "", "the whole input is one record (with --limit: fixed-size pieces)")
	v("limit", "l", "N", "", true, "at most N bytes per record")
	b("chomp", "C", `drop each record's separator (and write --ors, by default \n)`)
	b("number", "n", "prefix each line with its number, as cat -n")
	b("count", "c", "print the number of records per file (COUNT FILE) and a total")
	prog := "false"
	d.texts["progress"] = &prog
	d.flagsNames = append(d.flagsNames, "progress")
	_, noOpt := d.varPF(switchValue{&prog}, "progress", "", "draw a progress bar on standard error (default: when standard error is a terminal, standard output is not, and the input is at least 256 MiB)")
	noOpt("true")
	v("too-long", "", "stop|skip|cut", "stop", false, "with --max-record, what a longer record gets: stop (report the file, skip its rest), skip (drop the record, go on), cut (print its first SIZE bytes and its separator)")
	v("buffer", "", "SIZE", "128KiB", false, "bytes per read")
	setDef, _ := v("jobs", "j", "N", "", true, "with --count: read large regular files in N parallel sections; with -z: decode compressed files on N cores where an index or their structure allows")
	setDef("number of CPUs")
	st := ""
	d.texts["state"] = &st
	d.flagsNames = append(d.flagsNames, "state")
	d.stringVar(&st, "state", "", "with --follow: keep a checkpoint of each file in `FILE`, and go on from it\nwhen started again")
	v("level", "", "N", "0", true, "a level (default shown only when not 0)")
	v("optional", "o", "MODE", "", false, "a flag whose value may be left out")
	b("help", "h", "print this help")
}

func ours() (*FlagSet, *definer) {
	fs := NewFlagSet("test")
	d := &definer{boolVarP: fs.BoolVarP, stringVar: fs.StringVar, parse: fs.Parse, args: fs.Args, changed: fs.Changed, usages: fs.FlagUsagesWrapped}
	d.varPF = func(v any, name, short, usage string) (func(string), func(string)) {
		fl := fs.VarPF(v.(Value), name, short, usage)
		return func(s string) { fl.DefValue = s }, func(s string) { fl.NoOptDefVal = s }
	}
	define(d)
	fs.Lookup("optional").NoOptDefVal = "auto"
	return fs, d
}

func theirs() (*pflag.FlagSet, *definer) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(&strings.Builder{})
	d := &definer{boolVarP: fs.BoolVarP, stringVar: fs.StringVar, parse: fs.Parse, args: fs.Args, changed: fs.Changed, usages: fs.FlagUsagesWrapped}
	d.varPF = func(v any, name, short, usage string) (func(string), func(string)) {
		fl := fs.VarPF(v.(pflag.Value), name, short, usage)
		return func(s string) { fl.DefValue = s }, func(s string) { fl.NoOptDefVal = s }
	}
	define(d)
	fs.Lookup("optional").NoOptDefVal = "auto"
	return fs, d
}

func TestHelpAsPflag(t *testing.T) {
	_, o := ours()
	_, p := theirs()
	for _, cols := range []int{0, 30, 40, 60, 80, 100, 200} {
		if got, want := o.usages(cols), p.usages(cols); got != want {
			t.Errorf("FlagUsagesWrapped(%d):\n%s\npflag:\n%s", cols, got, want)
		}
	}
}

// outcome is what a parse left: the error's kind and name, the arguments, every flag's
// value and whether it was set.
func outcome(d *definer, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "error %s; args %q;", kindOf(err), d.args())
	for _, name := range d.flagsNames {
		if p, ok := d.bools[name]; ok {
			fmt.Fprintf(&b, " %s=%v/%v", name, *p, d.changed(name))
		} else {
			fmt.Fprintf(&b, " %s=%q/%v", name, *d.texts[name], d.changed(name))
		}
	}
	return b.String()
}

// kindOf names an error of either package in the same words.
func kindOf(err error) string {
	var (
		e        *Error
		unknown  *pflag.NotExistError
		needsArg *pflag.ValueRequiredError
		badValue *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case err == nil:
		return "none"
	case errors.Is(err, ErrHelp), errors.Is(err, pflag.ErrHelp):
		return "help"
	case errors.As(err, &e):
		switch e.Kind {
		case Unknown:
			return fmt.Sprintf("unknown %q short=%v", e.Name, e.Short)
		case NeedsValue:
			return fmt.Sprintf("needs %q short=%v", e.Name, e.Short)
		case BadValue:
			return fmt.Sprintf("bad %s=%q: %v", e.Flag.Name, e.Value, e.Err)
		}
		return fmt.Sprintf("syntax %q", e.Arg)
	case errors.As(err, &unknown):
		return fmt.Sprintf("unknown %q short=%v", unknown.GetSpecifiedName(), unknown.GetSpecifiedShortnames() != "")
	case errors.As(err, &needsArg):
		return fmt.Sprintf("needs %q short=%v", needsArg.GetSpecifiedName(), needsArg.GetSpecifiedShortnames() != "")
	case errors.As(err, &badValue):
		return fmt.Sprintf("bad %s=%q: %v", badValue.GetFlag().Name, badValue.GetValue(), errors.Unwrap(badValue))
	case errors.As(err, &syntax):
		return fmt.Sprintf("syntax %q", syntax.GetSpecifiedFlag())
	}
	return "other: " + err.Error()
}

func TestParseAsPflag(t *testing.T) {
	tokens := []string{
		"-", "--", "file", "", "x=y", "-n", "-c", "-nc", "-cn0", "-0", "-j", "-j2", "-j=3", "-jx", "-j=", "-nj", "-nj4",
		"--jobs", "--jobs=2", "--jobs=", "--jobs=x", "--count", "--count=false", "--count=0", "--count=x", "--count=",
		"--nope", "-x", "-nx", "---x", "--=x", "--=", "--sep", "--sep=;", "-s", "-s;", "-s=", "--progress",
		"--progress=false", "--progress=maybe", "--state", "--state=a b", "--help", "-h", "--help=x", "-nh",
		"--optional", "--optional=x", "-o", "-ox", "-o=y", "--level", "--level=7", "--whole", "--whole=true",
		"-C", "-Cs", "-p", "--paragraph", "-l", "-l5", "-l=x", "--too-long=cut", "--buffer", "1MiB", "4",
	}
	check := func(args []string) {
		_, o := ours()
		_, p := theirs()
		got, want := outcome(o, o.parse(args)), outcome(p, p.parse(args))
		if got != want {
			t.Fatalf("command line %q:\n  ours:  %s\n  pflag: %s", args, got, want)
		}
	}
	for _, tok := range tokens {
		check([]string{tok})
		check([]string{tok, "file"})
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		args := make([]string, rng.IntN(7))
		for i := range args {
			args[i] = tokens[rng.IntN(len(tokens))]
		}
		check(args)
	}
}

func TestDefinitionMistakesPanic(t *testing.T) {
	for _, c := range []struct {
		name string
		def  func(fs *FlagSet)
	}{
		{"a long name twice", func(fs *FlagSet) { var a, b bool; fs.BoolVar(&a, "x", false, ""); fs.BoolVar(&b, "x", false, "") }},
		{"a shorthand twice", func(fs *FlagSet) {
			var a, b bool
			fs.BoolVarP(&a, "x", "x", false, "")
			fs.BoolVarP(&b, "y", "x", false, "")
		}},
		{"a shorthand of two letters", func(fs *FlagSet) { var a bool; fs.BoolVarP(&a, "x", "xy", false, "") }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.def(NewFlagSet("test"))
		}()
	}
}

// The arguments keep their order around flags, and everything after "--" is one.
func TestArgsOrder(t *testing.T) {
	fs, _ := ours()
	if err := fs.Parse([]string{"a", "-n", "b", "--", "-c", "--nope", "-"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "-c", "--nope", "-"}; !slices.Equal(fs.Args(), want) {
		t.Errorf("Args() = %q, want %q", fs.Args(), want)
	}
	if fs.Changed("count") || !fs.Changed("number") {
		t.Errorf("Changed: count %v, number %v", fs.Changed("count"), fs.Changed("number"))
	}
}
