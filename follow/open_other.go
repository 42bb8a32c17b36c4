//go:build !windows

package follow

import "os"

// openShared opens name for reading. Elsewhere than on Windows an open file can always
// be renamed or deleted.
func openShared(name string) (*os.File, error) { return os.Open(name) }
