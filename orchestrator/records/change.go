package records

import (
	"context"
	"errors"
	"fmt"
)

// errKeep, from an edit, writes nothing: the object is as it should be.
var errKeep = errors.New("keep the object as it is")

// change reads an object and writes what edit makes of it (found is false
// when there is none), over the version it read, or creating it only if
// there still is none. When another writer came first, it reads again, at
// most maxWriteTries times. An edit's error is returned as it is, but
// errKeep, which writes nothing.
func (s *Records) change(ctx context.Context, k Key, edit func(data []byte, found bool) ([]byte, error)) error {
	for range maxWriteTries {
		data, version, err := s.objects.Read(ctx, k)
		found := err == nil
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		b, err := edit(data, found)
		if errors.Is(err, errKeep) {
			return nil
		}
		if err != nil {
			return err
		}
		if found {
			err = s.objects.Write(ctx, k, b, version)
		} else {
			err = s.objects.Create(ctx, k, b)
		}
		if !errors.Is(err, ErrChanged) {
			return err
		}
	}
	return fmt.Errorf("other writers changed %s %d times in a row; try again", s.objects.Name(k), maxWriteTries)
}
