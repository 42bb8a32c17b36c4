package objstore

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"sync"
	"time"
)

// The clients, one per service and configuration, made when first needed and kept for the
// process: a worker reads many sections of many objects, and a client holds its
// connections and credentials. The key includes the environment variables that point a
// client elsewhere, so a process that changes them (a test starting its own server) gets
// a client for the new place.
var clients struct {
	sync.Mutex
	m map[string]store
}

func storeFor(ctx context.Context, scheme string) (store, error) {
	var key string
	var mk func(context.Context) (store, error)
	switch scheme {
	case "s3":
		key, mk = "s3 "+os.Getenv("AWS_ENDPOINT_URL")+" "+os.Getenv("AWS_ENDPOINT_URL_S3")+" "+os.Getenv("AWS_PROFILE"), newS3
	case "gs":
		key, mk = "gs "+os.Getenv("STORAGE_EMULATOR_HOST"), newGCS
	default:
		return nil, fmt.Errorf("objstore: unknown scheme %q (s3:// and gs:// are read)", scheme)
	}
	clients.Lock()
	defer clients.Unlock()
	if st, ok := clients.m[key]; ok {
		return st, nil
	}
	// Made with a context of its own: the client outlives the call that made it.
	st, err := mk(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	if clients.m == nil {
		clients.m = map[string]store{}
	}
	clients.m[key] = st
	return st, nil
}

// split cuts scheme://bucket/key into its parts.
func split(uri string) (scheme, bucket, key string, err error) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || (scheme != "s3" && scheme != "gs") {
		return "", "", "", fmt.Errorf("objstore: %s: not an s3:// or gs:// URI", uri)
	}
	bucket, key, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", "", fmt.Errorf("objstore: %s: no bucket", uri)
	}
	return scheme, bucket, key, nil
}

func parse(ctx context.Context, uri string) (store, string, string, error) {
	scheme, bucket, key, err := split(uri)
	if err != nil {
		return nil, "", "", err
	}
	st, err := storeFor(ctx, scheme)
	return st, bucket, key, err
}

// List returns the objects whose URIs match glob (s3://bucket/pattern or
// gs://bucket/pattern, the pattern as path.Match takes it: * and ? do not cross a /),
// sorted by key. The bucket name takes no pattern. An error names the glob and wraps
// ErrNotFound for a missing bucket and ErrDenied where the store says so; a glob that
// matches nothing is not an error.
func List(ctx context.Context, glob string) ([]Info, error) {
	scheme, bucket, pattern, err := split(glob)
	if err != nil {
		return nil, err
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, fmt.Errorf("objstore: %s: %w", glob, err)
	}
	st, err := storeFor(ctx, scheme)
	if err != nil {
		return nil, err
	}
	// The prefix before the first pattern character limits what the store lists.
	prefix := pattern[:strings.IndexAny(pattern+"*", "*?[\\")]
	var out []Info
	err = st.list(ctx, bucket, prefix, func(key string, size int64, mod time.Time) error {
		if ok, _ := path.Match(pattern, key); ok && !strings.HasSuffix(key, "/") {
			out = append(out, Info{URI: scheme + "://" + bucket + "/" + key, Size: size, ModTime: mod})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("objstore: %s: %w", glob, err)
	}
	return out, nil
}
