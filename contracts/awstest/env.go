package awstest

import (
	"path/filepath"
	"testing"
)

// Region is the region the test servers answer for.
const Region = "us-east-1"

// Env points the standard AWS credential chain at the given keys for the
// rest of the test, in Region, and away from anything on the machine:
// no shared config or credentials files, no profile, no session token, no
// instance metadata. moto_server accepts any keys.
func Env(t testing.TB, accessKey, secretKey string) {
	t.Helper()
	missing := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID":           accessKey,
		"AWS_SECRET_ACCESS_KEY":       secretKey,
		"AWS_SESSION_TOKEN":           "",
		"AWS_REGION":                  Region,
		"AWS_DEFAULT_REGION":          Region,
		"AWS_PROFILE":                 "",
		"AWS_CONFIG_FILE":             missing,
		"AWS_SHARED_CREDENTIALS_FILE": missing,
		"AWS_EC2_METADATA_DISABLED":   "true",
		// The stores' endpoint override: each test names its endpoints.
		"STRATA_AWS_ENDPOINT": "",
	} {
		t.Setenv(k, v)
	}
}
