package parallel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Panic is the value Foreach, Fold and Map panic with, in the caller's goroutine, when
// fn (or a Read of the input) panicked on a goroutine of theirs: the original value and
// the stack of the goroutine that panicked, which the caller's own stack trace would
// not show. If Value is an error, errors.Is and errors.As see it through Unwrap.
type Panic struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack at the panic, as debug.Stack formats it
}

// Error returns the value and the stack of the panic.
func (p *Panic) Error() string {
	return fmt.Sprintf("parallel: panic in a worker: %v\n\n%s", p.Value, p.Stack)
}

// Unwrap returns Value if it is an error, nil otherwise.
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// thrown is how a goroutine ended other than by returning: a panic, or a runtime.Goexit
// (panic is nil then).
type thrown struct {
	panic *Panic
}

// caught makes a thrown of what recover returned in a deferred call of a goroutine that
// did not return: nil means runtime.Goexit (a panic(nil) is recovered as a
// *runtime.PanicNilError). It must be called from that deferred call, where the stack is
// still the panicking one.
func caught(recovered any) *thrown {
	if recovered == nil {
		return &thrown{}
	}
	return &thrown{panic: &Panic{Value: recovered, Stack: debug.Stack()}}
}

// raise does again, in the calling goroutine, what t's goroutine did.
func (t *thrown) raise() {
	if t.panic == nil {
		runtime.Goexit()
	}
	panic(t.panic)
}

// guard calls f, and panics with a *Panic if f panics, so that a panic in fn looks the
// same on one worker (the caller's goroutine) as on several. A Goexit goes through.
func guard(f func()) {
	inF := true
	defer rethrow(&inF)
	f()
	inF = false
}

// rethrow, deferred, turns a panic into a *Panic with the panicking stack while *inFn
// is set (fn, not the caller's own code, was running); otherwise it leaves the panic
// alone, as it does a Goexit.
func rethrow(inFn *bool) {
	if *inFn {
		if v := recover(); v != nil {
			panic(caught(v).panic)
		}
	}
}

// group runs the goroutines of one call or Map loop and ends them together: the first
// failure halts every one of them, and wait returns only once all have returned.
//
// errgroup (golang.org/x/sync) has the same shape but neither carries a panic across
// goroutines (with its stack) nor stops on a runtime.Goexit, and its context is checked
// through a mutex where this is checked once per record through an atomic flag.
type group struct {
	wg     sync.WaitGroup
	halted atomic.Bool   // set by halt, before stop is closed: checked once per record
	stop   chan struct{} // closed by halt: a goroutine waiting on a channel gives up
	once   sync.Once     // halt's
	onHalt func()        // called once by the first halt, before stop closes; may be nil

	// ctxDone is the call's ctx.Done(), checked with halted once per record: ctx's own
	// halt (haltOn) runs on a goroutine of its own, which a fast loop would not wait for.
	ctxDone <-chan struct{}

	// The first failure: err, the first error; thrown, the first panic or Goexit, which
	// wait raises again whatever errors came before it (a bug is never hidden by an
	// error). Guarded by mu.
	mu     sync.Mutex
	err    error
	thrown *thrown
}

func newGroup(onHalt func()) *group {
	return &group{stop: make(chan struct{}), onHalt: onHalt}
}

// over reports whether the group's goroutines should stop at this record: the group has
// halted, or the call's ctx is done.
func (g *group) over() bool {
	if g.halted.Load() {
		return true
	}
	select {
	case <-g.ctxDone:
		return true
	default:
		return false
	}
}

// run calls f on a goroutine of the group. A panic or Goexit in f halts the group and is
// raised again by wait.
func (g *group) run(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.catch(f)
	}()
}

// catch calls f; a panic or Goexit in it is recorded and halts the group.
func (g *group) catch(f func()) {
	returned := false
	defer func() {
		if !returned {
			g.throw(caught(recover()))
		}
	}()
	f()
	returned = true
}

// fail records err, unless a failure came before it, and halts the group.
func (g *group) fail(err error) {
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	g.halt()
}

// throw records t, unless a panic or Goexit came before it, and halts the group.
func (g *group) throw(t *thrown) {
	g.mu.Lock()
	if g.thrown == nil {
		g.thrown = t
	}
	g.mu.Unlock()
	g.halt()
}

// halt tells every goroutine of the group to stop at its next check.
func (g *group) halt() {
	g.once.Do(func() {
		g.halted.Store(true)
		if g.onHalt != nil {
			g.onHalt()
		}
		close(g.stop)
	})
}

// wait waits for every goroutine of the group to return, then raises again the first
// panic or Goexit, or returns the first error.
func (g *group) wait() error {
	g.wg.Wait()
	return g.result()
}

// result raises again the first panic or Goexit, or returns the first error.
func (g *group) result() error {
	g.mu.Lock()
	t, err := g.thrown, g.err
	g.mu.Unlock()
	if t != nil {
		t.raise()
	}
	return err
}
