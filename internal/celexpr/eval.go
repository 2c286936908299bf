package celexpr

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// Eval evaluates a boolean expression over objects, as Flux evaluates a
// dependsOn readyExpr: vars are the objects by name (self, dep). An
// expression that reads what an object does not have (a status the
// cluster writes) is an error.
func Eval(ctx context.Context, expr string, vars map[string]any) (bool, error) {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	slices.Sort(names)
	e, ast, err := compile(expr, names...)
	if err != nil {
		return false, err
	}
	prog, err := e.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(100))
	if err != nil {
		return false, fmt.Errorf("failed to create CEL program: %w", err)
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
