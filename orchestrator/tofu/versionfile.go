package tofu

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/internal/atomicfile"
)

// A version file keeps each tofu binary's version across processes, as
// versions keeps it within one: a process that runs a few stacks asked
// `tofu version -json` before its first plan, one tofu process on the
// way to every other. It is JSON, an object of each binary's path and
// what versionKey says of it; an entry whose binary has another size or
// modification time now does not count, and a file that does not decode
// is taken as empty and written anew, so deleting it is always safe.
type versionEntry struct {
	Size    int64  `json:"size"`
	MTime   int64  `json:"mtime"`
	Version string `json:"version"`
}

// readVersionFile is the version file's version of the binary key names,
// if it has one for that binary as it is now.
func readVersionFile(file string, key versionKey) (string, bool) {
	if file == "" {
		return "", false
	}
	entries := readVersionEntries(file)
	e, ok := entries[fileKey(key.path)]
	if !ok || e.Size != key.size || e.MTime != key.mtime || e.Version == "" {
		return "", false
	}
	return e.Version, true
}

// fileKey is the binary's path as the version file keeps it: absolute,
// since the next process may run from another directory.
func fileKey(binary string) string {
	if abs, err := filepath.Abs(binary); err == nil {
		return abs
	}
	return binary
}

// readVersionEntries reads the version file; nil when there is none or it
// does not decode.
func readVersionEntries(file string) map[string]versionEntry {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var entries map[string]versionEntry
	if json.Unmarshal(b, &entries) != nil {
		return nil
	}
	return entries
}

// writeVersionFile keeps version as the version of the binary key names,
// beside what the file says of other binaries.
func writeVersionFile(file string, key versionKey, version string) error {
	if file == "" {
		return nil
	}
	entries := readVersionEntries(file)
	if entries == nil {
		entries = map[string]versionEntry{}
	}
	entries[fileKey(key.path)] = versionEntry{Size: key.size, MTime: key.mtime, Version: version}
	b, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(file, b, 0o600); err != nil {
		return fmt.Errorf("keep version in %s: %w", file, err)
	}
	return nil
}
