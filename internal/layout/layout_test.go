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
	ImportPath   string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
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

// rooms are the packages whose imports of the project are a closed list
// (internal/ is always allowed): the model imports only the problems it
// carries, the Flux renderer only what it renders with, never what runs,
// plans or keeps records, and the Tofu Controller's rules only the model
// they fill, never the renderer.
var rooms = map[string][]string{
	"orchestrator/environment": {"orchestrator/diag"},
	"orchestrator/flux": {
		"orchestrator/checkout", "orchestrator/decryption", "orchestrator/diag", "orchestrator/environment",
		"orchestrator/rendercache", "orchestrator/statedir", "orchestrator/tcdata",
		"orchestrator/tofucontroller", "orchestrator/yamllimits",
	},
	"orchestrator/tofucontroller": {"orchestrator/diag", "orchestrator/environment", "orchestrator/tcdata"},
}

func TestLayout(t *testing.T) {
	pkgs := packages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list ./... = %d packages, want the whole module", len(pkgs))
	}
	arch, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		t.Run(rel, func(t *testing.T) {
			if !bytes.Contains(arch, []byte("- `"+rel+"`: ")) {
				t.Errorf("docs/architecture.md has no line for %s: add \"- `%s`: what it is\" to its list of packages", rel, rel)
			}
			if files := slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles); rel == "orchestrator" && !slices.Equal(files, []string{"doc.go"}) {
				t.Errorf("orchestrator holds %v: it holds only its doc.go, and the engine's code is in its subpackages (the pipeline is orchestrator/reconcile)", files)
			}
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
				case rooms[rel] != nil && !strings.HasPrefix(to, "internal/") && !slices.Contains(rooms[rel], to):
					t.Errorf("%s imports %s: it may import only %s of the project (and internal/)", rel, to, strings.Join(rooms[rel], ", "))
				case to == "orchestrator":
					t.Errorf("%s imports the orchestrator package, which holds only its doc.go: import the subpackage that does the job", rel)
				case to == "orchestrator/reconcile" && strings.HasPrefix(rel, "orchestrator/"):
					t.Errorf("%s imports the pipeline, orchestrator/reconcile, from below it: the pipeline imports the rooms, not the other way (a driver takes an interface of its own, as daemon.Pipeline and controller.Pipeline, which the command fills with reconcile.Pipeline)", rel)
				}
			}
		})
	}
}
