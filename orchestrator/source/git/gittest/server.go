package gittest

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxcd/pkg/gittestserver"
	fluxssh "github.com/fluxcd/pkg/ssh"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The credentials the HTTP server asks for.
const (
	Username = "strata"
	Password = "SENTINEL-GIT-PASSWORD"
)

// Server is a running git server.
type Server struct {
	srv *gittestserver.GitServer
	// HTTP is the server's http://127.0.0.1:PORT address.
	HTTP string
	// SSH is its ssh://git@127.0.0.1:PORT address.
	SSH string
	// Identity is a private key the SSH server takes, and KnownHosts
	// the server's host key, as a GitRepository's Secret holds them.
	Identity, KnownHosts []byte
}

// Start starts a server with its repositories in a temporary directory,
// stopped when the test ends. It skips the test without git on PATH.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: the git test server runs git's programs")
	}
	root := t.TempDir()
	srv := gittestserver.NewGitServer(filepath.Join(root, "repos")).Auth(Username, Password).KeyDir(filepath.Join(root, "keys"))
	if err := os.MkdirAll(srv.Root(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := srv.StartHTTP(); err != nil {
		t.Fatalf("start the git server over http: %v", err)
	}
	t.Cleanup(srv.StopHTTP)
	if err := srv.ListenSSH(); err != nil {
		t.Fatalf("start the git server over ssh: %v", err)
	}
	go func() { _ = srv.StartSSH() }()
	t.Cleanup(func() { _ = srv.StopSSH() })
	s := &Server{srv: srv, HTTP: srv.HTTPAddress(), SSH: srv.SSHAddress()}
	u, err := url.Parse(s.SSH)
	if err != nil {
		t.Fatal(err)
	}
	s.KnownHosts, err = fluxssh.ScanHostKey(u.Host, 10*time.Second, nil, false)
	if err != nil {
		t.Fatalf("scan the git server's host key: %v", err)
	}
	kp, err := fluxssh.NewEd25519Generator().Generate()
	if err != nil {
		t.Fatal(err)
	}
	s.Identity = kp.PrivateKey
	return s
}

// Commit is one commit of a repository: its files, and the tag it gets
// when Tag is set.
type Commit struct {
	Files map[string]string
	Tag   string
	// Annotated makes the tag an annotated one.
	Annotated bool
}

// Repo makes the repository at path (such as "acme/modules.git") on the
// server with the commits, in order, on branch master, each commit's
// files written over the last's. It returns each commit's SHA-1.
func (s *Server) Repo(t testing.TB, path string, commits ...Commit) []string {
	t.Helper()
	work := t.TempDir()
	r, err := gogit.PlainInit(work, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "strata test", Email: "test@strata.invalid", When: time.Unix(1700000000, 0)}
	var out []string
	for i, c := range commits {
		for name, body := range c.Files {
			p := filepath.Join(work, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Add(name); err != nil {
				t.Fatal(err)
			}
		}
		sig.When = sig.When.Add(time.Minute)
		h, err := w.Commit("commit "+strings.TrimSpace(c.Tag+" "+string(rune('a'+i))), &gogit.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.Tag != "" {
			var opts *gogit.CreateTagOptions
			if c.Annotated {
				opts = &gogit.CreateTagOptions{Tagger: sig, Message: "version " + c.Tag}
			}
			if _, err := r.CreateTag(c.Tag, h, opts); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, h.String())
	}
	dst := filepath.Join(s.srv.Root(), filepath.FromSlash(path))
	if _, err := gogit.PlainClone(dst, true, &gogit.CloneOptions{URL: work, Tags: gogit.AllTags}); err != nil {
		t.Fatalf("copy repository %s to the server: %v", path, err)
	}
	if ref, err := r.Head(); err == nil && ref.Name() != plumbing.Master {
		t.Fatalf("repository %s is on %s, want master", path, ref.Name())
	}
	return out
}

// Credentials are the data of a GitRepository's Secret for the server's
// HTTP address: username and password.
func Credentials() map[string][]byte {
	return map[string][]byte{"username": []byte(Username), "password": []byte(Password)}
}

// SSHCredentials are the data of a GitRepository's Secret for its SSH
// address: identity and known_hosts.
func (s *Server) SSHCredentials() map[string][]byte {
	return map[string][]byte{"identity": s.Identity, "known_hosts": s.KnownHosts}
}
