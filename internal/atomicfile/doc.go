// Package atomicfile writes files so that a reader, or a process killed
// half-way, never sees half of one: the data goes to a temporary file
// beside the target (named ".<name>.tmp-<random>", so listings that skip
// dot files never show it), is synced, then renamed over the target, or
// hard-linked to it when the target must not be replaced. The directory
// is synced after, best effort: some systems cannot sync a directory, and
// the file is in place all the same. A failed write leaves no temporary
// file behind.
//
// Write takes a path; Stream takes a path and a function that writes the
// data, for data too large to hold in memory first; WriteIn and CreateIn
// work inside an os.Root, so that no name leaves the root, even through a
// symbolic link.
package atomicfile
