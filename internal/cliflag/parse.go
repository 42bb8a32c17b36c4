package cliflag

import (
	"fmt"
	"strings"
)

// Kind is what is wrong with a command line.
type Kind int

const (
	Unknown    Kind = iota // no flag of that name
	NeedsValue             // a flag that takes a value, given none
	BadValue               // the flag's Set refused its value
	BadSyntax              // "---x", "--=x": no flag name after the dashes
)

// Error is a command line that Parse refuses.
type Error struct {
	Kind  Kind
	Name  string // the flag as typed, without dashes: a long name, or one letter (Short)
	Short bool   // Name is a shorthand letter
	Arg   string // BadSyntax: the whole argument
	Flag  *Flag  // NeedsValue, BadValue: the flag
	Value string // BadValue: the value refused
	Err   error  // BadValue: Set's error
}

func (e *Error) Error() string {
	dash := "--"
	if e.Short {
		dash = "-"
	}
	switch e.Kind {
	case Unknown:
		return "unknown flag " + dash + e.Name
	case NeedsValue:
		return "flag " + dash + e.Name + " needs a value"
	case BadValue:
		return fmt.Sprintf("invalid value %q for --%s: %v", e.Value, e.Flag.Name, e.Err)
	}
	return "bad flag syntax: " + e.Arg
}

func (e *Error) Unwrap() error { return e.Err }

// Parse sets the flags the arguments give, and keeps the other arguments for Args. Flags
// may come anywhere; "--" ends them; "-" and anything not starting with "-" is an
// argument. The first error stops it (an *Error, or ErrHelp).
func (f *FlagSet) Parse(arguments []string) error {
	f.args = make([]string, 0, len(arguments))
	args := arguments
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		var err error
		switch {
		case len(s) < 2 || s[0] != '-':
			f.args = append(f.args, s)
		case s == "--":
			f.args = append(f.args, args...)
			return nil
		case s[1] == '-':
			args, err = f.parseLong(s, args)
		default:
			args, err = f.parseShort(s, args)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// parseLong parses the flag s, "--name" or "--name=value", the value taken from the next
// argument when the flag needs one and s has none.
func (f *FlagSet) parseLong(s string, args []string) ([]string, error) {
	name := s[2:]
	if name[0] == '-' || name[0] == '=' {
		return args, &Error{Kind: BadSyntax, Arg: s}
	}
	name, value, hasValue := strings.Cut(name, "=")
	fl := f.long[name]
	switch {
	case fl == nil && name == "help":
		return args, ErrHelp
	case fl == nil:
		return args, &Error{Kind: Unknown, Name: name}
	case hasValue:
	case fl.NoOptDefVal != "":
		value = fl.NoOptDefVal
	case len(args) > 0:
		value, args = args[0], args[1:]
	default:
		return args, &Error{Kind: NeedsValue, Name: name, Flag: fl}
	}
	return args, f.set(fl, value)
}

// parseShort parses s, one or more shorthand letters after one dash: each one that takes
// no value sets its flag; one that takes a value takes "=value", the rest of s, or else
// the next argument.
func (f *FlagSet) parseShort(s string, args []string) ([]string, error) {
	rest := args
	for letters := s[1:]; letters != ""; {
		c := letters[0]
		fl := f.short[c]
		if fl == nil {
			if c == 'h' {
				return rest, ErrHelp
			}
			return rest, &Error{Kind: Unknown, Name: string(c), Short: true}
		}
		var value string
		switch {
		case len(letters) > 2 && letters[1] == '=':
			value, letters = letters[2:], ""
		case fl.NoOptDefVal != "":
			value, letters = fl.NoOptDefVal, letters[1:]
		case len(letters) > 1:
			value, letters = letters[1:], ""
		case len(args) > 0:
			// The next argument, even after letters that took none: "-nj 4".
			value, rest, letters = args[0], args[1:], ""
		default:
			return rest, &Error{Kind: NeedsValue, Name: string(c), Short: true, Flag: fl}
		}
		if err := f.set(fl, value); err != nil {
			return rest, err
		}
	}
	return rest, nil
}

// set gives fl its value from the command line.
func (f *FlagSet) set(fl *Flag, value string) error {
	if err := fl.Value.Set(value); err != nil {
		return &Error{Kind: BadValue, Name: fl.Name, Flag: fl, Value: value, Err: err}
	}
	fl.Changed = true
	return nil
}
