package history

// Expired returns which of a stack's runs a store that keeps keep runs
// per stack deletes when it begins a new one: before is what the store
// holds of the stack's runs before the one just begun, newest first (run
// reads the run of each), and the new run is one of the keep. The runs beyond the newest keep go, but never the newest good
// apply (Run.Good), which the next run's cause and the removal of a stack
// start from. The indexes are into before, in its order.
func Expired[T any](before []T, run func(T) Run, keep int) []int {
	if keep < 1 || len(before) < keep {
		return nil
	}
	good := -1
	for i, r := range before {
		if run(r).Good() {
			good = i
			break
		}
	}
	var out []int
	for i := keep - 1; i < len(before); i++ {
		if i != good {
			out = append(out, i)
		}
	}
	return out
}
