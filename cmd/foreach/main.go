// Command foreach prints the records of files, read with the linereader engine,
// and benchmarks the engine against bufio (foreach bench).
//
// See foreach --help, and docs/cli.md in the project for the specification.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// A closed output pipe must end the command quietly with its own exit
	// status, not kill it with SIGPIPE: with the signal ignored, writes to
	// standard output fail with EPIPE and run stops.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
