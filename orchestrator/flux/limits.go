package flux

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/yamllimits"
)

// The limits of what the loader reads. Each bounds a cost that grows
// faster than the input: past it, a file is a problem naming the file,
// the limit and the fix, found before kustomize reads it.
const (
	// MaxManifestBytes is the largest manifest file read: the YAML nodes
	// of a file take about ten times its size in memory.
	MaxManifestBytes = 32 << 20
	// MaxMappingKeys is the most keys of one mapping that kustomize is
	// given to read. kustomize's reader (kyaml's de-anchoring, run on every
	// document) takes time that grows with the square of a mapping's keys:
	// 10,000 keys take about a second. A wider mapping is read past
	// kustomize when kustomize does not change it (see elide.go); one it
	// must read is refused.
	MaxMappingKeys = 10_000
	// MaxNesting, MaxAliasNodes and MaxAliasRatio bound one document:
	// see package yamllimits.
	MaxNesting    = yamllimits.MaxNesting
	MaxAliasNodes = yamllimits.MaxAliasNodes
	MaxAliasRatio = yamllimits.MaxAliasRatio
	// MaxBuildObjects is the most objects one kustomize build reads:
	// kustomize checks every object it adds against each one added
	// before, so its time grows with the square of their number (1,000
	// objects take about half a second).
	MaxBuildObjects = 5_000
	// MaxBuildFiles is the most manifest files one kustomize build reads,
	// empty ones included: kustomize resolves every file's path through
	// its symbolic links, a dozen system calls each, so 100,000 files take
	// about ten seconds before a single object is read.
	MaxBuildFiles = 20_000
)

// countProblem is the problem of a file that brings its build past
// MaxBuildObjects objects.
func countProblem(file string, objects int) diag.Problem {
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the kustomize build that reads this file reads %d objects by its end, more than the %d strata lets one build read: kustomize checks every object it adds against each one added before", objects, MaxBuildObjects),
		Fix:     fmt.Sprintf("split the objects of %s and the files listed with it over several Flux Kustomizations", file),
	}
}

// filesProblem is the problem of a directory whose build reads more than
// MaxBuildFiles manifest files; how says how the build comes to read them.
func filesProblem(dir, how string) diag.Problem {
	return diag.Problem{
		File:    dir,
		Message: fmt.Sprintf("the kustomize build of %s reads more than %d manifest files (%s), more than strata lets one build read", dir, MaxBuildFiles, how),
		Fix:     fmt.Sprintf("keep only manifests under %s, or split them over several Flux Kustomizations of at most %d files each", dir, MaxBuildFiles),
	}
}

// irregularProblem is the problem of a manifest path that does not lead
// to a regular file: a named pipe, a device, a symbolic link loop. Reading
// one could block the load for ever.
func irregularProblem(file string, err error) diag.Problem {
	why := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		why = pe.Err.Error()
	}
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the manifest cannot be read: %s", why),
		Fix:     fmt.Sprintf("replace %s with a regular file, or remove it (Flux reads every .yaml and .yml file of a directory without a kustomization file)", file),
	}
}

// sizeProblem is the problem of a manifest file larger than
// MaxManifestBytes.
func sizeProblem(file string, size int64) diag.Problem {
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the file holds %s, more than the %s strata reads of one manifest file", byteSize(size), byteSize(MaxManifestBytes)),
		Fix:     fmt.Sprintf("split %s into files of at most %s", file, byteSize(MaxManifestBytes)),
	}
}

// byteSize writes a size in bytes for a person.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
