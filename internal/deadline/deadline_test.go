package deadline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

func TestRun(t *testing.T) {
	addr := testkit.DeadListener(t)
	url := "http://" + addr + "/x"
	for _, tc := range []struct {
		name string
		fn   func(context.Context) (int, error)
		want string
	}{
		{"a client that honours its context", func(ctx context.Context) (int, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return 0, err
			}
			resp.Body.Close()
			return resp.StatusCode, nil
		}, url + ": no answer within 300ms"},
		{"a client that does not", func(context.Context) (int, error) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return 0, err
			}
			defer c.Close()
			b := make([]byte, 1)
			_, err = c.Read(b) // never answers, and no deadline
			return 0, err
		}, url + ": no answer within 300ms"},
		{"an answer in time", func(context.Context) (int, error) { return 7, nil }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, err := Run(t.Context(), url, 300*time.Millisecond, tc.fn)
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("Run(%q) took %v, want about 300ms", tc.name, took)
			}
			if tc.want == "" {
				if err != nil || got != 7 {
					t.Errorf("Run(%q) = %d, %v, want 7, nil", tc.name, got, err)
				}
				return
			}
			if err == nil || err.Error() != tc.want || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Run(%q) = %v, want %q matching context.DeadlineExceeded", tc.name, err, tc.want)
			}
		})
	}
}

func TestRunStopped(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errors.New("terminated signal received"))
	_, err := Run(ctx, "x", time.Minute, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	if err == nil || !strings.Contains(err.Error(), "terminated signal received") {
		t.Errorf("Run(stopped) = %v, want the signal's cause", err)
	}
}
