// Package objstore reads the objects of Amazon S3 and Google Cloud Storage buckets at any
// offset, with ranged GETs, so that a large object can be cut into sections that workers
// read independently (linereader.NewSection, CountAt and NewTail take the io.ReaderAt it
// gives) while the bytes transferred stay close to the object's size, however many sections
// there are.
//
//	obj, err := objstore.Open(ctx, "s3://logs/2026/12/01.log")
//	if err != nil {
//		return err // names the object: no such bucket, no such object, access denied
//	}
//	r := linereader.NewSection(obj.ReaderAt(ctx, end), start, end, linereader.Options{})
//	for rec := range r.Views() {
//		...
//	}
//
// # Configuration
//
// The clients are configured as the clouds' own tools are. S3 uses aws-sdk-go-v2's default
// chain (environment variables, shared config and credentials files, instance and
// container roles); AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3) points it at an
// S3-compatible server such as MinIO, Ceph or R2, and then buckets are addressed by path
// (http://endpoint/bucket/key), which such servers expect. GCS uses
// cloud.google.com/go/storage's defaults (application default credentials);
// STORAGE_EMULATOR_HOST points it at an emulator.
//
// # Reads
//
// A Reader asks the store for windows of the object: a ranged GET from the offset read
// to the end of a window that doubles while the reads stay sequential, and that stops at
// the end of the span its caller said it would read, once, so that reading a little past
// that end (to finish the last record of a section) costs a small window, not the rest of
// the object. A read at another offset closes the current window and opens another. The
// version of the object seen by Open (its S3 ETag, its GCS generation) is asked for on
// every read: an object replaced while it is read fails with ErrChanged instead of mixing
// two versions' bytes. A server that ignores the Range header (answers with the whole
// object) is refused with ErrRangeIgnored rather than read whole once per window.
//
// Errors name the object (s3://bucket/key). Retries are the SDKs' own: a request that
// fails is retried by the SDK's policy; a body that breaks in the middle of a window is
// reported.
package objstore
