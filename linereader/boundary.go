package linereader

import "io"

// boundaryWindow is how many bytes LastBoundary reads per step backwards.
const boundaryWindow = 64 << 10

// LastBoundary returns where the last complete record of src[0:size) ends: just past the
// last separator, 0 when there is none; with Whole and a Limit, the last multiple of
// Limit. It reads backwards from size a window at a time, so that an input that ends in
// complete records costs one small read. It is where a follower that starts at the end
// begins, so that a record being written then is read whole once it ends. Where Limit
// cuts or a separator that overlaps itself make records depend on everything before
// them, the last separator is still taken as a boundary: the records from there on are
// cut afresh. Invalid options are returned as Validate returns them; Whole without a
// Limit has no boundary but 0 and size.
func LastBoundary(src io.ReaderAt, size int64, opt Options) (int64, error) {
	if err := opt.Validate(); err != nil {
		return 0, err
	}
	cfg := newConfig(opt)
	if cfg.mode == modeWhole {
		if opt.Limit <= 0 {
			return 0, nil
		}
		return size - size%int64(opt.Limit), nil
	}
	tail := int64(len(cfg.sep) - 1)
	buf := make([]byte, boundaryWindow+tail)
	for hi := size; hi > 0; {
		lo := max(0, hi-boundaryWindow)
		// The window reaches len(sep)-1 bytes past hi, for a separator straddling hi.
		end := min(size, hi+tail)
		n, err := src.ReadAt(buf[:end-lo], lo)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := cfg.findLast(buf[:n]); i >= 0 {
			return lo + int64(i), nil
		}
		hi = lo
	}
	return 0, nil
}
