package contracts

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRedacted(t *testing.T) {
	const sentinel = "s3cr3t-SENTINEL"
	d := Document{
		Installed: true, Version: "1.0.0", Stack: "db", UpdatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Public: map[string]any{"url": "https://db"},
		Private: map[string]any{
			"password": sentinel,
			"database": map[string]any{"endpoint": sentinel + "-host", "port": 5432.0},
			"keys":     []any{sentinel, map[string]any{"k": sentinel}},
			"none":     nil,
			"flag":     true,
			"empty":    map[string]any{},
		},
	}
	got := d.Redacted()
	want := d
	want.Private = map[string]any{
		"password": Redaction,
		"database": map[string]any{"endpoint": Redaction, "port": Redaction},
		"keys":     []any{Redaction, map[string]any{"k": Redaction}},
		"none":     Redaction,
		"flag":     Redaction,
		"empty":    map[string]any{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Redacted() mismatch (-want +got):\n%s", diff)
	}
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), sentinel) {
		t.Errorf("json.Marshal(Redacted()) = %s, want no private value", data)
	}
	if d.Private["password"] != sentinel {
		t.Errorf("Redacted() changed the original document: %v", d.Private)
	}
	got.Public["url"] = "changed"
	if d.Public["url"] != "https://db" {
		t.Errorf("Redacted() shares Public with the original")
	}
}

func TestRedactedNilMaps(t *testing.T) {
	got := Document{Stack: "x"}.Redacted()
	if got.Public == nil || got.Private == nil {
		t.Errorf("Redacted() of a document without maps = %+v, want empty maps", got)
	}
}
