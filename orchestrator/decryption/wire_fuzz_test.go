package decryption

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary lines to both decoders: each returns a value
// or an error, never panics, and an error never quotes the line. A
// Request or Response decoded is written again as a line that decodes to
// the same.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"kind":"value","name":"a.yaml","data":"aHVudGVyMg=="}`))
	f.Add([]byte(`{"kind":"object","data":"e30="}`))
	f.Add([]byte(`{"plain":"aHVudGVyMg==","encrypted":true}`))
	f.Add([]byte(`{"error":{"kind":"key","recipients":["age age1x"],"sources":["$SOPS_AGE_KEY"]}}`))
	f.Add([]byte(`{"error":{"kind":"malformed"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		quotes := func(err error) bool { return len(line) > 16 && strings.Contains(err.Error(), string(line)) }
		if req, err := DecodeRequest(line); err != nil {
			if quotes(err) {
				t.Errorf("DecodeRequest(%q) = %v: the error quotes the line", line, err)
			}
		} else {
			var b bytes.Buffer
			if err := WriteLine(&b, req); err != nil {
				t.Fatalf("WriteLine(%+v) = %v", req, err)
			}
			if _, err := DecodeRequest(bytes.TrimSuffix(b.Bytes(), []byte("\n"))); err != nil {
				t.Errorf("DecodeRequest(WriteLine(%+v)) = %v", req, err)
			}
		}
		if resp, err := DecodeResponse(line); err != nil {
			if quotes(err) {
				t.Errorf("DecodeResponse(%q) = %v: the error quotes the line", line, err)
			}
		} else {
			_ = resp.Err()
			var b bytes.Buffer
			if err := WriteLine(&b, resp); err != nil {
				t.Fatalf("WriteLine(%+v) = %v", resp, err)
			}
			if _, err := DecodeResponse(bytes.TrimSuffix(b.Bytes(), []byte("\n"))); err != nil {
				t.Errorf("DecodeResponse(WriteLine(%+v)) = %v", resp, err)
			}
		}
	})
}
