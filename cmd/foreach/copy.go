package main

// copy writes the input unchanged (see verbatim). From a regular file the kernel
// copies it where it can, without the bytes coming up to the command; the rest of the
// input, or all of it, passes through the engine a run of whole records at a time
// (Runs): there is nothing to do per record, and a large run goes to standard output
// without being copied.
func (c *command) copy(in *input) {
	if out, oi := c.outFile(); out != nil && in.size > 0 && in.file != nil {
		// What earlier inputs left pending goes first.
		if c.flush(); c.stopped {
			return
		}
		var progress func(int64)
		if c.bar != nil {
			progress = func(n int64) { c.bar.Add64(n) }
		}
		if kernelCopy(out, oi != nil && oi.Mode().IsRegular(), in.file, progress) {
			return
		}
		// Not copied to its end: nothing was (the kernel cannot copy between these
		// files), or the copy failed midway. The engine goes on from where the file
		// now stands, and meets the error again, if there is one, where it can say
		// whether reading or writing failed.
	}
	r := c.reader(in.src)
	defer r.Close()
	for run := range r.Runs() {
		if _, err := c.w.Write(run); err != nil {
			c.writeFailed(err)
			break
		}
	}
	c.done(in.name, r)
}
