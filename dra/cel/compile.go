package cel

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// ErrorType classifies a compile error as Kubernetes does.
type ErrorType string

// The error types of Kubernetes' CEL errors.
const (
	// ErrorTypeInvalid is an expression that does not compile or does not
	// evaluate to bool. The API server reports it as an invalid value.
	ErrorTypeInvalid ErrorType = "RuleInvalid"
	// ErrorTypeInternal is a failure of the environment itself.
	ErrorTypeInternal ErrorType = "InternalError"
)

// Error is a compile error. Its text is Detail, as Kubernetes prints it.
type Error struct {
	Type   ErrorType
	Detail string
}

// Error returns Detail.
func (e *Error) Error() string { return e.Detail }

// Selector is a compiled expression. It is immutable and safe for
// concurrent use.
type Selector struct {
	expression string
	program    celgo.Program
	adapter    adapterT
	empty      ref.Val
}

// Expression returns the source text.
func (s *Selector) Expression() string { return s.expression }

var boolKind = reflect.TypeOf(true)

// Matches evaluates the selector on d. An error is a runtime error with
// cel-go's text ("no such key: model", "actual cost limit exceeded"), or
// the device's own fault: an attribute without a value or a version that
// does not parse fails every selector, as in Kubernetes. The scheduler
// prints runtime errors through EnhanceRuntimeError.
func (s *Selector) Matches(ctx context.Context, d Device) (bool, error) {
	ok, _, err := s.MatchesCost(ctx, d)
	return ok, err
}

// MatchesCost is Matches with the evaluation's actual cost in CEL cost
// units, as Kubernetes tracks it against MaxCost (0 when the device fails
// before evaluation).
func (s *Selector) MatchesCost(ctx context.Context, d Device) (bool, uint64, error) {
	if err := checkAttributes(d.Attributes); err != nil {
		return false, 0, err
	}
	return s.eval(ctx, &evalState{dev: d, adapter: s.adapter, empty: s.empty})
}

// MatchesDevice evaluates the selector on a device of driver as the
// scheduler's allocator does: Matches, with a runtime error passed
// through EnhanceRuntimeError. It is the Selector method package dra
// calls.
func (s *Selector) MatchesDevice(ctx context.Context, driver string, d *api.Device) (bool, error) {
	ok, err := s.Matches(ctx, Device{Driver: driver, AllowMultipleAllocations: d.AllowMultipleAllocations, Attributes: d.Attributes, Capacity: d.Capacity})
	return ok, EnhanceRuntimeError(err)
}

func (s *Selector) eval(ctx context.Context, st *evalState) (bool, uint64, error) {
	out, details, err := s.program.ContextEval(ctx, st)
	var cost uint64
	if c := details.ActualCost(); c != nil {
		cost = *c
	}
	if err != nil {
		if strings.Contains(err.Error(), "operation interrupted") && ctx.Err() != nil {
			return false, cost, fmt.Errorf("%w: %w", err, context.Cause(ctx))
		}
		return false, cost, err
	}
	v, err := out.ConvertToNative(boolKind)
	if err != nil {
		return false, cost, fmt.Errorf("CEL result of type %s could not be converted to bool: %w", out.Type().TypeName(), err)
	}
	b, ok := v.(bool)
	if !ok {
		return false, cost, fmt.Errorf("CEL native result value should have been a bool, got instead: %T", v)
	}
	return b, cost, nil
}

// enhancedError marks an error EnhanceRuntimeError already extended.
type enhancedError struct{ error }

func (e *enhancedError) Unwrap() error { return e.error }

// EnhanceRuntimeError adds Kubernetes' hint to a missing-key error, as the
// scheduler does before it reports a selector's runtime error. Other
// errors, and errors already enhanced, are returned unchanged.
func EnhanceRuntimeError(err error) error {
	if err == nil {
		return nil
	}
	var e *enhancedError
	if errors.As(err, &e) {
		return err
	}
	if strings.Contains(err.Error(), "no such key:") {
		return &enhancedError{fmt.Errorf("%w. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields", err)}
	}
	return err
}

// Compiler compiles selectors and keeps the most recent ones. The zero
// value is not usable; call NewCompiler. A Compiler is safe for
// concurrent use.
type Compiler struct {
	stored *celgo.Env
	fr     *formatRegexps
	sizes  *sizeNode
	empty  ref.Val

	newOnce sync.Once
	newEnv  *celgo.Env
	newErr  error

	mu      sync.Mutex
	max     int
	entries map[string]*list.Element
	order   *list.List // front is most recent
}

type cacheEntry struct {
	expression string
	sel        *Selector
	err        error
}

// DefaultCacheSize is the number of compiled expressions a Compiler keeps
// by default. The scheduler keeps 10; a simulation that revisits many
// classes and claims gains from more.
const DefaultCacheSize = 256

// NewCompiler builds the environment Kubernetes v1.37.2's scheduler
// compiles selectors in, keeping up to cacheSize compiled expressions
// (DefaultCacheSize when cacheSize <= 0). Building it takes milliseconds;
// hold one Compiler and reuse it.
func NewCompiler(cacheSize int) (*Compiler, error) {
	if cacheSize <= 0 {
		cacheSize = DefaultCacheSize
	}
	fr := newFormatRegexps()
	env, err := draEnv(storedEnv, fr)
	if err != nil {
		return nil, fmt.Errorf("build the DRA CEL environment: %w", err)
	}
	return &Compiler{
		stored:  env,
		fr:      fr,
		sizes:   deviceSizes(),
		empty:   env.CELTypeAdapter().NativeToValue(map[string]any{}),
		max:     cacheSize,
		entries: map[string]*list.Element{},
		order:   list.New(),
	}, nil
}

// Compile returns the selector for expression, from the cache when it
// was compiled before. The error, an *Error, is the text the scheduler
// prints after "CEL compile error: ".
func (c *Compiler) Compile(expression string) (*Selector, error) {
	c.mu.Lock()
	if e, ok := c.entries[expression]; ok {
		c.order.MoveToFront(e)
		ent := e.Value.(*cacheEntry)
		c.mu.Unlock()
		return ent.sel, ent.err
	}
	c.mu.Unlock()
	sel, err := c.compile(c.stored, storedEnv, expression)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[expression]; !ok {
		c.entries[expression] = c.order.PushFront(&cacheEntry{expression, sel, err})
		for c.order.Len() > c.max {
			last := c.order.Back()
			delete(c.entries, last.Value.(*cacheEntry).expression)
			c.order.Remove(last)
		}
	}
	if err != nil {
		return nil, err
	}
	return sel, nil
}

func invalid(detail string) *Error { return &Error{Type: ErrorTypeInvalid, Detail: detail} }

func internal(detail string) *Error { return &Error{Type: ErrorTypeInternal, Detail: detail} }

func (c *Compiler) compile(env *celgo.Env, kind envKind, expression string) (*Selector, error) {
	ast, err := c.check(env, kind, expression)
	if err != nil {
		return nil, err
	}
	prg, perr := env.Program(ast, celgo.CostLimit(MaxCost), celgo.InterruptCheckFrequency(checkFrequency))
	if perr != nil {
		return nil, internal("program instantiation failed: " + perr.Error())
	}
	return &Selector{expression: expression, program: prg, adapter: env.CELTypeAdapter(), empty: c.empty}, nil
}

// check parses and type-checks expression and holds its result type to
// bool or the attribute type.
func (c *Compiler) check(env *celgo.Env, kind envKind, expression string) (*celgo.Ast, *Error) {
	ast, issues := env.Compile(expression)
	if issues != nil {
		return nil, invalid("compilation failed: " + issues.String())
	}
	t := ast.OutputType()
	if !t.IsExactType(celgo.BoolType) && !t.IsExactType(kind.fields().attribute) {
		return nil, invalid(fmt.Sprintf("must evaluate to %v or the unknown type, not %v", celgo.BoolType.String(), t.String()))
	}
	return ast, nil
}

// Validate checks expression as the API server does when a DeviceClass or
// ResourceClaim carrying it is created or changed: the length limit,
// compiling in the NewExpressions environment (the libraries of
// compatibility version 1.36 and the default feature gates), then the
// worst-case cost estimate against MaxCost. The error is ErrTooLong, an
// *Error whose Detail is the API server's message, or ErrTooComplex.
func (c *Compiler) Validate(expression string) error {
	_, err := c.EstimateCost(expression)
	return err
}

// EstimateCost validates expression as Validate does and returns its
// worst-case cost, as the API server estimates it, when it compiles.
func (c *Compiler) EstimateCost(expression string) (uint64, error) {
	if len(expression) > MaxExpressionLength {
		return 0, ErrTooLong
	}
	c.newOnce.Do(func() { c.newEnv, c.newErr = draEnv(newEnv, c.fr) })
	if c.newErr != nil {
		return 0, internal("unexpected error loading CEL environment: " + c.newErr.Error())
	}
	ast, cerr := c.check(c.newEnv, newEnv, expression)
	if cerr != nil {
		return 0, cerr
	}
	// The API server builds the program too; constant folding can fail.
	if _, err := c.newEnv.Program(ast, celgo.CostLimit(MaxCost), celgo.InterruptCheckFrequency(checkFrequency)); err != nil {
		return 0, internal("program instantiation failed: " + err.Error())
	}
	est, err := c.newEnv.EstimateCost(ast, estimator{device: c.sizes})
	if err != nil {
		return 0, internal("cost estimation failed: " + err.Error())
	}
	if est.Max > MaxCost {
		return est.Max, ErrTooComplex
	}
	return est.Max, nil
}

// Check is Validate's verdict as the API server reports it for the field
// at path: too long, an invalid value quoting the expression, an internal
// error, or "too complex, exceeds cost limit". It has the shape of
// package dra's CELCheck.
func (c *Compiler) Check(expression string, path *field.Path) field.ErrorList {
	err := c.Validate(expression)
	var ce *Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrTooLong):
		return field.ErrorList{field.TooLong(path, "", MaxExpressionLength)}
	case errors.Is(err, ErrTooComplex):
		return field.ErrorList{field.Forbidden(path, "too complex, exceeds cost limit")}
	case errors.As(err, &ce) && ce.Type == ErrorTypeInvalid:
		return field.ErrorList{field.Invalid(path, expression, ce.Detail)}
	}
	return field.ErrorList{field.InternalError(path, err)}
}

// Validation errors that are not compile errors.
var (
	// ErrTooLong is an expression longer than MaxExpressionLength bytes.
	ErrTooLong = fmt.Errorf("may not be more than %d bytes", MaxExpressionLength)
	// ErrTooComplex is an expression whose worst-case cost exceeds MaxCost.
	ErrTooComplex = errors.New("too complex, exceeds cost limit")
)
