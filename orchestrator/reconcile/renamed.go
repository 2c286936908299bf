package reconcile

import (
	"context"
	"fmt"
	"slices"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// RenamedError holds back a stack that has no runs of its own while the
// runs of its Terraform object's other name are live: the name alone,
// for a stack that another namespace's object of its name made
// namespace_name, or namespace_name, for one that has its name alone
// again. Run, it would leave those runs, their state and their contract
// behind and create its resources a second time.
type RenamedError struct {
	// Stack is the stack held, and Namespace its object's; Other is the
	// name with live runs.
	Stack, Namespace, Other string
	// Owner is the Terraform object (namespace/name) whose runs those
	// are, as far as they say, and File its file; Owner is "" for runs
	// recorded before strata kept the namespace, File "" for an owner
	// that left the environment.
	Owner, File string
}

func (e *RenamedError) Error() string {
	name := e.Other
	if bare, ok := environment.Unqualified(e.Other); ok {
		name = bare
	}
	switch {
	case e.Owner == "":
		return fmt.Sprintf("stack %s does not run: the runs, state and contract under %s are one of the Terraform objects named %s (recorded before strata kept their namespace), "+
			"and another namespace has one of that name too: annotate the one they are of with %s: %s to keep them, or rename one of the objects",
			e.Stack, e.Other, name, environment.AnnotationStack, e.Other)
	case e.Owner == e.Namespace+"/"+name:
		return fmt.Sprintf("stack %s does not run: its runs, state and contract are under %s, its name until another namespace had, or no longer had, a Terraform %s, "+
			"and run as %s it would create its resources a second time: annotate Terraform %s in %s with %s: %s to keep them",
			e.Stack, e.Other, name, e.Stack, e.Owner, e.File, environment.AnnotationStack, e.Other)
	case e.File == "":
		return fmt.Sprintf("stack %s does not run: the runs, state and contract under %s are Terraform %s's, which left the environment, "+
			"and another namespace has a Terraform %s too: annotate the object that is to keep them with %s: %s, or rename one of the objects",
			e.Stack, e.Other, e.Owner, name, environment.AnnotationStack, e.Other)
	default:
		return fmt.Sprintf("stack %s does not run: the runs, state and contract under %s are Terraform %s's, whose stack is named otherwise now and does not run either: "+
			"annotate Terraform %s in %s with %s: %s to keep them, and both run",
			e.Stack, e.Other, e.Owner, e.Owner, e.File, environment.AnnotationStack, e.Other)
	}
}

// otherName is the name a stack's runs may be under besides its own:
// the name alone for a namespace_name, namespace_name for a name alone;
// "" when the stack's namespace is not known.
func otherName(s *environment.Stack) string {
	if bare, ok := environment.Unqualified(s.Name); ok {
		return bare
	}
	if s.Namespace == "" {
		return ""
	}
	return environment.Qualified(s.Namespace, s.Name)
}

// findRenamed finds the stacks RenamedError holds back, and the names
// whose runs are theirs, which are not stacks that left. known are the
// names the history has runs of.
func findRenamed(ctx context.Context, env *environment.Environment, h envstores.History, known []string) (map[string]*RenamedError, map[string]bool, error) {
	has := func(name string) bool {
		_, found := slices.BinarySearch(known, name)
		return found
	}
	held, kept := map[string]*RenamedError{}, map[string]bool{}
	for _, s := range env.Stacks {
		other := otherName(s)
		if other == "" || !has(other) || env.Stack(other) != nil {
			continue
		}
		last, live, err := liveRun(ctx, h, env, other)
		if err != nil {
			return nil, nil, err
		}
		if !live {
			continue
		}
		if has(s.Name) {
			// Runs under both names: those under its own are the
			// stack's unless they say they are another namespace's.
			own, live, err := liveRun(ctx, h, env, s.Name)
			if err != nil {
				return nil, nil, err
			}
			if live && (own.Namespace == "" || own.Namespace == s.Namespace) {
				continue
			}
		}
		e := &RenamedError{Stack: s.Name, Namespace: s.Namespace, Other: other}
		if last.Namespace != "" {
			bare := s.Name
			if b, ok := environment.Unqualified(s.Name); ok {
				bare = b
			}
			e.Owner, e.File = last.Namespace+"/"+bare, s.File
			if last.Namespace != s.Namespace {
				// Another namespace's object: its stack is
				// namespace_name, held too, or it left ("").
				e.File = ""
				if o := env.Stack(environment.Qualified(last.Namespace, bare)); o != nil {
					e.File = o.File
				}
			}
		}
		held[s.Name] = e
		kept[other] = true
	}
	return held, kept, nil
}

// liveRun is the last good run of the named stack, when strata still
// manages its resources: it has one, not its removal, and was not let
// go of (orphaned) since. The head decides; the run is then read whole.
func liveRun(ctx context.Context, h envstores.History, env *environment.Environment, name string) (history.Run, bool, error) {
	head, err := h.Head(ctx, env.Client, env.Name, name)
	if err != nil {
		return history.Run{}, false, err
	}
	if head.Good.Number == 0 || head.Good.Cause == runner.CauseRemoved || head.Last.Result == history.ResultOrphaned {
		return history.Run{}, false, nil
	}
	return h.LastGood(ctx, env.Client, env.Name, name)
}
