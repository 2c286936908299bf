// Package realpath resolves the symbolic links of many paths under the
// same directories, as filepath.EvalSymlinks does, with each directory
// resolved once.
//
// In: clean paths, most of them under directories already asked about
// (a fleet's thousands of Kustomization directories, their files). Out:
// what filepath.EvalSymlinks returns for each. EvalSymlinks takes an lstat
// for every component of every path; a Cache takes one for each path it
// has not resolved before, and resolves a path that is no symbolic link
// as its parent's resolution and its name. A Cache never sees a directory
// change after it resolved it: keep one for one load or one check.
package realpath
