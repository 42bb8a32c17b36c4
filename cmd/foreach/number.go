package main

import "strconv"

// lineNumber is -n's prefix, kept as the text it is written as: cat -n's, the number
// right-aligned in 6 columns and a tab, or with -H grep -n's, the number and a colon.
// Consecutive records have the same number or the next one, so the text is counted up
// in place, a digit at a time as cat does, and formatted afresh only for a jump.
type lineNumber struct {
	grep bool // grep's form; fixed from the start
	n    int64
	buf  []byte // l.append(nil, n), with a capacity of at least 24; nil before the first number
}

// format returns the prefix for n, valid until the next call.
func (l *lineNumber) format(n int64) []byte {
	switch {
	case n == l.n && l.buf != nil:
	case n == l.n+1 && l.buf != nil:
		l.next()
	default:
		if l.buf == nil {
			l.buf = make([]byte, 0, 24) // room for any int64, and for word's 8 bytes
		}
		l.n, l.buf = n, l.append(l.buf[:0], n)
	}
	return l.buf
}

// next moves the prefix on to the next number.
func (l *lineNumber) next() {
	l.n++
	if d := &l.buf[len(l.buf)-2]; *d != '9' { // the last digit, before the tab or colon
		*d++
		return
	}
	l.carry()
}

// carry counts the prefix up where the last digit is a 9.
func (l *lineNumber) carry() {
	for i := len(l.buf) - 2; i >= 0; i-- {
		switch c := l.buf[i]; c {
		case '9':
			l.buf[i] = '0'
		case ' ':
			l.buf[i] = '1'
			return
		default:
			l.buf[i] = c + 1
			return
		}
	}
	// The number has gained a digit beyond the padding (grep's has none).
	l.buf = l.append(l.buf[:0], l.n)
}

// word is the first 8 bytes of the prefix's array, for a caller that copies a prefix of
// up to 8 bytes (numbers below 10,000,000) as one word and keeps len(buf) of them.
func (l *lineNumber) word() [8]byte { return [8]byte(l.buf[:8]) }

// append appends the prefix for n: as cat -n, right-aligned in 6 columns and a tab;
// as grep -n, the number and a colon.
func (l *lineNumber) append(b []byte, n int64) []byte {
	if l.grep {
		b = strconv.AppendInt(b, n, 10)
		return append(b, ':')
	}
	var d [20]byte
	s := strconv.AppendInt(d[:0], n, 10)
	for i := len(s); i < 6; i++ {
		b = append(b, ' ')
	}
	b = append(b, s...)
	return append(b, '\t')
}
