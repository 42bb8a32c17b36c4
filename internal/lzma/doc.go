// Package lzma is the LZMA engine: the range decoder, the LZMA operations and the
// dictionary they copy from, and LZMA2's chunks around them. The containers that carry
// LZMA data (the .xz format's blocks, the legacy .lzma file) are read by
// internal/decompress, as gzip's members are read around internal/inflate.
//
//	var r lzma.Reader2
//	r.Reset(blockData, dictSize) // an xz block's LZMA2 data, its dictionary size from the block header
//	_, err := io.Copy(w, &r)     // its bytes; io.EOF (nil from io.Copy) at LZMA2's end marker
//
// It decodes one operation at a time into a dictionary whose bytes are given out as
// soon as they are written, so that every byte the input holds is delivered before its
// end is found, as xz -dc delivers it: the reason the project has an engine of its own
// (github.com/ulikunitz/xz decodes up to a dictionary's worth before giving any out, and
// loses it when the input ends). The dictionary is allocated as the data fills it, 64
// KiB first and doubled up to the declared size, so that a header declaring 4 GiB costs
// nothing until the data is there.
package lzma
