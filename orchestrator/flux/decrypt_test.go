package flux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/inputs"
)

// noAgeKeys clears the age key sources of the environment, so that a test
// decrypts with the keys it gives alone.
func noAgeKeys(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv(decryption.EnvAgeKeyFile, "")
	t.Setenv(decryption.EnvAgeKey, "")
	sopstest.Helper(t)
}

// sopsRepo copies testdata/sops and encrypts its secrets for r: the
// Secret credentials.yaml whole (data and stringData), and the
// secretGenerator's and configMapGenerator's files.
func sopsRepo(t *testing.T, r sopstest.Recipients) string {
	t.Helper()
	return encryptRepo(t, testkit.Copy(t, filepath.Join("testdata", "sops")), r)
}

// encryptRepo encrypts a copy of testdata/sops in place (see sopsRepo).
func encryptRepo(t *testing.T, root string, r sopstest.Recipients) string {
	t.Helper()
	sopstest.EncryptFile(t, filepath.Join(root, "secrets", "credentials.yaml"), r, sopstest.KubernetesRegex)
	for _, f := range []string{"app.env", "token", "settings.env"} {
		sopstest.EncryptFile(t, filepath.Join(root, "secrets", f), r, "")
	}
	return root
}

// loadKeys loads the repository's clusters/dev with the age key file.
func loadKeys(t *testing.T, root, keyFile string) (*loader, diag.Problems) {
	t.Helper()
	ctx := decryption.WithKeys(context.Background(), decryption.Keys{AgeKeyFile: keyFile})
	l, err := read(keepRendered(ctx), filepath.Join(root, "clusters", "dev"))
	if err != nil {
		t.Fatalf("read(clusters/dev) = %v", err)
	}
	return l, untagged(environment.AllProblems(l.env, l.sortedProblems().Err()))
}

// TestDecryptSOPS loads a repository whose Kustomization secrets has
// spec.decryption: the encrypted Secret and the secretGenerator's
// encrypted files are decrypted, marked private and substituted; the
// configMapGenerator's file is not decrypted, as in kustomize-controller.
func TestDecryptSOPS(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	root := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	l, ps := loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	if len(ps) > 0 {
		t.Fatalf("Load(clusters/dev) problems:\n%v", ps)
	}
	creds, gen := l.secret("", "credentials"), l.secret("", "generated")
	if creds == nil || gen == nil {
		t.Fatalf("Load(clusters/dev) Secrets credentials, generated = %v, %v, want both", creds, gen)
	}
	got := map[string]any{
		"credentials": creds.Data, "credentials private": creds.Private,
		"generated": gen.Data, "generated private": gen.Private,
	}
	want := map[string]any{
		"credentials": map[string]string{"api_token": "token-from-credentials"}, "credentials private": true,
		"generated":         map[string]string{"db_user": "admin", "db_password": "password-from-env", "token": "token-from-file"},
		"generated private": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decrypted Secrets mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"api_token": "token-from-credentials", "db_password": "password-from-env"}, l.env.Stack("app").Vars); diff != "" {
		t.Errorf("stack app vars mismatch (-want +got):\n%s", diff)
	}
	settings := l.configMap("", "settings")
	if settings == nil || strings.Contains(strings.Join(mapValues(settings.Data), ""), "blue") {
		t.Errorf("ConfigMap settings = %v, want it generated from the file still encrypted", settings)
	}
	var secretRefNote bool
	for _, n := range l.env.Notes {
		secretRefNote = secretRefNote || strings.Contains(n, "secretRef Secret/flux-system/sops-age is neither")
	}
	if !secretRefNote {
		t.Errorf("Load(clusters/dev) notes = %q, want one saying spec.decryption.secretRef is not read", l.env.Notes)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// TestDecryptPGP decrypts a Secret encrypted for an OpenPGP key of the
// user's gpg keyring.
func TestDecryptPGP(t *testing.T) {
	noAgeKeys(t)
	fpr := sopstest.NewPGPKey(t)
	root := sopsRepo(t, sopstest.Recipients{PGP: []string{fpr}})
	l, ps := loadKeys(t, root, "")
	if len(ps) > 0 {
		t.Fatalf("Load(clusters/dev) problems:\n%v", ps)
	}
	if diff := cmp.Diff(map[string]any{"api_token": "token-from-credentials", "db_password": "password-from-env"}, l.env.Stack("app").Vars); diff != "" {
		t.Errorf("stack app vars mismatch (-want +got):\n%s", diff)
	}
}

// TestDecryptProblems: every way decryption fails is a problem naming the
// file, the object and the fix, and no decrypted value.
func TestDecryptProblems(t *testing.T) {
	tests := []struct {
		name string
		// plain changes the repository before it is encrypted, edit
		// after.
		plain, edit func(t *testing.T, root string)
		// own says strata has the key the files are encrypted for.
		own  bool
		want []diag.Problem
	}{
		{
			name: "no key",
			own:  false,
			want: []diag.Problem{
				// In the cluster Flux holds the key and the plain Secrets
				// exist: what reads them waits for them, as inputs.
				{File: "clusters/dev/infra.yaml", Object: "Kustomization/infra", Code: diag.CodeInputMissing,
					Message: "waiting for input Secret/flux-system/credentials (postBuild.substituteFrom): it is SOPS-encrypted in secrets/credentials.yaml, and strata holds no key to it (Flux in the cluster does); give it with --inputs or --kubeconfig",
					Input:   &diag.Input{Kind: "Secret", Namespace: "flux-system", Name: "credentials"}},
				{File: "clusters/dev/infra.yaml", Object: "Kustomization/infra", Code: diag.CodeInputMissing,
					Message: "waiting for input Secret/flux-system/generated (postBuild.substituteFrom): it is SOPS-encrypted in secrets/kustomization.yaml, and strata holds no key to it (Flux in the cluster does); give it with --inputs or --kubeconfig",
					Input:   &diag.Input{Kind: "Secret", Namespace: "flux-system", Name: "generated"}},
				{File: "secrets/app.env", Object: "Kustomization/secrets", Message: "cannot decrypt secrets/app.env (read by a secretGenerator) for Kustomization/secrets: it is encrypted for age RECIPIENT, and strata has none of these keys"},
				{File: "secrets/credentials.yaml", Object: "Secret/credentials", Message: "cannot decrypt Secret/credentials for Kustomization/secrets: it is encrypted for age RECIPIENT, and strata has none of these keys"},
				{File: "secrets/token", Object: "Kustomization/secrets", Message: "cannot decrypt secrets/token (read by a secretGenerator) for Kustomization/secrets: it is encrypted for age RECIPIENT, and strata has none of these keys"},
			},
		},
		{
			name: "no spec.decryption",
			own:  true,
			edit: func(t *testing.T, root string) {
				testkit.EditFile(t, root, "clusters/dev/secrets.yaml", "  decryption:\n    provider: sops\n    secretRef:\n      name: sops-age\n", "")
			},
			want: []diag.Problem{{
				File: "secrets/credentials.yaml", Object: "Secret/credentials",
				Message: "Secret/credentials is SOPS-encrypted, and Kustomization/secrets has no spec.decryption: Flux refuses to apply it (configuring decryption is required)",
				Fix:     "add spec.decryption: {provider: sops} to Kustomization/secrets, or store Secret/credentials unencrypted",
			}},
		},
		{
			name: "decrypt disabled",
			own:  true,
			plain: func(t *testing.T, root string) {
				testkit.EditFile(t, root, "secrets/credentials.yaml", "  namespace: flux-system\n", "  namespace: flux-system\n  annotations:\n    kustomize.toolkit.fluxcd.io/decrypt: disabled\n")
			},
			want: []diag.Problem{{
				File: "secrets/credentials.yaml", Object: "Secret/credentials",
				Message: "Secret/credentials is SOPS-encrypted and annotated kustomize.toolkit.fluxcd.io/decrypt: disabled, so Kustomization/secrets does not decrypt it and Flux refuses to apply it",
				Fix:     "remove the annotation kustomize.toolkit.fluxcd.io/decrypt from Secret/credentials in secrets/credentials.yaml",
			}},
		},
		{
			name: "another provider",
			own:  true,
			edit: func(t *testing.T, root string) {
				testkit.EditFile(t, root, "clusters/dev/secrets.yaml", "provider: sops", "provider: vault")
			},
			want: []diag.Problem{
				{File: "clusters/dev/secrets.yaml", Object: "Kustomization/secrets", Message: `spec.decryption.provider is "vault"; Flux decrypts with sops only`, Fix: "set spec.decryption.provider: sops in clusters/dev/secrets.yaml"},
				{File: "secrets/credentials.yaml", Object: "Secret/credentials", Message: "Secret/credentials is SOPS-encrypted, and Kustomization/secrets has no spec.decryption: Flux refuses to apply it (configuring decryption is required)", Fix: "add spec.decryption: {provider: sops} to Kustomization/secrets, or store Secret/credentials unencrypted"},
			},
		},
		{
			name: "entry directory",
			own:  true,
			edit: func(t *testing.T, root string) {
				if err := os.Rename(filepath.Join(root, "secrets", "credentials.yaml"), filepath.Join(root, "clusters", "dev", "credentials.yaml")); err != nil {
					t.Fatal(err)
				}
				testkit.EditFile(t, root, "secrets/kustomization.yaml", "  - credentials.yaml\n", "  []\n")
				testkit.EditFile(t, root, "secrets/kustomization.yaml", "resources:\n  []", "resources: []")
			},
			want: []diag.Problem{{
				File: "clusters/dev/credentials.yaml", Object: "Secret/credentials",
				Message: "Secret/credentials is SOPS-encrypted, and no Flux Kustomization with spec.decryption brings it in: Flux refuses to apply it",
				Fix:     "move clusters/dev/credentials.yaml under the spec.path of a Flux Kustomization with spec.decryption: {provider: sops}",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noAgeKeys(t)
			key, other := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
			root := testkit.Copy(t, filepath.Join("testdata", "sops"))
			if tt.plain != nil {
				tt.plain(t, root)
			}
			encryptRepo(t, root, sopstest.Recipients{Age: []string{key.Recipient}})
			if tt.edit != nil {
				tt.edit(t, root)
			}
			have := other
			if tt.own {
				have = key
			}
			_, ps := loadKeys(t, root, have.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
			for _, p := range ps {
				for _, secret := range []string{"token-from", "password-from", key.Identity, other.Identity} {
					if strings.Contains(p.String(), secret) {
						t.Errorf("problem %q holds %q", p.String(), secret)
					}
				}
			}
			var got diag.Problems
			for _, p := range ps {
				if p.Code == diag.CodeInputMissing {
					if !strings.Contains(p.Fix, "give strata the key") || !strings.Contains(p.Fix, "--inputs DIR") {
						t.Errorf("problem %v: fix %q, want it to say how to give the key or the Secret", p, p.Fix)
					}
					p.Fix = ""
				}
				if tt.name == "no key" && p.Code != diag.CodeInputMissing {
					// The fix names every key source; check it once.
					if !strings.Contains(p.Fix, "--sops-age-key-file FILE, $SOPS_AGE_KEY_FILE, $SOPS_AGE_KEY or ~/.config/sops/age/keys.txt") ||
						!strings.Contains(p.Fix, "sops updatekeys "+p.File) {
						t.Errorf("problem %v: fix %q, want it to name the key sources and sops updatekeys", p, p.Fix)
					}
					p.Fix = ""
					p.Message = strings.ReplaceAll(p.Message, key.Recipient, "RECIPIENT")
				}
				got = append(got, p)
			}
			if diff := cmp.Diff(diag.Problems(tt.want), got); diff != "" {
				t.Errorf("Load(clusters/dev) problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecryptedSecretIsPrivate: every Secret a Kustomization with
// decryption rendered from an encrypted file is marked private; the
// ConfigMap is not.
func TestDecryptedSecretIsPrivate(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	root := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	l, ps := loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	if len(ps) > 0 {
		t.Fatalf("Load(clusters/dev) problems:\n%v", ps)
	}
	var secrets int
	for _, o := range l.rendered["secrets"] {
		switch kind, _ := o.Object["kind"].(string); kind {
		case kindSecret:
			secrets++
			if !o.Private {
				t.Errorf("rendered Secret from %s is not private", o.File)
			}
		case kindConfigMap:
			if o.Private {
				t.Errorf("rendered ConfigMap from %s is private", o.File)
			}
		}
	}
	if secrets != 2 {
		t.Errorf("Kustomization secrets rendered %d Secrets, want 2", secrets)
	}
}

// entrySecretRepo copies testdata/sops with its Secret credentials moved
// into the entry directory, encrypted for key, beside the Kustomization
// flux-system that applies the entry and decrypts.
func entrySecretRepo(t *testing.T, key sopstest.AgeKey) string {
	t.Helper()
	root := testkit.Copy(t, filepath.Join("testdata", "sops"))
	if err := os.Rename(filepath.Join(root, "secrets", "credentials.yaml"), filepath.Join(root, "clusters", "dev", "credentials.yaml")); err != nil {
		t.Fatal(err)
	}
	testkit.EditFile(t, root, "secrets/kustomization.yaml", "resources:\n  - credentials.yaml\n", "resources: []\n")
	testkit.WriteFile(t, filepath.Join(root, "clusters", "dev", "flux-system.yaml"), fluxSystemDecrypting)
	sopstest.EncryptFile(t, filepath.Join(root, "clusters", "dev", "credentials.yaml"), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
	for _, f := range []string{"app.env", "token", "settings.env"} {
		sopstest.EncryptFile(t, filepath.Join(root, "secrets", f), sopstest.Recipients{Age: []string{key.Recipient}}, "")
	}
	return root
}

// TestDecryptEntry: an encrypted Secret in the entry directory is
// decrypted when the Kustomization that builds the entry directory (a
// bootstrap's flux-system) has spec.decryption.
func TestDecryptEntry(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	root := entrySecretRepo(t, key)
	l, ps := loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	if len(ps) > 0 {
		t.Fatalf("Load(clusters/dev) problems:\n%v", ps)
	}
	if creds := l.secret("", "credentials"); creds == nil || !creds.Private || creds.Data["api_token"] != "token-from-credentials" {
		t.Errorf("Secret credentials = %+v, want it decrypted and private", creds)
	}
	testkit.EditFile(t, root, "clusters/dev/flux-system.yaml", "  decryption:\n    provider: sops\n", "")
	_, ps = loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	want := diag.Problems{{
		File: "clusters/dev/credentials.yaml", Object: "Secret/credentials",
		Message: "Secret/credentials is SOPS-encrypted, and Kustomization/flux-system has no spec.decryption: Flux refuses to apply it (configuring decryption is required)",
		Fix:     "add spec.decryption: {provider: sops} to Kustomization/flux-system, or store Secret/credentials unencrypted",
	}}
	if diff := cmp.Diff(want, ps); diff != "" {
		t.Errorf("Load(clusters/dev) without decryption on flux-system: problems mismatch (-want +got):\n%s", diff)
	}
}

// TestDecryptInputs gives with --inputs a Secret encrypted with sops, as
// a CI job keeps what External Secrets makes in the cluster: the stack
// that reads it through spec.varsFrom gets its value decrypted; encrypted
// for a key the run does not hold, it blocks the stack (it does not wait:
// it was given) with one problem that names the input's file, the key it
// is encrypted for and how to give strata the key.
func TestDecryptInputs(t *testing.T) {
	noAgeKeys(t)
	held, other := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
	keyFile := held.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))
	root := writeRepo(t, map[string]string{appTF: baseRepo[appTF] + "  varsFrom: [{kind: Secret, name: creds}]\n"})
	dir := filepath.Join(root, envDir)
	plain, err := os.ReadFile(filepath.Join("testdata", "inputs", "creds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		recipient string
		wantVars  map[string]any
		// wantProblem, with %s for the input's file, is the one problem.
		wantProblem *diag.Problem
	}{
		{
			name:      "encrypted for the run's key",
			recipient: held.Recipient,
			wantVars:  map[string]any{"region": "eu-central-1", "token": "SENTINEL-input-token"},
		},
		{
			name:      "encrypted for a key the run does not hold",
			recipient: other.Recipient,
			wantProblem: &diag.Problem{
				File:    "%s",
				Object:  "Secret/creds",
				Message: "cannot decrypt Secret/creds for --inputs: it is encrypted for age " + other.Recipient + ", and strata has none of these keys",
				Fix:     "give strata the private key of one of them: an age key with " + keySources + "; or re-encrypt %s for a key strata has (sops updatekeys %s)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "creds.yaml")
			testkit.WriteFile(t, in, string(sopstest.Encrypt(t, in, plain, sopstest.Recipients{Age: []string{tt.recipient}}, sopstest.KubernetesRegex)))
			if b, _ := os.ReadFile(in); strings.Contains(string(b), "SENTINEL") {
				t.Fatalf("%s holds the value in the clear: it is not encrypted", in)
			}
			files, err := inputs.ReadFiles(context.Background(), []string{filepath.Dir(in)})
			if err != nil {
				t.Fatal(err)
			}
			ctx := decryption.WithKeys(WithOptions(context.Background(), Options{Inputs: files}), decryption.Keys{AgeKeyFile: keyFile})
			env, err := Load(ctx, dir)
			var ps diag.Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("Load(%q) = %v, want problems or none", dir, err)
			}
			var want diag.Problems
			if p := tt.wantProblem; p != nil {
				want = diag.Problems{{File: in, Object: p.Object, Message: p.Message, Fix: fmt.Sprintf(p.Fix, in, in)}}
			}
			if diff := cmp.Diff(want, untagged(environment.AllProblems(env, err))); diff != "" {
				t.Errorf("Load(%q) problems diff (-want +got):\n%s", dir, diff)
			}
			if tt.wantProblem != nil {
				if len(env.Blocked) != 1 || env.Blocked[0].Stack != "app" || env.Blocked[0].Waiting {
					t.Errorf("Load(%q) blocked = %+v, want stack app blocked, not waiting", dir, env.Blocked)
				}
				return
			}
			s := env.Stack("app")
			if s == nil {
				t.Fatalf("Load(%q) has no stack app (blocked: %+v)", dir, env.Blocked)
			}
			if diff := cmp.Diff(tt.wantVars, s.Vars); diff != "" {
				t.Errorf("Load(%q) stack app vars diff (-want +got):\n%s", dir, diff)
			}
		})
	}
}

// TestDecryptWithoutKey: without the key, an object of a kind strata
// does not read (a Vault custom resource) and a Secret are warnings,
// under a Kustomization and in the entry directory alike: Flux in the
// cluster holds the key, nothing strata reads depends on the Vault, and
// what reads the Secret waits for it. Nothing is blocked for them.
func TestDecryptWithoutKey(t *testing.T) {
	const vault = `apiVersion: vault.banzaicloud.com/v1alpha1
kind: Vault
metadata:
  name: unseal
  namespace: vault
spec:
  unsealKey: very-secret
`
	tests := []struct {
		name string
		// vault is where the Vault object is written, relative to
		// the root.
		vault string
		edit  func(t *testing.T, root string)
	}{
		{
			name:  "under a Kustomization with decryption",
			vault: "secrets/vault.yaml",
			edit: func(t *testing.T, root string) {
				testkit.EditFile(t, root, "secrets/kustomization.yaml", "  - credentials.yaml\n", "  - credentials.yaml\n  - vault.yaml\n")
			},
		},
		{
			name:  "in the entry directory",
			vault: "clusters/dev/vault.yaml",
			edit: func(t *testing.T, root string) {
				if err := os.Rename(filepath.Join(root, "secrets", "credentials.yaml"), filepath.Join(root, "clusters", "dev", "credentials.yaml")); err != nil {
					t.Fatal(err)
				}
				testkit.EditFile(t, root, "secrets/kustomization.yaml", "resources:\n  - credentials.yaml\n", "resources: []\n")
				testkit.WriteFile(t, filepath.Join(root, "clusters", "dev", "flux-system.yaml"), fluxSystemDecrypting)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noAgeKeys(t)
			key, other := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
			root := testkit.Copy(t, filepath.Join("testdata", "sops"))
			tt.edit(t, root)
			testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(tt.vault)), vault)
			// A Secret of base64 data values, which stay encrypted.
			testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(path.Dir(tt.vault)), "data.yaml"), "apiVersion: v1\nkind: Secret\nmetadata:\n  name: data\n  namespace: vault\ndata:\n  token: dG9rZW4=\n")
			if path.Dir(tt.vault) == "secrets" {
				testkit.EditFile(t, root, "secrets/kustomization.yaml", "  - vault.yaml\n", "  - vault.yaml\n  - data.yaml\n")
			}
			r := sopstest.Recipients{Age: []string{key.Recipient}}
			sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(tt.vault)), r, "^spec$")
			sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(path.Dir(tt.vault)), "data.yaml"), r, sopstest.KubernetesRegex)
			creds := filepath.Join(root, "secrets", "credentials.yaml")
			if _, err := os.Stat(creds); err != nil {
				creds = filepath.Join(root, "clusters", "dev", "credentials.yaml")
			}
			sopstest.EncryptFile(t, creds, r, sopstest.KubernetesRegex)
			for _, f := range []string{"app.env", "token", "settings.env"} {
				sopstest.EncryptFile(t, filepath.Join(root, "secrets", f), r, "")
			}
			l, _ := loadKeys(t, root, other.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
			for _, p := range l.sortedProblems() {
				if strings.Contains(p.Object, "Vault/") || p.Object == "Secret/credentials" || p.Object == "Secret/data" {
					t.Errorf("Load(clusters/dev) problem %v, want a warning for it", p)
				}
			}
			for _, w := range l.env.Warnings {
				if strings.Contains(w.Message, "base64") {
					t.Errorf("Load(clusters/dev) warning %v: an encrypted value is no base64, and the decryption's warning says so", w)
				}
			}
			var found bool
			for _, w := range l.env.Warnings {
				if w.Object == "Vault/unseal" && w.File == tt.vault && strings.Contains(w.Message, "strata reads nothing of a Vault, so it holds up nothing here") {
					found = true
				}
				if strings.Contains(w.String(), "very-secret") {
					t.Errorf("warning %v holds the encrypted value", w)
				}
			}
			if !found {
				t.Errorf("Load(clusters/dev) warnings = %v, want one that Vault/unseal in %s cannot be decrypted and holds up nothing", l.env.Warnings, tt.vault)
			}
		})
	}
}

// fluxSystemDecrypting is the bootstrap's Kustomization of clusters/dev,
// with SOPS decryption: the entry directory's own.
const fluxSystemDecrypting = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m
  path: ./clusters/dev
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  decryption:
    provider: sops
`

// TestDecryptConfigMapWithoutKey: a ConfigMap SOPS-encrypted for a key
// strata does not hold (cluster settings a Kustomization substitutes
// from) is what such a Secret is: a warning, not a problem that stops
// everything, and what substitutes from it waits for it as an input, the
// message naming the file that holds it encrypted.
func TestDecryptConfigMapWithoutKey(t *testing.T) {
	noAgeKeys(t)
	key, other := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
	root := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	settings := filepath.Join(root, "secrets", "cluster-settings.yaml")
	testkit.WriteFile(t, settings, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: flux-system\ndata:\n  region: eu-west-1\n")
	sopstest.EncryptFile(t, settings, sopstest.Recipients{Age: []string{other.Recipient}}, sopstest.KubernetesRegex)
	testkit.EditFile(t, root, "secrets/kustomization.yaml", "  - credentials.yaml\n", "  - credentials.yaml\n  - cluster-settings.yaml\n")
	testkit.EditFile(t, root, "clusters/dev/infra.yaml", "      - kind: Secret\n        name: credentials\n", "      - kind: Secret\n        name: credentials\n      - kind: ConfigMap\n        name: cluster-settings\n")
	l, _ := loadKeys(t, root, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
	for _, p := range l.sortedProblems() {
		if p.Object == "ConfigMap/cluster-settings" {
			t.Errorf("Load(clusters/dev) problem %v, want a warning for it", p)
		}
	}
	var warned bool
	for _, w := range l.env.Warnings {
		warned = warned || w.Object == "ConfigMap/cluster-settings" && w.File == "secrets/cluster-settings.yaml"
	}
	if !warned {
		t.Errorf("Load(clusters/dev) warnings = %v, want one that ConfigMap/cluster-settings cannot be decrypted", l.env.Warnings)
	}
	want := "waiting for input ConfigMap/flux-system/cluster-settings (postBuild.substituteFrom): it is SOPS-encrypted in secrets/cluster-settings.yaml, and strata holds no key to it (Flux in the cluster does)"
	var waiting bool
	for _, b := range l.env.Blocked {
		waiting = waiting || b.Stack == "app" && b.Waiting && strings.Contains(b.Reason, want)
	}
	if !waiting || l.env.Stack("app") != nil {
		t.Errorf("Load(clusters/dev) blocked = %+v, want stack app waiting: %q", l.env.Blocked, want)
	}
}
