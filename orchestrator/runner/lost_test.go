package runner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/tofu"
)

func TestLostReason(t *testing.T) {
	planJSON := []byte(`{"resource_changes":[
		{"address":"aws_s3_bucket.logs","type":"aws_s3_bucket","change":{"actions":["create"],"after":{"bucket":"acme-logs"},"after_unknown":{"id":true,"arn":true}}},
		{"address":"terraform_data.crash[1]","type":"terraform_data","change":{"actions":["create"],"after":{"input":1},"after_unknown":{"id":true}}},
		{"address":"aws_iam_role.app","type":"aws_iam_role","change":{"actions":["create"],"after":{},"after_unknown":{"name":true}}}
	]}`)
	p := planned{plan: &tofu.Plan{JSON: planJSON, Changes: []tofu.Change{
		{Address: "aws_s3_bucket.logs", Type: "aws_s3_bucket", Actions: []string{"create"}},
		{Address: "terraform_data.crash[1]", Type: "terraform_data", Actions: []string{"create"}},
		{Address: "aws_iam_role.app", Type: "aws_iam_role", Actions: []string{"create"}},
		{Address: "terraform_data.other", Type: "terraform_data", Actions: []string{"update"}},
	}}}
	lost := lostIn([]string{"aws_s3_bucket.logs", "terraform_data.crash[1]", "aws_iam_role.app", "terraform_data.other", "terraform_data.gone"}, p)
	if want := []string{"aws_s3_bucket.logs", "terraform_data.crash[1]", "aws_iam_role.app"}; !cmp.Equal(lost, want) {
		t.Fatalf("lostIn() = %v, want %v: the lost resources the plan creates", lost, want)
	}
	got := lostReason(lost, p)
	for _, want := range []string{
		"interrupted: ",
		"aws_s3_bucket.logs may exist in the cloud without state: import it or approve to create again (import { to = aws_s3_bucket.logs  id = \"acme-logs\" })",
		"terraform_data.crash[1] may exist in the cloud without state: import it or approve to create again",
		"aws_iam_role.app may exist in the cloud without state: import it or approve to create again",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lostReason(%v) = %q, want it to hold %q", lost, got, want)
		}
	}
	for _, unknown := range []string{"to = terraform_data.crash[1]", "to = aws_iam_role.app"} {
		if strings.Contains(got, unknown) {
			t.Errorf("lostReason(%v) = %q, want no import block where the id is unknown (%s)", lost, got, unknown)
		}
	}
}
