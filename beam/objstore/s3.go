package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// s3Store reads S3 objects; an ETag is an object's version.
type s3Store struct{ client *s3.Client }

// newS3 configures a client from aws-sdk-go-v2's default chain. An endpoint set in the
// environment or the shared config (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, endpoint_url)
// is an S3-compatible server: those address buckets by path, not by host name.
func newS3(ctx context.Context) (store, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("objstore: loading the AWS configuration: %w", err)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if o.BaseEndpoint != nil {
			o.UsePathStyle = true
		}
		// A ranged GET carries no checksum of the whole object to check; the SDK would
		// log that it skipped the check on every window.
		o.DisableLogOutputChecksumValidationSkipped = true
	})
	return &s3Store{client}, nil
}

func (s *s3Store) stat(ctx context.Context, bucket, key string) (Info, string, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		return Info{}, "", s.explain(ctx, bucket, err)
	}
	return Info{Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)}, aws.ToString(out.ETag), nil
}

func (s *s3Store) rangeBody(ctx context.Context, bucket, key, etag string, off, n int64) (io.ReadCloser, error) {
	want := fmt.Sprintf("bytes %d-%d/", off, off+n-1)
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key, Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))}
	if etag != "" {
		in.IfMatch = &etag
	}
	out, err := s.client.GetObject(ctx, in)
	if err != nil {
		return nil, s.explain(ctx, bucket, err)
	}
	switch {
	case etag != "" && aws.ToString(out.ETag) != etag:
		// A server that does not check If-Match still reports the version it sent.
		out.Body.Close()
		return nil, fmt.Errorf("%w (ETag %s, now %s)", ErrChanged, etag, aws.ToString(out.ETag))
	case !strings.HasPrefix(aws.ToString(out.ContentRange), want) || aws.ToInt64(out.ContentLength) != n:
		out.Body.Close()
		return nil, fmt.Errorf("%w: asked for bytes %d-%d, got Content-Range %q and %d bytes",
			ErrRangeIgnored, off, off+n-1, aws.ToString(out.ContentRange), aws.ToInt64(out.ContentLength))
	}
	return out.Body, nil
}

func (s *s3Store) list(ctx context.Context, bucket, prefix string, fn func(string, int64, time.Time) error) error {
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &prefix})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return s.explain(ctx, bucket, err)
		}
		for _, o := range page.Contents {
			if err := fn(aws.ToString(o.Key), aws.ToInt64(o.Size), aws.ToTime(o.LastModified)); err != nil {
				return err
			}
		}
	}
	return nil
}

// explain turns the SDK's error into one that wraps this package's where it can: a HEAD
// answers 404 without saying whether the bucket or the object is missing, so it asks.
func (s *s3Store) explain(ctx context.Context, bucket string, err error) error {
	var ae smithy.APIError
	code := ""
	if errors.As(err, &ae) {
		code = ae.ErrorCode()
	}
	var re interface{ HTTPStatusCode() int }
	status := 0
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	switch {
	case code == "NoSuchBucket":
		return fmt.Errorf("%w: no such bucket", ErrNotFound)
	case code == "NoSuchKey":
		return fmt.Errorf("%w: no such object", ErrNotFound)
	case status == http.StatusNotFound:
		if _, berr := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &bucket}); berr != nil {
			return fmt.Errorf("%w: no such bucket", ErrNotFound)
		}
		return fmt.Errorf("%w: no such object", ErrNotFound)
	case status == http.StatusForbidden || status == http.StatusUnauthorized || code == "AccessDenied":
		return fmt.Errorf("%w: %v", ErrDenied, err)
	case status == http.StatusPreconditionFailed || code == "PreconditionFailed":
		return fmt.Errorf("%w (its ETag is no longer the one first seen)", ErrChanged)
	case status == http.StatusRequestedRangeNotSatisfiable:
		return fmt.Errorf("%w (it is now shorter than the range read)", ErrChanged)
	}
	return err
}
