// Package zindex makes random access into compressed files: an index of a
// gzip, BGZF, xz or zstd file lists access points, places where decoding can start without
// the bytes before them, so that the file's text can be read at any offset
// (an io.ReaderAt) by decoding from the point before it. Every function of
// linereader that takes an io.ReaderAt (sections, counts, the last records,
// reading backwards) then works on the text of a .gz, and parallel work
// over its sections too.
//
//	f, err := os.Open("app.log.gz")
//	if err != nil {
//		return err
//	}
//	defer f.Close()
//	ix, err := zindex.Load("app.log.gz") // app.log.gz.zidx, checked against the file
//	if err != nil {
//		// fs.ErrNotExist, zindex.ErrStale: build it and keep it. BuildAt
//		// takes the file's structure where it gives an index (BGZF, xz -T,
//		// zstd frames with sizes), else decodes a gzip file once; other
//		// formats have no index (ErrFormat): read them sequentially.
//		st, err := f.Stat()
//		if err != nil {
//			return err
//		}
//		if ix, err = zindex.BuildAt(f, st.Size(), 0); err != nil {
//			return err
//		}
//		ix.Save("app.log.gz")
//	}
//	text := ix.ReaderAt(f) // the decompressed bytes, Size() of them
//	n, err := linereader.CountAt(text, ix.Size(), linereader.Options{}, 0)
//
// A program that reads a gzip file in order anyway can index it on the way:
// a Builder is an io.Reader of the text that leaves the index behind.
//
//	b := zindex.NewBuilder(bufio.NewReader(f), 0)
//	n, err := io.Copy(w, b) // the text, as a sequential read gives it
//	if err == nil {
//		ix, _ := b.Index()
//		err = ix.Save("app.log.gz")
//	}
//
// # Access points
//
// A gzip file is one or more members, each a header, a deflate stream and
// a trailer. An access point is either the start of a member (nothing
// before it is needed) or the start of a deflate block inside one, with the
// 32 KiB of text before it, the window its matches may refer to, as zlib's
// zran.c keeps it. Build decodes the file once (a Builder while the text
// is read through it), with the project's own decoder (internal/inflate,
// which reports its blocks), and records a point
// at the first block or member boundary at least span bytes of text past
// the last one (DefaultSpan: 4 MiB), its window compressed, and one or two
// within the last MiB or so, so that the last records are quick to reach
// (--last, reading backwards). Points can only
// be at block boundaries: a file whose encoder wrote few, large blocks has
// few points (gzip writes a block every 100 KiB or so of text; BGZF's
// members are 64 KiB each).
//
// The index of 128 MiB of text at the default span is 33 points and about
// 290 KB, 1.1% of the .gz; building it costs what decoding the file costs
// (it is that decoding); a read at a random offset decodes 2 MiB on
// average, the last lines less than 1 MiB.
//
// # Reading
//
// ReaderAt decodes from the access point at or before each read's offset.
// It keeps the decoders that reads leave (a few), so that a reader going
// forward, or several at once, go on where they stopped; and the text it
// decoded to reach a read, when reads go backwards, so that NewTail and
// NewBackward decode each span once. The bytes are exactly those a
// sequential read of the file gives (internal/decompress, as gzip -d reads
// it): members one after another, zero padding after the last ignored. And
// they are checked as a sequential read checks them: a gzip point keeps the
// CRC-32 and length of its member's text before it, so that a read from
// any point checks its member's trailer, and a read that reaches the next
// point checks the text it decoded there; a file changed anywhere in what
// a read decodes gives the error a sequential read gives (a checksum that
// does not match, damage), never other text.
// Trailing data after the last member is not part of the text; the index
// says where it starts (TrailingData), since a sequential read ends there
// with an error (gzip's warning) that a reader through the index does not
// see.
//
// # Files
//
// WriteTo and Read keep an index in a file of the package's own format,
// versioned and checksummed (docs/zindex.md describes it; WriteTo writes
// version 3, Read reads versions 2 and 3 and refuses version 1, whose gzip
// points had no CRC-32, with an error wrapping ErrVersion that says to
// build it again). Load reads NAME.zidx for the file NAME and checks it
// against the file, its size, SHA-256 digests of its first and last 64 KiB
// and its modification time, so that an index of a file since replaced,
// appended to, rewritten or touched is refused (ErrStale) rather than
// trusted. Save writes NAME.zidx through a temporary file, renamed into
// place, with the file's modification time.
//
// # Indexes from a file's structure
//
// Files made of pieces that decode on their own and say their sizes (BGZF's
// gzip members, the blocks of xz -T with the stream's index, zstd frames
// with their content sizes or the seekable format's seek table) are an index
// already: FromStructure makes it from their headers without decoding
// anything, with an access point at every piece and no windows, and BuildAt
// takes that way when it can (Build and a Builder decode, and read gzip
// alone: for any other format they return ErrFormat). A read decodes the
// piece holding its offset with the piece's own checks. Formats whose
// structure gives no sizes (bzip2, lz4, zstd frames without sizes, xz of
// one block) have no index: FromStructure says ErrNoStructure, BuildAt
// ErrFormat, and they are read sequentially.
package zindex
