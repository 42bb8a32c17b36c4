package linereader

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The read-ahead policy's arithmetic, on made-up clock readings: which loops start a
// producer, what it must beat, when it is stopped and how it backs off. (Whether records
// stay right whatever the policy does is the business of the read-ahead and nesting tests.)

// autoPolicy is a policy for a regular file, as allow makes it.
func autoPolicy() *policy {
	return &policy{retry: retryBytes, ok: true, countdown: 1}
}

// feed gives p n timed steps of records of size bytes, each step's engine part taking
// engineNs and its body bodyNs, the records back to back with wholeNs per record in all
// (the reads and the untimed records included), starting at time t and input offset end.
// It returns the time and offset after them.
func feed(p *policy, n, size int, engineNs, bodyNs, wholeNs, t, end int64) (int64, int64) {
	for range n {
		p.sample(t, t+engineNs+clockCost(), t+engineNs+bodyNs+2*clockCost(), end, size)
		t += wholeNs
		end += int64(size)
	}
	return t, end
}

func TestPolicyStartsOnlyForHeavyBodies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bodyNs int64
		want   bool
	}{
		{"trivial body", 2, false},
		{"body as heavy as the engine", 40, false},
		{"body at 1.75 times the engine", 70, false},
		{"body at 1.8 times the engine", 72, true},
		{"body at twice the engine", 80, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := autoPolicy()
			// A loop's first timed step only opens a window: the decision comes when
			// decideSamples windows have closed. Steps 1 ms apart: the plain loop's pace
			// is known by then.
			at, end := feed(p, decideSamples, 60, 40, tc.bodyNs, 1e6, 1000, 0)
			require.Equal(t, decideSamples-1, p.samples)
			require.False(t, p.want)
			feed(p, 1, 60, 40, tc.bodyNs, 1e6, at, end)
			require.Equal(t, 0, p.samples, "a decision was made")
			require.Equal(t, tc.want, p.want)
		})
	}
}

// Before the plain loop has run minPlainTime, there is no pace for read-ahead to beat: it
// does not start, and the next decision comes as soon.
func TestPolicyMeasuresThePlainLoopFirst(t *testing.T) {
	p := autoPolicy()
	at, end := feed(p, decideSamples+1, 60, 40, 200, 5000, 1000, 0)
	require.Equal(t, 0, p.samples, "a decision was made")
	require.False(t, p.want)
	require.Equal(t, decideSamples, p.need)
	// Once it has, the same body starts read-ahead.
	for !p.want && p.plainT < 2*minPlainTime {
		at, end = feed(p, decideSamples, 60, 40, 200, 5000, at, end)
	}
	require.True(t, p.want)
	require.GreaterOrEqual(t, p.plainT, minPlainTime)
}

// A record larger than a chunk votes against: the producer would not take it.
func TestPolicyLargeRecordsVoteAgainst(t *testing.T) {
	p := autoPolicy()
	feed(p, decideSamples+1, chunkBytes+1, 40, 4000, 1e6, 1000, 0)
	require.Equal(t, 0, p.samples, "a decision was made")
	require.False(t, p.want)
}

// What read-ahead must beat is the plain loop's whole cost per input byte between samples,
// reads and collections included, not one step's time.
func TestPolicyPlainCostIsTheLoopsWholeCost(t *testing.T) {
	p := autoPolicy()
	at, end := feed(p, 1, 100, 40, 80, 1000, 1000, 0) // opens the first window
	// Windows of 100 bytes: 11 of 1000 ns, 4 of 5000 ns (they hold a read), and one
	// stretched to 100000 ns (a collection).
	at, end = feed(p, 10, 100, 40, 80, 1000, at, end) // with the first, 11 windows
	at, end = feed(p, 4, 100, 40, 80, 5000, at, end)
	at, end = feed(p, 1, 100, 40, 80, 100000, at, end)
	feed(p, 1, 100, 40, 80, 1000, at, end)
	require.Equal(t, int64(1600), p.plainB)
	require.InDelta(t, (11*1000.0+4*5000+100000)/1600, p.plainNs(), 1e-9)
}

// A new loop opens a new window: time between two loops over the same reader is not the
// loop's.
func TestPolicyWindowsRestartWithEachLoop(t *testing.T) {
	p := autoPolicy()
	at, end := feed(p, 3, 100, 40, 80, 1000, 1000, 0)
	require.Equal(t, 2, p.samples)
	p.loop()
	at += 1e9 // the caller did something else for a second
	feed(p, 1, 100, 40, 80, 1000, at, end)
	require.Equal(t, 2, p.samples, "the first step of a loop closed a window")
	feed(p, 1, 100, 40, 80, 1000, at+1000, end+100)
	require.Equal(t, int64(3000), p.plainT)
	require.Equal(t, int64(300), p.plainB)
}

// Two steps in a block stretched by a collection do not make a light body look heavy.
func TestPolicyOutlyingStepsDoNotVote(t *testing.T) {
	p := autoPolicy()
	at, end := feed(p, 1, 60, 40, 10, 1e6, 1000, 0)
	at, end = feed(p, 7, 60, 40, 10, 1e6, at, end)
	at, end = feed(p, 2, 60, 40, 100000, 1e6, at, end)
	feed(p, decideSamples-9, 60, 40, 10, 1e6, at, end)
	require.Equal(t, 0, p.samples, "a decision was made")
	require.False(t, p.want)
}

// A loop that does not get read-ahead is asked again on twice as many samples each time,
// up to maxSamples; one that does is asked on decideSamples after a producer stops.
func TestPolicyDecisionsSlowDownWhileTheAnswerIsNo(t *testing.T) {
	p := autoPolicy()
	at, end := feed(p, 1, 60, 40, 10, 1e6, 1000, 0)
	var needs []int
	for range 8 {
		needs = append(needs, max(p.need, decideSamples))
		at, end = feed(p, max(p.need, decideSamples), 60, 40, 10, 1e6, at, end)
		require.Equal(t, 0, p.samples)
		require.False(t, p.want)
	}
	require.Equal(t, []int{16, 32, 64, 128, 256, 512, 1024, 1024}, needs)
	// The body turns heavy: the next decision (on 1024 samples) says yes, and the one after
	// a stopped producer is back to decideSamples.
	feed(p, 1024, 60, 40, 200, 1e6, at, end)
	require.True(t, p.want)
	p.stopped(end)
	require.False(t, p.want)
	require.Equal(t, decideSamples, p.need)
}

// judge runs a started producer that delivers chunks of chunk input bytes, each taking
// chunkNs of which the caller waited waitNs, until it is told to stop or after max chunks.
// It returns the number of chunks received, and whether it was stopped.
func judge(p *policy, chunk, chunkNs, waitNs int64, max int) (int, bool) {
	end, t := int64(1<<20), int64(1e9)
	p.started(end)
	for i := 1; i <= max; i++ {
		p.waited(waitNs)
		end += chunk
		t += chunkNs
		if p.received(end, t) {
			return i, true
		}
	}
	return max, false
}

func TestPolicyJudgesByPaceAgainstThePlainLoop(t *testing.T) {
	const chunk = 64 << 10
	plain := 1.5 // ns per byte
	for _, tc := range []struct {
		name    string
		perByte float64 // the loop's pace while reading ahead
		waitPct int64
		stop    bool
	}{
		{"20% faster", 1.2, 0, false},
		{"12% faster", 1.32, 0, false},
		{"only 5% faster", 1.425, 0, true},
		{"slower", 1.8, 0, true},
		{"faster but mostly waiting", 0.6, 60, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := autoPolicy()
			p.plainT, p.plainB = int64(plain*1e6), 1e6
			chunkNs := int64(tc.perByte * chunk)
			n, stopped := judge(p, chunk, chunkNs, chunkNs*tc.waitPct/100, 1000)
			require.Equal(t, tc.stop, stopped)
			if stopped {
				// Judged only once judgeBytes have come after the first chunk (and at least
				// judgeTime has passed).
				require.GreaterOrEqual(t, int64(n-1)*chunk, int64(judgeBytes))
				require.GreaterOrEqual(t, int64(n-1)*chunkNs, judgeTime)
			}
		})
	}
}

// The first chunk only starts the judging: a slow start is not judged as the pace.
func TestPolicyFirstChunkIsNotJudged(t *testing.T) {
	p := autoPolicy()
	p.plainT, p.plainB = 1500000, 1e6
	p.started(0)
	p.waited(5e8)
	require.False(t, p.received(64<<10, 1e9), "the first chunk came after half a second")
	n, stopped := judge(p, 64<<10, 78643, 0, 1000)
	require.False(t, stopped, "stopped after %d chunks", n)
}

// One slow window does not stop a producer that pays over the loop; a loop that stops
// paying is caught within a few windows.
func TestPolicyJudgementsAreSmoothed(t *testing.T) {
	const chunk = 64 << 10
	p := autoPolicy()
	p.plainT, p.plainB = 1500000, 1e6
	end, t0 := int64(0), int64(1e9)
	p.started(end)
	step := func(perByte float64) bool {
		end += chunk
		t0 += int64(perByte * chunk)
		return p.received(end, t0)
	}
	step(1.2) // the first chunk
	for range 3 * judgeBytes / chunk {
		require.False(t, step(1.2))
	}
	// One judgement window at the plain loop's pace.
	stopped := false
	for range judgeBytes / chunk {
		stopped = stopped || step(1.55)
	}
	require.False(t, stopped, "one slow window stopped a producer that pays")
	// Then the loop stops paying for good.
	windows := 0
	for !stopped && windows < 10*judgeBytes/chunk {
		stopped = step(1.7)
		windows++
	}
	require.True(t, stopped)
	require.LessOrEqual(t, windows, 4*judgeBytes/chunk, "caught within a few windows")
}

func TestPolicyBacksOffAfterEachFailure(t *testing.T) {
	p := autoPolicy()
	p.want = true
	end := int64(0)
	var gaps []int64
	for range maxBackoff + 2 {
		p.stopped(end)
		gaps = append(gaps, p.retryAt-end)
		require.False(t, p.want, "a stopped producer needs a new decision")
		end = p.retryAt
	}
	for i, g := range gaps {
		require.Equal(t, int64(retryBytes)<<min(i, maxBackoff), g, "failure %d", i+1)
	}
	// A producer that paid resets the count.
	p.plainT, p.plainB = 1500000, 1e6
	_, stopped := judge(p, 64<<10, 64<<10, 0, 1000)
	require.False(t, stopped)
	p.stopped(end)
	require.Equal(t, int64(retryBytes), p.retryAt-end)
}
