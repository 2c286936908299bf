package tofu

import "testing"

// A plan's JSON stream announces a change with any of these messages; a
// plan without changes sends none of them.
func TestAnnouncesChange(t *testing.T) {
	tests := []struct {
		name string
		line string
		want bool
	}{
		{"no-op summary", `{"type":"change_summary","changes":{"add":0,"change":0,"import":0,"remove":0,"forget":0,"operation":"plan"}}`, false},
		{"summary with a change", `{"type":"change_summary","changes":{"add":0,"change":1,"remove":0,"operation":"plan"}}`, true},
		{"summary with an import", `{"type":"change_summary","changes":{"import":1,"operation":"plan"}}`, true},
		{"no-op outputs", `{"type":"outputs","outputs":{"o":{"sensitive":false,"action":"noop"}}}`, false},
		{"an output to update", `{"type":"outputs","outputs":{"o":{"action":"noop"},"p":{"action":"update"}}}`, true},
		{"planned change", `{"type":"planned_change","change":{"resource":{"addr":"terraform_data.a"},"action":"update"}}`, true},
		{"drift", `{"type":"resource_drift","change":{"resource":{"addr":"terraform_data.a"},"action":"update"}}`, true},
		{"refresh", `{"type":"refresh_complete","hook":{"resource":{"addr":"terraform_data.a"}}}`, false},
		{"version", `{"type":"version","tofu":"1.10.6","ui":"1.2"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := decodeEvent([]byte(tt.line))
			if !ok {
				t.Fatalf("decodeEvent(%q) did not decode", tt.line)
			}
			if got := announcesChange(e); got != tt.want {
				t.Errorf("announcesChange(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

// FuzzDecodeEvent feeds arbitrary lines to the JSON stream's decoder and
// to the change check: neither may panic, and a line that decodes has a
// type.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"change_summary","changes":{"add":0,"change":0,"remove":0,"operation":"plan"}}`))
	f.Add([]byte(`{"type":"outputs","outputs":{"o":{"sensitive":false,"action":"noop"}}}`))
	f.Add([]byte(`{"type":"outputs","outputs":{"o":null}}`))
	f.Add([]byte(`{"type":"diagnostic","diagnostic":{"severity":"error","summary":"x","range":{"filename":"main.tf","start":{"line":2}}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, ok := decodeEvent(line)
		if ok && e.Type == "" {
			t.Errorf("decodeEvent(%q) = an event without a type", line)
		}
		_ = announcesChange(e)
		w := newEventWriter(nil)
		w.Write(line)
		_ = w.changed()
	})
}
