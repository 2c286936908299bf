package history

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// checkChunks checks every chunk of the file: each decodes, its key is
// its first stack's, its entries follow the previous chunk's of its
// environment, and it is no larger than chunkMax unless it holds one
// head. It returns how many chunks each environment has.
func checkChunks(t *testing.T, s *Store) map[string]int {
	t.Helper()
	count := map[string]int{}
	if err := s.view(func(tx *bolt.Tx) error {
		var prevEnv, prevLast []byte
		return tx.Bucket(indexBucket).Bucket(indexChunks).ForEach(func(k, v []byte) error {
			parts, _, err := splitStackID(k)
			if err != nil {
				return err
			}
			entries, err := decodeChunk(k, v)
			if err != nil {
				return fmt.Errorf("chunk %q: %w", k, err)
			}
			if len(v) > chunkMax && len(entries) > 1 {
				t.Errorf("chunk %q is %d bytes with %d heads, want at most %d", k, len(v), len(entries), chunkMax)
			}
			env := envPrefix(parts[0], parts[1])
			if bytes.Equal(env, prevEnv) && bytes.Compare(stackID(parts[0], parts[1], string(prevLast)), k) >= 0 {
				t.Errorf("chunk %q begins before the previous chunk's last stack %q", k, prevLast)
			}
			prevEnv, prevLast = env, []byte(entries[len(entries)-1].stack)
			count[parts[0]+"/"+parts[1]]++
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return count
}

// TestChunks runs stacks of two environments in a shuffled order, names
// sorting before and after those already stored, long and short, until
// their chunks split, and checks after every round that each stack's head
// is what its runs say, Stacks lists them all, and the chunks are well
// formed.
func TestChunks(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	s.db.NoSync = true
	rng := rand.New(rand.NewPCG(1, 2))
	envs := []string{"dev", "prod"}
	var names []string
	for i := range 120 {
		// Lengths vary, and stackIDs sort by length first.
		names = append(names, fmt.Sprintf("%s-%03d", strings.Repeat("s", 1+i%7), i))
	}
	want := map[string][]string{}
	for round := range 3 {
		for _, i := range rng.Perm(len(names) * len(envs)) {
			env, stack := envs[i%len(envs)], names[i/len(envs)]
			r, err := s.Begin(ctx, Run{
				Client: "acme", Env: env, Stack: stack, Operation: OperationApply,
				Inputs: map[string]string{"big": strings.Repeat("f", 64*(1+i%5))},
			})
			if err != nil {
				t.Fatal(err)
			}
			r.Result = []Result{ResultApplied, ResultFailed, ResultNoChanges}[(i+round)%3]
			if err := s.Record(ctx, r); err != nil {
				t.Fatal(err)
			}
			if round == 0 {
				want[env] = append(want[env], stack)
			}
		}
		for _, env := range envs {
			slices.Sort(want[env])
			got, err := s.Stacks(ctx, "acme", env)
			if err != nil || !cmp.Equal(got, want[env]) {
				t.Errorf("round %d: Stacks(acme/%s) = %v, %v, want %v", round, env, got, err, want[env])
			}
			for _, stack := range want[env] {
				got, err := s.Head(ctx, "acme", env, stack)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(runsHead(t, s, "acme", env, stack), got); diff != "" {
					t.Errorf("round %d: Head(%s/%s) mismatch with the runs (-runs +head):\n%s", round, env, stack, diff)
				}
			}
		}
		count := checkChunks(t, s)
		for _, env := range envs {
			if count["acme/"+env] < 2 {
				t.Errorf("round %d: acme/%s has %d chunks, want its heads split over several", round, env, count["acme/"+env])
			}
		}
	}
	if got, err := s.Head(ctx, "acme", "dev", "none"); err != nil || !cmp.Equal(got, Head{}) {
		t.Errorf("Head(acme/dev/none) = %+v, %v, want the zero Head", got, err)
	}
}

// TestChunkDamaged stores a chunk that does not decode: Head and Stacks
// read the runs and the environment's bucket instead, and the next run
// stored makes every head of the environment anew.
func TestChunkDamaged(t *testing.T) {
	for _, damage := range []struct {
		name string
		v    []byte
	}{
		{"truncated", []byte{0x07, 'n', 'e'}},
		{"empty", []byte{}},
		{"another first stack", encodeChunk([]chunkEntry{{"zz", []byte(`{}`)}})},
		{"out of order", encodeChunk([]chunkEntry{{"db", []byte(`{}`)}, {"network", []byte(`{}`)}, {"api", []byte(`{}`)}})},
	} {
		t.Run(damage.name, func(t *testing.T) {
			s, _ := open(t)
			ctx := context.Background()
			finish(t, s, begin(t, s, "acme", "dev", "api"), ResultApplied)     // api #1
			finish(t, s, begin(t, s, "acme", "dev", "db"), ResultFailed)       // db #1
			finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied) // network #1
			finish(t, s, begin(t, s, "acme", "prod", "api"), ResultApplied)    // prod api #1
			if err := s.update(func(tx *bolt.Tx) error {
				// One chunk holds acme/dev's heads, under its first
				// stack's key: db's, the shortest name.
				cb := tx.Bucket(indexBucket).Bucket(indexChunks)
				k, _, _ := chunkOf(cb, "acme", "dev", "api")
				if want := stackID("acme", "dev", "db"); !bytes.Equal(k, want) {
					return fmt.Errorf("acme/dev/api's chunk = %q, want %q", k, want)
				}
				return cb.Put(k, damage.v)
			}); err != nil {
				t.Fatal(err)
			}
			for _, stack := range []string{"api", "db", "network"} {
				if _, ok, err := s.storedHead("acme", "dev", stack); ok || err != nil {
					t.Errorf("storedHead(%s) in a damaged chunk = %v, %v, want false, nil", stack, ok, err)
				}
			}
			checkHead(t, s, "a damaged chunk", "api", 1, 1, 1)
			checkHead(t, s, "a damaged chunk", "db", 1, 1, 0)
			if got, err := s.Stacks(ctx, "acme", "dev"); err != nil || !cmp.Equal(got, []string{"api", "db", "network"}) {
				t.Errorf("Stacks(acme/dev) with a damaged chunk = %v, %v, want [api db network]", got, err)
			}
			finish(t, s, begin(t, s, "acme", "dev", "db"), ResultApplied) // db #2
			for _, stack := range []string{"api", "db", "network"} {
				if _, ok, err := s.storedHead("acme", "dev", stack); !ok || err != nil {
					t.Errorf("storedHead(%s) after a run = %v, %v, want the heads made anew", stack, ok, err)
				}
			}
			checkHead(t, s, "the heads made anew", "db", 2, 2, 2)
			checkHead(t, s, "the heads made anew", "network", 1, 1, 1)
			if _, ok, err := s.storedHead("acme", "prod", "api"); !ok || err != nil {
				t.Errorf("storedHead(prod/api) = %v, %v, want its chunk untouched", ok, err)
			}
			checkChunks(t, s)
		})
	}
}

// FuzzDecodeChunk decodes arbitrary chunks: never a panic, and a chunk
// that decodes encodes back to itself and holds each of its heads where
// storedChunkHead finds it.
func FuzzDecodeChunk(f *testing.F) {
	f.Add([]byte(stackID("acme", "dev", "api")), encodeChunk([]chunkEntry{{"api", []byte(`{"r":[]}`)}, {"db", nil}}))
	f.Add([]byte(stackID("acme", "dev", "db")), []byte{0x02, 'd', 'b', 0xff})
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, k, v []byte) {
		entries, err := decodeChunk(k, v)
		if err != nil {
			return
		}
		if got := encodeChunk(entries); !bytes.Equal(got, v) {
			t.Errorf("encodeChunk(decodeChunk(%q)) = %q, want it back", v, got)
		}
		for _, e := range entries {
			if got, err := storedChunkHead(k, v, e.stack); err != nil || !bytes.Equal(got, e.head) {
				t.Errorf("storedChunkHead(%q, %q) = %q, %v, want %q", v, e.stack, got, err, e.head)
			}
		}
	})
}

// TestSplitChunk splits chunks grown past chunkMax by the head of one
// stack: a stack added last or first goes on its own, any other change
// halves the chunk, and no part holding more than one head is larger than
// chunkMax.
func TestSplitChunk(t *testing.T) {
	var full []chunkEntry
	for i := 0; chunkSize(full) <= chunkMax-1000; i++ {
		full = append(full, chunkEntry{fmt.Sprintf("stack-%04d", 100+i), bytes.Repeat([]byte{'h'}, 500)})
	}
	n := len(full)
	big := bytes.Repeat([]byte{'h'}, 1500)
	tests := []struct {
		name    string
		entries []chunkEntry
		stack   string
		want    []int // the parts' sizes in heads
	}{
		{"fits", full, full[3].stack, []int{n}},
		{"added last", append(slices.Clone(full), chunkEntry{"stack-9999", big}), "stack-9999", []int{n, 1}},
		{"added first", append([]chunkEntry{{"stack-0000", big}}, full...), "stack-0000", []int{1, n}},
		{"grown in the middle", withHead(slices.Clone(full), full[n/2].stack, big), full[n/2].stack, []int{n/2 + 1, n - n/2 - 1}},
		{"one head", []chunkEntry{{"huge", bytes.Repeat([]byte{'h'}, 2*chunkMax)}}, "huge", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := splitChunk(tt.entries, tt.stack)
			var got []int
			var joined []chunkEntry
			for _, p := range parts {
				got = append(got, len(p))
				joined = append(joined, p...)
				if len(p) > 1 && chunkSize(p) > chunkMax {
					t.Errorf("splitChunk(%s) has a part of %d bytes, want at most %d", tt.name, chunkSize(p), chunkMax)
				}
			}
			if !cmp.Equal(got, tt.want) {
				t.Errorf("splitChunk(%s) = parts of %v heads, want %v", tt.name, got, tt.want)
			}
			if !cmp.Equal(joined, tt.entries, cmp.AllowUnexported(chunkEntry{})) {
				t.Errorf("splitChunk(%s) parts do not join back to the chunk", tt.name)
			}
		})
	}
}
