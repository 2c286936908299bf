package s3

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestPutWritesEncryptedJSON(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	key := "/configuration/foo"
	want := document(t, "foo")
	if err := s.Put(ctx, key, want); err != nil {
		t.Fatalf("Put(%q) = %v, want nil", key, err)
	}
	object := "configuration/foo.json"
	head, err := client.HeadObject(ctx, &awss3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(object)})
	if err != nil {
		t.Fatalf("HeadObject(%q) = %v, want the object", object, err)
	}
	if got := aws.ToString(head.ContentType); got != "application/json" {
		t.Errorf("HeadObject(%q) content type = %q, want application/json", object, got)
	}
	out, err := client.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(object)})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "{\n  \"installed\": true,\n") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("object %s = %s, want indented JSON ending in a newline", object, data)
	}
	if err := contracts.ValidateJSON(data); err != nil {
		t.Errorf("ValidateJSON(object %s) = %v, want nil", object, err)
	}

	got, err := s.Get(ctx, key)
	if err != nil {
		t.Fatalf("Get(%q) = %v, want nil", key, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
	}
}

// versitygw accepts the server-side encryption headers but neither
// applies nor reports them (HeadObject has no x-amz-server-side-encryption),
// so what is checkable here is what Put asks the server for: the headers
// of the PUT request on the wire.
func TestPutAsksForServerSideEncryption(t *testing.T) {
	tests := []struct {
		name     string
		kmsKeyID string
		want     map[string]string
	}{
		{"sse-s3", "", map[string]string{
			"X-Amz-Server-Side-Encryption":                "AES256",
			"X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": "",
			"Content-Type": "application/json",
		}},
		{"sse-kms", "alias/strata-contracts", map[string]string{
			"X-Amz-Server-Side-Encryption":                "aws:kms",
			"X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": "alias/strata-contracts",
			"Content-Type": "application/json",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, client := newStore(t, Config{Region: "us-east-1", KMSKeyID: tt.kmsKeyID})
			rec := &recorder{}
			s.api = awss3.New(client.Options(), func(o *awss3.Options) {
				rec.next = o.HTTPClient
				o.HTTPClient = rec
			})
			ctx := context.Background()
			key := "/configuration/foo"
			if err := s.Put(ctx, key, document(t, "foo")); err != nil {
				t.Fatalf("Put(%q) = %v, want nil", key, err)
			}
			puts := rec.requests(http.MethodPut)
			if len(puts) != 1 || puts[0].URL.Path != "/contracts/configuration/foo.json" {
				t.Fatalf("Put(%q) sent %d PUT requests, want 1 to /contracts/configuration/foo.json", key, len(puts))
			}
			for name, want := range tt.want {
				if got := puts[0].Header.Get(name); got != want {
					t.Errorf("Put(%q) request header %s = %q, want %q", key, name, got, want)
				}
			}
			if got, err := s.Get(ctx, key); err != nil || got.Stack != "foo" {
				t.Errorf("Get(%q) = %v, %v, want the document", key, got.Stack, err)
			}
		})
	}
}

// recorder keeps the requests a client sends on their way to the server.
type recorder struct {
	next awss3.HTTPClient
	mu   sync.Mutex
	reqs []*http.Request
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req.Clone(req.Context()))
	r.mu.Unlock()
	return r.next.Do(req)
}

func (r *recorder) requests(method string) []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*http.Request
	for _, req := range r.reqs {
		if req.Method == method {
			out = append(out, req)
		}
	}
	return out
}

func TestPutOverwrites(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	key := "/configuration/foo"
	for _, version := range []string{"0.1.0", "0.2.0"} {
		d := document(t, "foo")
		d.Version = version
		if err := s.Put(ctx, key, d); err != nil {
			t.Fatalf("Put(%q) = %v, want nil", key, err)
		}
		if got, err := s.Get(ctx, key); err != nil || got.Version != version {
			t.Errorf("Get(%q) = %q, %v, want version %s", key, got.Version, err, version)
		}
	}
}

func TestPutErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	noBucket, _ := newStore(t, Config{Region: "us-east-1", Bucket: "missing"})
	ctx := context.Background()
	invalid := document(t, "x")
	invalid.Stack = ""
	unencodable := document(t, "x")
	unencodable.Public["f"] = func() {}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name    string
		s       *Store
		ctx     context.Context
		key     string
		doc     contracts.Document
		want    string
		wantErr error
	}{
		{"schema", s, ctx, "/configuration/invalid", invalid, `put contract /configuration/invalid to s3: invalid contract document: key "stack": must not be empty`, contracts.ErrInvalid},
		{"unencodable", s, ctx, "/configuration/x", unencodable, "put contract /configuration/x to s3: invalid contract document: encode", contracts.ErrInvalid},
		{"bad key", s, ctx, "configuration/x", document(t, "x"), `put contract to s3: invalid contract key "configuration/x"`, nil},
		{"no bucket", noBucket, ctx, "/configuration/x", document(t, "x"), "put contract /configuration/x to s3://missing/configuration/x.json: ", nil},
		{"cancelled", s, cancelled, "/configuration/x", document(t, "x"), "put contract /configuration/x to s3://contracts/configuration/x.json: ", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Put(tt.ctx, tt.key, tt.doc)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Put(%q) = %v, want an error containing %q", tt.key, err, tt.want)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Put(%q) = %v, want an error wrapping %v", tt.key, err, tt.wantErr)
			}
		})
	}
	keys, err := s.List(ctx, "/")
	if err != nil || len(keys) != 0 {
		t.Errorf("List(%q) after failed puts = %v, %v, want nothing written", "/", keys, err)
	}
}
