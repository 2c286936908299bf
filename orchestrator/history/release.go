package history

import (
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// releaseEvery is how many transactions a store runs between two
// releases of the file's pages (release).
const releaseEvery = 16

// releaser counts a store's transactions, to release the file's pages
// every releaseEvery of them.
type releaser struct {
	txs atomic.Uint64
}

// release lets go of the pages of the file this process has mapped, once
// every releaseEvery transactions; tx must be open, so that bbolt cannot
// map the file anew meanwhile.
//
// bbolt reads the file through a shared mapping, and the kernel maps the
// 64 KiB around each page read, as resident memory of the process. A
// reconcile of 10,000 stacks with nothing due reads each stack's head, in
// chunks that lie all over the file: the pages mapped grew to nearly the
// whole file (23 MiB of 26), a sixth of the process's peak. The pages stay
// in the page cache; a read after a release maps them again from there.
func (r *releaser) release(tx *bolt.Tx) {
	if r.txs.Add(1)%releaseEvery != 0 {
		return
	}
	unmapPages(tx.DB().Info().Data, tx.Size())
}
