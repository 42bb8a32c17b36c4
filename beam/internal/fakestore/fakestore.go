// Package fakestore starts S3 and GCS servers for tests, in the test's process on
// 127.0.0.1: gofakes3 (S3, with ranged GETs) and fake-gcs-server, each behind a handler
// that counts the bytes it sends and can be told to misbehave (ignore the Range header,
// deny every request, break every response after some bytes). It points the clients'
// configuration at them through the environment, as a user would (AWS_ENDPOINT_URL,
// STORAGE_EMULATOR_HOST), so the code under test runs unchanged.
package fakestore

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Server is one fake store. Its counters and switches may be read and set while requests
// are served.
type Server struct {
	Scheme string // "s3" or "gs"
	URL    string // http://127.0.0.1:PORT

	Sent     atomic.Int64 // bytes of response bodies sent
	Requests atomic.Int64 // requests served
	Ranged   atomic.Int64 // requests that asked for a Range
	Reads    atomic.Int64 // GET requests for an object's bytes (not listings or metadata)

	IgnoreRange atomic.Bool  // serve ranged GETs as if they asked for the whole object
	Deny        atomic.Bool  // answer every request 403, as a store does to bad credentials
	BreakAfter  atomic.Int64 // > 0: cut every response body after that many bytes

	put func(t testing.TB, bucket, key string, data []byte)
	mkb func(t testing.TB, bucket string)
}

// S3 starts a gofakes3 server and points aws-sdk-go-v2's default chain at it.
func S3(t testing.TB) *Server {
	backend := s3mem.New()
	s := &Server{Scheme: "s3"}
	s.mkb = func(t testing.TB, bucket string) {
		if err := backend.CreateBucket(bucket); err != nil {
			t.Fatal(err)
		}
	}
	s.put = func(t testing.TB, bucket, key string, data []byte) {
		if _, err := backend.PutObject(bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
			t.Fatal(err)
		}
	}
	s.start(t, gofakes3.New(backend).Server(), `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL":            s.URL,
		"AWS_ACCESS_KEY_ID":           "test",
		"AWS_SECRET_ACCESS_KEY":       "test",
		"AWS_REGION":                  "us-east-1",
		"AWS_EC2_METADATA_DISABLED":   "true",
		"AWS_CONFIG_FILE":             t.TempDir() + "/none",
		"AWS_SHARED_CREDENTIALS_FILE": t.TempDir() + "/none",
	} {
		t.Setenv(k, v)
	}
	return s
}

// GCS starts a fake-gcs-server and points cloud.google.com/go/storage at it.
func GCS(t testing.TB) *Server {
	s := &Server{Scheme: "gs"}
	var handler atomic.Pointer[http.Handler]
	s.start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }),
		`{"error":{"code":403,"message":"Access denied."}}`)
	host := strings.TrimPrefix(s.URL, "http://")
	// The client downloads from the emulator's host by path (/bucket/object), which the
	// server serves on its public host only.
	fake, err := fakestorage.NewServerWithOptions(fakestorage.Options{NoListener: true, PublicHost: host})
	if err != nil {
		t.Fatal(err)
	}
	h := fake.HTTPHandler()
	handler.Store(&h)
	s.mkb = func(_ testing.TB, bucket string) { fake.CreateBucket(bucket) }
	s.put = func(_ testing.TB, bucket, key string, data []byte) {
		fake.CreateObject(fakestorage.Object{ObjectAttrs: fakestorage.ObjectAttrs{BucketName: bucket, Name: key}, Content: data})
	}
	t.Setenv("STORAGE_EMULATOR_HOST", host)
	return s
}

// Bucket creates a bucket.
func (s *Server) Bucket(t testing.TB, bucket string) { s.mkb(t, bucket) }

// Put writes an object (replacing any of that key: a new ETag or generation), in a
// bucket that exists, and returns its URI.
func (s *Server) Put(t testing.TB, bucket, key string, data []byte) string {
	s.put(t, bucket, key, data)
	return s.Scheme + "://" + bucket + "/" + key
}

func (s *Server) start(t testing.TB, h http.Handler, denied string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Requests.Add(1)
		if r.Header.Get("Range") != "" {
			s.Ranged.Add(1)
		}
		if objectRead(r) {
			s.Reads.Add(1)
		}
		if s.Deny.Load() {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(denied))
			return
		}
		if s.IgnoreRange.Load() {
			r.Header.Del("Range")
		}
		h.ServeHTTP(&countingWriter{ResponseWriter: w, s: s, limit: s.BreakAfter.Load()}, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
}

// objectRead reports whether a request asks for an object's bytes. Both clients read by
// path, /bucket/key (S3 path style; GCS's XML download path on the emulator's host, or
// its JSON API with alt=media), where listings and metadata are a bucket's path with a
// query (S3), a HEAD (S3), or the JSON API without alt=media (GCS).
func objectRead(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	q := r.URL.Query()
	if q.Get("alt") == "media" {
		return true
	}
	if strings.HasPrefix(r.URL.Path, "/storage/v1/") || q.Has("list-type") || q.Has("prefix") {
		return false
	}
	bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	return bucket != "" && key != ""
}

// countingWriter counts a response's body bytes and, with a limit, breaks the connection
// once that many have gone out.
type countingWriter struct {
	http.ResponseWriter
	s     *Server
	limit int64
	sent  int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.limit > 0 && w.sent+int64(len(p)) > w.limit {
		p = p[:w.limit-w.sent]
		n, _ := w.ResponseWriter.Write(p)
		w.s.Sent.Add(int64(n))
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		panic(http.ErrAbortHandler) // net/http closes the connection mid-body
	}
	n, err := w.ResponseWriter.Write(p)
	w.sent += int64(n)
	w.s.Sent.Add(int64(n))
	return n, err
}
