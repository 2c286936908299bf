package doclinks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Problem is a broken link: the page and line it is on, its target, and
// what is wrong with it.
type Problem struct {
	File   string
	Line   int
	Target string
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: link %q: %s", p.File, p.Line, p.Target, p.Reason)
}

// Check reads each page (a path under root, slash-separated) and returns a
// Problem for every relative link whose file or directory does not exist
// under root, or whose anchor is not one of the page it names. A target
// with a scheme (https:, mailto:) is not checked; one starting with / is
// from root, as GitHub reads it in a repository.
func Check(ctx context.Context, root string, pages []string) ([]Problem, error) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) (map[string]bool, error) {
		if a, ok := anchors[page]; ok {
			return a, nil
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			return nil, fmt.Errorf("read anchors of %s: %w", page, err)
		}
		anchors[page] = Anchors(src)
		return anchors[page], nil
	}
	var problems []Problem
	for _, page := range pages {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("check links: %w", err)
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			return nil, fmt.Errorf("check links of %s: %w", page, err)
		}
		for _, link := range Links(src) {
			reason, err := checkLink(root, page, link.Target, anchorsOf)
			if err != nil {
				return nil, fmt.Errorf("check links of %s: %w", page, err)
			}
			if reason != "" {
				problems = append(problems, Problem{File: page, Line: link.Line, Target: link.Target, Reason: reason})
			}
		}
	}
	return problems, nil
}

// checkLink returns why the link target of page is broken, or "".
func checkLink(root, page, target string, anchorsOf func(string) (map[string]bool, error)) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return fmt.Sprintf("not a URL: %v", err), nil
	}
	if u.Scheme != "" || u.Host != "" {
		return "", nil
	}
	name := page
	if u.Path != "" {
		if strings.HasPrefix(u.Path, "/") {
			name = path.Clean(strings.TrimPrefix(u.Path, "/"))
		} else {
			name = path.Join(path.Dir(page), u.Path)
		}
		if name == ".." || strings.HasPrefix(name, "../") {
			return "leaves the repository", nil
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("%s does not exist", name), nil
		}
		if err != nil {
			return "", fmt.Errorf("stat %s: %w", name, err)
		}
		if u.Fragment != "" && (info.IsDir() || !strings.HasSuffix(name, ".md")) {
			return fmt.Sprintf("%s is no Markdown page, so it has no anchor #%s", name, u.Fragment), nil
		}
	}
	switch {
	case target == "" || target == "#":
		return "an empty link", nil
	case u.Fragment == "":
		return "", nil
	}
	anchors, err := anchorsOf(name)
	if err != nil {
		return "", err
	}
	if !anchors[u.Fragment] {
		return fmt.Sprintf("%s has no heading with the anchor #%s (a heading's anchor is its text in lower case, spaces as -, punctuation dropped)", name, u.Fragment), nil
	}
	return "", nil
}
