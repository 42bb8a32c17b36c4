// Package bytesize reads and writes byte counts as the command line shows them: "64KiB",
// "1.5 MiB", "1,000,000". The command used github.com/dustin/go-humanize for this; its
// package initialisation (a map of units, regexps compiled when the program starts, and
// math/big) cost every run of foreach, however short, before main (docs/performance.md,
// "Start-up"), for three small functions. These give the same results, which the tests
// check against go-humanize itself.
package bytesize

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// units are the unit names Parse takes, lower-cased, and their sizes: IEC (KiB, Ki) in
// powers of 1024, SI (kB, k) in powers of 1000, as go-humanize reads them.
var units = [...]struct {
	name string
	size uint64
}{
	{"", 1}, {"b", 1},
	{"kib", 1 << 10}, {"ki", 1 << 10}, {"kb", 1e3}, {"k", 1e3},
	{"mib", 1 << 20}, {"mi", 1 << 20}, {"mb", 1e6}, {"m", 1e6},
	{"gib", 1 << 30}, {"gi", 1 << 30}, {"gb", 1e9}, {"g", 1e9},
	{"tib", 1 << 40}, {"ti", 1 << 40}, {"tb", 1e12}, {"t", 1e12},
	{"pib", 1 << 50}, {"pi", 1 << 50}, {"pb", 1e15}, {"p", 1e15},
	{"eib", 1 << 60}, {"ei", 1 << 60}, {"eb", 1e18}, {"e", 1e18},
}

var (
	errNumber  = errors.New("bytesize: not a number")
	errUnit    = errors.New("bytesize: unknown unit")
	errTooLong = errors.New("bytesize: too large")
)

// Parse reads a byte count: a number (digits, with commas anywhere and a decimal point
// allowed), then a unit in any case, spaces around it allowed. A whole number is read
// exactly; a fraction is multiplied out in floating point and truncated.
func Parse(s string) (uint64, error) {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || s[end] == ',') {
		end++
	}
	num := strings.ReplaceAll(s[:end], ",", "")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, errNumber
	}
	unit := strings.ToLower(strings.TrimSpace(s[end:]))
	for _, u := range units {
		if u.name != unit {
			continue
		}
		if !strings.Contains(num, ".") {
			if v, err := strconv.ParseUint(num, 10, 64); err == nil {
				if hi, lo := bits.Mul64(v, u.size); hi == 0 {
					return lo, nil
				}
				return 0, errTooLong
			}
		}
		if f *= float64(u.size); f >= math.MaxUint64 {
			return 0, errTooLong
		}
		return uint64(f), nil
	}
	return 0, errUnit
}

// IEC writes n in binary units, with at least two significant digits: "9 B", "1.5 KiB",
// "15 KiB", "128 MiB".
func IEC(n uint64) string {
	if n < 10 {
		return strconv.FormatUint(n, 10) + " B"
	}
	names := [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	e := math.Floor(math.Log(float64(n)) / math.Log(1024))
	val := float64(n) / math.Pow(1024, e)
	// Round once, to as many decimals as leave two significant digits, and show one
	// fewer when the rounding carried into another integer digit (9.96 to 10).
	intDigits := digits(int64(val))
	places := max(2-intDigits, 0)
	scale := math.Pow10(places)
	val = math.Floor(val*scale+0.5) / scale
	if d := digits(int64(val)); d > intDigits {
		places = max(places-(d-intDigits), 0)
	}
	return strconv.FormatFloat(val, 'f', places, 64) + " " + names[int(e)]
}

// digits is the number of decimal digits of n (0 for 0).
func digits(n int64) int {
	d := 0
	for ; n != 0; n /= 10 {
		d++
	}
	return d
}

// Comma writes n with a comma between groups of three digits: "1,000,000".
func Comma(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	b.WriteString(sign)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
