package reconcile_test

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestVolumesReachTofu: in a repository, the runner pod's Secret volume
// is written for the run, and a variable of the stack's environment that
// names a file under its mount path reaches tofu as the run's copy of
// that file; the Secret's value is in no log. What a repository's run
// cannot give (an init container) is a warning, and the stack applies.
func TestVolumesReachTofu(t *testing.T) {
	e := newFieldsEnv(t)
	testkit.WriteFile(t, filepath.Join(e.root, "flux-apps", "app", "terraform", "volume.tf"), `variable "token_file" {
  type    = string
  default = ""
}

output "token_sha" {
  value = fileexists(var.token_file) ? sha256(file(var.token_file)) : "no file at ${var.token_file}"
}
`)
	e.setFields(`  runnerPodTemplate:
    spec:
      env:
        - name: TF_VAR_token_file
          value: /etc/creds/token
      volumes:
        - name: creds
          secret: {secretName: creds}
      volumeMounts:
        - name: creds
          mountPath: /etc/creds
      initContainers:
        - name: wait
          image: busybox
`)
	got, logs := e.apply()
	if got.Result != history.ResultApplied {
		t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
	}
	doc := readContract(t, e.state, "acme", "dev", "app")
	sum := sha256.Sum256([]byte("SENTINEL-mapped-file"))
	if doc.Public["token_sha"] != hex.EncodeToString(sum[:]) {
		t.Errorf("contract app public.token_sha = %v, want the sha256 of the Secret's token: the volume's file did not reach tofu", doc.Public["token_sha"])
	}
	if strings.Contains(logs, "SENTINEL") {
		t.Errorf("the Secret's value is in the logs:\n%s", logs)
	}
	if !strings.Contains(logs, "spec.runnerPodTemplate.spec.initContainers (wait)") {
		t.Errorf("logs = %s, want the warning that the init container does not run", logs)
	}
}
