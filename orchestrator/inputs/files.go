package inputs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/orchestrator/yamllimits"
)

// MaxFileSize bounds one manifest file of --inputs.
const MaxFileSize = 4 << 20

// Files are ConfigMaps and Secrets read from manifests on disk, plain or
// SOPS-encrypted (the loader decrypts them with its keys).
type Files struct {
	// objects are by kind/namespace/name; a manifest that names no
	// namespace is under kind//name and stands for every namespace.
	objects map[string]object
	id      string
}

// object is one manifest and the file it came from.
type object struct {
	obj  map[string]any
	file string
}

// ReadFiles reads every YAML file of the given files and directories
// (recursively; dot-directories skipped). Objects of other kinds are
// ignored; a malformed file, or two manifests of the same object, is an
// error naming the file.
func ReadFiles(ctx context.Context, paths []string) (*Files, error) {
	f := &Files{objects: map[string]object{}}
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("read inputs %s: %w", p, err)
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && path != p && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read inputs %s: %w", p, err)
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := readBounded(file)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%d:%s%d:", len(file), file, len(b))
		h.Write(b)
		if err := f.add(file, b); err != nil {
			return nil, err
		}
	}
	f.id = hex.EncodeToString(h.Sum(nil))
	return f, nil
}

// readBounded reads a file of at most MaxFileSize.
func readBounded(file string) ([]byte, error) {
	b, err := regularfile.ReadFile(file, MaxFileSize)
	if errors.Is(err, regularfile.ErrTooLarge) {
		return nil, fmt.Errorf("read inputs %s: the file is larger than the %d MiB strata reads of one inputs file (Kubernetes stores at most 1 MiB in one ConfigMap or Secret): give each ConfigMap and Secret a file of its own, and leave out any other object", file, MaxFileSize>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("read inputs %s: %w", file, err)
	}
	return b, nil
}

// add registers the ConfigMaps and Secrets of one file.
func (f *Files) add(file string, b []byte) error {
	if err := checkShape(file, b); err != nil {
		return err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read inputs %s: document %d: %w", file, i, err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(doc, &m); err != nil {
			return fmt.Errorf("read inputs %s: document %d: %w", file, i, err)
		}
		if m == nil {
			continue
		}
		kind, _ := m["kind"].(string)
		api, _ := m["apiVersion"].(string)
		if api != "v1" || kind != "ConfigMap" && kind != "Secret" {
			continue
		}
		md, _ := m["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		ns, _ := md["namespace"].(string)
		if name == "" {
			return fmt.Errorf("read inputs %s: document %d: %s has no metadata.name", file, i, kind)
		}
		key := kind + "/" + ns + "/" + name
		if prev, ok := f.objects[key]; ok {
			return fmt.Errorf("read inputs %s: %s %s is also in %s: give each object once", file, kind, name, prev.file)
		}
		f.objects[key] = object{obj: m, file: file}
	}
}

// Get returns the manifest of the object: the one of its namespace, else
// one that names none.
func (f *Files) Get(_ context.Context, kind, namespace, name string) (map[string]any, string, error) {
	for _, key := range []string{kind + "/" + namespace + "/" + name, kind + "//" + name} {
		if o, ok := f.objects[key]; ok {
			return runtime.DeepCopyJSON(o.obj), o.file, nil
		}
	}
	return nil, "", nil
}

// Identity is a hash of every file read: what the inputs hold.
func (f *Files) Identity() string { return "files:" + f.id }

// Len is how many ConfigMaps and Secrets the files hold.
func (f *Files) Len() int { return len(f.objects) }

// checkShape holds every document of a file to the limits of a manifest
// (package yamllimits): an alias bomb is refused naming the line of its
// alias before anything expands it. A file that is not YAML is left to
// the reading that follows, which says so.
func checkShape(file string, b []byte) error {
	if ps := yamllimits.Check(file, yamllimits.Decode(b)); len(ps) > 0 {
		return fmt.Errorf("read inputs %s: %s (fix: %s)", file, ps[0].Message, ps[0].Fix)
	}
	return nil
}
