package contracts

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrNotFound(t *testing.T) {
	err := fmt.Errorf("get contract /configuration/x: %w", ErrNotFound)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("errors.Is(%v, ErrNotFound) = false, want true", err)
	}
	if got, want := ErrNotFound.Error(), "contract not found"; got != want {
		t.Errorf("ErrNotFound.Error() = %q, want %q", got, want)
	}
}
