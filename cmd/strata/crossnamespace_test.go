//go:build kube

package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestCrossNamespaceRefs follows the Tofu Controller's table: a
// cross-namespace spec.sourceRef is refused unless
// --allow-cross-namespace-refs allows it, or, without it,
// --no-cross-namespace-refs=false does.
func TestCrossNamespaceRefs(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--allow-cross-namespace-refs"}, true},
		{[]string{"--allow-cross-namespace-refs=false"}, false},
		{[]string{"--no-cross-namespace-refs"}, false},
		{[]string{"--no-cross-namespace-refs=false"}, true},
		{[]string{"--allow-cross-namespace-refs", "--no-cross-namespace-refs"}, true},
		{[]string{"--allow-cross-namespace-refs=false", "--no-cross-namespace-refs=false"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := newControllerCommand(&globals{})
			var got bool
			cmd.RunE = func(cmd *cobra.Command, _ []string) error {
				allow, _ := cmd.Flags().GetBool("allow-cross-namespace-refs")
				no, _ := cmd.Flags().GetBool("no-cross-namespace-refs")
				got = crossNamespaceRefs(cmd, allow, no)
				return nil
			}
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("crossNamespaceRefs(%q) = %v, want %v", tt.args, got, tt.want)
			}
		})
	}
}
