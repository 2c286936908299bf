package doclinks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnchors(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string
	}{
		{"atx", "# Title\n\n## Sub title ##\n###### Six\n####### seven is no heading\n", []string{"title", "sub-title", "six"}},
		{"repeats are numbered", "## Notes\n## Notes\n## Notes\n", []string{"notes", "notes-1", "notes-2"}},
		{"setext", "Part one\n========\n\nPart two\n--------\n", []string{"part-one", "part-two"}},
		{"a list item and a rule are no setext heading", "- item\n---\n\n---\n| a |\n|---|\n", nil},
		{"html anchors", `<a id="here"></a> and <a name="there">x</a>` + "\n", []string{"here", "there"}},
		{"fenced code holds no heading", "```sh\n# a comment\n```\n~~~\n## nor this\n~~~\n## After\n", []string{"after"}},
		{"an indented fence", "- item\n  ```\n  # comment\n  ```\n", nil},
		{"code in a heading", "## The `strata-kube` binary\n", []string{"the-strata-kube-binary"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Anchors([]byte(tt.page))
			want := map[string]bool{}
			for _, a := range tt.want {
				want[a] = true
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Anchors(%q) differs (-want +got):\n%s", tt.page, diff)
			}
		})
	}
}
