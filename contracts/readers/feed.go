package readers

// Shape is how a variable carries contract data.
type Shape int

// Shapes.
const (
	// Document: the variable is a contract's whole document, as
	// readInputsFromSecrets hands it over: var.X.public.KEY.
	Document Shape = iota
	// Keys: the variable is a map of one contract's keys, without
	// sections: var.X.KEY. Section, when set, is the section the keys
	// come from.
	Keys
	// Value: the variable is the value of one key of a contract, as a
	// varsKeys entry feeds it: var.X is Key.
	Value
	// DocumentSet: the variable maps contract names to documents, as
	// strata.dev/read-contracts feeds it: var.X["network"].public.KEY.
	DocumentSet
)

// AnyVar, as a Value feed's Var, feeds every variable with the key of its
// own name, as a varsFrom entry without varsKeys does: var.vpc_id reads
// key vpc_id.
const AnyVar = "*"

// Feed is one variable of a consumer fed with contract data.
type Feed struct {
	// Var is the OpenTofu variable.
	Var string
	// Shape is how it carries the data.
	Shape Shape
	// Contract is the contract read, for every shape but DocumentSet.
	Contract string
	// Contracts are the contracts a DocumentSet may hold: a reference
	// that does not name one reads them all.
	Contracts []string
	// Section is the section a Keys or Value feed comes from; "" when
	// either.
	Section string
	// Key is the key a Value feed holds.
	Key string
}
