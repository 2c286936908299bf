package ssm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/aws/smithy-go"

	"github.com/strata-iac/strata/contracts"
)

// Put checks the document against the schema and writes it as the
// parameter named key, replacing any there: a SecureString when the
// document has private data, a String otherwise; Standard tier up to
// MaxStandardSize bytes of JSON, Advanced above. A document over MaxSize
// is refused with an error wrapping ErrTooLarge, and nothing is written.
func (s *Store) Put(ctx context.Context, key string, d contracts.Document) error {
	if err := checkKey(key, false); err != nil {
		return fmt.Errorf("put contract to ssm: %w", err)
	}
	if err := contracts.Validate(d); err != nil {
		return fmt.Errorf("put contract %s to ssm: %w", key, err)
	}
	data, err := encode(d)
	if err != nil {
		return fmt.Errorf("put contract %s to ssm: encode: %w", key, err)
	}
	size := len(data)
	if size > MaxSize {
		return fmt.Errorf("put contract %s to ssm: %w: the document is %d bytes, over the %d-byte limit of an SSM parameter "+
			"(Advanced tier): publish fewer outputs, or keep contracts in the s3 store (init key contractStore: s3)",
			key, ErrTooLarge, size, MaxSize)
	}
	in := &awsssm.PutParameterInput{
		Name:        aws.String(key),
		Value:       aws.String(string(data)),
		Type:        types.ParameterTypeString,
		Tier:        types.ParameterTierStandard,
		Overwrite:   aws.Bool(true),
		Description: aws.String(description(d.Stack)),
	}
	if len(d.Private) > 0 {
		in.Type = types.ParameterTypeSecureString
		if s.kmsKeyID != "" {
			in.KeyId = aws.String(s.kmsKeyID)
		}
	}
	if size > MaxStandardSize {
		in.Tier = types.ParameterTierAdvanced
	}
	_, err = s.api.PutParameter(ctx, in)
	if in.Tier == types.ParameterTierStandard && isNoDowngrade(err) {
		// SSM never moves a parameter back from Advanced to Standard; a
		// document that shrank stays Advanced.
		in.Tier = types.ParameterTierAdvanced
		_, err = s.api.PutParameter(ctx, in)
	}
	if err != nil {
		return fmt.Errorf("put contract %s to ssm: %w", key, err)
	}
	return nil
}

// encode writes the document as compact JSON, without escaping <, > and &
// so that the size SSM counts is the size of the data.
func encode(d contracts.Document) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// description is the parameter's description, cut to SSM's 1024
// characters.
func description(stack string) string {
	desc := "strata contract published by stack " + stack
	if len(desc) > 1024 {
		desc = desc[:1024]
	}
	return desc
}

// isNoDowngrade tells whether err is SSM refusing to move an Advanced
// parameter to the Standard tier.
func isNoDowngrade(err error) bool {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "ValidationException" {
		return false
	}
	msg := strings.ToLower(apiErr.ErrorMessage())
	return strings.Contains(msg, "advanced") && strings.Contains(msg, "standard")
}
