package reconcile_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
)

// fileRecords are the state directory's records, as FileRecords opens
// them.
var fileRecords = recordstest.Impl{
	Name: "files",
	Open: func(t *testing.T) recordstest.Records {
		return openFileRecords(t, t.TempDir())
	},
	// The next process opens the file once the last one let it go.
	Next: func(t *testing.T, prev recordstest.Records) recordstest.Records {
		h := prev.History.(*history.Store)
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		return openFileRecords(t, filepath.Dir(h.Path()))
	},
	// One process holds the file: its reconciles share the open store.
	Replica: func(t *testing.T, first recordstest.Records) recordstest.Records { return first },
}

func openFileRecords(t *testing.T, dir string) recordstest.Records {
	t.Helper()
	h, err := history.Open(context.Background(), filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return recordstest.Records{History: h, Approvals: approval.New(filepath.Join(dir, "held"))}
}

func TestRecordsContract(t *testing.T) {
	t.Parallel()
	recordstest.Run(t, []recordstest.Impl{fileRecords})
}
