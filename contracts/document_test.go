package contracts

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDocumentJSON(t *testing.T) {
	d, err := Build("foo", "0.1.3", nil, nil, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"installed":true,"version":"0.1.3","stack":"foo","updatedAt":"2025-01-02T03:04:05Z","public":{},"private":{}}`
	if string(data) != want {
		t.Errorf("json.Marshal(Build()) = %s, want %s", data, want)
	}
}
