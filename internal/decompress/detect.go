package decompress

// Format names a compression format: "gzip", "zstd", "bzip2", "xz", or "" for
// none (the input is passed on as it is).
type Format string

// The formats NewReader recognises.
const (
	None  Format = ""
	Gzip  Format = "gzip"
	Zstd  Format = "zstd"
	Bzip2 Format = "bzip2"
	Xz    Format = "xz"
)

// span is the set of byte values lo..hi, one position of a magic number.
type span struct{ lo, hi byte }

func is(b byte) span { return span{b, b} }

// magic is the byte pattern that starts every stream of a format.
type magic struct {
	format  Format
	pattern []span
}

// magics are the patterns Detect looks for. They are longer than the bare
// magic numbers where a short one could be plain text: "BZh9" starts English
// sentences, so bzip2 also needs the start of its first block ("1AY&SY", the
// digits of pi) or of its end-of-stream marker (an empty stream), which is
// what bzip2 itself writes after the header. Gzip includes its method byte
// (8, deflate, the only one defined), and zstd includes the skippable frames
// that may come before the first frame (pzstd writes one).
var magics = []magic{
	{Gzip, []span{is(0x1f), is(0x8b), is(0x08)}},
	{Zstd, []span{is(0x28), is(0xb5), is(0x2f), is(0xfd)}},
	{Zstd, []span{{0x50, 0x5f}, is(0x2a), is(0x4d), is(0x18)}},
	{Bzip2, []span{is('B'), is('Z'), is('h'), {'1', '9'}, is(0x31), is(0x41), is(0x59), is(0x26), is(0x53), is(0x59)}},
	{Bzip2, []span{is('B'), is('Z'), is('h'), {'1', '9'}, is(0x17), is(0x72), is(0x45), is(0x38), is(0x50), is(0x90)}},
	{Xz, []span{is(0xfd), is('7'), is('z'), is('X'), is('Z'), is(0x00)}},
}

// maxMagic is the length of the longest pattern in magics: the most bytes
// detection ever reads before deciding.
const maxMagic = 10

// Detect reports the format whose magic number starts header, or "" when
// none does. A header shorter than a magic number does not match it, so an
// input cut inside its magic number is taken for plain data.
func Detect(header []byte) Format {
	f, _ := match(header)
	return f
}

// match returns the format whose magic number starts header, and when there
// is none, whether header is a proper prefix of some magic number (so that
// more bytes could still make it one).
func match(header []byte) (f Format, more bool) {
	for _, m := range magics {
		n := min(len(header), len(m.pattern))
		ok := true
		for i, s := range m.pattern[:n] {
			if header[i] < s.lo || header[i] > s.hi {
				ok = false
				break
			}
		}
		switch {
		case !ok:
		case n == len(m.pattern):
			return m.format, false
		default:
			more = true
		}
	}
	return None, more
}
