package main

import (
	"os"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-iac/strata/internal/helperbin"
)

// strata-kube is strata built with the build tag kube: the same commands,
// and beside them what only a cluster needs, which strata does not link
// (client-go's clientset and informers, leader election, the cluster's
// records, the controller and its runner Jobs). strata runs it in its own
// place (exec, same process) for those commands and flags; see
// docs/installing.md.
var kubeProgram = helperbin.Program{Name: "strata-kube", Env: "STRATA_KUBE", Does: "runs cluster mode with"}

// The commands only strata-kube runs, as both list them.
const (
	controllerShort = "Reconcile the Tofu Controller's Terraform objects of a cluster, in its place"
	runnerShort     = "Run one stack's run inside a runner pod (started by strata controller)"
)

// kubeOnly is the annotation of the flags that only strata-kube acts on.
const kubeOnly = "strata-kube"

// markKubeOnly marks cmd's flags names as strata-kube's: set, the command
// runs in strata-kube.
func markKubeOnly(cmd *cobra.Command, names ...string) {
	for _, name := range names {
		if err := cmd.Flags().SetAnnotation(name, kubeOnly, []string{"true"}); err != nil {
			panic(err) // a flag registered just before: a programming error
		}
	}
}

// kubeFlags are cmd's strata-kube flags that are set (a boolean one to
// true), by name.
func kubeFlags(cmd *cobra.Command) []string {
	var set []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if _, ok := f.Annotations[kubeOnly]; !ok || !f.Changed {
			return
		}
		if f.Value.Type() == "bool" && f.Value.String() == "false" {
			return
		}
		set = append(set, "--"+f.Name)
	})
	return set
}

// beforeKube holds, by command, the usage checks strata makes before it
// runs strata-kube for one of the command's strata-kube flags: a
// combination of flags that is wrong whichever program runs it is
// reported as strata reports it, strata-kube installed or not.
var beforeKube sync.Map // *cobra.Command → []func(*cobra.Command) error

// checkBeforeKube adds check to cmd's usage checks before strata-kube.
func checkBeforeKube(cmd *cobra.Command, check func(*cobra.Command) error) {
	checks, _ := beforeKube.Load(cmd)
	fs, _ := checks.([]func(*cobra.Command) error)
	beforeKube.Store(cmd, append(fs, check))
}

// checksBeforeKube runs cmd's usage checks before strata-kube.
func checksBeforeKube(cmd *cobra.Command) error {
	checks, _ := beforeKube.Load(cmd)
	fs, _ := checks.([]func(*cobra.Command) error)
	for _, check := range fs {
		if err := check(cmd); err != nil {
			return err
		}
	}
	return nil
}

// execProgram replaces this process with another program (syscall.Exec);
// the tests of the commands run in-process replace it.
var execProgram = syscall.Exec

// runInKube replaces this process with strata-kube, given the same
// arguments and environment: the same process id, so signals, the exit
// code and a pod's termination log are strata-kube's as they would be
// strata's. It returns only when strata-kube cannot be run.
func runInKube(why string) error {
	path, err := kubeProgram.Find()
	if err != nil {
		return usageError("%s: %v", why, err)
	}
	if err := execProgram(path, append([]string{path}, os.Args[1:]...), os.Environ()); err != nil {
		return usageError("%s: run %s: %v", why, path, err)
	}
	return nil
}
