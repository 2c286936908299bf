package celexpr

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// env is the CEL environment of Flux's expressions, with vars declared
// as objects (maps of any).
func env(vars ...string) (*cel.Env, error) {
	opts := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		ext.Strings(),
		ext.Sets(),
		ext.Encoders(),
	}
	for _, v := range vars {
		opts = append(opts, cel.Variable(v, cel.MapType(cel.StringType, cel.DynType)))
	}
	e, err := cel.NewEnv(opts...)
	if err != nil {
		return nil, fmt.Errorf("make the CEL environment: %w", err)
	}
	return e, nil
}

// Compile compiles expr as Flux's controllers compile a boolean
// expression over objects (a dependsOn readyExpr): each of vars is an
// object (a map of any), and the result must be a bool. The error says
// what is wrong, as CEL says it.
func Compile(expr string, vars ...string) error {
	_, err := program(expr, vars...)
	return err
}

// compile is Compile, returning the environment and the checked
// expression.
func compile(expr string, vars ...string) (*cel.Env, *cel.Ast, error) {
	e, err := env(vars...)
	if err != nil {
		return nil, nil, err
	}
	ast, issues := e.Compile(expr)
	if issues != nil && issues.Err() != nil {
		return nil, nil, fmt.Errorf("failed to parse the CEL expression '%s': %s", expr, issues.String())
	}
	// As Flux: an expression whose type is only known when it runs
	// (self.ready) is refused too.
	if got := ast.OutputType(); !got.IsExactType(cel.BoolType) {
		return nil, nil, fmt.Errorf("CEL expression output type mismatch: expected bool, got %s", got)
	}
	return e, ast, nil
}

// Parse parses expr as Flux parses a health check expression: its
// variables are the object's top-level fields, which differ from kind to
// kind, so nothing is declared and no type is checked.
func Parse(expr string) error {
	e, err := env()
	if err != nil {
		return err
	}
	if _, issues := e.Parse(expr); issues != nil && issues.Err() != nil {
		return fmt.Errorf("failed to parse the CEL expression '%s': %s", expr, issues.String())
	}
	return nil
}
