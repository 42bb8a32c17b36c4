package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/foreachio/foreach/beam/internal/fakestore"
	"github.com/foreachio/foreach/beam/objstore"
	"github.com/foreachio/foreach/linereader"
)

// servers runs f against each fake store, a bucket "b" created in it.
func servers(t *testing.T, f func(t *testing.T, s *fakestore.Server)) {
	for _, start := range []func(testing.TB) *fakestore.Server{fakestore.S3, fakestore.GCS} {
		s := start(t)
		t.Run(s.Scheme, func(t *testing.T) {
			s.Bucket(t, "b")
			f(t, s)
		})
	}
}

// shapes are objects cut at every kind of boundary.
func shapes() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var straddle, crlf bytes.Buffer
	for straddle.Len() < 300<<10 {
		fmt.Fprintf(&straddle, "%s\n", strings.Repeat("x", rng.IntN(3000)))
		fmt.Fprintf(&crlf, "%s\r\n", strings.Repeat("y", rng.IntN(200)))
	}
	huge := "head\n" + strings.Repeat("h", 1<<20) + "\ntail\n"
	return map[string][]byte{
		"straddle.txt": straddle.Bytes(),
		"crlf.txt":     crlf.Bytes(),
		"nofinal.txt":  []byte("one\ntwo\nthree without newline"),
		"empty.txt":    nil,
		"huge.txt":     []byte(huge),
		"newlines.txt": bytes.Repeat([]byte("\n"), 5000),
	}
}

// records is the reference: one sequential read of data.
func records(t *testing.T, data []byte, opt linereader.Options) []string {
	t.Helper()
	r := linereader.New(bytes.NewReader(data), opt)
	var out []string
	for rec := range r.Views() {
		out = append(out, fmt.Sprintf("%d:%s", r.Offset(), rec))
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sectioned reads an object in k sections, each through its own Reader, as workers do.
func sectioned(t *testing.T, obj *objstore.Object, k int, opt linereader.Options) []string {
	t.Helper()
	var out []string
	for _, sp := range linereader.Partition(obj.Size, k) {
		ra := obj.ReaderAt(context.Background(), sp.End)
		r := linereader.NewSection(ra, sp.Start, sp.End, opt)
		for rec := range r.Views() {
			out = append(out, fmt.Sprintf("%d:%s", r.Offset(), rec))
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		ra.Close()
	}
	return out
}

func TestSectionsMatchASequentialRead(t *testing.T) {
	servers(t, func(t *testing.T, s *fakestore.Server) {
		for name, data := range shapes() {
			uri := s.Put(t, "b", "dir/"+name, data)
			for _, opt := range []linereader.Options{{}, {Sep: []byte("\r\n"), Chomp: true}} {
				want := records(t, data, opt)
				for _, k := range []int{1, 4, 16, 100} {
					obj, err := objstore.Open(context.Background(), uri)
					if err != nil {
						t.Fatal(err)
					}
					if obj.Size != int64(len(data)) {
						t.Fatalf("%s: size %d, want %d", uri, obj.Size, len(data))
					}
					got := sectioned(t, obj, k, opt)
					if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
						t.Fatalf("%s in %d sections, sep %q: %d records differ from the %d of a sequential read", uri, k, opt.Sep, len(got), len(want))
					}
				}
			}
		}
	})
}

// The goal of the issue: bytes sent for an object read in k sections at most 1.05× its
// size plus 1 MiB per section.
func TestBytesSentStayCloseToTheSize(t *testing.T) {
	servers(t, func(t *testing.T, s *fakestore.Server) {
		var data bytes.Buffer
		rng := rand.New(rand.NewPCG(3, 4))
		for data.Len() < 24<<20 {
			fmt.Fprintf(&data, "%s\n", strings.Repeat("z", rng.IntN(400)))
		}
		uri := s.Put(t, "b", "big.log", data.Bytes())
		want := len(records(t, data.Bytes(), linereader.Options{}))
		for _, k := range []int{1, 4, 16} {
			obj, err := objstore.Open(context.Background(), uri)
			if err != nil {
				t.Fatal(err)
			}
			before := s.Sent.Load()
			if got := len(sectioned(t, obj, k, linereader.Options{})); got != want {
				t.Fatalf("%d sections: %d records, want %d", k, got, want)
			}
			sent := s.Sent.Load() - before
			limit := int64(1.05*float64(data.Len())) + int64(k)<<20
			t.Logf("%s, %d sections: %d bytes sent for %d (%.4f×), %d received", s.Scheme, k, sent, data.Len(), float64(sent)/float64(data.Len()), obj.BytesReceived())
			if sent > limit {
				t.Errorf("%d sections: %d bytes sent, more than %d", k, sent, limit)
			}
			if obj.BytesReceived() < int64(data.Len()) {
				t.Errorf("%d sections: %d bytes received, fewer than the object's %d", k, obj.BytesReceived(), data.Len())
			}
		}
	})
}

func TestStreamReadsTheWholeObject(t *testing.T) {
	servers(t, func(t *testing.T, s *fakestore.Server) {
		data := shapes()["straddle.txt"]
		obj, err := objstore.Open(context.Background(), s.Put(t, "b", "x", data))
		if err != nil {
			t.Fatal(err)
		}
		rc, err := obj.NewStream(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %d bytes, %v; want the %d of the object", len(got), err, len(data))
		}
	})
}

func TestList(t *testing.T) {
	servers(t, func(t *testing.T, s *fakestore.Server) {
		for _, key := range []string{"logs/a.log", "logs/b.log", "logs/c.txt", "logs/sub/d.log", "other/e.log"} {
			s.Put(t, "b", key, []byte(key+"\n"))
		}
		infos, err := objstore.List(context.Background(), s.Scheme+"://b/logs/*.log")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range infos {
			got = append(got, fmt.Sprintf("%s %d", in.URI, in.Size))
		}
		want := []string{s.Scheme + "://b/logs/a.log 11", s.Scheme + "://b/logs/b.log 11"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("listed %q, want %q", got, want)
		}
		if infos, err := objstore.List(context.Background(), s.Scheme+"://b/none/*"); err != nil || len(infos) != 0 {
			t.Fatalf("a glob that matches nothing: %v, %v", infos, err)
		}
		if _, err := objstore.List(context.Background(), s.Scheme+"://nobucket/*"); !errors.Is(err, objstore.ErrNotFound) ||
			!strings.Contains(err.Error(), s.Scheme+"://nobucket/*") {
			t.Fatalf("missing bucket: %v", err)
		}
	})
}

// errorIs checks that err wraps target and names the object.
func errorIs(t *testing.T, what string, err, target error, uri, detail string) {
	t.Helper()
	if !errors.Is(err, target) || !strings.Contains(err.Error(), uri) || !strings.Contains(err.Error(), detail) {
		t.Errorf("%s: got %v; want %v naming %s and saying %q", what, err, target, uri, detail)
	}
}

func TestErrorsNameTheObject(t *testing.T) {
	ctx := context.Background()
	servers(t, func(t *testing.T, s *fakestore.Server) {
		uri := s.Put(t, "b", "obj", shapes()["straddle.txt"])

		_, err := objstore.Open(ctx, s.Scheme+"://nobucket/obj")
		errorIs(t, "missing bucket", err, objstore.ErrNotFound, s.Scheme+"://nobucket/obj", "no such bucket")
		_, err = objstore.Open(ctx, s.Scheme+"://b/missing")
		errorIs(t, "missing object", err, objstore.ErrNotFound, s.Scheme+"://b/missing", "no such object")

		s.Deny.Store(true)
		_, err = objstore.Open(ctx, uri)
		errorIs(t, "denied", err, objstore.ErrDenied, uri, "access denied")
		s.Deny.Store(false)

		obj, err := objstore.Open(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1000)

		s.IgnoreRange.Store(true)
		_, err = obj.ReaderAt(ctx, obj.Size).ReadAt(buf, 5000)
		errorIs(t, "range ignored", err, objstore.ErrRangeIgnored, uri, "Range")
		s.IgnoreRange.Store(false)

		// Every response cut after 100 bytes: what follows is the SDK's retry policy. The
		// S3 SDK retries a request that fails, not a body that breaks: the read fails,
		// naming the object. The GCS library reopens a broken read where it stopped: the
		// read gets the right bytes, 100 at a time.
		s.BreakAfter.Store(100)
		requests := s.Requests.Load()
		n, err := obj.ReaderAt(ctx, obj.Size).ReadAt(buf, 5000)
		switch s.Scheme {
		case "s3":
			if err == nil || !strings.Contains(err.Error(), uri) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("a response cut after 100 bytes: %v, want an unexpected EOF naming %s", err, uri)
			}
		case "gs":
			if err != nil || n != len(buf) || !bytes.Equal(buf, shapes()["straddle.txt"][5000:6000]) || s.Requests.Load()-requests < 10 {
				t.Errorf("a response cut after 100 bytes: %d bytes, %v, in %d requests; want the 1000 bytes in 10 or more", n, err, s.Requests.Load()-requests)
			}
		}
		s.BreakAfter.Store(0)

		s.Put(t, "b", "obj", []byte("another version\n"))
		_, err = obj.ReaderAt(ctx, obj.Size).ReadAt(buf, 5000)
		errorIs(t, "changed", err, objstore.ErrChanged, uri, "changed")
	})
}
