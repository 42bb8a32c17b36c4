package main

import (
	"runtime/debug"
	"strings"
)

// versionText is what --version prints, from the build information the go command
// records in every binary: the module version (a release tag such as v1.2.0 when
// installed with go install ...@v1.2.0, a pseudo-version for a commit, "(devel)" for a
// build from a checkout), the VCS revision and time when built from a checkout, and the
// Go version.
func versionText(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "foreach (version unknown: built without module information)\n"
	}
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var b strings.Builder
	b.WriteString("foreach " + version + "\n")
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		b.WriteString("revision " + rev)
		if at != "" {
			b.WriteString(" (" + at + ")")
		}
		if modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	}
	if bi.GoVersion != "" {
		b.WriteString("built with " + bi.GoVersion + "\n")
	}
	return b.String()
}
