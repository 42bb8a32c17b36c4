// Package foreachio is an Apache Beam source for the records of text files, built on
// linereader's sections: a file is cut into byte ranges that Beam's workers read
// independently, and the records of all the ranges are exactly those of one sequential
// read, whatever the cuts, including those a runner makes while the job runs.
//
// It is its own Go module (github.com/foreachio/foreach/beam) so that the core library
// keeps its small set of dependencies; the import path ends in beam, the package is
// foreachio, after Beam's own textio and fileio.
//
// A pipeline that counts the records of every file matching a glob, on Prism in-process or
// on any runner chosen with --runner:
//
//	func main() {
//		flag.Parse()
//		beam.Init()
//		p, s := beam.NewPipelineWithRoot()
//		files := fileio.ReadMatches(s, fileio.MatchFiles(s, "logs/*.log"))
//		counts := foreachio.CountRecords(s, files, linereader.Options{})
//		textio.Write(s, "counts.txt", beam.ParDo(s, formatFn, counts))
//		if err := beamx.Run(context.Background(), p); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//	}
//
// (formatFn is a registered func(string, int64) string; see the command
// foreach-beam for a complete job.)
//
// # Transforms
//
//   - Read(s, glob, opt) and ReadRecords(s, files, opt): every record, a
//     PCollection<string>.
//   - ReadRecordsWithPosition: every record with its file and offset, a
//     PCollection<Record>.
//   - CountRecords: the number of records of each file, a PCollection<KV<string, int64>>,
//     counted inside each section: no record becomes an element.
//   - Sections: embed it in a DoFn of your own and call Each to run a function on every
//     record of a section, emitting only what it aggregates. Making every record an
//     element costs several times more than the reading itself (see the project's
//     docs/distributed.md).
//
// # Sections and restrictions
//
// The DoFns are splittable: a file's restriction is the byte range [0, size), cut into
// pieces of Sections.SectionSize (64 MiB by default), each read with
// linereader.NewSection. Each record is claimed by the offset of its first byte before it
// is used, so when a runner splits a range at some offset while it is read, the worker
// stops before the first record starting at or after it and the new range yields exactly
// those records. Records of many lines (Options.Multiline) are split the same way: a
// section begins at the first record beginning at or after its offset (its patterns reach
// the workers as their source text, as encoding/json gives a *regexp.Regexp).
//
// A compressed file whose text is read (*.gz by its name, any format with
// Options.Decompress) is cut in sections of its decompressed text when it has an index
// (package zindex): a fresh NAME.zidx beside it (a local file or an object), or a structure
// that gives one (BGZF, xz with several blocks, zstd frames with their sizes). Its
// restriction is then [0, text size), offsets count text bytes, and each section decodes
// from the access point at its start (sections start a separator's length past access
// points), with the index made or loaded once per worker process.
//
// A file is read whole, by one worker, when its bytes cannot be read at an offset or its
// records cannot be found from an arbitrary offset: a compressed file without an index (a
// plain .gz without NAME.zidx, bzip2, one zstd frame or xz block, gzip with trailing
// data), a Beam filesystem whose reader is not an io.ReaderAt (memfs://, or gs:// and
// s3:// through Beam's own filesystems), and the options that linereader.NewSection
// refuses with linereader.ErrNotSplittable (Paragraph, Whole, Limit, a Sep that can overlap
// itself such as "aa"). Offsets then count the decompressed bytes.
//
// # Object stores
//
// s3://bucket/glob and gs://bucket/glob are listed (MatchFiles) and read by this package's
// own clients (package objstore: aws-sdk-go-v2's default chain, with AWS_ENDPOINT_URL for an
// S3-compatible server; cloud.google.com/go/storage's defaults, with STORAGE_EMULATOR_HOST
// for an emulator), not by Beam's filesystems: a plain object is cut into sections as a
// local file is, and each section is read with ranged GETs from just before its start to
// just past its end, so that the bytes transferred stay close to the object's size
// however many sections it has. A compressed object with an index is read in sections of
// its text, by ranged GETs of its compressed bytes; one without is read once, whole. Each section
// checks that the object still has the size it was listed with, and every GET that its
// version (ETag, generation) has not changed; a server that ignores the Range header is
// refused.
//
// # Limits
//
// The files must not change while the job runs: the ranges are computed from the sizes
// seen when the files were matched (objects that change are detected and fail the job;
// local files are not checked). Every DoFn and function of a pipeline must be
// registered with beam/register, or Prism (which runs the SDK the way a distributed runner
// does) fails where the direct runner did not. LineNo has no meaning across sections and is
// not reported.
package foreachio
