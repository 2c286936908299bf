package plainyaml

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxKey is the longest key Parse takes: YAML limits an implicit key to
// 1,024 characters, and yaml.v3 says so in its own words.
const maxKey = 1000

// Parse returns the documents of b as successive Decode calls of a
// yaml.v3 Decoder return them, and ok true, when b is plain YAML (see
// the package's doc); otherwise nil and false. The nodes of one call
// share two allocations, and each Content has no room past its length,
// so that appending to one never writes into another.
func Parse(b []byte) (docs []*yaml.Node, ok bool) {
	if !plainBytes(b) {
		return nil, false
	}
	text := string(b)
	p := &parser{}
	doc := make([]line, 0, strings.Count(text, "\n")+1)
	explicit := false
	// blank says blank lines came since the last line kept.
	blank := false
	start := 0
	for no := 1; start < len(text); no++ {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		raw := text[start:end]
		start = end + 1
		t := strings.TrimLeft(raw, " ")
		switch {
		case t == "":
			blank = true
			continue
		case raw == "---":
			if len(doc) > 0 {
				d, ok := p.document(doc, explicit, blank)
				if !ok {
					return nil, false
				}
				docs = append(docs, d)
			} else if explicit {
				return nil, false
			}
			doc, explicit, blank = doc[len(doc):], true, false
			p.docLine = no
			continue
		case strings.HasPrefix(raw, "---") || strings.HasPrefix(raw, "..."):
			return nil, false
		case t[len(t)-1] == ' ':
			return nil, false
		}
		if len(doc) == 0 && !explicit {
			p.docLine = no
		}
		doc = append(doc, line{no: no, indent: len(raw) - len(t), text: t, blank: blank})
		blank = false
	}
	if len(doc) == 0 {
		return nil, false
	}
	// The last line may end the text without a line break.
	p.open = !strings.HasSuffix(text, "\n")
	d, ok := p.document(doc, explicit, blank)
	if !ok {
		return nil, false
	}
	return append(docs, d), true
}

// plainBytes reports whether b is printable ASCII and newlines, without
// a comment, a backslash or a tab.
func plainBytes(b []byte) bool {
	for _, c := range b {
		if c == '\n' {
			continue
		}
		if c < 0x20 || c >= 0x7f || c == '#' || c == '\\' {
			return false
		}
	}
	return true
}

// line is one line of a document that holds more than spaces.
type line struct {
	// no is its number, from 1.
	no int
	// indent is how many spaces it starts with.
	indent int
	// text is what follows them, without trailing spaces.
	text string
	// blank says blank lines (or lines of spaces) came before it.
	blank bool
}

// parser reads one document's lines.
type parser struct {
	lines []line
	i     int
	// docLine is the line of the document's start: its "---", or its
	// first line.
	docLine int
	// tail says blank lines follow the document's last line, and open
	// that no line break does.
	tail, open bool
	// nodes and content are where a document's nodes and their
	// Content slices are cut from.
	nodes   []yaml.Node
	content []*yaml.Node
	// stack holds the children of the collections being parsed.
	stack []*yaml.Node
}

// document parses one document's lines into its DocumentNode; tail says
// blank lines follow the last.
func (p *parser) document(lines []line, explicit, tail bool) (*yaml.Node, bool) {
	if lines[0].indent != 0 {
		return nil, false
	}
	// A line makes at most two nodes (a key and its scalar value, or a
	// key and the collection on the lines below it), and one more when
	// it starts a sequence's entry (the mapping of "- key: value"); the
	// lines of a literal block scalar make none (its key's line makes
	// it); the document and its root make two. Content holds at most two
	// pointers a line, and the document's one.
	size, counted := 2, 0
	literal := -1
	for _, l := range lines {
		if literal >= 0 && l.indent > literal {
			continue
		}
		literal = -1
		counted++
		size += 2
		if entry(l.text) {
			size++
		}
		if strings.HasSuffix(l.text, ": |") || strings.HasSuffix(l.text, ": |-") {
			// The block's lines are indented past its key.
			literal = l.indent
			if entry(l.text) {
				literal += 2
			}
		}
	}
	p.lines, p.i, p.tail = lines, 0, tail
	p.nodes = make([]yaml.Node, 0, size)
	p.content = make([]*yaml.Node, 0, 2*counted+1)
	if p.stack == nil {
		p.stack = make([]*yaml.Node, 0, 2*counted+1)
	}
	d := p.node(yaml.Node{Kind: yaml.DocumentNode, Line: p.docLine, Column: 1})
	root, ok := p.block()
	if !ok || p.i != len(p.lines) {
		return nil, false
	}
	p.stack = append(p.stack[:0], root)
	d.Content = p.children(0)
	return d, true
}

// node keeps n among the document's nodes and returns it.
func (p *parser) node(n yaml.Node) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, cap(p.nodes))
	}
	p.nodes = append(p.nodes, n)
	return &p.nodes[len(p.nodes)-1]
}

// children takes the nodes pushed on the stack since from off it, as a
// Content slice cut from the document's, with no room past its end. A
// collection's children are pushed as it is parsed, each nested
// collection's taken off before its parent pushes it.
func (p *parser) children(from int) []*yaml.Node {
	ns := p.stack[from:]
	if len(p.content)+len(ns) > cap(p.content) {
		p.content = make([]*yaml.Node, 0, max(cap(p.content), len(ns)))
	}
	at := len(p.content)
	p.content = append(p.content, ns...)
	p.stack = p.stack[:from]
	return p.content[at:len(p.content):len(p.content)]
}

// block parses the block collection that starts at the current line.
func (p *parser) block() (*yaml.Node, bool) {
	l := p.lines[p.i]
	if entry(l.text) {
		return p.sequence(l.indent)
	}
	return p.mapping(l.indent, l.text)
}

// entry reports whether a line's text is a block sequence's entry.
func entry(t string) bool {
	return t == "-" || strings.HasPrefix(t, "- ")
}

// sequence parses the block sequence whose entries start at indent.
func (p *parser) sequence(indent int) (*yaml.Node, bool) {
	first := p.lines[p.i]
	seq := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first.no, Column: indent + 1})
	from := len(p.stack)
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent || (l.indent == indent && !entry(l.text)) {
			break
		}
		if l.indent > indent || !strings.HasPrefix(l.text, "- ") || l.text[2] == ' ' {
			// A deeper line no entry took, an entry whose value
			// is on the next lines, or one indented further.
			return nil, false
		}
		rest := l.text[2:]
		var item *yaml.Node
		var ok bool
		if _, _, isKey := splitKey(rest); isKey {
			item, ok = p.mapping(indent+2, rest)
		} else {
			item, ok = p.scalar(rest, l.no, indent+3)
			p.i++
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
	}
	seq.Content = p.children(from)
	return seq, true
}

// mapping parses the block mapping whose keys start at indent, the
// first of them in first (the current line's text from indent on: all
// of it, or what follows a sequence entry's "- ").
func (p *parser) mapping(indent int, first string) (*yaml.Node, bool) {
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: p.lines[p.i].no, Column: indent + 1})
	from := len(p.stack)
	text := first
	for {
		no := p.lines[p.i].no
		key, value, isKey := splitKey(text)
		if !isKey || len(key) > maxKey {
			return nil, false
		}
		k, ok := p.scalar(key, no, indent+1)
		if !ok || k.Tag == "!!merge" {
			return nil, false
		}
		p.i++
		var v *yaml.Node
		if value != "" {
			trimmed := strings.TrimLeft(value, " ")
			col := indent + 1 + len(text) - len(trimmed)
			if trimmed == "|" || trimmed == "|-" {
				v, ok = p.literal(indent, trimmed == "|", no, col)
			} else {
				v, ok = p.scalar(trimmed, no, col)
			}
		} else {
			v, ok = p.nested(indent)
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, k, v)
		if p.i == len(p.lines) {
			break
		}
		l := p.lines[p.i]
		if l.indent < indent {
			break
		}
		if l.indent > indent || entry(l.text) {
			// A value's second line, or an entry after a key whose
			// value is a scalar.
			return nil, false
		}
		text = l.text
	}
	m.Content = p.children(from)
	return m, true
}

// literal parses the literal block scalar of a key at indent, whose
// header ("|", or "|-" when clip is false) is at line no and column col:
// the lines after it indented further, at least as far as the first,
// with no blank line among them or after them (which YAML keeps or
// chomps by rules Parse leaves to yaml.v3). Its value is their text from
// the first's indentation on, a line each, with the last one's line
// break, if it has one, when clip says so.
func (p *parser) literal(indent int, clip bool, no, col int) (*yaml.Node, bool) {
	from := p.i
	if from == len(p.lines) || p.lines[from].indent <= indent {
		return nil, false
	}
	at := p.lines[from].indent
	size := 0
	for _, l := range p.lines[from:] {
		if l.indent < at {
			break
		}
		size += l.indent - at + len(l.text) + 1
	}
	var b strings.Builder
	b.Grow(size)
	for ; p.i < len(p.lines) && p.lines[p.i].indent > indent; p.i++ {
		l := p.lines[p.i]
		if l.indent < at || l.blank {
			return nil, false
		}
		if p.i > from {
			b.WriteByte('\n')
		}
		for range l.indent - at {
			b.WriteByte(' ')
		}
		b.WriteString(l.text)
	}
	if (p.i < len(p.lines) && p.lines[p.i].blank) || (p.i == len(p.lines) && p.tail) {
		return nil, false
	}
	if clip && (p.i < len(p.lines) || !p.open) {
		b.WriteByte('\n')
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Tag: "!!str", Value: b.String(), Line: no, Column: col}), true
}

// nested parses the value of a key, at indent, written on the lines
// after it: a collection indented further, or a sequence at the key's
// indentation. An empty value is not plain.
func (p *parser) nested(indent int) (*yaml.Node, bool) {
	if p.i == len(p.lines) {
		return nil, false
	}
	l := p.lines[p.i]
	switch {
	case l.indent > indent:
		return p.block()
	case l.indent == indent && entry(l.text):
		return p.sequence(indent)
	}
	return nil, false
}

// splitKey splits a line's text at its key's ":" when it starts with a
// key: value is what follows the ":" (a space first), "" when the line
// ends there.
func splitKey(t string) (key, value string, ok bool) {
	i := 0
	switch {
	case t == "":
		return "", "", false
	case t[0] == '"' || t[0] == '\'':
		j := strings.IndexByte(t[1:], t[0])
		if j < 0 {
			return "", "", false
		}
		i = j + 2
		if i >= len(t) || t[i] != ':' {
			return "", "", false
		}
	default:
		i = strings.IndexByte(t, ':')
		if i < 0 {
			return "", "", false
		}
	}
	if i+1 < len(t) && t[i+1] != ' ' {
		return "", "", false
	}
	return t[:i], t[i+1:], true
}

// indicators are the characters a plain scalar may not start with.
const indicators = "-?:,[]{}#&*!|>'\"%@` "

// resolvable are the first characters of the plain scalars yaml.v3
// resolves to another tag than !!str (a number, a bool, null, a
// timestamp, .inf or .nan): its resolve table. Any other is a string.
const resolvable = "+-0123456789yYnNtTfFoO~."

// scalar makes the node of a scalar written s, at line no and column
// col: quoted in one line without the quote inside, or plain (one line,
// no ": ", no indicator or space first, no ":" or space last).
func (p *parser) scalar(s string, no, col int) (*yaml.Node, bool) {
	if s == "" {
		return nil, false
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Line: no, Column: col}
	switch q := s[0]; {
	case q == '"' || q == '\'':
		if len(s) < 2 || s[len(s)-1] != q || strings.IndexByte(s[1:len(s)-1], q) >= 0 {
			return nil, false
		}
		n.Value, n.Tag = s[1:len(s)-1], "!!str"
		n.Style = yaml.DoubleQuotedStyle
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
	case strings.IndexByte(indicators, q) >= 0 || s[len(s)-1] == ':' || s[len(s)-1] == ' ' || strings.Contains(s, ": ") || s == "<<":
		// "<<" is a merge key's, wherever it is.
		return nil, false
	case strings.IndexByte(resolvable, q) < 0:
		n.Value, n.Tag = s, "!!str"
	default:
		// The tag yaml.v3's parser gives an untagged plain scalar is
		// the one ShortTag resolves.
		n.Value = s
		n.Tag = n.ShortTag()
	}
	return p.node(n), true
}
