package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteRusage(t *testing.T) {
	t.Run("unset writes nothing", func(t *testing.T) {
		t.Setenv(envRusageFile, "")
		if err := writeRusage(); err != nil {
			t.Errorf("writeRusage() = %v, want nil", err)
		}
	})
	t.Run("set writes strata's own usage", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "rusage.json")
		t.Setenv(envRusageFile, p)
		if err := writeRusage(); err != nil {
			t.Fatalf("writeRusage() = %v, want nil", err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got rusage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("writeRusage() wrote %q: %v", b, err)
		}
		// A running test has used some CPU and holds some memory.
		// A running test has used some CPU and holds some memory, part
		// of it its binary's pages.
		if got.SelfCPUSeconds <= 0 || got.SelfMaxRSSKiB <= 0 || got.ChildrenCPUSeconds < 0 {
			t.Errorf("writeRusage() = %+v, want positive CPU and peak RSS", got)
		}
		if got.SelfFileRSSKiB <= 0 || got.SelfFileRSSKiB > got.SelfMaxRSSKiB {
			t.Errorf("writeRusage() = %+v, want a file RSS above 0 and within the peak RSS", got)
		}
		if got.SelfBinaryRSSKiB <= 0 || got.SelfBinaryRSSKiB > got.SelfFileRSSKiB {
			t.Errorf("writeRusage() = %+v, want the binary's RSS above 0 and within the file RSS", got)
		}
	})
	t.Run("a file that cannot be written is an error", func(t *testing.T) {
		t.Setenv(envRusageFile, filepath.Join(t.TempDir(), "missing", "rusage.json"))
		if err := writeRusage(); err == nil {
			t.Errorf("writeRusage() = nil, want an error")
		}
	})
}

func TestFileRSS(t *testing.T) {
	tests := []struct {
		name, status string
		want         int64
	}{
		{name: "the RssFile line", status: "Name:\tstrata\nRssAnon:\t   42180 kB\nRssFile:\t   51236 kB\nRssShmem:\t       0 kB\n", want: 51236},
		{name: "no RssFile line", status: "Name:\tstrata\nRssAnon:\t   42180 kB\n", want: 0},
		{name: "not a number", status: "RssFile:\t   many kB\n", want: 0},
		{name: "another unit", status: "RssFile:\t   5 MB\n", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "status")
			if err := os.WriteFile(p, []byte(tt.status), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := fileRSS(p); got != tt.want {
				t.Errorf("fileRSS(%q) = %d, want %d", tt.status, got, tt.want)
			}
		})
	}
	t.Run("a missing file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "missing")
		if got := fileRSS(p); got != 0 {
			t.Errorf("fileRSS(%q) = %d, want 0", p, got)
		}
	})
}

func TestMappedRSS(t *testing.T) {
	const smaps = `00400000-035a6000 r-xp 00000000 fe:00 9978458                            /opt/strata bin/strata
Size:              52888 kB
Rss:               31320 kB
Pss:               31320 kB
035a6000-07237000 r--p 031a6000 fe:00 9978458                            /opt/strata bin/strata
Size:              62020 kB
Rss:               29892 kB
07237000-07480000 rw-p 06e37000 fe:00 9978458                            /opt/strata bin/strata
Rss:                1060 kB
07480000-0749d000 rw-p 00000000 00:00 0
Rss:                 244 kB
7fce71e00000-7fce72600000 r--s 00000000 fe:00 11496081                   /state/history.db
Rss:                5996 kB
7fce824a0000-7fce82600000 rw-p 00000000 00:00 0                          [heap]
Rss:                1116 kB
`
	tests := []struct {
		name, path string
		want       int64
	}{
		{name: "every mapping of the executable, its path with a space", path: "/opt/strata bin/strata", want: 31320 + 29892 + 1060},
		{name: "another file", path: "/state/history.db", want: 5996},
		{name: "a path not mapped", path: "/opt/strata", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mappedRSS([]byte(smaps), tt.path); got != tt.want {
				t.Errorf("mappedRSS(smaps, %q) = %d, want %d", tt.path, got, tt.want)
			}
		})
	}
}
