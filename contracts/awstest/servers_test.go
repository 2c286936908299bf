package awstest

import (
	"net/http"
	"testing"
	"time"
)

func TestServersStartAndStop(t *testing.T) {
	tests := []struct {
		name  string
		start func(t *testing.T) string
	}{
		{"moto", func(t *testing.T) string { return Moto(t) }},
		{"versitygw", func(t *testing.T) string {
			endpoint, access, secret := Versitygw(t)
			if access == "" || secret == "" {
				t.Errorf("Versitygw() credentials = %q, %q, want both set", access, secret)
			}
			return endpoint
		}},
	}
	client := &http.Client{Timeout: 2 * time.Second}
	for _, tt := range tests {
		var endpoint string
		t.Run(tt.name, func(t *testing.T) {
			endpoint = tt.start(t)
			resp, err := client.Get(endpoint + "/")
			if err != nil {
				t.Fatalf("GET %s = %v, want an answer", endpoint, err)
			}
			resp.Body.Close()
		})
		// The subtest's cleanup has stopped the server.
		if resp, err := client.Get(endpoint + "/"); err == nil {
			resp.Body.Close()
			t.Errorf("GET %s after the test = %v, want the server stopped", endpoint, resp.Status)
		}
	}
}
