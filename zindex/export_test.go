package zindex

// PointOffsets returns the decompressed offsets of ix's points.
func PointOffsets(ix *Index) []int64 {
	var offs []int64
	for _, p := range ix.points {
		offs = append(offs, p.out)
	}
	return offs
}
