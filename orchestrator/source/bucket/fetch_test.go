package bucket

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts/awstest"
)

// counting counts the objects a client downloads.
type counting struct {
	API
	gets atomic.Int32
}

func (c *counting) GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error) {
	c.gets.Add(1)
	return c.API.GetObject(ctx, in, opts...)
}

// files lists the files under dir, slash-separated.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFetch(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "iac")
	for key, body := range map[string]string{
		"app/vpc/main.tf":       "# vpc\n",
		"app/vpc/notes.txt":     "left out by .sourceignore",
		"app/vpc/logo.png":      "left out by default",
		"app/docs/README.md":    "left out by spec.ignore",
		"other/main.tf":         "outside the prefix",
		".sourceignore":         "*.txt\n",
		"app/vpc/sub/x.tf.json": "{}",
	} {
		awstest.PutObject(t, endpoint, "iac", key, body)
	}
	ignore := "/app/docs\n"
	b := Bucket{
		Provider: ProviderGeneric, Name: "iac", Endpoint: strings.TrimPrefix(endpoint, "http://"), Insecure: true,
		Prefix: "app/", Ignore: &ignore,
		Credentials: map[string][]byte{"accesskey": []byte(access), "secretkey": []byte(secret)},
	}
	var api *counting
	f := &Fetcher{CacheDir: t.TempDir(), NewAPI: func(ctx context.Context, b Bucket) (API, error) {
		real, err := NewAPI(ctx, b)
		api = &counting{API: real}
		return api, err
	}}
	got, err := f.Fetch(context.Background(), b)
	if err != nil {
		t.Fatalf("Fetch(%s) = %v, want nil", b.Name, err)
	}
	want := []string{"app/vpc/main.tf", "app/vpc/sub/x.tf.json"}
	if diff := cmp.Diff(want, files(t, got.Dir)); diff != "" {
		t.Errorf("Fetch(%s) files = %v, want %v; diff (-want +got):\n%s", b.Name, files(t, got.Dir), want, diff)
	}
	if !strings.HasPrefix(got.Revision, "sha256:") {
		t.Errorf("Fetch(%s) revision = %q, want sha256:…", b.Name, got.Revision)
	}
	firstGets := api.gets.Load()
	again, err := f.Fetch(context.Background(), b)
	if err != nil || again.Revision != got.Revision || again.Dir != got.Dir {
		t.Errorf("Fetch(%s) again = %+v, %v, want the same %+v", b.Name, again, err, got)
	}
	if n := api.gets.Load(); n != 1 {
		t.Errorf("Fetch(%s) of an unchanged bucket downloaded %d objects (the first fetch %d), want only .sourceignore", b.Name, n, firstGets)
	}
	awstest.PutObject(t, endpoint, "iac", "app/vpc/main.tf", "# vpc, changed\n")
	changed, err := f.Fetch(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Revision == got.Revision {
		t.Errorf("Fetch(%s) after a change kept revision %s", b.Name, got.Revision)
	}
	if body, _ := os.ReadFile(filepath.Join(changed.Dir, "app", "vpc", "main.tf")); string(body) != "# vpc, changed\n" {
		t.Errorf("Fetch(%s) after a change: main.tf = %q, want the new content", b.Name, body)
	}
}

func TestFetchErrors(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "iac")
	host := strings.TrimPrefix(endpoint, "http://")
	tests := []struct {
		name string
		b    Bucket
		want string
	}{
		{"wrong secret key", Bucket{Provider: ProviderGeneric, Name: "iac", Endpoint: host, Insecure: true,
			Credentials: map[string][]byte{"accesskey": []byte(access), "secretkey": []byte("wrong")}}, "SignatureDoesNotMatch"},
		{"no such bucket", Bucket{Provider: ProviderGeneric, Name: "nope", Endpoint: host, Insecure: true,
			Credentials: map[string][]byte{"accesskey": []byte(access), "secretkey": []byte(secret)}}, "NoSuchBucket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Fetcher{CacheDir: t.TempDir()}).Fetch(context.Background(), tt.b)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Fetch(%s) = %v, want an error containing %q", tt.b.Name, err, tt.want)
			}
		})
	}
}
