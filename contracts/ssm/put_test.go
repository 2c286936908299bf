package ssm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

// meta returns the parameter's type, tier and key as SSM reports them.
func meta(t *testing.T, client *awsssm.Client, key string) (types.ParameterType, types.ParameterTier, string) {
	t.Helper()
	out, err := client.DescribeParameters(context.Background(), &awsssm.DescribeParametersInput{
		ParameterFilters: []types.ParameterStringFilter{{Key: aws.String("Name"), Option: aws.String("Equals"), Values: []string{key}}},
	})
	if err != nil {
		t.Fatalf("DescribeParameters(%q) = %v", key, err)
	}
	if len(out.Parameters) != 1 {
		t.Fatalf("DescribeParameters(%q) = %d parameters, want 1", key, len(out.Parameters))
	}
	p := out.Parameters[0]
	return p.Type, p.Tier, aws.ToString(p.KeyId)
}

func TestPutTypeAndTier(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	tests := []struct {
		name     string
		doc      contracts.Document
		wantType types.ParameterType
		wantTier types.ParameterTier
	}{
		{"public only", publicOnly(t, "network"), types.ParameterTypeString, types.ParameterTierStandard},
		{"private data", document(t, "db"), types.ParameterTypeSecureString, types.ParameterTierStandard},
		{"exactly 4096 bytes", sized(t, publicOnly(t, "a"), MaxStandardSize), types.ParameterTypeString, types.ParameterTierStandard},
		{"4097 bytes", sized(t, publicOnly(t, "b"), MaxStandardSize+1), types.ParameterTypeString, types.ParameterTierAdvanced},
		{"5 KB private", sized(t, document(t, "c"), 5000), types.ParameterTypeSecureString, types.ParameterTierAdvanced},
		{"exactly 8192 bytes", sized(t, document(t, "d"), MaxSize), types.ParameterTypeSecureString, types.ParameterTierAdvanced},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := fmt.Sprintf("/configuration/doc%d", i)
			if err := s.Put(ctx, key, tt.doc); err != nil {
				t.Fatalf("Put(%q) = %v, want nil", key, err)
			}
			typ, tier, _ := meta(t, client, key)
			if typ != tt.wantType || tier != tt.wantTier {
				t.Errorf("Put(%q) stored a %s %s parameter, want %s %s", key, tier, typ, tt.wantTier, tt.wantType)
			}
			got, err := s.Get(ctx, key)
			if err != nil {
				t.Fatalf("Get(%q) = %v, want nil", key, err)
			}
			if diff := cmp.Diff(tt.doc, got); diff != "" {
				t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
			}
		})
	}
}

func TestPutSecureStringIsEncrypted(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	key := "/configuration/foo"
	if err := s.Put(ctx, key, document(t, "foo")); err != nil {
		t.Fatalf("Put(%q) = %v, want nil", key, err)
	}
	get := func(decrypt bool) string {
		out, err := client.GetParameter(ctx, &awsssm.GetParameterInput{Name: aws.String(key), WithDecryption: aws.Bool(decrypt)})
		if err != nil {
			t.Fatalf("GetParameter(%q, decrypt %v) = %v", key, decrypt, err)
		}
		return aws.ToString(out.Parameter.Value)
	}
	// moto_server does not really encrypt: it marks the stored value
	// "kms:<key id>:". What is checkable is that SSM holds it as a secret
	// under the default key and only decryption gives the document back.
	plain, stored := get(true), get(false)
	if stored == plain || !strings.HasPrefix(stored, "kms:alias/aws/ssm:") {
		t.Errorf("GetParameter(%q) without decryption = %q, want the value encrypted with alias/aws/ssm", key, stored)
	}
	if !strings.Contains(plain, `"endpoint":"db.internal"`) {
		t.Errorf("GetParameter(%q) with decryption = %q, want the document", key, plain)
	}
}

func TestPutOverwrites(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	key := "/configuration/foo"
	steps := []struct {
		name     string
		doc      contracts.Document
		wantType types.ParameterType
		wantTier types.ParameterTier
	}{
		{"public", publicOnly(t, "foo"), types.ParameterTypeString, types.ParameterTierStandard},
		{"gains private data", document(t, "foo"), types.ParameterTypeSecureString, types.ParameterTierStandard},
		{"grows", sized(t, document(t, "foo"), 6000), types.ParameterTypeSecureString, types.ParameterTierAdvanced},
		{"loses private data", sized(t, publicOnly(t, "foo"), 6000), types.ParameterTypeString, types.ParameterTierAdvanced},
		// moto_server lets a parameter go back to Standard; real SSM refuses,
		// and Put then keeps it Advanced.
		{"shrinks", publicOnly(t, "foo"), types.ParameterTypeString, types.ParameterTierStandard},
	}
	for _, st := range steps {
		if err := s.Put(ctx, key, st.doc); err != nil {
			t.Fatalf("%s: Put(%q) = %v, want nil", st.name, key, err)
		}
		typ, tier, _ := meta(t, client, key)
		if typ != st.wantType || tier != st.wantTier {
			t.Errorf("%s: Put(%q) left a %s %s parameter, want %s %s", st.name, key, tier, typ, st.wantTier, st.wantType)
		}
		got, err := s.Get(ctx, key)
		if err != nil || got.ContentHash() != st.doc.ContentHash() {
			t.Errorf("%s: Get(%q) = %v, %v, want the document just put", st.name, key, got.Stack, err)
		}
	}
}

func TestPutKMSKey(t *testing.T) {
	const keyID = "alias/strata-contracts"
	s, client := newStore(t, Config{Region: "us-east-1", KMSKeyID: keyID})
	ctx := context.Background()
	tests := []struct {
		key  string
		doc  contracts.Document
		want string
	}{
		{"/configuration/private", document(t, "private"), keyID},
		{"/configuration/public", publicOnly(t, "public"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if err := s.Put(ctx, tt.key, tt.doc); err != nil {
				t.Fatalf("Put(%q) = %v, want nil", tt.key, err)
			}
			if _, _, got := meta(t, client, tt.key); got != tt.want {
				t.Errorf("Put(%q) key id = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

func TestPutErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	invalid := document(t, "x")
	invalid.Stack = ""
	nilPublic := document(t, "x")
	nilPublic.Public = nil
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		key     string
		doc     contracts.Document
		want    []string
		wantErr error
	}{
		{"too large", ctx, "/configuration/big", sized(t, document(t, "big"), MaxSize+1), []string{
			"put contract /configuration/big to ssm: contract too large for ssm: the document is 8193 bytes, over the 8192-byte limit",
			"contractStore: s3",
		}, ErrTooLarge},
		{"much too large", ctx, "/configuration/huge", sized(t, document(t, "huge"), 20000), []string{"the document is 20000 bytes"}, ErrTooLarge},
		{"schema", ctx, "/configuration/invalid", invalid, []string{`put contract /configuration/invalid to ssm: invalid contract document: key "stack": must not be empty`}, contracts.ErrInvalid},
		{"nil public", ctx, "/configuration/nilpublic", nilPublic, []string{`key "public": got null, want object`}, contracts.ErrInvalid},
		{"no leading slash", ctx, "configuration/x", document(t, "x"), []string{`put contract to ssm: invalid contract key "configuration/x": it must start with "/"`}, nil},
		{"bad character", ctx, "/configuration/a b", document(t, "x"), []string{`SSM parameter names hold only`}, nil},
		{"dot dot", ctx, "/configuration/../x", document(t, "x"), []string{`segment ".." is not allowed`}, nil},
		{"root", ctx, "/", document(t, "x"), []string{"it names no document"}, nil},
		{"cancelled", cancelled, "/configuration/x", document(t, "x"), []string{"put contract /configuration/x to ssm: ", "context canceled"}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Put(tt.ctx, tt.key, tt.doc)
			if err == nil {
				t.Fatalf("Put(%q) = nil, want an error", tt.key)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Put(%q) = %v, want an error containing %q", tt.key, err, w)
				}
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Put(%q) = %v, want an error wrapping %v", tt.key, err, tt.wantErr)
			}
			if _, err := s.Get(ctx, tt.key); strings.HasPrefix(tt.key, "/configuration/") && !strings.Contains(tt.key, " ") && !strings.Contains(tt.key, "..") && !errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) after a failed Put = %v, want ErrNotFound", tt.key, err)
			}
		})
	}
}

func TestEncodeKeepsHTMLCharacters(t *testing.T) {
	d := publicOnly(t, "x")
	d.Public = map[string]any{"url": "https://a/?b=1&c=<2>"}
	data, err := encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"https://a/?b=1&c=<2>"`) || strings.HasSuffix(string(data), "\n") {
		t.Errorf("encode() = %s, want compact JSON with & < > as they are", data)
	}
}
