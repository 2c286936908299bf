package celexpr

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// Eval evaluates a boolean expression over objects, as Flux evaluates a
// dependsOn readyExpr: vars are the objects by name (self, dep). An
// expression that reads what an object does not have (a status the
// cluster writes) is an error.
func Eval(ctx context.Context, expr string, vars map[string]any) (bool, error) {
	prog, err := program(expr, slices.Collect(maps.Keys(vars))...)
	if err != nil {
		return false, err
	}
	val, _, err := prog.ContextEval(ctx, vars)
	if err != nil {
		return false, fmt.Errorf("failed to evaluate the CEL expression '%s': %w", expr, err)
	}
	b, ok := val.(types.Bool)
	if !ok {
		return false, fmt.Errorf("failed to evaluate CEL expression as boolean: '%s'", expr)
	}
	return bool(b), nil
}

// compiled is one expression made a program, or why it could not be.
type compiled struct {
	prog cel.Program
	err  error
}

// programs are the expressions compiled so far, by their variables and
// text: a readyExpr is checked when its Kustomization loads and evaluated
// for it after, and many Kustomizations share one.
var programs sync.Map

// program returns expr over vars as a program, compiled once per process.
func program(expr string, vars ...string) (cel.Program, error) {
	vars = slices.Sorted(slices.Values(vars))
	key := strings.Join(vars, ",") + "\x00" + expr
	if c, ok := programs.Load(key); ok {
		return c.(*compiled).prog, c.(*compiled).err
	}
	c := &compiled{}
	e, ast, err := compile(expr, vars...)
	if err == nil {
		c.prog, err = e.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(100))
		if err != nil {
			err = fmt.Errorf("failed to create CEL program: %w", err)
		}
	}
	c.err = err
	actual, _ := programs.LoadOrStore(key, c)
	return actual.(*compiled).prog, actual.(*compiled).err
}
