// Package local is the default contract store: one JSON file per document
// under a directory, usually the state directory.
//
// The key "/configuration/network" is the file
// <dir>/configuration/network.json. Files are written atomically and
// readable by the owner only, since private values are stored in clear.
package local
