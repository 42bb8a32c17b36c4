// Package contend holds the loops that foreach's benchmarks time against each other and
// the files they read: each contender (contenders.go) is a straightforward loop over a
// whole open file, the engine's or the standard library's, that reports what it saw in a
// Result; a corpus File (corpora.go) is a generated or real text file with the Reference
// every contender must find in it, computed apart from all of them with bytes.IndexByte.
//
// Both the command's demo (foreach bench) and the benchmark suite (package benchmarks)
// import it, so that the figures a user sees and the figures the project publishes come
// from the same loops, and the command imports no benchmark package.
//
//	f, err := contend.MakeFile(dir, "tall", 16<<20)
//	if err != nil {
//		return err
//	}
//	c := contend.Contenders["Lines"]
//	fd, err := os.Open(f.Path)
//	if err != nil {
//		return err
//	}
//	defer fd.Close()
//	res, err := c.Run(fd, contend.ReadSize)
//	if err == nil {
//		err = f.Check(c, res) // the same records, bytes and last record as the reference
//	}
package contend
