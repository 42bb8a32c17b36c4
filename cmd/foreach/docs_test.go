package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/cli.md documents every flag under a heading of its own ("### `-s, --sep STR`";
// two flags may share one). The help and the reference must list the same flags, with
// the same short forms: a flag added to one and not the other fails here.
func TestDocsListTheFlagsOfHelp(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	flagsSection := string(doc)
	start := strings.Index(flagsSection, "\n## Flags\n")
	require.GreaterOrEqual(t, start, 0, "docs/cli.md has no Flags section")
	flagsSection = flagsSection[start+1:]
	if end := strings.Index(flagsSection[1:], "\n## "); end >= 0 {
		flagsSection = flagsSection[:end+1]
	}
	var documented []string
	heading := regexp.MustCompile("(?m)^### (.*)$")
	flag := regexp.MustCompile("(?:^|, |`)(-[a-zA-Z0-9]|--[a-z0-9-]+)")
	for _, h := range heading.FindAllStringSubmatch(flagsSection, -1) {
		for _, part := range strings.Split(h[1], "`") {
			for _, m := range flag.FindAllStringSubmatch(strings.TrimSpace(part), -1) {
				documented = append(documented, m[1])
			}
		}
	}

	var inHelp []string
	line := regexp.MustCompile(`(?m)^  (?:(-[a-zA-Z0-9]), |    )(--[a-z0-9-]+)`)
	for _, m := range line.FindAllStringSubmatch(usage(), -1) {
		if m[1] != "" {
			inHelp = append(inHelp, m[1])
		}
		inHelp = append(inHelp, m[2])
	}
	slices.Sort(documented)
	slices.Sort(inHelp)
	require.NotEmpty(t, inHelp)
	assert.Equal(t, inHelp, documented, "flags in foreach --help (left) and in docs/cli.md (right)")
}
