package flux

import (
	"context"
	"fmt"
	"net"
	"path"
	"sort"
	"strings"
	"sync"

	gogit "github.com/go-git/go-git/v5"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// selfSources knows which GitRepositories are this repository: the
// checkout's remotes, read once, and the --self-source names.
type selfSources struct {
	once    sync.Once
	root    string
	remotes map[string]bool
	named   []SelfSource
	// operator are the GitRepositories the Flux Operator makes of the
	// checkout's FluxInstances (operator.go), found once.
	operatorOnce sync.Once
	operator     []*gitRepository
	// instances are the checkout's FluxInstances whose sync has a path
	// (operatorentry.go), found with operator.
	instances []operatorInstance
}

// isRemote reports whether url, normalised, is one of the checkout's
// remotes.
func (s *selfSources) isRemote(url string) bool {
	s.once.Do(func() {
		s.remotes = map[string]bool{}
		for _, u := range gitRemotes(s.root) {
			s.remotes[normalGitURL(u)] = true
		}
	})
	return url != "" && s.remotes[normalGitURL(url)]
}

// isNamed reports whether --self-source names the GitRepository.
func (s *selfSources) isNamed(namespace, name string) bool {
	for _, n := range s.named {
		if n.Name == name && sameNamespace(n.Namespace, namespace) {
			return true
		}
	}
	return false
}

// isSelf reports whether a GitRepository reference from the object from
// names this repository: flux-system/flux-system (a reference without a
// namespace is to the object's own namespace, as in Flux), a GitRepository of the environment
// (or one a FluxInstance of the checkout makes) whose spec.url is one of
// the checkout's remotes, or one --self-source names.
func (l *loader) isSelf(ref *sourceRef, from *object) bool {
	if ref == nil || ref.Kind != environment.SourceGitRepository {
		return false
	}
	ns := refNamespace(ref, from)
	if ref.Name == environment.DefaultGitSource && sameNamespace(ns, DefaultNamespace) || l.self.isNamed(ns, ref.Name) {
		return true
	}
	g := l.findSyncSource(ref, from)
	if g != nil && l.self.isRemote(g.Spec.URL) {
		return true
	}
	return l.syncsEntry(ref, from)
}

// selfElsewhere is the problem of a reference to GitRepository flux-system
// without a namespace, from an object of another namespace that has no
// GitRepository of that name: Flux looks for the source in the object's
// own namespace, and fails it (source not found), where the reference
// was most likely meant for flux-system/flux-system. It is nil for any
// other reference.
func (l *loader) selfElsewhere(ref *sourceRef, from *object, file, object string) *diag.Problem {
	if ref == nil || ref.Kind != environment.SourceGitRepository || ref.Name != environment.DefaultGitSource || ref.Namespace != "" {
		return nil
	}
	ns := from.Metadata.Namespace
	if ns == "" || ns == DefaultNamespace || l.findSyncSource(ref, from) != nil {
		return nil
	}
	return &diag.Problem{
		File:    file,
		Object:  object,
		Message: fmt.Sprintf("spec.sourceRef names GitRepository/%s without a namespace, so Flux looks for it in the object's own namespace, %s, which has none: it fails the object (source not found)", ref.Name, ns),
		Fix:     fmt.Sprintf("add namespace: %s to spec.sourceRef in %s (this repository is GitRepository %s/%s)", DefaultNamespace, file, DefaultNamespace, environment.DefaultGitSource),
	}
}

// syncsEntry reports whether the GitRepository a reference names is the
// one a Kustomization of the environment syncs the entry directory from:
// the bootstrap's own source, this checkout whatever its URL says (an
// ssh:// URL, the name before a rename, the repository it was forked
// from) and whatever it is called (home-kubernetes, homelab). The
// sources that sync the entry directory are found once, the first time
// a reference is neither flux-system nor a remote of the checkout, from
// the Kustomizations registered by then (the entry directory's builds
// hold the bootstrap's), and each is named once in the notes.
func (l *loader) syncsEntry(ref *sourceRef, from *object) bool {
	if l.entrySyncs == nil {
		l.entrySyncs = map[string]string{}
		for _, k := range l.sortedKustomizations() {
			r := k.Spec.SourceRef
			if r == nil || r.Kind != environment.SourceGitRepository {
				continue
			}
			if p, ok := cleanPath(k.Spec.Path); ok && p == l.dir {
				l.entrySyncs[refNamespace(r, &k.object)+"/"+r.Name] = k.unit() + " (" + k.File + ")"
			}
		}
	}
	key := refNamespace(ref, from) + "/" + ref.Name
	by, ok := l.entrySyncs[key]
	if ok && !l.entrySyncNoted[key] {
		if l.entrySyncNoted == nil {
			l.entrySyncNoted = map[string]bool{}
		}
		l.entrySyncNoted[key] = true
		l.env.Notes = append(l.env.Notes, fmt.Sprintf("GitRepository %s is taken as this checkout, though none of its remotes is its spec.url: Kustomization %s syncs this environment's directory, %s/, from it", key, by, l.dir))
	}
	return ok
}

// findSyncSource finds the GitRepository a reference names among those
// the builds rendered, else among those a FluxInstance of the checkout
// makes (operator.go); nil when there is none.
func (l *loader) findSyncSource(ref *sourceRef, from *object) *gitRepository {
	if g := l.findGitRepository(ref, from); g != nil {
		return g
	}
	return findSource(l.operatorSources(), func(g *gitRepository) *object { return &g.object }, ref, from)
}

// gitRemotes lists the URLs of the remotes of the git repository at root;
// none when root is not one, or its configuration cannot be read.
func gitRemotes(root string) []string {
	r, err := gogit.PlainOpenWithOptions(root, &gogit.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil
	}
	cfg, err := r.Config()
	if err != nil {
		return nil
	}
	var out []string
	for _, rc := range cfg.Remotes {
		out = append(out, rc.URLs...)
	}
	sort.Strings(out)
	return out
}

// normalGitURL is a git URL reduced to what names the repository, so that
// its SSH and HTTPS forms compare equal: lower case, host without user or
// port, path without a .git suffix or surrounding slashes.
// git@host:org/repo.git, ssh://git@host:22/org/repo and
// https://host/org/repo/ are all host/org/repo. A local path stays a
// path.
func normalGitURL(raw string) string {
	s := strings.ToLower(strings.TrimSpace(raw))
	var host, p string
	switch {
	case strings.Contains(s, "://"):
		_, rest, _ := strings.Cut(s, "://")
		host, p, _ = strings.Cut(rest, "/")
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
	case scpLike(s):
		host, p, _ = strings.Cut(s, ":")
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
	default:
		p = s
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	p = strings.Trim(path.Clean("/"+p), "/")
	if host == "" || p == "" {
		return host + p
	}
	return host + "/" + p
}

// scpLike reports whether s is git's scp-like syntax, [user@]host:path: a
// colon before the first slash.
func scpLike(s string) bool {
	colon := strings.Index(s, ":")
	slash := strings.Index(s, "/")
	return colon > 0 && (slash < 0 || colon < slash)
}

// newSelfSources is what says which GitRepositories are the repository
// at root, with the --self-source names ctx's Options carry. The names
// were checked by the command line; one that does not parse names
// nothing.
func newSelfSources(ctx context.Context, root string) *selfSources {
	s := &selfSources{root: root}
	for _, n := range optionsFrom(ctx).SelfSources {
		if ss, err := ParseSelfSource(n); err == nil {
			s.named = append(s.named, ss)
		}
	}
	return s
}
