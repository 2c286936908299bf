// Package filestat says what a file's stat tells of its content without
// reading it: its size, device, inode, and modification and change
// times. Two stats with the same signature are of the same content,
// unless the file changed again within the same tick of the file
// system's clock; a caller that keeps a signature keeps it only for a
// file whose change time is well before it read the content (Racy), as
// Git's index does with its racily clean entries.
package filestat
