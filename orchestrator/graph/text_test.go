package graph

import (
	"bytes"
	"testing"
)

func TestWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := mustBuild(t, example()).WriteText(&buf); err != nil {
		t.Fatalf("WriteText() = %v, want nil", err)
	}
	golden(t, "text.golden", buf.Bytes())
}
