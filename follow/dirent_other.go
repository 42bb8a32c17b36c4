//go:build !linux

package follow

import "errors"

// readNames has no inode numbers to give without a stat here: the listing stats every
// file beside the name.
func readNames(string) (map[string]uint64, error) { return nil, errors.ErrUnsupported }
