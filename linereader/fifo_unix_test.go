//go:build unix

package linereader

import "syscall"

// mkfifo makes a FIFO (a named pipe) at name.
func mkfifo(name string) error { return syscall.Mkfifo(name, 0o600) }
