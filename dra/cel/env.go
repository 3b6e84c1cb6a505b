package cel

import (
	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// Limits Kubernetes sets for DRA's CEL selectors.
const (
	// MaxCost is the runtime cost limit of one evaluation, and the limit
	// the API server holds a selector's estimated worst-case cost to
	// (resource.k8s.io's CELSelectorExpressionMaxCost).
	MaxCost = 1000000
	// MaxExpressionLength is the longest expression the API server accepts
	// (CELSelectorExpressionMaxLength).
	MaxExpressionLength = 10 * 1024
	// perCallLimit is the cost limit of Kubernetes' base environment; the
	// DRA program replaces it with MaxCost.
	perCallLimit = 1000000
	// checkFrequency is how many comprehension steps pass between checks
	// for cancellation.
	checkFrequency = 100
)

// Sizes DRA declares for the device's fields, which bound cost estimates.
const (
	maxDomainLength        = 63 // DeviceMaxDomainLength
	maxIDLength            = 32 // DeviceMaxIDLength
	maxDriverLength        = 63 // DriverNameMaxLength
	maxAttributeValueLen   = 64 // DeviceAttributeMaxValueLength
	maxAttributeValues     = 48 // ResourceSliceMaxAttributeValuesPerDevice
	maxAttributesPerDevice = 32 // ResourceSliceMaxAttributesAndCapacitiesPerDevice
)

// envKind is the Kubernetes environment type an expression is compiled in.
type envKind int

const (
	// storedEnv is StoredExpressions: every library and declaration of the
	// release regardless of feature gates, as the scheduler compiles.
	storedEnv envKind = iota
	// newEnv is NewExpressions at v1.37.2's compatibility version 1.36 with
	// the default feature gates, as the API server validates a new or
	// changed expression.
	newEnv
)

const deviceTypeName = "kubernetes.DRADevice"

var deviceType = celgo.ObjectType(deviceTypeName)

// deviceFields is the declared shape of the device variable.
type deviceFields struct {
	attribute *celgo.Type // the type of one attribute value
	multi     bool        // whether allowMultipleAllocations is declared
}

// fields returns the declared shape for kind. StoredExpressions takes the
// newest declaration, list-typed attributes and allowMultipleAllocations
// included. NewExpressions at the default gates has consumable capacity
// (beta, on) and no list-typed attributes (alpha, off).
func (k envKind) fields() deviceFields {
	if k == storedEnv {
		return deviceFields{attribute: celgo.DynType, multi: true}
	}
	return deviceFields{attribute: celgo.AnyType, multi: true}
}

// baseEnv builds Kubernetes' base CEL environment as v1.37.2 has it for kind.
func baseEnv(kind envKind, fr *formatRegexps) (*celgo.Env, error) {
	opts := []celgo.EnvOption{
		celgo.HomogeneousAggregateLiterals(),
		celgo.EagerlyValidateDeclarations(true),
		celgo.DefaultUTCTimeZone(true),
		celgo.Lib(urlsLib{}),
		celgo.Lib(regexLib{}),
		celgo.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		celgo.Lib(programOptions{
			celgo.EvalOptions(celgo.OptOptimize, celgo.OptTrackCost),
			celgo.CostLimit(perCallLimit),
			celgo.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		}),
	}
	if kind == newEnv {
		opts = append(opts, celgo.Lib(listsLib{version: 0}))
	}
	opts = append(opts,
		celgo.Lib(authzLib{}),
		celgo.CrossTypeNumericComparisons(true),
		celgo.OptionalTypes(),
		celgo.Lib(quantityLib{}),
		celgo.ASTValidators(
			celgo.ValidateDurationLiterals(),
			celgo.ValidateTimestampLiterals(),
			celgo.ValidateRegexLiterals(),
			celgo.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		celgo.Lib(ipLib{}),
		celgo.Lib(cidrLib{}),
		celgo.Lib(formatLib{formats: fr.formats()}),
		celgo.Lib(authzLib{selectors: true}),
		ext.TwoVarComprehensions(),
		celgo.Lib(semverLib{}),
		ext.Lists(ext.ListsVersion(3)),
	)
	if kind == storedEnv {
		opts = append(opts, celgo.Lib(listsLib{version: 1}))
	}
	opts = append(opts, celgo.Lib(programOptions{celgo.CostTracking(runtimeCost{})}))
	return celgo.NewEnv(opts...)
}

// draEnv extends the base environment with DRA's declarations: cel.bind,
// the device variable and, for stored expressions, includes.
func draEnv(kind envKind, fr *formatRegexps) (*celgo.Env, error) {
	base, err := baseEnv(kind, fr)
	if err != nil {
		return nil, err
	}
	p := &deviceProvider{Provider: base.CELTypeProvider(), fields: kind.fields()}
	if a, ok := base.CELTypeProvider().(types.Adapter); ok {
		p.adapter = a
	} else {
		p.adapter = types.DefaultTypeAdapter
	}
	opts := []celgo.EnvOption{
		ext.Bindings(ext.BindingsVersion(0)),
		celgo.Variable("device", deviceType),
	}
	if kind == storedEnv {
		opts = append(opts, includesOption())
	}
	opts = append(opts, celgo.CustomTypeProvider(p), celgo.CustomTypeAdapter(p))
	return base.Extend(opts...)
}

// programOptions is a library that only adds program options.
type programOptions []celgo.ProgramOption

func (programOptions) CompileOptions() []celgo.EnvOption       { return nil }
func (p programOptions) ProgramOptions() []celgo.ProgramOption { return p }

// deviceProvider declares kubernetes.DRADevice on top of the base type
// provider, as Kubernetes' declared-type provider does: the device's four
// fields, and the scalar type names it also resolves.
type deviceProvider struct {
	types.Provider
	adapter types.Adapter
	fields  deviceFields
}

func (p *deviceProvider) NativeToValue(v any) ref.Val { return p.adapter.NativeToValue(v) }

// scalarTypes are the type names Kubernetes' provider resolves besides
// its declared object types.
var scalarTypes = map[string]*celgo.Type{
	"bool": celgo.BoolType, "bytes": celgo.BytesType, "double": celgo.DoubleType,
	"duration": celgo.DurationType, "int": celgo.IntType, "null_type": celgo.NullType,
	"string": celgo.StringType, "timestamp": celgo.TimestampType, "uint": celgo.UintType,
	"list": celgo.ListType(celgo.AnyType), "map": celgo.MapType(celgo.AnyType, celgo.AnyType),
}

func (p *deviceProvider) FindStructType(name string) (*types.Type, bool) {
	if name == deviceTypeName {
		return types.NewTypeTypeWithParam(deviceType), true
	}
	if t, ok := scalarTypes[name]; ok {
		return types.NewTypeTypeWithParam(t), true
	}
	return p.Provider.FindStructType(name)
}

func (p *deviceProvider) FindStructFieldNames(string) ([]string, bool) { return []string{}, false }

func (p *deviceProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if name == "map" {
		return &types.FieldType{Type: celgo.AnyType}, true
	}
	if _, ok := scalarTypes[name]; ok {
		return nil, false
	}
	if name != deviceTypeName {
		return p.Provider.FindStructFieldType(name, field)
	}
	var t *celgo.Type
	switch field {
	case "driver":
		t = celgo.StringType
	case "attributes":
		t = celgo.MapType(celgo.StringType, celgo.MapType(celgo.StringType, p.fields.attribute))
	case "capacity":
		t = celgo.MapType(celgo.StringType, celgo.MapType(celgo.StringType, quantityType))
	case "allowMultipleAllocations":
		if p.fields.multi {
			t = celgo.BoolType
		}
	}
	if t == nil {
		return nil, false
	}
	return &types.FieldType{Type: t}, true
}
