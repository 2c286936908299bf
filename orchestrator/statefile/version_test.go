package statefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    Version
		wantErr string
	}{
		{"a state", `{"version":4,"serial":7,"lineage":"abc","resources":[]}`, Version{Serial: 7, Lineage: "abc"}, ""},
		{"not json", `{`, Version{}, "parse state"},
		{"no lineage", `{"serial":1}`, Version{}, "no lineage"},
		{"resources before", `{"resources":[{"a":[1,{"b":"c"}]}],"lineage":"l","outputs":{},"serial":2}`, Version{Serial: 2, Lineage: "l"}, ""},
		{"truncated after the lineage", `{"version":4,"serial":7,"lineage":"abc","resources":[`, Version{}, "parse state"},
		{"a serial that is no number", `{"serial":"7","lineage":"abc"}`, Version{}, "parse state"},
		{"not an object", `[1]`, Version{}, "parse state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Parse(%q) = %v, %v, want error containing %q", tt.data, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %v, %v, want %v", tt.data, got, err, tt.want)
			}
		})
	}
}

func TestChange(t *testing.T) {
	tests := []struct {
		recorded, current Version
		want              string
	}{
		{Version{7, "a"}, Version{7, "a"}, ""},
		{Version{7, "a"}, Version{9, "a"}, "serial 7 → 9"},
		{Version{7, "a"}, Version{1, "b"}, "lineage a → b (serial 7 → 1)"},
	}
	for _, tt := range tests {
		if got := Change(tt.recorded, tt.current); got != tt.want {
			t.Errorf("Change(%v, %v) = %q, want %q", tt.recorded, tt.current, got, tt.want)
		}
	}
}

func TestReadLocal(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tfstate")
	os.WriteFile(good, []byte(`{"serial":3,"lineage":"l"}`), 0o600)
	bad := filepath.Join(dir, "bad.tfstate")
	os.WriteFile(bad, []byte(`garbage`), 0o600)
	tests := []struct {
		name    string
		path    string
		want    Version
		wantOK  bool
		wantErr bool
	}{
		{"a state file", good, Version{3, "l"}, true, false},
		{"no state file", filepath.Join(dir, "none.tfstate"), Version{}, false, false},
		{"a broken state file", bad, Version{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := ReadLocal(tt.path)
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("ReadLocal(%q) = %v, %v, %v, want %v, %v, error %v", tt.path, got, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
		})
	}
}

// FuzzParse: any bytes give a version or an error, never a panic, and a
// version always has a lineage.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version":4,"serial":7,"lineage":"abc"}`))
	f.Add([]byte(`{"serial":-1,"lineage":""}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err == nil && v.Lineage == "" {
			t.Errorf("Parse(%q) = %v, want a lineage or an error", data, v)
		}
	})
}
