// Package plainyaml reads the plainest YAML into the same node trees as
// yaml.v3's Decoder, in a tenth of its time and memory, and declines
// everything else.
//
// A fleet's manifests are mostly a few lines of block mappings and
// sequences of one-line scalars: a Flux Kustomization, a kustomization
// file, a Terraform object. yaml.v3 sets up a scanner, a parser and a
// decoder for each file and allocates about 15 KB to read 300 bytes;
// for 30,000 files that is most of a load's work. Parse takes a file
// only when every line is one of
//
//	key: scalar
//	key:
//	- scalar
//	- key: scalar
//	key: |
//	  text
//	---
//
// at a consistent indentation, each scalar plain (and not a merge key)
// or quoted in one line without an escape, each literal block scalar
// ("|" or "|-", the patch a Flux Kustomization most often carries)
// without a blank line in it or after it, and the whole text printable
// ASCII without a tab, a carriage return, a comment or a backslash. It
// says ok false for anything else (anchors, aliases, tags, flow
// collections, folded, kept and indented block scalars, multi-line
// plain or quoted scalars, comments, empty values or documents,
// anything malformed), and the caller reads the text with
// yaml.v3, which says what is wrong with it. What it takes it returns as
// yaml.v3 does, field for field (kind, style, tag, value, line and
// column); FuzzParse holds it to that against yaml.v3 itself.
package plainyaml
