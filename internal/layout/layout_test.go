package layout

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/strata-iac/strata"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Dir        string
	Imports    []string
}

// packages lists every package of the module.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, &errOut)
	}
	var pkgs []pkg
	dec := json.NewDecoder(&out)
	for {
		var p pkg
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return pkgs
		}
		if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// upward are the packages under orchestrator/ that import the
// orchestrator package itself today. The architecture step (the pipeline
// in orchestrator/reconcile) removes them; none may be added.
var upward = []string{"change", "controller", "daemon", "review", "runjob", "web"}

func TestLayout(t *testing.T) {
	pkgs := packages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list ./... = %d packages, want the whole module", len(pkgs))
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		t.Run(rel, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(p.Dir, "doc.go"))
			if err != nil || !bytes.HasPrefix(b, []byte("//")) {
				t.Errorf("%s has no doc.go that opens with what the package is (%v)", rel, err)
			}
			for _, imp := range p.Imports {
				if !strings.HasPrefix(imp, module+"/") {
					continue
				}
				to := strings.TrimPrefix(imp, module+"/")
				switch {
				case strings.HasPrefix(to, "cmd/"):
					t.Errorf("%s imports the command %s: commands are the top, nothing imports them", rel, to)
				case strings.HasPrefix(rel, "internal/") && !strings.HasPrefix(to, "internal/"):
					t.Errorf("%s imports %s: internal/ is the bottom, it imports nothing of the project outside it", rel, to)
				case to == "orchestrator" && strings.HasPrefix(rel, "orchestrator/"):
					room, _, _ := strings.Cut(strings.TrimPrefix(rel, "orchestrator/"), "/")
					if !slices.Contains(upward, room) {
						t.Errorf("%s imports the orchestrator package from below it: the pipeline imports the rooms, not the other way", rel)
					}
				}
			}
		})
	}
}
