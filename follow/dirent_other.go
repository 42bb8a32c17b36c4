//go:build !linux

package follow

// readEntries lists dir with os.ReadDir: the kinds, and no inode numbers without a
// stat (the listing stats the files beside a name).
func readEntries(dir string) ([]dirEntry, error) { return readEntriesPortable(dir) }
