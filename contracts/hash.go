package contracts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// ContentHash returns "sha256:<hex>" of the canonical JSON of the
// document's content — installed, version, stack, public, private and the
// types of their keys (left out when none, as in documents written before
// strata kept them) — so
// that it changes exactly when a consumer would see a different document.
// UpdatedAt is left out: republishing the same outputs is no change.
func (d Document) ContentHash() string {
	sum := sha256.Sum256(d.Content())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Content is the canonical JSON of the document's content, the bytes
// ContentHash hashes. It holds the private part: hash it only with a key.
func (d Document) Content() []byte {
	content := struct {
		Installed bool              `json:"installed"`
		Version   string            `json:"version"`
		Stack     string            `json:"stack"`
		Public    map[string]any    `json:"public"`
		Private   map[string]any    `json:"private"`
		Types     map[string]string `json:"types,omitempty"`
	}{d.Installed, d.Version, d.Stack, orEmpty(d.Public), orEmpty(d.Private), d.Types}
	// encoding/json writes map keys sorted, so equal content gives equal
	// bytes.
	data, err := json.Marshal(content)
	if err != nil {
		// Only values no JSON decoder produces get here; hash their
		// printed form, which is still deterministic.
		data = fmt.Appendf(nil, "%#v", content)
	}
	return data
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
