package contracts

import "testing"

func TestKey(t *testing.T) {
	tests := []struct {
		prefix, contract, want string
	}{
		{"/configuration", "foo", "/configuration/foo"},
		{"", "foo", "/configuration/foo"},
		{"/configuration/", "foo", "/configuration/foo"},
		{"configuration", "foo", "/configuration/foo"},
		{"/configuration", "/foo", "/configuration/foo"},
		{"/configuration", "foo/", "/configuration/foo"},
		{"/acme/dev/", "network", "/acme/dev/network"},
		{"/", "network", "/network"},
	}
	for _, tt := range tests {
		if got := Key(tt.prefix, tt.contract); got != tt.want {
			t.Errorf("Key(%q, %q) = %q, want %q", tt.prefix, tt.contract, got, tt.want)
		}
	}
}
