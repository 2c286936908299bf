package graph

import (
	"bytes"
	"testing"
)

func TestWriteDOT(t *testing.T) {
	var buf bytes.Buffer
	if err := mustBuild(t, example()).WriteDOT(&buf); err != nil {
		t.Fatalf("WriteDOT() = %v, want nil", err)
	}
	golden(t, "dot.golden", buf.Bytes())
}

func TestDotQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"api", `"api"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a\b`, `"a\\b"`},
	}
	for _, tt := range tests {
		if got := dotQuote(tt.in); got != tt.want {
			t.Errorf("dotQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
