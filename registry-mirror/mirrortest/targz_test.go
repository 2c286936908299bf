package mirrortest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTarGz(t *testing.T) {
	data := TarGz(t,
		File{Name: "dir/", Mode: fs.ModeDir | 0o755},
		File{Name: "dir/a", Body: "A"},
		File{Name: "run", Mode: 0o755, Body: "#!/bin/sh"},
		File{Name: "link", Mode: fs.ModeSymlink | 0o777, Body: "dir/a"},
	)
	want := []string{"dir/ dir 755 ", "dir/a reg 644 A", "run reg 755 #!/bin/sh", "link symlink 777 dir/a"}
	if diff := cmp.Diff(want, untar(t, data)); diff != "" {
		t.Errorf("TarGz() entries mismatch (-want +got):\n%s", diff)
	}
}

func TestModule(t *testing.T) {
	got := untar(t, Module(t, "1.2.3"))
	if len(got) != 2 || !bytes.Contains([]byte(got[0]), []byte(`input = "echo 1.2.3"`)) {
		t.Errorf("Module(1.2.3) entries = %q, want main.tf saying its version, and a README", got)
	}
}

// untar lists a gzipped tar's entries as "name type mode body".
func untar(t *testing.T, data []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("gzip.NewReader() = %v", err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("tar Next() = %v", err)
		}
		body, _ := io.ReadAll(tr)
		typ := map[byte]string{tar.TypeDir: "dir", tar.TypeReg: "reg", tar.TypeSymlink: "symlink"}[h.Typeflag]
		if h.Typeflag == tar.TypeSymlink {
			body = []byte(h.Linkname)
		}
		got = append(got, fmt.Sprintf("%s %s %o %s", h.Name, typ, h.Mode, body))
	}
	return got
}
