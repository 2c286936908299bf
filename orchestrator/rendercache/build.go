package rendercache

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// Build names the running binary: its module version and VCS revision,
// and, when those do not pin its code (a modified work tree, no revision,
// a test binary), its executable's size and modification time.
var Build = sync.OnceValue(func() string {
	var b strings.Builder
	pinned := false
	if info, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&b, "%s %s %s %s", info.GoVersion, info.Main.Path, info.Main.Version, info.Main.Sum)
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				fmt.Fprintf(&b, " %s", s.Value)
				pinned = true
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		pinned = pinned && !modified
	}
	if !pinned {
		if exe, err := os.Executable(); err == nil {
			if fi, err := os.Stat(exe); err == nil {
				fmt.Fprintf(&b, " %s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return b.String()
})
