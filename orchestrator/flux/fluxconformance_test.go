package flux

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// updateFluxDoc rewrites docs/flux-conformance.md from fluxScenarios.
var updateFluxDoc = flag.Bool("update", false, "rewrite docs/flux-conformance.md from the table of kustomize-controller's scenarios")

// fluxConformanceDoc is the page the table is rendered to.
const fluxConformanceDoc = "../../docs/flux-conformance.md"

// fluxVerdict is how strata behaves in one of kustomize-controller's
// scenarios.
type fluxVerdict string

const (
	// fluxSame: strata renders what Flux renders, or fails as it fails;
	// the test named runs the scenario.
	fluxSame fluxVerdict = "same"
	// fluxDeliberate: a difference docs/repository.md lists, with its
	// reason.
	fluxDeliberate fluxVerdict = "deliberate difference"
	// fluxNotYet: a difference still to remove.
	fluxNotYet fluxVerdict = "not yet"
	// fluxApply: the scenario is about what kustomize-controller does in
	// the cluster once it has rendered (status, events, prune, garbage
	// collection, its caches): nothing of the render.
	fluxApply fluxVerdict = "apply, not render"
)

// fluxScenario is one scenario of kustomize-controller's tests
// (internal/controller/kustomization_*_test.go).
type fluxScenario struct {
	// Peer is the peer's test and subtest; File its file, without
	// "kustomization_" and "_test.go".
	File, Peer string
	Verdict    fluxVerdict
	// Test is strata's test of it: a test function, then the subtests.
	Test string
	Note string
}

// fluxScenarios are the scenarios of kustomize-controller's tests that
// decide what a Kustomization renders, or whether it builds (fluxcd/
// kustomize-controller at the commit of its mirror, 84 in all, the
// borderline ones included).
var fluxScenarios = []fluxScenario{
	{"varsub", "Varsub/reconciles successfully", fluxSame, "TestSubstitutionVars", "postBuild.substitute and substituteFrom ConfigMaps and Secrets, in Flux's order"},
	{"varsub", "Varsub/sets status", fluxApply, "", "the Kustomization's status in the cluster"},
	{"varsub", "Varsub/replaces vars", fluxSame, "TestSubstituteObject", "defaults, escapes and values; a Secret's value wins over a ConfigMap's (TestSubstitutionVars)"},
	{"varsub", "Varsub/sets owner labels", fluxApply, "", "kustomize-controller labels what it applies; strata applies no Kubernetes objects"},
	{"varsub", "VarsubOptional/reconciles successfully with optional ConfigMap", fluxSame, "TestKustomizationBuildConformance/VarsubOptional/replaces vars from optional ConfigMap", ""},
	{"varsub", "VarsubOptional/replaces vars from optional ConfigMap", fluxSame, "TestKustomizationBuildConformance/VarsubOptional/replaces vars from optional ConfigMap", ""},
	{"varsub", "VarsubOptional/reconciles successfully without optional ConfigMap", fluxSame, "TestKustomizationBuildConformance/VarsubOptional/replaces vars tolerating absent ConfigMap", ""},
	{"varsub", "VarsubOptional/replaces vars tolerating absent ConfigMap", fluxSame, "TestKustomizationBuildConformance/VarsubOptional/replaces vars tolerating absent ConfigMap", ""},
	{"varsub", "VarsubAlways/WithVariables strategy skips substitution without variables", fluxSame, "TestKustomizationBuildConformance/VarsubAlways/WithVariables strategy skips substitution without variables", ""},
	{"varsub", "VarsubAlways/Always strategy substitutes defaults without variables", fluxSame, "TestKustomizationBuildConformance/VarsubAlways/Always strategy substitutes defaults without variables", ""},
	{"varsub", "VarsubNumberBool", fluxSame, "TestKustomizationBuildConformance/VarsubNumberBool", "numbers and booleans kept as strings (!!str, quoted variables), $${var} and \\? kept"},
	{"varsub", "VarsubStrict/fails to reconcile", fluxSame, "TestIsolation/--strict-substitution makes it a problem", "`--strict-substitution` is Flux's StrictPostBuildSubstitutions gate"},
	{"transformer", "CommonMetadata/sets labels and annotations", fluxSame, "TestKustomizationBuildConformance/CommonMetadata/sets labels and annotations", ""},
	{"transformer", "CommonMetadata/removes labels and annotations", fluxApply, "", "what the next apply removes from the object in the cluster"},
	{"transformer", "NamePrefixSuffix/sets name prefix and suffix", fluxSame, "TestKustomizationBuildConformance/NamePrefixSuffix/sets name prefix and suffix", "the stack is named as the object"},
	{"transformer", "KustomizeTransformer/namespace and prefix transformers", fluxSame, "TestBuildPlain", "a plain build moves objects of kinds nothing refers to with kustomize's own filters; anything else is built by krusty as in Flux, each compared with krusty's (TestBuildPlain)"},
	{"transformer", "KustomizeTransformer/replacement transformer", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/annotations transformer", fluxSame, "TestBuildPlain", "kustomize's own plugin over kinds whose metadata is all it annotates; any other build by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/label transformer", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/configmap generator", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/secret generator", fluxSame, "TestDecryptSOPS", "built by krusty as in Flux, its encrypted files decrypted"},
	{"transformer", "KustomizeTransformer/patch6902 transformer", fluxSame, "TestPlainResources", "patchesJson6902 is built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/patches transformer", fluxSame, "TestJSONPatchAsKustomize", "inline patches by kustomize's own plugin, JSON6902 add, replace and remove on the YAML tree where that is kustomize's result (TestJSONPatchAsKustomize, TestBuildPlain); a patch from a file by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/patchStrategicMerge transformer", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/image transformer", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformer/replica transformer", fluxSame, "TestPlainResources", "built by krusty as in Flux"},
	{"transformer", "KustomizeTransformerFiles/namespace and prefix transformers", fluxSame, "TestPlainResources", "transformer files are built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/replacement transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/annotations transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/label transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/configmap generator", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/secret generator", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/patch6902 transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/patches transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/patchStrategicMerge transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/image transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "KustomizeTransformerFiles/replica transformer", fluxSame, "TestPlainResources", "built by krusty's built-in plugins as in Flux"},
	{"transformer", "FluxTransformers/applies patches", fluxSame, "TestKustomizationBuildConformance/FluxTransformers/applies patches", "spec.patches, JSON 6902 by target and strategic merge, through Flux's generator"},
	{"transformer", "BuildMetadata/sets origin annotations", fluxSame, "TestKustomizationBuildConformance/BuildMetadata/sets origin annotations", "the origin annotation is kept only when spec.buildMetadata asks for it"},
	{"transformer", "BuildMetadata/removes origin annotations", fluxApply, "", "what the next apply removes from the object in the cluster"},
	{"patch_delete", "MultiplePatchDelete/multiple patch delete in single patch should work", fluxSame, "TestKustomizationBuildConformance/MultiplePatchDelete/multiple patch delete in single patch should work", ""},
	{"patch_delete", "MultiplePatchDelete/multiple patch delete in separate patches should work", fluxSame, "TestKustomizationBuildConformance/MultiplePatchDelete/multiple patch delete in single patch should work", "one patch or two, through Flux's generator"},
	{"decryptor", "Decryptor/decrypts SOPS secrets", fluxDeliberate, "TestDecryptSOPS", "age and OpenPGP as in Flux (TestDecryptSOPS, TestDecryptPGP); Vault and cloud KMS are not decrypted here"},
	{"decryptor", "Decryptor/does not emit change events for identical secrets", fluxApply, "", "events of the apply"},
	{"decryptor", "Decryptor/global SOPS age secret as fallback", fluxDeliberate, "", "the keys are the machine's (--sops-age-key-file, the sops variables and locations), not a Secret of the controller's namespace"},
	{"decryptor", "Decryptor/spec.decryption.secretRef takes precedence over global secret", fluxSame, "TestDecryptSecretRef", "the Secret is read from the repository, --inputs or --kubeconfig; its age and OpenPGP keys alone decrypt (Vault and cloud KMS credentials are noted, not used); when strata finds no such Secret, the machine's keys decrypt and a note says so"},
	{"validation", "Validation/fails to build invalid plain yamls", fluxSame, "TestKustomizationBuildConformance/Validation/fails to build an object without apiVersion", ""},
	{"validation", "Validation/fails to build invalid overlay", fluxSame, "TestKustomizationBuildConformance/Validation/fails to build an object without apiVersion", "krusty fails the overlay as in Flux"},
	{"configuration_error", "ConfigurationError/invalid cel expression", fluxSame, "TestKustomizationBuildConformance/ConfigurationError/invalid cel expression", ""},
	{"configuration_error", "ConfigurationError/object level workload identity feature gate disabled", fluxSame, "TestKustomizationBuildConformance/ConfigurationError/object level workload identity feature gate disabled", "the gate is off unless --feature-gates ObjectLevelWorkloadIdentity=true"},
	{"configuration_error", "ConfigurationError/object level workload identity feature gate enabled", fluxDeliberate, "TestKustomizationBuildConformance/ConfigurationError/object level workload identity feature gate enabled", "with --feature-gates ObjectLevelWorkloadIdentity=true it builds, and decrypts with the machine's keys: a service account's workload identity (cloud KMS) is not used here"},
	{"dependson", "DependsOn/fails due to source not found", fluxSame, "TestLoadSourceProblems", "a Kustomization naming a source that is nowhere is a problem"},
	{"dependson", "DependsOn/reconciles when source is found", fluxSame, "TestLoadSources", ""},
	{"dependson", "DependsOn/fails due to dependency not found", fluxSame, "TestLoadProblems", "a dependsOn naming no Kustomization is a problem"},
	{"dependson", "DependsOn_CEL/succeeds with readyExpr dependency check", fluxSame, "TestFrozen/a readyExpr replaces the revision check, and another source has its own revision", "a dependency with a readyExpr is not waited for even when suspended"},
	{"dependson", "DependsOn_CEL/fails with readyExpr when condition not met", fluxSame, "TestFrozen/a readyExpr that is false holds the stacks, one that reads a status is left to the cluster", "evaluated over the Kustomizations as the repository renders them; one that reads a status, which only the cluster has, is taken as true"},
	{"dependson", "DependsOn_CEL/fails terminally with invalid readyExpr", fluxSame, "TestKustomizationBuildConformance/DependsOn/fails terminally with invalid readyExpr", ""},
	{"dependson", "DependsOn_CEL/GC works with failing dependency", fluxApply, "", "garbage collection in the cluster"},
	{"externalartifact", "ExternalArtifact/reconciles from external artifact source", fluxDeliberate, "", "a Kustomization renders from this checkout only; one of another source (here an ExternalArtifact) waits for it"},
	{"externalartifact", "ExternalArtifact/watches for external artifact revision change", fluxDeliberate, "", "as above"},
	{"externalartifact", "ExternalArtifact/fails when external artifact feature gate is disable", fluxDeliberate, "", "as above"},
	{"acl", "NoCrossNamespaceRefs/reconciles from cross-namespace source", fluxSame, "TestCrossNamespaceRefs", "allowed unless --no-cross-namespace-refs"},
	{"acl", "NoCrossNamespaceRefs/fails to reconcile from cross-namespace source", fluxSame, "TestCrossNamespaceRefs", "`--no-cross-namespace-refs` refuses it"},
	{"direct_source_fetch", "DirectSourceFetch/reconciles with DirectSourceFetch enabled (uses APIReader)", fluxApply, "", "the controller's cache of sources"},
	{"direct_source_fetch", "DirectSourceFetch/source not found with DirectSourceFetch enabled", fluxApply, "", "the controller's cache of sources"},
	{"direct_source_fetch", "DirectSourceFetch_OCIRepository/handles OCIRepository with DirectSourceFetch enabled", fluxApply, "", "the controller's cache of sources"},
	{"direct_source_fetch", "DirectSourceFetch_Bucket/handles Bucket with DirectSourceFetch enabled", fluxApply, "", "the controller's cache of sources"},
	{"fetcher", "ArtifactDownload/downloads artifact", fluxSame, "TestLoadNamespace", "in cluster mode the artifact is source-controller's; in git mode the checkout is read as that artifact (TestLoadReadsTheArtifact)"},
	{"fetcher", "ArtifactDownload/retries on not found errors", fluxApply, "", "retries of the download"},
	{"fetcher", "ArtifactDownload/recovers after not found errors", fluxApply, "", "retries of the download"},
	{"origin_revision", "OriginRevision", fluxApply, "", "status, history and events of the apply"},
	{"inventory", "Inventory/creates resources", fluxApply, "", "the inventory of applied objects"},
	{"inventory", "Inventory/ignores drift", fluxSame, "TestFrozen/an object marked by annotation or label, the value in any case", "an object marked reconcile: disabled keeps what it last ran"},
	{"inventory", "Inventory/corrects drift", fluxSame, "TestFrozen/an object marked by annotation or label, the value in any case", "unmarked, it runs again"},
	{"inventory", "Inventory/renames resources", fluxApply, "", "prune of renamed objects"},
	{"wait", "WaitIgnoresSkippedObjects", fluxSame, "TestFrozen/an object marked by annotation or label, the value in any case", "ssa: Ignore is never applied"},
	{"prune", "PruneExcludesSSAIgnore/preserves ssa: Ignore objects on stale prune", fluxApply, "", "prune"},
	{"prune", "PruneExcludesSSAIgnore/preserves ssa: Ignore objects on finalizer prune", fluxApply, "", "prune"},
	{"prune", "PruneIncludesSSAIfNotPresent/deletes stale ssa: IfNotPresent objects", fluxApply, "", "prune"},
	{"prune", "PruneIncludesSSAIfNotPresent/deletes ssa: IfNotPresent objects via finalizer", fluxApply, "", "prune"},
	{"prune", "PruneEmpty/deletes stale objects", fluxApply, "", "prune"},
	{"prune", "PruneEmpty/reconciles empty kustomization", fluxSame, "TestKustomizationBuildConformance/PruneEmpty/reconciles empty kustomization", ""},
	{"prune", "PruneEmpty/deletes suspended", fluxApply, "", "finalization in the cluster"},
	{"fuzzer", "Fuzz_Controllers", fluxSame, "FuzzLoadTree", "strata fuzzes its own parsers and loader (go test -fuzz)"},
}

// TestFluxConformanceTable checks the table of kustomize-controller's
// scenarios: each listed once, each difference with its reason, each
// scenario marked same with a test of strata's that exists, and
// docs/flux-conformance.md its rendering (-update rewrites it).
func TestFluxConformanceTable(t *testing.T) {
	sources := testSources(t, "../..")
	seen := map[string]bool{}
	for _, s := range fluxScenarios {
		if seen[s.Peer] {
			t.Errorf("scenario %s is listed twice", s.Peer)
		}
		seen[s.Peer] = true
		if s.Verdict != fluxSame && s.Note == "" {
			t.Errorf("scenario %s (%s) has no note: say what differs", s.Peer, s.Verdict)
		}
		if s.Verdict == fluxSame {
			if s.Test == "" {
				t.Errorf("scenario %s is marked same without a test", s.Peer)
				continue
			}
			fn, sub, _ := strings.Cut(s.Test, "/")
			file := findTest(sources, fn)
			if file == "" {
				t.Errorf("scenario %s names test %s, which no _test.go file declares", s.Peer, fn)
			} else if last := sub[strings.LastIndex(sub, "/")+1:]; sub != "" && !strings.Contains(sources[file], last) {
				t.Errorf("scenario %s names subtest %q of %s, which %s does not hold", s.Peer, sub, fn, file)
			}
		}
	}
	if len(fluxScenarios) != 84 {
		t.Errorf("fluxScenarios lists %d scenarios, want kustomize-controller's 84", len(fluxScenarios))
	}
	testkit.Generated(t, fluxConformanceDoc, fluxConformanceMarkdown(), *updateFluxDoc, "go test ./orchestrator/flux/ -run TestFluxConformanceTable -update")
}

// testSources reads every _test.go file under root, by path.
func testSources(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// findTest returns the file that declares the test function fn: one of
// this package's first, as two packages may name a test alike.
func findTest(sources map[string]string, fn string) string {
	found := ""
	for p, src := range sources {
		if !strings.Contains(src, "func "+fn+"(") {
			continue
		}
		if filepath.Dir(p) == filepath.Join("..", "..", "orchestrator", "flux") {
			return p
		}
		found = p
	}
	return found
}

// fluxConformanceMarkdown renders the table as the docs page.
func fluxConformanceMarkdown() string {
	var b strings.Builder
	count := map[fluxVerdict]int{}
	for _, s := range fluxScenarios {
		count[s.Verdict]++
	}
	b.WriteString("# Flux conformance\n\n")
	b.WriteString("<!-- Generated by TestFluxConformanceTable (orchestrator/flux/fluxconformance_test.go); do not edit. -->\n\n")
	b.WriteString("kustomize-controller's own tests (`internal/controller/kustomization_*_test.go`\n")
	b.WriteString("of github.com/fluxcd/kustomize-controller): every scenario that decides what a\n")
	b.WriteString("Kustomization renders, or whether it builds, and what strata does in it. A\n")
	b.WriteString("scenario marked same is run by the strata test named, with fixtures of\n")
	b.WriteString("strata's own; a difference says why, and the deliberate ones are listed in\n")
	b.WriteString("[the repository format](repository.md#where-strata-differs-from-flux-and-the-tofu-controller).\n")
	b.WriteString("A scenario about what kustomize-controller does in the cluster after it has\n")
	b.WriteString("rendered (status, events, prune, its caches) is marked apply, not render.\n\n")
	fmt.Fprintf(&b, "Of %d scenarios: %d same, %d deliberate differences, %d not yet, %d about the apply.\n\n",
		len(fluxScenarios), count[fluxSame], count[fluxDeliberate], count[fluxNotYet], count[fluxApply])
	b.WriteString("| Test file | Scenario | Verdict | strata's test | Note |\n|---|---|---|---|---|\n")
	for _, s := range fluxScenarios {
		test := ""
		if s.Test != "" {
			test = "`" + s.Test + "`"
		}
		fmt.Fprintf(&b, "| `kustomization_%s_test.go` | %s | %s | %s | %s |\n", s.File, s.Peer, s.Verdict, test, s.Note)
	}
	return b.String()
}
