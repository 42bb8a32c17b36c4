// Package doclinks holds only a test: that every document the project points to exists.
//
// The test reads README.md, every docs/*.md and the comments of every Go file in the
// repository. Each relative link in the Markdown files must name a file of the repository
// (and, for a link into a Markdown file with a #fragment, one of its headings), and each
// *.md name mentioned anywhere in them must resolve to a file, relative to the mentioning
// file's directory or to the repository root. A reader sent to a document that is not
// there has been told something false.
//
//	go test ./internal/testkit/doclinks/
package doclinks
