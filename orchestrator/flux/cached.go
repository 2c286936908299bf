package flux

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/rendercache"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// LoadCached is Load, with the rendered environment kept in the state
// directory stateDir ("" for the repository's own, <root>/.strata), under
// render/: when strata's build, the render's options, the decryption keys
// and every file and directory the last render read are unchanged, the
// environment kept is returned without rendering again (see package
// rendercache). Otherwise it renders, as Load does, and keeps the result
// when the environment has no problems; an environment with problems is
// never kept, so they are found again every time, and neither is one whose
// render decrypted SOPS values. A cache that cannot be
// read or written costs a render, never the load: a write that fails
// adds a note.
func LoadCached(ctx context.Context, dir, stateDir string) (*environment.Environment, error) {
	env, _, err := loadCached(ctx, dir, stateDir)
	return env, err
}

// loadCached is LoadCached, also reporting whether the environment came
// from the cache.
func loadCached(ctx context.Context, dir, stateDir string) (_ *environment.Environment, hit bool, _ error) {
	root, rel, note, err := findRoot(dir)
	if err != nil {
		return nil, false, fmt.Errorf("load environment %s: %w", dir, err)
	}
	file, err := renderCacheFile(root, rel, stateDir)
	if err != nil {
		return nil, false, fmt.Errorf("load environment %s: %w", rel, err)
	}
	key := renderCacheKey(ctx, root, rel)
	if b, ok, _ := rendercache.Read(file, key); ok {
		var env environment.Environment
		if json.Unmarshal(b, &env) == nil {
			return &env, true, nil
		}
	}
	rec := rendercache.NewRecorder()
	l, err := readAt(ctx, root, rel, note, rec)
	if err != nil {
		return nil, false, err
	}
	if ps := l.sortedProblems(); len(ps) > 0 {
		return l.env, false, fmt.Errorf("load environment %s: %w", l.dir, ps)
	}
	if l.env.HasCredentials() {
		// A source's credentials reach the fetch and nothing else on
		// disk.
		return l.env, false, nil
	}
	if l.dec != nil || l.secretKeysAsked || l.readSecretInput || l.readRemote {
		// The render decrypted SOPS values, or read Secrets from the
		// inputs: they reach the stacks' variable files and nothing else
		// on disk, so an environment that holds them is never kept.
		return l.env, false, nil
	}
	if in := l.opts.Inputs; in != nil && in.Identity() == "" {
		// What the cluster holds can change without a file changing.
		return l.env, false, nil
	}
	b, err := json.Marshal(l.env)
	if err == nil {
		err = rendercache.Write(file, key, rec.Inputs(), b)
	}
	if err != nil {
		l.env.Notes = append(l.env.Notes, fmt.Sprintf("the rendered environment could not be kept for the next run (%v): it renders again", err))
	}
	return l.env, false, nil
}

// renderCacheFile is the file of the environment at rel under root in
// the state directory's render cache.
func renderCacheFile(root, rel, stateDir string) (string, error) {
	if stateDir == "" {
		stateDir = filepath.Join(root, environment.StateDirName)
	}
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return "", fmt.Errorf("state directory %s: %w", stateDir, err)
	}
	sum := sha256.Sum256([]byte(root + "\x00" + rel))
	return statedir.Join(abs, statedir.Render, hex.EncodeToString(sum[:16])+".json")
}

// renderKey is what a render depends on beyond the files it reads:
// strata's build, the krusty options, the decryption keys' identity, and
// where the environment is.
type renderKey struct {
	Build, Options, Keys, Root, Dir string
	// Load is the load's Options; Remotes are the checkout's git
	// remotes, which say which GitRepositories are this repository.
	Load, Remotes string
}

// renderCacheKey is the render key of the environment at rel under root,
// with the keys ctx carries.
func renderCacheKey(ctx context.Context, root, rel string) string {
	opts, _ := json.Marshal(krustyOptions())
	return renderKey{
		Build:   rendercache.Build(),
		Options: string(opts),
		Keys:    decryption.KeysFrom(ctx).Identity(),
		Root:    root,
		Dir:     rel,
		Load:    optionsFrom(ctx).key(),
		Remotes: strings.Join(gitRemotes(root), "\n"),
	}.String()
}

// String is the key as a SHA-256 over its parts, each length-prefixed.
func (k renderKey) String() string {
	h := sha256.New()
	for _, p := range []string{k.Build, k.Options, k.Keys, k.Root, k.Dir, k.Load, k.Remotes} {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
