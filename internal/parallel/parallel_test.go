package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

func TestChunksCoverAndFirstError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 64, 65, 1000} {
			var mu sync.Mutex
			seen := make([]int, n)
			var ranges [][2]int
			err := Chunks(n, 64, func(from, to int) error {
				mu.Lock()
				defer mu.Unlock()
				ranges = append(ranges, [2]int{from, to})
				for i := from; i < to; i++ {
					seen[i]++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n=%d procs=%d: element %d covered %d times", n, procs, i, c)
				}
			}
			for _, r := range ranges {
				if r[0]%64 != 0 || (r[1]-r[0] != 64 && r[1] != n) {
					t.Fatalf("n=%d procs=%d: range %v is not a fixed chunk", n, procs, r)
				}
			}
		}
		err := Chunks(1000, 10, func(from, to int) error {
			if from >= 300 {
				return fmt.Errorf("chunk at %d", from)
			}
			return nil
		})
		if err == nil || err.Error() != "chunk at 300" {
			t.Fatalf("procs=%d: got %v, want the lowest chunk's error", procs, err)
		}
		if err := Chunks(5, 10, func(int, int) error { return errors.New("x") }); err == nil {
			t.Fatal("error lost")
		}
	}
}
