package main

import "os"

// stdoutFile is standard output as a file, looked at once: what it is does not change
// while the command runs, and looking again for every input cost a system call or two
// per file over a tree of small files.
type stdoutFile struct {
	looked bool        // f and info are set
	f      *os.File    // nil: standard output is not an *os.File
	info   os.FileInfo // f's; nil when f is nil or cannot be looked at
}

// outFile returns standard output as a file and what it is, or nils.
func (c *command) outFile() (*os.File, os.FileInfo) {
	o := &c.out
	if !o.looked {
		o.looked = true
		if o.f, _ = c.stdout.(*os.File); o.f != nil {
			o.info, _ = o.f.Stat()
		}
	}
	return o.f, o.info
}
