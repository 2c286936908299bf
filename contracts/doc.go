// Package contracts is the data contract between stacks: the JSON document
// a producer's outputs become, and the interface every store of documents
// implements.
//
// A document lives at <prefix>/<contract> (default prefix /configuration)
// and looks like
//
//	{"installed":true,"version":"0.1.3","stack":"foo","updatedAt":"…",
//	 "public":{…},"private":{…},"types":{…}}
//
// types holds, for each key, its type as the JSON text tofu printed for it
// (Build keeps it from the outputs), for writing the Tofu Controller's
// "<key>.type" Secret keys.
//
// Sensitive outputs go to private and the rest to public, unless outputs
// named public and private give the split explicitly. Private values never
// appear in logs or status: show Redacted documents there. Consumers read
// documents whole, or one value by a dotted property path as External
// Secrets does; ReadPath reads every document under a prefix from any
// store, for Select to filter by regex.
package contracts
