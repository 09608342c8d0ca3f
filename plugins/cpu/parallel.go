package cpu

import (
	"runtime"
	"sync"
)

// chunkElems is the fixed work unit of the elementwise kernels: element
// results never depend on it (each element is computed alone), and an
// error is the one of the lowest chunk, so a call gives the same answer at
// any core count.
const chunkElems = 1 << 15

// forChunks calls fn on [from, to) ranges covering [0, n), spread over the
// cores, and returns the error of the lowest failing range.
func forChunks(n int, fn func(from, to int) error) error {
	chunks := (n + chunkElems - 1) / chunkElems
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for from := 0; from < n; from += chunkElems {
			if err := fn(from, min(from+chunkElems, n)); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, chunks)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := w; c < chunks; c += workers {
				from := c * chunkElems
				errs[c] = fn(from, min(from+chunkElems, n))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
