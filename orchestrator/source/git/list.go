package git

import (
	"context"
	"fmt"
	"strings"

	fluxgit "github.com/fluxcd/pkg/git"
	"github.com/fluxcd/pkg/ssh/knownhosts"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/go-git/go-git/v5/storage/memory"
	gossh "golang.org/x/crypto/ssh"
)

// List lists the remote's references, as git ls-remote does, each
// annotated tag peeled to its commit.
func (goGit) List(ctx context.Context, u string, auth *fluxgit.AuthOptions) (map[string]string, error) {
	method, err := authMethod(auth)
	if err != nil {
		return nil, err
	}
	remote := gogit.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: fluxgit.DefaultRemote, URLs: []string{u}})
	refs, err := remote.ListContext(ctx, &gogit.ListOptions{
		Auth:          method,
		CABundle:      auth.CAFile,
		ClientCert:    auth.ClientCert,
		ClientKey:     auth.ClientKey,
		PeelingOption: gogit.AppendPeeled,
	})
	if err != nil {
		return nil, fmt.Errorf("list the remote's references: %w", err)
	}
	out := make(map[string]string, len(refs))
	peeled := map[string]string{}
	for _, r := range refs {
		name := r.Name().String()
		if base, ok := strings.CutSuffix(name, "^{}"); ok {
			peeled[base] = r.Hash().String()
			continue
		}
		if !r.Hash().IsZero() {
			out[name] = r.Hash().String()
		}
	}
	for name, h := range peeled {
		out[name] = h
	}
	return out, nil
}

// authMethod is go-git's transport authentication for the options, as
// Flux's library makes it: basic or bearer auth over http(s), a key
// checked against known_hosts over ssh.
func authMethod(opts *fluxgit.AuthOptions) (transport.AuthMethod, error) {
	switch opts.Transport {
	case fluxgit.HTTP, fluxgit.HTTPS:
		switch {
		case opts.Username != "" || opts.Password != "":
			return &http.BasicAuth{Username: opts.Username, Password: opts.Password}, nil
		case opts.BearerToken != "":
			return &http.TokenAuth{Token: opts.BearerToken}, nil
		}
		return nil, nil
	case fluxgit.SSH:
		pk, err := ssh.NewPublicKeys(opts.Username, opts.Identity, opts.Password)
		if err != nil {
			return nil, fmt.Errorf("ssh identity: %w", err)
		}
		cb, algos, err := knownhosts.New(opts.KnownHosts)
		if err != nil {
			return nil, fmt.Errorf("known_hosts: %w", err)
		}
		pk.HostKeyCallback = cb
		return &hostKeys{PublicKeys: pk, algos: algos}, nil
	}
	return nil, fmt.Errorf("unknown transport %q", opts.Transport)
}

// hostKeys is an SSH key that asks the server for the host key
// algorithms known_hosts holds keys of.
type hostKeys struct {
	*ssh.PublicKeys
	algos []string
}

// ClientConfig is the key's configuration with those algorithms.
func (k *hostKeys) ClientConfig() (*gossh.ClientConfig, error) {
	c, err := k.PublicKeys.ClientConfig()
	if err != nil {
		return nil, err
	}
	if len(k.algos) == 1 && k.algos[0] == gossh.KeyAlgoRSA {
		c.HostKeyAlgorithms = []string{gossh.KeyAlgoRSASHA512, gossh.KeyAlgoRSASHA256, gossh.KeyAlgoRSA}
	} else {
		c.HostKeyAlgorithms = k.algos
	}
	return c, nil
}
