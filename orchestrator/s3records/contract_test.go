package s3records

import (
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
	"github.com/strata-iac/strata/orchestrator/records"
)

func recordsOf(s *Store) recordstest.Records {
	return recordstest.Records{History: s, Approvals: s}
}

// bucketRecords are the records as objects under a prefix of a real
// versitygw bucket, new for each case.
func bucketRecords(srv server) recordstest.Impl {
	other := func(t *testing.T, prev recordstest.Records) recordstest.Records {
		return recordsOf(srv.open(t, prev.History.(*Store).objects.prefix, 0))
	}
	return recordstest.Impl{
		Name: "s3",
		Open: func(t *testing.T) recordstest.Records {
			return recordsOf(srv.open(t, "teams/"+strings.ReplaceAll(t.Name(), "/", "-"), 0))
		},
		Next:    other,
		Replica: other,
	}
}

func TestRecordsContract(t *testing.T) {
	recordstest.Run(t, []recordstest.Impl{bucketRecords(newServer(t))})
}

func TestObjects(t *testing.T) {
	srv := newServer(t)
	recordstest.RunObjects(t, func(t *testing.T) records.Objects {
		return srv.open(t, "objects/"+strings.ReplaceAll(t.Name(), "/", "-"), 0).objects
	})
}
