package flux

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/inputs"
)

// decryptionSecret is the Secret testdata/sops's Kustomization secrets
// names in spec.decryption.secretRef, with data (as stringData).
func decryptionSecret(data map[string]string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Secret\nmetadata:\n  name: sops-age\n  namespace: flux-system\nstringData:\n")
	for k, v := range data {
		b.WriteString("  " + k + ": |\n")
		for _, line := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String()
}

// TestDecryptSecretRef ports kustomize-controller's "spec.decryption.secretRef
// takes precedence over global secret": a Kustomization whose
// spec.decryption.secretRef names a Secret strata reads (here from
// --inputs) decrypts with that Secret's keys alone, age (*.agekey) and
// OpenPGP (*.asc), whatever keys the machine holds; a Secret strata cannot
// find leaves the machine's keys to decrypt, and says so.
func TestDecryptSecretRef(t *testing.T) {
	noAgeKeys(t)
	inSecret, onMachine := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
	tests := []struct {
		name string
		// encryptedFor are the recipients of the repository's secrets.
		encryptedFor sopstest.Recipients
		// secret is the decryption Secret's data; nil gives none.
		secret  map[string]string
		pgp     bool
		wantErr string
		// wantNote is a part of a note, when one is wanted.
		wantNote string
	}{
		{
			name:         "the Secret's age key, which the machine does not hold",
			encryptedFor: sopstest.Recipients{Age: []string{inSecret.Recipient}},
			secret:       map[string]string{"age.agekey": inSecret.Identity},
		},
		{
			name:         "the Secret's keys alone: the machine's key is not tried",
			encryptedFor: sopstest.Recipients{Age: []string{onMachine.Recipient}},
			secret:       map[string]string{"age.agekey": inSecret.Identity},
			wantErr:      "it decrypts with the keys of Secret/flux-system/sops-age alone, its spec.decryption.secretRef, as Flux does",
		},
		{
			name:         "an OpenPGP key of the Secret, not in the machine's keyring",
			encryptedFor: sopstest.Recipients{PGP: []string{"PGP"}},
			pgp:          true,
		},
		{
			name:         "a key service strata does not decrypt with",
			encryptedFor: sopstest.Recipients{Age: []string{inSecret.Recipient}},
			secret:       map[string]string{"age.agekey": inSecret.Identity, "sops.vault-token": "s.token"},
			wantNote:     "Secret/flux-system/sops-age holds sops.vault-token, which strata does not decrypt with",
		},
		{
			name:         "no such Secret: the machine's keys",
			encryptedFor: sopstest.Recipients{Age: []string{onMachine.Recipient}},
			wantNote:     "its spec.decryption.secretRef Secret/flux-system/sops-age is neither in the repository nor in --inputs or --kubeconfig, so strata decrypts with the age keys of",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, secret := tt.encryptedFor, tt.secret
			if tt.pgp {
				fpr := sopstest.NewPGPKey(t)
				armored, err := exec.Command("gpg", "--batch", "--armor", "--export-secret-keys", fpr).Output()
				if err != nil {
					t.Fatalf("gpg --export-secret-keys = %v", err)
				}
				r, secret = sopstest.Recipients{PGP: []string{fpr}}, map[string]string{"pgp.asc": string(armored)}
			}
			root := sopsRepo(t, r)
			if tt.pgp {
				// The machine's keyring no longer holds the key.
				t.Setenv("GNUPGHOME", t.TempDir())
			}
			ctx := decryption.WithKeys(context.Background(), decryption.Keys{AgeKeyFile: onMachine.WriteKeyFile(t, filepath.Join(t.TempDir(), "keys.txt"))})
			if secret != nil {
				in := filepath.Join(t.TempDir(), "sops-age.yaml")
				testkit.WriteFile(t, in, decryptionSecret(secret))
				files, err := inputs.ReadFiles(ctx, []string{in})
				if err != nil {
					t.Fatal(err)
				}
				ctx = WithOptions(ctx, Options{Inputs: files})
			}
			dir := filepath.Join(root, "clusters", "dev")
			l, err := read(keepRendered(ctx), dir)
			if err != nil {
				t.Fatalf("read(%q) = %v", dir, err)
			}
			ps := untagged(environment.AllProblems(l.env, l.sortedProblems().Err()))
			if tt.wantErr != "" {
				var found bool
				for _, p := range ps {
					found = found || strings.Contains(p.Message, tt.wantErr) && strings.Contains(p.Fix, "add the private key of one of them to Secret/flux-system/sops-age")
				}
				if !found {
					t.Errorf("Load(%q) problems = %v, want one saying %q", dir, ps, tt.wantErr)
				}
				return
			}
			if len(ps) > 0 {
				t.Fatalf("Load(%q) problems:\n%v", dir, ps)
			}
			if diff := cmp.Diff(map[string]any{"api_token": "token-from-credentials", "db_password": "password-from-env"}, l.env.Stack("app").Vars); diff != "" {
				t.Errorf("Load(%q) stack app vars mismatch (-want +got):\n%s", dir, diff)
			}
			var notes []string
			for _, n := range l.env.Notes {
				if strings.Contains(n, "secretRef") || strings.Contains(n, "sops-age") {
					notes = append(notes, n)
				}
			}
			if tt.wantNote == "" && len(notes) > 0 {
				t.Errorf("Load(%q) notes = %q, want none of the decryption Secret", dir, notes)
			}
			if tt.wantNote != "" && (len(notes) != 1 || !strings.Contains(notes[0], tt.wantNote)) {
				t.Errorf("Load(%q) notes = %q, want one saying %q", dir, notes, tt.wantNote)
			}
		})
	}
}
