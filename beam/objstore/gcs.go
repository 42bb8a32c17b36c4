package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/iterator"
)

// gcsStore reads GCS objects; a generation (in decimal) is an object's version.
type gcsStore struct{ client *storage.Client }

// newGCS configures a client from the library's defaults (application default
// credentials; STORAGE_EMULATOR_HOST for an emulator, without credentials).
func newGCS(ctx context.Context) (store, error) {
	client, err := storage.NewClient(ctx)
	if err != nil {
		return nil, fmt.Errorf("objstore: making the GCS client: %w", err)
	}
	return &gcsStore{client}, nil
}

func (g *gcsStore) stat(ctx context.Context, bucket, key string) (Info, string, error) {
	a, err := g.client.Bucket(bucket).Object(key).Attrs(ctx)
	if err != nil {
		return Info{}, "", g.explain(ctx, bucket, err)
	}
	return Info{Size: a.Size, ModTime: a.Updated}, strconv.FormatInt(a.Generation, 10), nil
}

func (g *gcsStore) rangeBody(ctx context.Context, bucket, key, version string, off, n int64) (io.ReadCloser, error) {
	// The generation is checked on the response rather than asked for: GCS serves a
	// pinned generation, but emulators do not all keep the generations of a bucket without
	// versioning, and an object replaced since Open is caught either way.
	r, err := g.client.Bucket(bucket).Object(key).NewRangeReader(ctx, off, n)
	if err != nil {
		if err.Error() == "storage: partial request not satisfied" {
			return nil, fmt.Errorf("%w: asked for bytes %d-%d, got the whole object", ErrRangeIgnored, off, off+n-1)
		}
		var ge *googleapi.Error
		if errors.Is(err, storage.ErrObjectNotExist) {
			return nil, fmt.Errorf("%w (it was deleted)", ErrChanged)
		} else if errors.As(err, &ge) && ge.Code == http.StatusRequestedRangeNotSatisfiable {
			return nil, fmt.Errorf("%w (it is now shorter than %d bytes)", ErrChanged, off+n)
		}
		return nil, g.explain(ctx, bucket, err)
	}
	if gen := strconv.FormatInt(r.Attrs.Generation, 10); version != "" && gen != version {
		r.Close()
		return nil, fmt.Errorf("%w (generation %s, now %s)", ErrChanged, version, gen)
	}
	if r.Attrs.StartOffset != off || r.Remain() != n {
		r.Close()
		return nil, fmt.Errorf("%w: asked for bytes %d-%d, got %d bytes from %d",
			ErrRangeIgnored, off, off+n-1, r.Remain(), r.Attrs.StartOffset)
	}
	return r, nil
}

func (g *gcsStore) list(ctx context.Context, bucket, prefix string, fn func(string, int64, time.Time) error) error {
	it := g.client.Bucket(bucket).Objects(ctx, &storage.Query{Prefix: prefix})
	for {
		a, err := it.Next()
		if err == iterator.Done {
			return nil
		}
		if err != nil {
			return g.explain(ctx, bucket, err)
		}
		if err := fn(a.Name, a.Size, a.Updated); err != nil {
			return err
		}
	}
}

// explain turns the library's error into one that wraps this package's where it can: a
// missing object is reported the same whether its bucket exists or not, so it asks.
func (g *gcsStore) explain(ctx context.Context, bucket string, err error) error {
	var ge *googleapi.Error
	status := 0
	if errors.As(err, &ge) {
		status = ge.Code
	}
	switch {
	case errors.Is(err, storage.ErrBucketNotExist):
		return fmt.Errorf("%w: no such bucket", ErrNotFound)
	case errors.Is(err, storage.ErrObjectNotExist) || status == http.StatusNotFound:
		if _, berr := g.client.Bucket(bucket).Attrs(ctx); errors.Is(berr, storage.ErrBucketNotExist) {
			return fmt.Errorf("%w: no such bucket", ErrNotFound)
		}
		return fmt.Errorf("%w: no such object", ErrNotFound)
	case status == http.StatusForbidden || status == http.StatusUnauthorized:
		return fmt.Errorf("%w: %v", ErrDenied, err)
	}
	return err
}
