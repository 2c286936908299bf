package policy

// Contract is what a producer's plan does to the contract it publishes,
// as rules read it under input.strata.contract: the keys removed, changed
// to an incompatible type, moved between public and private, and added,
// and the consumers a change breaks. Every list is present, empty when
// there is nothing; name is "" for a stack that publishes no contract.
type Contract struct {
	Name      string             `json:"name"`
	Removed   []ContractKey      `json:"removed"`
	Changed   []ContractKey      `json:"changed"`
	Moved     []ContractKey      `json:"moved"`
	Added     []ContractKey      `json:"added"`
	Consumers []ContractConsumer `json:"consumers"`
}

// ContractKey is one key of a contract. To is the new type of a changed
// key, or the new section of a moved one.
type ContractKey struct {
	Section string `json:"section"`
	Name    string `json:"name"`
	Type    string `json:"type"`
	To      string `json:"to,omitempty"`
}

// ContractConsumer is one consumer's read that the plan breaks: which
// stack, the key as it reads it, why it breaks ("removed", "moved to
// private", "changed from string to list"), and where it reads it.
type ContractConsumer struct {
	Stack   string `json:"stack"`
	Section string `json:"section"`
	Key     string `json:"key"`
	Why     string `json:"why"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// Breaks reports whether the plan breaks a consumer.
func (c *Contract) Breaks() bool { return c != nil && len(c.Consumers) > 0 }

// input is the contract as the Rego input holds it: plain JSON values.
func (c *Contract) input() map[string]any {
	if c == nil {
		c = &Contract{}
	}
	keys := func(ks []ContractKey) []any {
		out := make([]any, 0, len(ks))
		for _, k := range ks {
			m := map[string]any{"section": k.Section, "name": k.Name, "type": k.Type}
			if k.To != "" {
				m["to"] = k.To
			}
			out = append(out, m)
		}
		return out
	}
	consumers := make([]any, 0, len(c.Consumers))
	for _, cc := range c.Consumers {
		consumers = append(consumers, map[string]any{
			"stack": cc.Stack, "section": cc.Section, "key": cc.Key,
			"why": cc.Why, "file": cc.File, "line": cc.Line,
		})
	}
	return map[string]any{
		"name":      c.Name,
		"removed":   keys(c.Removed),
		"changed":   keys(c.Changed),
		"moved":     keys(c.Moved),
		"added":     keys(c.Added),
		"consumers": consumers,
	}
}
