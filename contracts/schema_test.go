package contracts

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func validDocument() Document {
	return Document{
		Installed: true,
		Version:   "0.1.3",
		Stack:     "foo",
		UpdatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Public:    map[string]any{"vpc_id": "vpc-1"},
		Private:   map[string]any{"database": map[string]any{"endpoint": "db.internal"}},
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(d *Document)
		want   []string // substrings of the error; none means valid
	}{
		{"valid", func(d *Document) {}, nil},
		{"empty maps", func(d *Document) { d.Public, d.Private = map[string]any{}, map[string]any{} }, nil},
		{"empty version", func(d *Document) { d.Version = "" }, nil},
		{"not installed", func(d *Document) { d.Installed = false }, nil},
		{"zero time", func(d *Document) { d.UpdatedAt = time.Time{} }, nil},
		{"no stack", func(d *Document) { d.Stack = "" }, []string{`key "stack": must not be empty`}},
		{"nil public", func(d *Document) { d.Public = nil }, []string{`key "public": got null, want object`}},
		{"nil private", func(d *Document) { d.Private = nil }, []string{`key "private": got null, want object`}},
		{"both nil", func(d *Document) { d.Public, d.Private = nil, nil }, []string{`key "private": got null, want object; key "public": got null, want object`}},
		{"unencodable", func(d *Document) { d.Public["f"] = func() {} }, []string{"invalid contract document: encode: json: unsupported type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := validDocument()
			tt.change(&d)
			err := Validate(d)
			if tt.want == nil {
				if err != nil {
					t.Errorf("Validate(%s) = %v, want nil", tt.name, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate(%s) = %v, want an error wrapping ErrInvalid", tt.name, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate(%s) = %v, want it to contain %q", tt.name, err, w)
				}
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	valid, err := json.Marshal(validDocument())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"valid", string(valid), nil},
		{"from the store modules", `{"installed":true,"version":"1.0.2","stack":"foo","updatedAt":"2025-01-02T03:04:05Z","public":{},"private":{"database":{"port":5432}}}`, nil},
		{"fractional seconds and offset", `{"installed":true,"version":"","stack":"foo","updatedAt":"2025-01-02T03:04:05.123+02:00","public":{},"private":{}}`, nil},
		{"seed shape without metadata", `{"installed":true,"public":{},"private":{}}`, []string{
			`key "stack": missing`, `key "updatedAt": missing`, `key "version": missing`,
		}},
		{"extra key", `{"installed":true,"version":"1","stack":"foo","updatedAt":"2025-01-02T03:04:05Z","public":{},"private":{},"secret":"x"}`, []string{
			`key "secret": not allowed`,
		}},
		{"bad date", `{"installed":true,"version":"1","stack":"foo","updatedAt":"yesterday","public":{},"private":{}}`, []string{
			`key "updatedAt": 'yesterday' is not valid date-time`,
		}},
		{"wrong types", `{"installed":"yes","version":1,"stack":"foo","updatedAt":"2025-01-02T03:04:05Z","public":[],"private":"x"}`, []string{
			`key "installed": got string, want boolean`, `key "version": got number, want string`,
			`key "public": got array, want object`, `key "private": got string, want object`,
		}},
		{"not an object", `[]`, []string{"document: got array, want object"}},
		{"not JSON", `{`, []string{"invalid contract document: not JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateJSON([]byte(tt.data))
			if tt.want == nil {
				if err != nil {
					t.Errorf("ValidateJSON(%s) = %v, want nil", tt.data, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ValidateJSON(%s) = %v, want an error wrapping ErrInvalid", tt.data, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("ValidateJSON(%s) = %v, want it to contain %q", tt.data, err, w)
				}
			}
		})
	}
}

func TestSchemaIsACopy(t *testing.T) {
	s := Schema()
	if !json.Valid(s) || !strings.Contains(string(s), `"https://json-schema.org/draft/2020-12/schema"`) {
		t.Fatalf("Schema() = %s, want the draft 2020-12 schema", s)
	}
	s[0] = 'x'
	if Schema()[0] != '{' {
		t.Errorf("Schema() shares its bytes with the caller")
	}
}
