package cliflag

import (
	"fmt"
	"strings"
)

// FlagUsagesWrapped is the help's list of flags, in the order they were defined, as
// pflag lays it out: "  -s, --sep STR" (or "      --whole"), the help text in a column
// two past the longest of those, wrapped to cols columns, and "(default X)" after it
// when the default is not the zero value.
func (f *FlagSet) FlagUsagesWrapped(cols int) string {
	heads := make([]string, len(f.flags))
	width := 0
	for i, fl := range f.flags {
		head := "      --" + fl.Name
		if fl.Shorthand != "" {
			head = "  -" + fl.Shorthand + ", --" + fl.Name
		}
		name, _ := unquoteUsage(fl)
		if name != "" {
			head += " " + name
		}
		head += optional(fl)
		heads[i] = head
		width = max(width, len(head))
	}
	var b strings.Builder
	for i, fl := range f.flags {
		_, text := unquoteUsage(fl)
		if !fl.defaultIsZero() {
			if fl.Value.Type() == "string" {
				text += fmt.Sprintf(" (default %q)", fl.DefValue)
			} else {
				text += " (default " + fl.DefValue + ")"
			}
		}
		b.WriteString(heads[i] + strings.Repeat(" ", width+3-len(heads[i])) + wrap(width+3, cols, text) + "\n")
	}
	return b.String()
}

// optional shows the value a flag takes when given without one, unless it is the
// obvious one (true for a flag of no value).
func optional(fl *Flag) string {
	switch v := fl.NoOptDefVal; {
	case v == "":
		return ""
	case fl.Value.Type() == "string":
		return `[="` + v + `"]`
	case (fl.Value.Type() == "bool" || fl.Value.Type() == "boolfunc") && v == "true":
		return ""
	case fl.Value.Type() == "count" && v == "+1":
		return ""
	}
	return "[=" + fl.NoOptDefVal + "]"
}

// unquoteUsage returns the name of a flag's value in the help, and its help text: a
// `quoted` word of the text is the name (unquoted in the text), else the value's Type,
// none for a flag that takes no value.
func unquoteUsage(fl *Flag) (name, usage string) {
	usage = fl.Usage
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			name = usage[i+1 : i+1+j]
			return name, usage[:i] + name + usage[i+2+j:]
		}
	}
	switch t := fl.Value.Type(); t {
	case "bool", "boolfunc":
		return "", usage
	default:
		return t, usage
	}
}

// defaultIsZero reports whether the flag's default goes unsaid in the help: false, "",
// 0 or nothing.
func (fl *Flag) defaultIsZero() bool {
	switch fl.Value.(type) {
	case boolFlag:
		return fl.DefValue == "false" || fl.DefValue == ""
	case *stringValue:
		return fl.DefValue == ""
	}
	switch fl.DefValue {
	case "false", "<nil>", "", "0":
		return true
	}
	return false
}

// wrap lays s out in lines that end before column cols, every line after the first
// indented by indent (the first is placed by the caller). A word is never cut; the last
// line may run up to five columns further when that saves a line of one short word; a
// newline in s starts a line. With fewer than 24 columns left it starts s on a line of
// its own, indented 16; with cols 0, or still too few, it does not wrap.
func wrap(indent, cols int, s string) string {
	if cols == 0 {
		return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", indent))
	}
	width := cols - indent
	var out string
	if width < 24 {
		indent = 16
		width = cols - indent
		out = "\n" + strings.Repeat(" ", indent)
	}
	if width < 24 {
		return strings.ReplaceAll(s, "\n", out)
	}
	const slop = 5
	width -= slop
	pad := strings.Repeat(" ", indent)
	for first := true; first || s != ""; first = false {
		var line string
		line, s = cut(width, slop, s)
		if !first {
			out += "\n" + pad
		}
		out += strings.ReplaceAll(line, "\n", "\n"+pad)
	}
	return out
}

// cut splits s into its first line, of at most width bytes ended at a space, tab or
// newline, and the rest; s whole when it fits in width+slop, or has no such break.
func cut(width, slop int, s string) (line, rest string) {
	if width+slop > len(s) {
		return s, ""
	}
	w := strings.LastIndexAny(s[:width], " \t\n")
	if w <= 0 {
		return s, ""
	}
	if nl := strings.LastIndex(s[:width], "\n"); nl > 0 && nl < w {
		return s[:nl], s[nl+1:]
	}
	return s[:w], s[w+1:]
}
