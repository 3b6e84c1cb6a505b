package podhash

// Kind is how the printer treats a Go type of the schema.
type Kind uint8

// The kinds of the schema's types.
const (
	// Struct is a struct; its Fields are in declaration order.
	Struct Kind = iota
	// Pointer is a pointer to Elem.
	Pointer
	// Slice is a slice of Elem.
	Slice
	// Map is a map from Key to Elem.
	Map
	// String is a string kind.
	String
	// Bool is a bool kind.
	Bool
	// Int is a signed integer kind.
	Int
	// Uint is an unsigned integer kind.
	Uint
	// Float is a float kind of Bits bits.
	Float
	// Quantity is apimachinery's resource.Quantity: a JSON string whose
	// Go value (the Fields, unexported) is what ParseQuantity makes of it.
	Quantity
	// IntOrString is apimachinery's intstr.IntOrString: a JSON number or
	// string.
	IntOrString
	// Time is metav1.Time: a JSON RFC 3339 string or null.
	Time
	// Opaque is a type with its own JSON form that the printer cannot
	// rebuild (metav1.FieldsV1, ...); a template that sets one cannot be
	// hashed.
	Opaque
)

// Field is a struct field.
type Field struct {
	// Name is the Go field name, as the dump prints it.
	Name string
	// JSON is the field's JSON name; "" for fields the JSON form does not
	// carry (unexported fields of the special kinds).
	JSON string
	// Inline is set for an embedded struct whose fields are inlined in
	// the JSON object (json:",inline").
	Inline bool
	// Type is the index of the field's type in Types.
	Type int
	// Omit holds the field's JSON tag options that leave it out of
	// encoding/json's output.
	Omit Omit
}

// Omit is a set of JSON tag options.
type Omit uint8

// The JSON tag options that leave a field out.
const (
	// OmitEmpty leaves out false, 0, "", nil pointers and empty lists
	// and maps (never a struct).
	OmitEmpty Omit = 1 << iota
	// OmitZero leaves out the zero value (as IsZero reports it, when the
	// type has the method).
	OmitZero
)

// Type is a Go type of k8s.io/api/core/v1.PodTemplateSpec, as reflection
// sees it.
type Type struct {
	// Name is the type's reflect String (e.g. "v1.Container",
	// "*v1.Affinity", "map[string]string"): the dump prints it.
	Name string
	// Kind is how it is printed.
	Kind Kind
	// Elem is the element type of a Pointer, Slice or Map.
	Elem int
	// Key is the key type of a Map.
	Key int
	// Bits is the size of a Float.
	Bits int
	// Fields are a Struct's (or a special kind's Go) fields.
	Fields []Field
}
