// Package bytelist provides ByteList, a growable byte buffer meant to be reused: one backing
// array serves a whole loop, in the spirit of JRuby's ByteList.
//
// A loop that builds one record per iteration in a fresh slice allocates and copies for
// every record; a ByteList that is Reset between iterations allocates only while the
// records keep getting longer, and then geometrically. Stats counts what the buffer cost
// (growths, bytes copied, peak capacity), so the saving can be measured rather than assumed.
//
//	var line bytelist.ByteList // the zero value is ready to use
//	for _, word := range []string{"alpha", "beta", "gamma"} {
//		line.Reset() // keeps the capacity: later iterations do not allocate
//		line.Write([]byte(word))
//		line.WriteByte('\n')
//		os.Stdout.Write(line.Bytes())
//	}
//
// Bytes borrows: the slice it returns is overwritten by the next call that changes the list.
// Clone and String copy out: what they return belongs to the caller. Use Bytes on the hot
// path and copy out only what must outlive the iteration.
//
// For reading, Fill performs exactly one Read into the spare capacity, which is the
// building block of a line reader (see package linereader); ReadFrom reads to end of input.
// Discard drops a consumed prefix and Release gives memory back after an unusually large
// record.
package bytelist
