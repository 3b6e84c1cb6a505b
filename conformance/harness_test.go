package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"

	"k8s.io/klog/v2"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

// fixtureRoot is where failing cases and seeds are kept; the core
// module's internal/testing/regression replays them.
var fixtureRoot = filepath.Join("testdata", "regressions")

var panicStacks = flag.Bool("conformance.stacks", false, "print the stack of panics turned into answers")

var noFixtures = flag.Bool("conformance.nofixtures", false, "do not write a fixture when a differential property fails")

func TestMain(m *testing.M) {
	// Upstream logs through klog (for instance every non-integer value
	// met by the Lt / Gt toleration operators); keep test output clean.
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	// Failing cases are kept as fixtures (testdata/regressions), not as
	// rapid's fail files; -rapid.nofailfile=false brings those back.
	if f := flag.Lookup("rapid.nofailfile"); f != nil {
		_ = f.Value.Set("true")
	}
	flag.Parse()
	os.Exit(m.Run())
}

// evalSchedkit is schedkit's answer, with a panic turned into an answer.
func evalSchedkit(kind string, input json.RawMessage) (out json.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			out = panicAnswer(r)
		}
	}()
	ans, err := regression.Evaluate(kind, input)
	if err != nil {
		return errAnswer(err)
	}
	return ans
}

// evalUpstream decodes input afresh (so that upstream sees exactly what a
// replay of the fixture would feed schedkit) and runs up on it.
func evalUpstream[In any](input json.RawMessage, up func(*In) any) (out json.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			out = panicAnswer(r)
		}
	}()
	in := new(In)
	if err := json.Unmarshal(input, in); err != nil {
		return errAnswer(err)
	}
	ans, err := regression.Marshal(up(in))
	if err != nil {
		return errAnswer(err)
	}
	return ans
}

func panicAnswer(r any) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"panic": fmt.Sprint(r)})
	if *panicStacks {
		fmt.Fprintf(os.Stderr, "panic: %v\n%s\n", r, debug.Stack())
	}
	return b
}

func errAnswer(err error) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"harnessError": err.Error()})
	return b
}

// Known says why a disagreement on this input is a known, reported
// schedkit bug ("" if it is not one). Known disagreements are skipped so
// that the rest of the space is still explored.
type Known[In any] func(in *In, schedkit, upstream json.RawMessage) string

// Diff compares schedkit and upstream on one input, returning both answers.
func Diff[In any](kind string, in *In, up func(*In) any) (input, sk, us json.RawMessage, same bool) {
	input, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	sk = evalSchedkit(kind, input)
	us = evalUpstream(input, up)
	return input, sk, us, regression.Same(sk, us)
}

var fixtureMu sync.Mutex

// Property checks with rapid that schedkit and upstream give the same
// answer on every input gen draws. On failure rapid shrinks the input, and
// the minimal failing case is written as a fixture.
func Property[In any](t *testing.T, kind string, gen *rapid.Generator[*In], up func(*In) any, known Known[In]) {
	t.Helper()
	var last *regression.Fixture
	t.Cleanup(func() {
		if !t.Failed() || last == nil || *noFixtures {
			return
		}
		fixtureMu.Lock()
		defer fixtureMu.Unlock()
		p, err := regression.Write(fixtureRoot, *last)
		if err != nil {
			t.Errorf("writing fixture: %v", err)
			return
		}
		t.Logf("minimal failing case written to %s", p)
	})
	rapid.Check(t, func(rt *rapid.T) {
		in := gen.Draw(rt, "input")
		input, sk, us, same := Diff(kind, in, up)
		if same {
			return
		}
		if known != nil {
			if why := known(in, sk, us); why != "" {
				rt.Skipf("known disagreement: %s", why)
			}
		}
		last = &regression.Fixture{Kind: kind, Source: "rapid", Note: "found by " + t.Name(), Input: input, Upstream: us, Schedkit: sk}
		rt.Fatalf("schedkit disagrees with upstream\ninput:    %s\nschedkit: %s\nupstream: %s", input, mustCanon(sk), mustCanon(us))
	})
}

func mustCanon(b json.RawMessage) string {
	c, err := regression.Canonical(b)
	if err != nil {
		return string(b)
	}
	return string(c)
}

// upFn adapts a typed upstream evaluator.
func upFn[In, Out any](f func(*In) Out) func(*In) any {
	return func(in *In) any { return f(in) }
}
