// Package follow reads a file as it grows, record by record, as tail -F does: across
// log rotation (the file renamed away and created anew, however quickly), truncation in
// place, and a restart of the program (a Checkpoint). It is built on linereader's
// exported contract alone: a Reader here is a linereader.Reader whose source waits at
// the end of the data.
//
//	r, err := follow.Open(ctx, "/var/log/app.log", linereader.Options{Chomp: true},
//		follow.Options{Resume: saved}) // saved: a *Checkpoint from an earlier run, or nil
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer r.Close()
//	for line := range r.Lines() {
//		handle(line)
//		cp := r.Checkpoint() // where to go on from, once line is handled
//		saved = &cp          // store cp.MarshalText() as often as it suits
//	}
//	if err := r.Err(); err != nil { // nil when ctx ended the loop, or Close did
//		log.Fatal(err)
//	}
//
// OpenMany follows every file that patterns match, as files come and go, each as Open
// follows one, with one State for all of them (see ExampleOpenMany):
//
//	m, err := follow.OpenMany(ctx, []string{"/var/log/pods/**/*.log"}, linereader.Options{Chomp: true},
//		follow.ManyOptions{Resume: state}) // state: a *State from an earlier run, or nil
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer m.Close()
//	for rec := range m.Lines() {
//		handle(rec.Name, rec.Data)
//		state = m.State() // store state.MarshalText() as often as it suits
//	}
//	if err := m.Err(); err != nil {
//		log.Fatal(err)
//	}
//
// # What is guaranteed
//
// Every complete record written to a file while it has the name, or after it was
// rotated away until something is written to the file after it, is yielded once, whole,
// with its offset in its own file and its line number across files; the records of a
// file in order, and the files in the order they had the name when they were rotated
// apart in time (files last written within one tick of the file system's clock may come
// out of order). A file is known by its identity (device and inode, and its content),
// so every file that had the name is read in turn, even when several rotations come
// between two looks. A Checkpoint names the file and the offset from the moment Open
// returns; resuming from it finds the file again if it was rotated, renamed, copied or
// compressed while the program was down, and reads every file rotated after it. What
// can still be lost is said in the project's docs/follow.md.
//
// With linereader's Options.Multiline (a stack trace one record), a record is yielded
// when the line that begins the next one arrives, or once the file has had nothing new
// for Options.Flush; it is never split by a read, and a Checkpoint names its start until
// it is yielded.
//
// # Goroutines
//
// Open and OpenMany start one goroutine each, the watcher (with notifications, the
// notification library runs one of its own); Close, or ctx being done, ends them. The
// loop itself runs on the caller's goroutine.
package follow
