// Package yamllimits measures a YAML document before anything expands
// it: how deep it nests, and how many nodes its aliases would make once
// copied, in time linear in its text. A "billion laughs" of 400 bytes
// would take kustomize's reader an hour and all memory, and the YAML
// libraries that bound aliases name neither the line nor the limit.
// Check turns a document past a limit into a problem naming the file,
// the line of the alias or of the deepest nesting, and the limit.
package yamllimits
