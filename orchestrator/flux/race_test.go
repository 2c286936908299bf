//go:build race

package flux

// raceEnabled says the tests run under the race detector, which makes
// them several times slower: time bounds are not checked.
const raceEnabled = true
