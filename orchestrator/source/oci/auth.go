package oci

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/docker/cli/cli/config"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
)

// The environment variables that hold credentials for every registry.
// They win over the Docker config file.
const (
	EnvUsername = "STRATA_REGISTRY_USERNAME"
	EnvPassword = "STRATA_REGISTRY_PASSWORD"
)

// dockerHubKey is the key Docker config files use for Docker Hub.
const dockerHubKey = "https://index.docker.io/v1/"

// credential is what a registry is authenticated with. Empty means
// anonymous.
type credential struct {
	Username      string
	Password      string
	IdentityToken string
	RegistryToken string
	// From says where the credential was found, for messages: the
	// environment or the config file's path. Never the secret itself.
	From string
}

func (c credential) anonymous() bool {
	return c.Username == "" && c.Password == "" && c.IdentityToken == "" && c.RegistryToken == ""
}

// keychain finds credentials for a registry: the environment first, then
// a Docker config file. The file is read on every lookup, so a login
// between two calls is seen.
type keychain struct {
	// path is the Docker config.json given in Options; empty means the
	// default location.
	path   string
	getenv func(string) string
}

func newKeychain(path string) *keychain {
	return &keychain{path: path, getenv: os.Getenv}
}

// Resolve implements the registry client's keychain.
func (k *keychain) Resolve(target authn.Resource) (authn.Authenticator, error) {
	cred, err := k.lookup(target.RegistryStr(), target.String())
	if err != nil {
		return nil, err
	}
	if cred.anonymous() {
		return authn.Anonymous, nil
	}
	return authn.FromConfig(authn.AuthConfig{
		Username:      cred.Username,
		Password:      cred.Password,
		IdentityToken: cred.IdentityToken,
		RegistryToken: cred.RegistryToken,
	}), nil
}

// lookup returns the credential for host ("registry.example.com:5000");
// repo ("registry.example.com:5000/iac/foo") is tried first in the config
// file, as Docker does.
func (k *keychain) lookup(host, repo string) (credential, error) {
	user, pass := k.getenv(EnvUsername), k.getenv(EnvPassword)
	if user != "" || pass != "" {
		return credential{Username: user, Password: pass, From: "$" + EnvUsername + "/$" + EnvPassword}, nil
	}
	path, explicit := k.configPath()
	if path == "" {
		return credential{}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !explicit {
			return credential{}, nil
		}
		return credential{}, fmt.Errorf("read registry credentials for %s: %w", host, err)
	}
	defer f.Close()
	cf, err := config.LoadFromReader(f)
	if err != nil {
		return credential{}, fmt.Errorf("read registry credentials for %s from %s: %w", host, path, err)
	}
	for _, key := range []string{repo, host} {
		if key == "" {
			continue
		}
		if key == name.DefaultRegistry || key == "docker.io" {
			key = dockerHubKey
		}
		ac, err := cf.GetAuthConfig(key)
		if err != nil {
			return credential{}, fmt.Errorf("read registry credentials for %s from %s: %w", host, path, err)
		}
		c := credential{
			Username:      ac.Username,
			Password:      ac.Password,
			IdentityToken: ac.IdentityToken,
			RegistryToken: ac.RegistryToken,
			From:          path,
		}
		if !c.anonymous() {
			return c, nil
		}
	}
	return credential{}, nil
}

// configPath is the Docker config file to read, and whether it was named
// explicitly (then it must exist).
func (k *keychain) configPath() (string, bool) {
	if k.path != "" {
		return k.path, true
	}
	if dir := k.getenv("DOCKER_CONFIG"); dir != "" {
		return filepath.Join(dir, config.ConfigFileName), false
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(home, ".docker", config.ConfigFileName), false
}
