// Package storage is where the registry mirror keeps its files: a
// directory or an S3 bucket, behind one small interface, [Storage], with
// the same layout in both. Files are written atomically: [Storage.Create]
// publishes a new file only while its name is free, so a published file
// is never replaced, and [Storage.Replace] swaps a small file whole.
//
// A directory ([NewDir]) is reached through an os.Root, so no key leaves
// it, even through a symbolic link; files are 0644 and directories 0755.
// A bucket ([NewS3]) keeps objects under a prefix, encrypted with SSE-S3,
// and creates them with a conditional PutObject (If-None-Match: *).
package storage
