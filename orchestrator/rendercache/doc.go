// Package rendercache keeps a rendered environment in the state
// directory, with everything its render read, so that the next run whose
// inputs are all unchanged reads the result instead of rendering again.
//
// A Recorder notes each input as the render reads it: a file's content,
// whether a path exists and is a file or a directory, a directory's
// listing, a glob's matches, or a whole tree (every name and kind below a
// directory, with the content of each YAML and kustomization file, which
// is what Flux's kustomization generator reads of a directory). Each
// input is kept as a SHA-256 digest, taken before or from the read
// itself, so that a change made while the render runs is a change the
// next run sees. An input read twice with two different results makes the
// entry one that never matches.
//
// An Entry is the key (what is not a file: strata's build, the render's
// options, the decryption keys' identity, the environment's directory),
// the inputs, and the result. Read returns the result only when the key
// is the same and every input, read again now, has the same digest;
// anything else (no entry, a corrupt one, one of another key, one input
// changed) is a miss and the caller renders. Write replaces the entry
// atomically (internal/atomicfile), as a file only its owner reads
// (0600), in a directory only its owner opens (0700): the result may hold
// the values of a repository's plain Secrets. (package flux never
// keeps a render that decrypted SOPS values.)
//
// Build names the running strata binary, for the key: a release by its
// module version and VCS revision, any other build (a modified work
// tree, a test binary) also by its executable's size and modification
// time, so that a rebuilt binary never reads what another one wrote.
package rendercache
