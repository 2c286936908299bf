// Package doclinks checks the relative links of the repository's Markdown
// pages, as GitHub resolves them: a link names a file or directory that
// exists, and its anchor (#heading-slug) is one that GitHub makes of a
// heading of the page it names, or an HTML id or name there.
//
// Slug is GitHub's anchor of a heading; Anchors lists a page's anchors;
// Links lists a page's link targets, outside code; Check reads pages and
// reports every broken relative link. TestDocLinks runs Check over the
// repository's README and docs/, so make test fails on a broken link.
package doclinks
