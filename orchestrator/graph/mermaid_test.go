package graph

import (
	"bytes"
	"testing"
)

func TestWriteMermaid(t *testing.T) {
	var buf bytes.Buffer
	if err := mustBuild(t, example()).WriteMermaid(&buf); err != nil {
		t.Fatalf("WriteMermaid() = %v, want nil", err)
	}
	golden(t, "mermaid.golden", buf.Bytes())
}

func TestMermaidText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"reads contract network", "reads contract network"},
		{`say "hi"`, "say #quot;hi#quot;"},
	}
	for _, tt := range tests {
		if got := mermaidText(tt.in); got != tt.want {
			t.Errorf("mermaidText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
