package contracts

import (
	"regexp"
	"testing"
	"time"
)

func TestContentHash(t *testing.T) {
	base := func() Document {
		return Document{
			Installed: true, Version: "0.1.0", Stack: "network",
			UpdatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			Public:    map[string]any{"vpc_id": "vpc-1", "subnets": []any{"a", "b"}},
			Private:   map[string]any{"token": "t"},
		}
	}
	h := base().ContentHash()
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(h) {
		t.Fatalf("ContentHash() = %q, want sha256:<64 hex>", h)
	}
	tests := []struct {
		name   string
		change func(*Document)
		same   bool
	}{
		{"nothing", func(*Document) {}, true},
		{"updatedAt", func(d *Document) { d.UpdatedAt = d.UpdatedAt.Add(time.Hour) }, true},
		{"map built in another order", func(d *Document) {
			d.Public = map[string]any{}
			d.Public["subnets"] = []any{"a", "b"}
			d.Public["vpc_id"] = "vpc-1"
		}, true},
		{"public value", func(d *Document) { d.Public["vpc_id"] = "vpc-2" }, false},
		{"list order", func(d *Document) { d.Public["subnets"] = []any{"b", "a"} }, false},
		{"private value", func(d *Document) { d.Private["token"] = "u" }, false},
		{"value moved to private", func(d *Document) {
			delete(d.Public, "vpc_id")
			d.Private["vpc_id"] = "vpc-1"
		}, false},
		{"version", func(d *Document) { d.Version = "0.2.0" }, false},
		{"stack", func(d *Document) { d.Stack = "other" }, false},
		{"installed", func(d *Document) { d.Installed = false }, false},
		{"no types kept, as before types were kept", func(d *Document) { d.Types = map[string]string{} }, true},
		{"types", func(d *Document) { d.Types = map[string]string{"subnets": `["list","string"]`} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := base()
			tt.change(&d)
			if got := d.ContentHash(); (got == h) != tt.same {
				t.Errorf("ContentHash() after changing %s = %q, want same as %q: %v", tt.name, got, h, tt.same)
			}
		})
	}
	if a, b := (Document{}).ContentHash(), (Document{Public: map[string]any{}, Private: map[string]any{}}).ContentHash(); a != b {
		t.Errorf("ContentHash() of nil maps = %q, of empty maps = %q, want equal", a, b)
	}
}
