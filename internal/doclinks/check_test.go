package doclinks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	got, err := Check(t.Context(), "testdata/pages", []string{"index.md", "sub/page.md"})
	if err != nil {
		t.Fatal(err)
	}
	const noHeading = " (a heading's anchor is its text in lower case, spaces as -, punctuation dropped)"
	want := []Problem{
		{"index.md", 16, "sub/gone.md", "sub/gone.md does not exist"},
		{"index.md", 16, "sub/page.md#part-two", "sub/page.md has no heading with the anchor #part-two" + noHeading},
		{"index.md", 17, "#repeated-2", "index.md has no heading with the anchor #repeated-2" + noHeading},
		{"index.md", 17, "sub/picture.png#top", "sub/picture.png is no Markdown page, so it has no anchor #top"},
		{"index.md", 18, "../../outside.md", "leaves the repository"},
		{"index.md", 18, "#", "an empty link"},
		{"index.md", 28, "sub/gone-too.md", "sub/gone-too.md does not exist"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check(testdata/pages) differs (-want +got):\n%s", diff)
	}
}

func TestCheckMissingPage(t *testing.T) {
	if _, err := Check(t.Context(), "testdata/pages", []string{"nowhere.md"}); err == nil {
		t.Errorf("Check(nowhere.md) = nil error, want one naming the page")
	}
}
