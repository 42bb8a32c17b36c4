package foreachio

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/foreachio/foreach/beam/objstore"
)

func init() {
	register.DoFn3x1[context.Context, string, func(fileio.FileMetadata), error](&matchObjectsFn{})
	register.Emitter1[fileio.FileMetadata]()
}

// MatchFiles is fileio.MatchFiles, except that an s3:// or gs:// glob is listed by this
// package's own clients (see the objstore package for their configuration), which the
// sections of those objects are read with: no Beam filesystem need be registered for the
// scheme. A glob that matches nothing fails the job when it has no wildcard (a name that
// does not exist), as fileio.MatchFiles does.
func MatchFiles(s beam.Scope, glob string) beam.PCollection {
	if !objstore.IsObjectURI(glob) {
		return fileio.MatchFiles(s, glob)
	}
	s = s.Scope("foreachio.MatchFiles")
	return beam.ParDo(s, &matchObjectsFn{}, beam.Create(s, glob))
}

type matchObjectsFn struct{}

func (matchObjectsFn) ProcessElement(ctx context.Context, glob string, emit func(fileio.FileMetadata)) error {
	infos, err := objstore.List(ctx, glob)
	if err != nil {
		return fmt.Errorf("foreachio: %w", err)
	}
	if len(infos) == 0 && !strings.ContainsAny(glob, "*?[") {
		return fmt.Errorf("foreachio: %s: %w: no such object", glob, objstore.ErrNotFound)
	}
	for _, in := range infos {
		emit(fileio.FileMetadata{Path: in.URI, Size: in.Size, LastModified: in.ModTime})
	}
	return nil
}

// gzipName reports whether a file is decompressed by its name, as fileio does.
func gzipName(path string) bool { return strings.HasSuffix(path, ".gz") }

// openObject opens an object as it was listed: one that has changed size since is an
// error, since the sections were cut for the old size.
func openObject(ctx context.Context, file fileio.ReadableFile) (*objstore.Object, error) {
	obj, err := objstore.Open(ctx, file.Metadata.Path)
	if err != nil {
		return nil, err
	}
	if obj.Size != file.Metadata.Size {
		return nil, fmt.Errorf("objstore: %s: %w (%d bytes when listed, %d now)", obj.URI, objstore.ErrChanged, file.Metadata.Size, obj.Size)
	}
	return obj, nil
}

// objectStream is an object read whole and sequentially, decompressed when its name
// ends in .gz.
func objectStream(ctx context.Context, obj *objstore.Object) (io.ReadCloser, error) {
	rc, err := obj.NewStream(ctx)
	if err != nil || !gzipName(obj.URI) {
		return rc, err
	}
	zr, err := gzip.NewReader(rc)
	if err != nil {
		rc.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, rc}, nil
}
