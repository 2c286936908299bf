package policy

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/util"
)

// bundleFS is the default bundle: its rules, their unit tests and data.json.
//
//go:embed bundle/*.rego bundle/*.json
var bundleFS embed.FS

// DefaultBundleName is how the default bundle's files are named in errors
// and test results: the directory that holds them in strata's repository,
// which is also what `conftest test --policy` takes.
const DefaultBundleName = "policy/bundle"

// Options say which rules and data an Engine loads.
type Options struct {
	// Dirs are the user's policy directories (or single files): .rego
	// files, and data as .json, .yaml or .yml files, loaded on top of the
	// default bundle. Data files load under data.<subdirectory path>, the
	// way OPA loads a directory.
	Dirs []string
	// NoDefault replaces the default bundle with Dirs instead of adding to it.
	NoDefault bool
	// IAMAllowedModules are module address prefixes merged into
	// data.strata.iam.allowed_modules, after those of the data files.
	IAMAllowedModules []string
}

// Engine holds compiled rules, ready to judge plans. It is safe for
// concurrent use.
type Engine struct {
	rules      []preparedRule
	exceptions map[string]rego.PreparedEvalQuery // by namespace
}

// preparedRule is one deny, violation or warn rule of one package.
type preparedRule struct {
	namespace string // package path without "data.", e.g. "main"
	name      string // e.g. "deny_delete"
	deny      bool   // deny or violation, not warn
	query     rego.PreparedEvalQuery
}

var (
	denyRule = regexp.MustCompile(`^(deny|violation)(_[a-zA-Z0-9]+)*$`)
	warnRule = regexp.MustCompile(`^warn(_[a-zA-Z0-9]+)*$`)
)

const exceptionRule = "exception"

// allowedModulesPath is where the IAM allow-list lives under data.
var allowedModulesPath = []string{"strata", "iam", "allowed_modules"}

// Load reads and compiles the default bundle (unless opts.NoDefault) and
// the user's directories, and prepares every deny, violation, warn and
// exception rule for evaluation. A file that does not parse or compile is an
// error that names the file, the line and the reason. Loading no rule at all
// from directories is an error too: an engine with nothing to check would
// allow every plan. NoDefault without Dirs asks for exactly that: no
// policy, every plan allowed, as the Tofu Controller applies every plan
// approvePlan: auto allows.
func Load(ctx context.Context, opts Options) (*Engine, error) {
	src, err := load(ctx, opts.Dirs, !opts.NoDefault, opts.IAMAllowedModules)
	if err != nil {
		return nil, err
	}
	compiler := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1)
	if compiler.Compile(src.modules); compiler.Failed() {
		return nil, fmt.Errorf("compile policies: %w", compiler.Errors)
	}
	store := inmem.NewFromObject(src.data)
	e := &Engine{exceptions: map[string]rego.PreparedEvalQuery{}}
	for _, name := range slices.Sorted(maps.Keys(compiler.Modules)) {
		mod := compiler.Modules[name]
		ns := namespace(mod.Package.Path)
		for _, rule := range mod.Rules {
			ref := rule.Head.Ref()
			if len(ref) != 1 {
				continue
			}
			rn := ref[0].Value.String()
			deny, warn := denyRule.MatchString(rn), warnRule.MatchString(rn)
			switch {
			case deny || warn:
				if slices.ContainsFunc(e.rules, func(r preparedRule) bool { return r.namespace == ns && r.name == rn }) {
					continue // one rule defined in several places
				}
				q, err := prepare(ctx, compiler, store, mod.Package.Path, rn)
				if err != nil {
					return nil, err
				}
				e.rules = append(e.rules, preparedRule{namespace: ns, name: rn, deny: deny, query: q})
			case rn == exceptionRule:
				if _, ok := e.exceptions[ns]; ok {
					continue
				}
				q, err := prepare(ctx, compiler, store, mod.Package.Path, rn)
				if err != nil {
					return nil, err
				}
				e.exceptions[ns] = q
			}
		}
	}
	slices.SortFunc(e.rules, func(a, b preparedRule) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	})
	if len(e.rules) == 0 && (!opts.NoDefault || len(opts.Dirs) > 0) {
		// Directories that hold no rule are a mistake; no policy at all
		// is a choice (NoDefault and no Dirs).
		return nil, errors.New("load policies: no deny, violation or warn rule found: an engine with no rule would allow every plan")
	}
	return e, nil
}

func prepare(ctx context.Context, compiler *ast.Compiler, store storage.Store, pkg ast.Ref, rule string) (rego.PreparedEvalQuery, error) {
	query := pkg.Append(ast.StringTerm(rule)).String()
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Store(store),
		rego.Query(query),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(ctx)
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("prepare policy %s: %w", query, err)
	}
	return q, nil
}

// namespace is a package path without its "data." root, as conftest
// names namespaces: data.main is "main".
func namespace(pkg ast.Ref) string {
	return strings.TrimPrefix(pkg.String(), "data.")
}

// sources are the parsed modules and merged data of the default bundle and
// the user's directories.
type sources struct {
	modules map[string]*ast.Module // by file name
	data    map[string]any
}

// load parses the default bundle (when includeDefault) and dirs, and merges
// their data. The IAM allow-lists of every source and of allowed are
// concatenated (without repeats) rather than merged as conflicting values;
// data.strata.iam.allowed_modules is always set, if only to an empty list.
func load(ctx context.Context, dirs []string, includeDefault bool, allowed []string) (*sources, error) {
	src := &sources{modules: map[string]*ast.Module{}, data: map[string]any{}}
	var allowList []string
	add := func(modules map[string]*ast.Module, data map[string]any) error {
		list, err := takeAllowList(data)
		if err != nil {
			return err
		}
		allowList = append(allowList, list...)
		maps.Copy(src.modules, modules)
		return mergeData(src.data, data, nil)
	}
	if includeDefault {
		modules, data, err := loadDefault()
		if err != nil {
			return nil, fmt.Errorf("load policy dir %s: %w", DefaultBundleName, err)
		}
		if err := add(modules, data); err != nil {
			return nil, fmt.Errorf("load policy dir %s: %w", DefaultBundleName, err)
		}
	}
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("load policy dir %s: %w", dir, err)
		}
		modules, data, err := loadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("load policy dir %s: %w", dir, err)
		}
		if err := add(modules, data); err != nil {
			return nil, fmt.Errorf("load policy dir %s: %w", dir, err)
		}
	}
	allowList = append(allowList, allowed...)
	list := make([]any, 0, len(allowList))
	seen := map[string]bool{}
	for _, m := range allowList {
		if !seen[m] {
			seen[m] = true
			list = append(list, m)
		}
	}
	if err := mergeData(src.data, nest(allowedModulesPath, list), nil); err != nil {
		return nil, fmt.Errorf("load policies: %w", err)
	}
	return src, nil
}

// loadDefault parses the embedded bundle.
func loadDefault() (map[string]*ast.Module, map[string]any, error) {
	modules := map[string]*ast.Module{}
	data := map[string]any{}
	entries, err := fs.ReadDir(bundleFS, "bundle")
	if err != nil {
		return nil, nil, err
	}
	for _, ent := range entries {
		b, err := fs.ReadFile(bundleFS, path.Join("bundle", ent.Name()))
		if err != nil {
			return nil, nil, err
		}
		name := DefaultBundleName + "/" + ent.Name()
		switch path.Ext(ent.Name()) {
		case ".rego":
			m, err := ast.ParseModuleWithOpts(name, string(b), ast.ParserOptions{RegoVersion: ast.RegoV1})
			if err != nil {
				return nil, nil, err
			}
			modules[name] = m
		case ".json":
			var doc map[string]any
			if err := util.UnmarshalJSON(b, &doc); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
			if err := mergeData(data, doc, nil); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return modules, data, nil
}

// loadDir loads a user's directory (or file) of rules and data.
func loadDir(dir string) (map[string]*ast.Module, map[string]any, error) {
	res, err := loader.NewFileLoader().
		WithRegoVersion(ast.RegoV1).
		WithProcessAnnotation(true).
		Filtered([]string{dir}, skipFile)
	if err != nil {
		return nil, nil, loadError(err)
	}
	return res.ParsedModules(), res.Documents, nil
}

// skipFile keeps .rego, .json, .yaml and .yml files and leaves out hidden
// files and directories below the root.
func skipFile(abspath string, info fs.FileInfo, depth int) bool {
	if depth > 0 && strings.HasPrefix(info.Name(), ".") {
		return true
	}
	if info.IsDir() {
		return false
	}
	switch filepath.Ext(abspath) {
	case ".rego", ".json", ".yaml", ".yml":
		return false
	}
	return true
}

// loadError flattens the loader's list of errors, each of which names its
// file and line, into one error.
func loadError(err error) error {
	var errs loader.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		return err
	}
	var lines []string
	for _, e := range errs {
		var astErrs ast.Errors
		if errors.As(e, &astErrs) {
			for _, a := range astErrs {
				lines = append(lines, a.Error())
			}
			continue
		}
		lines = append(lines, e.Error())
	}
	return errors.New(strings.Join(lines, "; "))
}

// takeAllowList removes data.strata.iam.allowed_modules from data and
// returns it.
func takeAllowList(data map[string]any) ([]string, error) {
	parent := data
	for _, k := range allowedModulesPath[:len(allowedModulesPath)-1] {
		next, ok := parent[k].(map[string]any)
		if !ok {
			return nil, nil
		}
		parent = next
	}
	last := allowedModulesPath[len(allowedModulesPath)-1]
	v, ok := parent[last]
	if !ok {
		return nil, nil
	}
	delete(parent, last)
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("data.%s: want a list of module address prefixes, got %T", strings.Join(allowedModulesPath, "."), v)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("data.%s: want module address prefixes (strings), got %v", strings.Join(allowedModulesPath, "."), it)
		}
		out = append(out, s)
	}
	return out, nil
}

// mergeData merges src into dst: objects merge key by key, and any other
// value present on both sides is a conflict.
func mergeData(dst, src map[string]any, at []string) error {
	for k, v := range src {
		here := append(slices.Clone(at), k)
		old, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return fmt.Errorf("data.%s is defined twice", strings.Join(here, "."))
		}
		if err := mergeData(om, nm, here); err != nil {
			return err
		}
	}
	return nil
}

// nest puts v at path under new objects.
func nest(path []string, v any) map[string]any {
	for i := len(path) - 1; i >= 0; i-- {
		v = map[string]any{path[i]: v}
	}
	return v.(map[string]any)
}
