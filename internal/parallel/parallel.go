// Package parallel runs loops over index ranges on all cores with a fixed
// split: the ranges depend only on the length and the chunk size, never on
// the number of goroutines, so a computation whose elements or chunks are
// independent gives the same bytes at any core count.
package parallel

import (
	"runtime"
	"sync"
)

// Chunks calls fn on the ranges [from, to) of size chunk (the last one
// shorter) covering [0, n), spread over up to GOMAXPROCS goroutines, and
// returns the error of the lowest failing range.
func Chunks(n, chunk int, fn func(from, to int) error) error {
	chunks := (n + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for from := 0; from < n; from += chunk {
			if err := fn(from, min(from+chunk, n)); err != nil {
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
				from := c * chunk
				errs[c] = fn(from, min(from+chunk, n))
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
