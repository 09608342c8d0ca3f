package cpu

import "github.com/probe-dev/probe/internal/parallel"

// chunkElems is the fixed work unit of the elementwise kernels: element
// results never depend on it (each element is computed alone), and an
// error is the one of the lowest chunk, so a call gives the same answer at
// any core count.
const chunkElems = 1 << 15

// forChunks calls fn on [from, to) ranges covering [0, n), spread over the
// cores, and returns the error of the lowest failing range.
func forChunks(n int, fn func(from, to int) error) error {
	return parallel.Chunks(n, chunkElems, fn)
}
