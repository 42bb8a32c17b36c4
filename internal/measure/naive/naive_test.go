package naive

import (
	"bufio"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLinesAndGrowths(t *testing.T) {
	long := strings.Repeat("x", 1000) + "\n"
	in := "a\n\nbc" + "\n" + long + "tail"
	var got []string
	grows, err := Lines(bufio.NewReaderSize(strings.NewReader(in), 4096), func(l []byte) { got = append(got, string(l)) })
	require.NoError(t, err)
	require.Equal(t, []string{"a\n", "\n", "bc\n", long, "tail"}, got)
	// Each short line grows once from nil; the 1001-byte line arrives in 128-byte steps
	// and grows at 128, 256, 384, 512 and 768 bytes (capacities 139, 314, 472, 709,
	// 1064: cap*3/2+1 repeated until the step fits); the tail once.
	require.Equal(t, 3+5+1, grows)
}
