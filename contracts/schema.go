package contracts

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ErrInvalid is wrapped by Validate and ValidateJSON when a document does
// not satisfy the schema.
var ErrInvalid = errors.New("invalid contract document")

//go:embed schema/document.schema.json
var schemaJSON []byte

// schemaURL is the schema's $id.
const schemaURL = "https://strata.dev/schemas/contracts/document.schema.json"

// documentSchema is the compiled schema, with format assertions on so that
// updatedAt must be an RFC 3339 date-time.
var documentSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("decode the document schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("load the document schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile the document schema: %w", err)
	}
	return sch, nil
})

// Schema returns the JSON Schema (draft 2020-12) that every stored
// document satisfies: the six keys installed, version, stack, updatedAt,
// public and private, all required and no others; stack not empty;
// updatedAt an RFC 3339 date-time; public and private objects.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// Validate checks the document against the schema. Every store's Put
// calls it before writing. A nil Public or Private is invalid: it would be
// stored as null, which consumers cannot index.
func Validate(d Document) error {
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("%w: encode: %w", ErrInvalid, err)
	}
	return ValidateJSON(data)
}

// ValidateJSON checks a document's JSON against the schema, for documents
// written by something other than Validate's callers. The error wraps
// ErrInvalid and names every offending key:
//
//	invalid contract document: key "stack": missing; key "updatedAt": "yesterday" is not valid date-time: …
func ValidateJSON(data []byte) error {
	sch, err := documentSchema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: not JSON: %w", ErrInvalid, err)
	}
	err = sch.Validate(inst)
	var verr *jsonschema.ValidationError
	if errors.As(err, &verr) {
		return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(problems(verr), "; "))
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

var printer = message.NewPrinter(language.English)

// problems flattens a validation error into one sorted message per
// offending key.
func problems(e *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				out = append(out, fmt.Sprintf("key %q: missing", keyName(e.InstanceLocation, name)))
			}
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				out = append(out, fmt.Sprintf("key %q: not allowed: a document has only "+
					"installed, version, stack, updatedAt, public and private", keyName(e.InstanceLocation, name)))
			}
		case *kind.MinLength:
			if k.Want == 1 {
				out = append(out, fmt.Sprintf("key %q: must not be empty", keyName(e.InstanceLocation)))
				return
			}
			out = append(out, fmt.Sprintf("key %q: %s", keyName(e.InstanceLocation), k.LocalizedString(printer)))
		default:
			if len(e.InstanceLocation) == 0 {
				out = append(out, "document: "+e.ErrorKind.LocalizedString(printer))
				return
			}
			out = append(out, fmt.Sprintf("key %q: %s", keyName(e.InstanceLocation), e.ErrorKind.LocalizedString(printer)))
		}
	}
	walk(e)
	slices.Sort(out)
	return slices.Compact(out)
}

// keyName joins an instance location into a dotted property path, the
// form Lookup takes.
func keyName(loc []string, more ...string) string {
	return strings.Join(append(slices.Clone(loc), more...), ".")
}
