package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	fluxgit "github.com/fluxcd/pkg/git"
	"github.com/fluxcd/pkg/git/repository"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/source/git/gittest"
)

// modules makes acme/modules.git: versions 1.0.0, 1.1.0 (an annotated
// tag) and 2.0.0, then an untagged commit on master.
func modules(t *testing.T, srv *gittest.Server) []string {
	t.Helper()
	v := func(ver string) map[string]string {
		return map[string]string{"vpc/main.tf": "# " + ver + "\n", "vpc/docs/README.md": ver, "vpc/logo.png": "png"}
	}
	return srv.Repo(t, "acme/modules.git",
		gittest.Commit{Files: v("1.0.0"), Tag: "v1.0.0"},
		gittest.Commit{Files: v("1.1.0"), Tag: "v1.1.0", Annotated: true},
		gittest.Commit{Files: v("2.0.0"), Tag: "v2.0.0"},
		gittest.Commit{Files: v("next")},
	)
}

// counting counts the clones of Flux's library.
type counting struct {
	goGit
	clones atomic.Int32
}

func (c *counting) Clone(ctx context.Context, dir, url string, auth *fluxgit.AuthOptions, ref repository.CheckoutStrategy) (string, error) {
	c.clones.Add(1)
	return c.goGit.Clone(ctx, dir, url, auth, ref)
}

func TestFetch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a git server")
	}
	srv := gittest.Start(t)
	commits := modules(t, srv)
	httpURL := srv.HTTP + "/acme/modules.git"
	sshURL := srv.SSH + "/acme/modules.git"
	tests := []struct {
		name    string
		repo    Repository
		want    Tree
		content string
	}{
		{"tag over http", Repository{URL: httpURL, Ref: Ref{Tag: "v1.0.0"}, Credentials: gittest.Credentials()},
			Tree{Commit: commits[0], Tag: "v1.0.0", Revision: "v1.0.0@sha1:" + commits[0]}, "1.0.0"},
		{"semver over http, to an annotated tag", Repository{URL: httpURL, Ref: Ref{Semver: ">=1.0.0 <2.0.0"}, Credentials: gittest.Credentials()},
			Tree{Commit: commits[1], Tag: "v1.1.0", Revision: "v1.1.0@sha1:" + commits[1]}, "1.1.0"},
		{"branch over ssh", Repository{URL: sshURL, Ref: Ref{Branch: "master"}, Credentials: srv.SSHCredentials()},
			Tree{Commit: commits[3], Revision: "master@sha1:" + commits[3]}, "next"},
		{"no ref is master", Repository{URL: httpURL, Credentials: gittest.Credentials()},
			Tree{Commit: commits[3], Revision: "master@sha1:" + commits[3]}, "next"},
		{"semver over ssh", Repository{URL: sshURL, Ref: Ref{Semver: "~2"}, Credentials: srv.SSHCredentials()},
			Tree{Commit: commits[2], Tag: "v2.0.0", Revision: "v2.0.0@sha1:" + commits[2]}, "2.0.0"},
		{"commit", Repository{URL: httpURL, Ref: Ref{Commit: commits[1]}, Credentials: gittest.Credentials()},
			Tree{Commit: commits[1], Revision: "sha1:" + commits[1]}, "1.1.0"},
		{"name", Repository{URL: httpURL, Ref: Ref{Name: "refs/tags/v2.0.0"}, Credentials: gittest.Credentials()},
			Tree{Commit: commits[2], Revision: "refs/tags/v2.0.0@sha1:" + commits[2]}, "2.0.0"},
	}
	f := &Fetcher{CacheDir: t.TempDir()}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.Fetch(context.Background(), tt.repo)
			if err != nil {
				t.Fatalf("Fetch(%s, %s) = %v, want nil", tt.repo.URL, tt.repo.Ref, err)
			}
			tt.want.Dir = got.Dir
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Fetch(%s, %s) = %+v, want %+v; diff (-want +got):\n%s", tt.repo.URL, tt.repo.Ref, got, tt.want, diff)
			}
			b, err := os.ReadFile(filepath.Join(got.Dir, "vpc", "main.tf"))
			if err != nil || string(b) != "# "+tt.content+"\n" {
				t.Errorf("Fetch(%s, %s) vpc/main.tf = %q, %v, want version %s", tt.repo.URL, tt.repo.Ref, b, err, tt.content)
			}
		})
	}
}

func TestFetchCachesByCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a git server")
	}
	srv := gittest.Start(t)
	commits := modules(t, srv)
	cache := t.TempDir()
	remote := &counting{}
	f := &Fetcher{CacheDir: cache, Remote: remote}
	url := srv.HTTP + "/acme/modules.git"
	for _, ref := range []Ref{{Tag: "v1.1.0"}, {Semver: "1.1.x"}, {Name: "refs/tags/v1.1.0"}, {Commit: commits[1]}} {
		if _, err := f.Fetch(context.Background(), Repository{URL: url, Ref: ref, Credentials: gittest.Credentials()}); err != nil {
			t.Fatalf("Fetch(%s) = %v, want nil", ref, err)
		}
	}
	if n := remote.clones.Load(); n != 1 {
		t.Errorf("Fetch of one commit by four refs cloned %d times, want 1", n)
	}
	// A new Fetcher on the same cache, as the next strata run, clones
	// nothing either.
	again := &counting{}
	if _, err := (&Fetcher{CacheDir: cache, Remote: again}).Fetch(context.Background(), Repository{URL: url, Ref: Ref{Semver: "<2"}, Credentials: gittest.Credentials()}); err != nil {
		t.Fatal(err)
	}
	if n := again.clones.Load(); n != 0 {
		t.Errorf("Fetch of a cached commit by a new Fetcher cloned %d times, want 0", n)
	}
}

func TestFetchIgnore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a git server")
	}
	srv := gittest.Start(t)
	srv.Repo(t, "acme/ignored.git", gittest.Commit{Tag: "v1.0.0", Files: map[string]string{
		"main.tf": "", "notes.txt": "", "docs/x.md": "", "logo.png": "", ".sourceignore": "*.txt\n", "sub/.sourceignore": "local.tf\n", "sub/local.tf": "", "sub/kept.tf": "",
	}})
	ignoreDocs := "/docs\n"
	tests := []struct {
		name   string
		ignore *string
		want   []string
	}{
		{"default and .sourceignore", nil, []string{".sourceignore", "docs/x.md", "main.tf", "sub/.sourceignore", "sub/kept.tf"}},
		{"spec.ignore too", &ignoreDocs, []string{".sourceignore", "main.tf", "sub/.sourceignore", "sub/kept.tf"}},
	}
	f := &Fetcher{CacheDir: t.TempDir()}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.Fetch(context.Background(), Repository{URL: srv.HTTP + "/acme/ignored.git", Ref: Ref{Tag: "v1.0.0"}, Ignore: tt.ignore, Credentials: gittest.Credentials()})
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			_ = filepath.WalkDir(got.Dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(got.Dir, p)
					files = append(files, filepath.ToSlash(rel))
				}
				return err
			})
			if diff := cmp.Diff(tt.want, files); diff != "" {
				t.Errorf("Fetch(ignore %v) files = %v, want %v; diff (-want +got):\n%s", tt.ignore, files, tt.want, diff)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a git server")
	}
	srv := gittest.Start(t)
	modules(t, srv)
	url := srv.HTTP + "/acme/modules.git"
	tests := []struct {
		name string
		repo Repository
		want string
	}{
		{"wrong password", Repository{URL: url, Ref: Ref{Tag: "v1.0.0"}, Credentials: map[string][]byte{"username": []byte("strata"), "password": []byte("wrong")}}, "authentication required"},
		{"no tag matches", Repository{URL: url, Ref: Ref{Semver: ">=3"}, Credentials: gittest.Credentials()}, `no tag matches semver ">=3"`},
		{"no such tag", Repository{URL: url, Ref: Ref{Tag: "v9"}, Credentials: gittest.Credentials()}, "the remote has no refs/tags/v9"},
		{"ssh without a key", Repository{URL: srv.SSH + "/acme/modules.git", Ref: Ref{Tag: "v1.0.0"}}, "'identity' is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Fetcher{CacheDir: t.TempDir()}).Fetch(context.Background(), tt.repo)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Fetch(%s, %s) = %v, want an error containing %q", tt.repo.URL, tt.repo.Ref, err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), gittest.Password) {
				t.Errorf("Fetch(%s) = %v, which holds the password", tt.repo.URL, err)
			}
		})
	}
}
