package readers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FindInJSONFile returns the reads in one file of tofu's JSON syntax
// (.tf.json, .tofu.json), named file in positions and errors. Every
// string value of the document is a template there, as tofu reads the
// arguments of such a file, so each is read as one; object keys are
// names, never read. A file that is not JSON is an error naming it.
func FindInJSONFile(src []byte, file string, feeds []Feed) ([]Read, error) {
	w := newWalker(feeds)
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	// frames are the objects and arrays the decoder is in; key is set on
	// an object's frame while its next string is a key.
	type frame struct{ object, key bool }
	var frames []*frame
	// value notes that a value ended: in an object, a key comes next.
	value := func() {
		if n := len(frames); n > 0 && frames[n-1].object {
			frames[n-1].key = true
		}
	}
	for {
		start := skipSeparators(src, int(dec.InputOffset()))
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, col := position(src, start)
			return nil, fmt.Errorf("find contract reads in %s: %s:%d,%d: %w", file, file, line, col, err)
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				value()
				frames = append(frames, &frame{object: t == '{', key: t == '{'})
			default:
				frames = frames[:len(frames)-1]
			}
		case string:
			if n := len(frames); n > 0 && frames[n-1].key {
				frames[n-1].key = false
				continue
			}
			value()
			line, col := position(src, start)
			// The template starts after the opening quote.
			expr, diags := hclsyntax.ParseTemplate([]byte(t), file, hcl.Pos{Line: line, Column: col + 1, Byte: start + 1})
			if diags.HasErrors() {
				return nil, fmt.Errorf("find contract reads in %s: %w", file, diags)
			}
			// Walk returns the walker's diagnostics, and this walker has none.
			_ = hclsyntax.Walk(expr, w)
		default:
			value()
		}
	}
	return sortReads(w.reads), nil
}

// skipSeparators returns the offset of the next token at or after off:
// only blanks, commas and colons lie between two JSON tokens.
func skipSeparators(src []byte, off int) int {
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// position is the line and column (from 1, in bytes) of offset off.
func position(src []byte, off int) (line, col int) {
	off = min(off, len(src))
	line = 1 + bytes.Count(src[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(src[:off], '\n')
}
