package main

import (
	"fmt"
	"runtime/metrics"
	"slices"
	"strings"
)

// The runtime's own account of a run, to tell where a contender's CPU time goes: the
// process CPU time alone cannot tell the decoding from the garbage collector, the
// scavenger returning memory to the system, or Ps spinning for work.
var statNames = []string{
	"/cpu/classes/user:cpu-seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/gc/mark/idle:cpu-seconds",
	"/cpu/classes/scavenge/total:cpu-seconds",
	"/cpu/classes/idle:cpu-seconds",
	"/gc/cycles/total:gc-cycles",
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
}

// runStats is the difference of the runtime's metrics over one run.
type runStats [8]float64

func readStats() runStats {
	s := make([]metrics.Sample, len(statNames))
	for i, n := range statNames {
		s[i].Name = n
	}
	metrics.Read(s)
	var r runStats
	for i := range s {
		switch s[i].Value.Kind() {
		case metrics.KindFloat64:
			r[i] = s[i].Value.Float64()
		case metrics.KindUint64:
			r[i] = float64(s[i].Value.Uint64())
		}
	}
	return r
}

// withStats runs the contenders named in the comma-separated list, n rounds in turn (the
// order rotating each round), and prints for every run its wall and process CPU time and
// the runtime's metrics over it.
func withStats(path, names string, workers, n int) error {
	var cs []contender
	for name := range strings.SplitSeq(names, ",") {
		i := slices.IndexFunc(contenders, func(c contender) bool { return c.name == name })
		if i < 0 {
			return fmt.Errorf("no contender %q", name)
		}
		cs = append(cs, contenders[i])
	}
	fmt.Println("| contender | wall | CPU | user | GC | GC on idle Ps | scavenge | idle | GC cycles | MB allocated | allocations |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for round := range n {
		for k := range cs {
			c := cs[(k+round)%len(cs)]
			before := readStats()
			s := timed(c, path, workers)
			after := readStats()
			var d runStats
			for i := range d {
				d[i] = after[i] - before[i]
			}
			fmt.Printf("| %s | %s | %s | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f | %.0f | %.0f |\n",
				c.name, ms(s.wall), ms(s.cpu), d[0]*1e3, d[1]*1e3, d[2]*1e3, d[3]*1e3, d[4]*1e3, d[5], d[6]/1e6, d[7])
		}
	}
	return nil
}
