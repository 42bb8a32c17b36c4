// Package cliflag parses the command line of foreach in GNU's style: long flags (--name,
// --name=value, --name value), one-letter flags after one dash that combine (-nC, -j4,
// -j 4, -j=4), flags anywhere among the arguments, "--" ending them, "-" an argument.
//
// It does what github.com/spf13/pflag did for the command, with the same definitions and
// the same help text, and the tests hold it to pflag's parsing on random command lines.
// It replaced pflag because pflag imports package net (for its address flags), and a Go
// program that imports net is linked against the C library whenever cgo is on, as it is
// by default: the dynamic loader, the C library's start and threads made by cgo cost
// every run of foreach, however short, a large part of its start-up (docs/performance.md,
// "Start-up").
package cliflag

import (
	"errors"
	"strconv"
)

// Value is a flag's value, as pflag's: Set parses what the command line gives, String
// shows it (its String when defined is the default the help shows), and Type names it in
// the help ("N", "SIZE"; "bool" for a flag that takes no value).
type Value interface {
	String() string
	Set(string) error
	Type() string
}

// Flag is one flag: its names, its help, its value, and whether the command line set it.
type Flag struct {
	Name        string // the long name, without "--"
	Shorthand   string // one letter, or ""
	Usage       string // the help text
	Value       Value
	DefValue    string // the default, as the help shows it
	NoOptDefVal string // the value a flag given without one takes ("true" for a bool); "" if it needs one
	Changed     bool   // set by the command line
}

// FlagSet is the flags of one command, in the order they were defined (the help's), and
// what the command line left when parsed.
type FlagSet struct {
	name  string
	flags []*Flag          // in definition order
	long  map[string]*Flag // by Name
	short map[byte]*Flag   // by Shorthand
	args  []string         // the arguments that are not flags, after Parse
}

// NewFlagSet is an empty flag set for the command name.
func NewFlagSet(name string) *FlagSet {
	return &FlagSet{name: name, long: map[string]*Flag{}, short: map[byte]*Flag{}}
}

// ErrHelp is what Parse returns for --help (or -h) when no flag of that name is defined.
var ErrHelp = errors.New("cliflag: help requested")

// VarPF defines a flag of the given value, names and help, and returns it (to set its
// NoOptDefVal, or DefValue). A name defined twice is a programming error: it panics.
func (f *FlagSet) VarPF(value Value, name, shorthand, usage string) *Flag {
	fl := &Flag{Name: name, Shorthand: shorthand, Usage: usage, Value: value, DefValue: value.String()}
	if _, dup := f.long[name]; dup {
		panic("cliflag: " + f.name + ": flag --" + name + " defined twice")
	}
	f.long[name] = fl
	if shorthand != "" {
		if len(shorthand) != 1 {
			panic("cliflag: " + f.name + ": shorthand " + strconv.Quote(shorthand) + " is not one letter")
		}
		if _, dup := f.short[shorthand[0]]; dup {
			panic("cliflag: " + f.name + ": shorthand -" + shorthand + " defined twice")
		}
		f.short[shorthand[0]] = fl
	}
	f.flags = append(f.flags, fl)
	return fl
}

// VarP defines a flag with a shorthand.
func (f *FlagSet) VarP(value Value, name, shorthand, usage string) {
	f.VarPF(value, name, shorthand, usage)
}

// Var defines a flag with a long name only.
func (f *FlagSet) Var(value Value, name, usage string) { f.VarPF(value, name, "", usage) }

// BoolVarP defines a flag that takes no value (or true or false after "="), stored in p.
func (f *FlagSet) BoolVarP(p *bool, name, shorthand string, value bool, usage string) {
	*p = value
	f.VarPF((*boolValue)(p), name, shorthand, usage).NoOptDefVal = "true"
}

// BoolVar is BoolVarP without a shorthand.
func (f *FlagSet) BoolVar(p *bool, name string, value bool, usage string) {
	f.BoolVarP(p, name, "", value, usage)
}

// StringVar defines a flag whose value is any string, stored in p.
func (f *FlagSet) StringVar(p *string, name, value, usage string) {
	*p = value
	f.VarPF((*stringValue)(p), name, "", usage)
}

// Lookup returns the flag of that long name, or nil.
func (f *FlagSet) Lookup(name string) *Flag { return f.long[name] }

// Changed reports whether the command line set the flag of that long name.
func (f *FlagSet) Changed(name string) bool {
	fl := f.long[name]
	return fl != nil && fl.Changed
}

// Args returns the arguments that are not flags, in their order, after Parse.
func (f *FlagSet) Args() []string { return f.args }

// boolFlag is a value that takes no argument on the command line (pflag's interface of
// the same name and method).
type boolFlag interface {
	Value
	IsBoolFlag() bool
}

type boolValue bool

func (b *boolValue) Set(s string) error {
	v, err := strconv.ParseBool(s)
	*b = boolValue(v) // false on an error, as pflag leaves it; the parse fails anyway
	return err
}
func (b *boolValue) String() string   { return strconv.FormatBool(bool(*b)) }
func (b *boolValue) Type() string     { return "bool" }
func (b *boolValue) IsBoolFlag() bool { return true }

type stringValue string

func (s *stringValue) Set(v string) error { *s = stringValue(v); return nil }
func (s *stringValue) String() string     { return string(*s) }
func (s *stringValue) Type() string       { return "string" }
