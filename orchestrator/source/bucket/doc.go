// Package bucket fetches the code of a Flux Bucket source (provider
// generic or aws) as source-controller fetches it: the bucket's
// .sourceignore, spec.ignore and source-controller's default exclusions
// leave objects out; the objects under spec.prefix are listed with their
// ETags, and the sha256 of that index is the revision. The content is
// kept in the cache directory under the revision, so unchanged objects
// are never downloaded again. The S3 API is reached with aws-sdk-go-v2
// behind the small interface API.
package bucket
