// Package yamltest compares yaml.v3 node trees for tests: every field a
// decoder or a writer of nodes sets (kind, style, tag, value, anchor,
// alias, comments, line and column), and each node's children, so that a
// reader or writer held to another is held to it node for node.
package yamltest
