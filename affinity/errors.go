package affinity

import "github.com/schedkit/schedkit/field"

// ErrorType says what is wrong with a field: package field's ErrorType,
// whose String is the phrase Kubernetes prints for it.
type ErrorType = field.ErrorType

// Error types used by this package.
const (
	// ErrorTypeInvalid is a value that is syntactically or semantically
	// wrong.
	ErrorTypeInvalid = field.ErrorTypeInvalid
	// ErrorTypeNotSupported is a value outside a closed set, such as an
	// unknown operator.
	ErrorTypeNotSupported = field.ErrorTypeNotSupported
)

// FieldError is one problem with one field, printed the way Kubernetes'
// field.Error prints: `<field>: <type>: <value>: <detail>`. It is package
// field's Error.
type FieldError = field.Error

// ErrorList is a flat list of field errors, package field's ErrorList. It
// prints like Kubernetes' aggregate error: one message alone, or several
// as "[a, b]" with duplicate messages dropped; errors.As finds a
// *FieldError in it.
type ErrorList = field.ErrorList
