package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"github.com/foreachio/foreach/linereader"
)

// stdinName is how messages, -H and the progress bar name standard input, as grep does.
const stdinName = "(standard input)"

// displayName is how messages and the progress bar name an input.
func displayName(name string) string {
	if name == "-" {
		return stdinName
	}
	return name
}

// writeFailed handles an error writing standard output: a closed pipe ends the
// command quietly (foreach big | head); anything else is reported.
func (c *command) writeFailed(err error) {
	c.stopped = true
	if errors.Is(err, syscall.EPIPE) {
		return
	}
	c.report("write error", err)
	c.status = 1
}

// fail reports that the input name failed and sets the exit status.
func (c *command) fail(name string, err error) {
	c.status = 1
	c.failures++
	c.report(messageName(name), err)
}

// messageName is how a message names the input name: standard input as -H does,
// a file as GNU tools do (quoteName).
func messageName(name string) string {
	if name == "-" {
		return stdinName
	}
	return quoteName(name)
}

// statusWarning is the exit status when every file was read but one had trailing data
// after its compressed streams (and none failed): 2 is taken by usage errors, which read
// nothing, so a script can still tell "read, with a warning" from both.
const statusWarning = 3

// warnTrailing reports err, when it is trailing data after the last compressed stream of
// the input name (-z), as a warning: every record was read, as zcat reads such a file. It
// reports whether err was that.
func (c *command) warnTrailing(name string, err error) bool {
	if !errors.Is(err, linereader.ErrTrailingData) {
		return false
	}
	if c.status == 0 {
		c.status = statusWarning
	}
	c.report(messageName(name), err)
	return true
}

// report writes "foreach: what: reason" on standard error.
func (c *command) report(what string, err error) {
	if c.bar != nil {
		c.bar.Clear()
	}
	fmt.Fprintf(c.stderr, "foreach: %s: %s\n", what, reason(err))
}

// reason is an error in the words GNU tools use: a system error as strerror says it
// ("No such file or directory"), without the operation and file name that Go's
// *fs.PathError adds, since the message names the file already.
func reason(err error) string {
	var tl *linereader.TooLongError
	if errors.As(err, &tl) {
		return fmt.Sprintf("record at line %d (offset %d) is longer than --max-record %s",
			tl.LineNo, tl.Offset, formatSize(tl.Max))
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		// Go's texts are strerror's with a lower-case first letter.
		s := errno.Error()
		if s != "" && 'a' <= s[0] && s[0] <= 'z' {
			s = string(s[0]-'a'+'A') + s[1:]
		}
		return s
	}
	return err.Error()
}

// quoteName is a file name as GNU tools show it in messages: as it is when it holds
// nothing a shell would read otherwise, else quoted.
func quoteName(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !shellSafe(r) }) < 0 {
		return s
	}
	return quoteValue(s)
}

// quoteValue is a value quoted as GNU tools quote one: 'x', or a Go string literal
// when single quotes would not show it plainly (it holds a quote or a control byte).
func quoteValue(s string) string {
	if strings.ContainsRune(s, '\'') || strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == 0xfffd }) >= 0 {
		return strconv.Quote(s)
	}
	return "'" + s + "'"
}

func shellSafe(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		strings.ContainsRune("-_./:@%+,=^~", r) || r >= 0x80 && r != 0xfffd
}
