package config

import "github.com/schedkit/schedkit/field"

// ErrorType says what is wrong with a field: package field's ErrorType,
// whose String is the phrase Kubernetes' field.ErrorType prints.
type ErrorType = field.ErrorType

// Error types used by validation.
const (
	// ErrorTypeInvalid is a value that is syntactically or semantically
	// wrong.
	ErrorTypeInvalid = field.ErrorTypeInvalid
	// ErrorTypeNotSupported is a value outside a closed set.
	ErrorTypeNotSupported = field.ErrorTypeNotSupported
	// ErrorTypeRequired is a missing value.
	ErrorTypeRequired = field.ErrorTypeRequired
	// ErrorTypeForbidden is a value that must not be set.
	ErrorTypeForbidden = field.ErrorTypeForbidden
	// ErrorTypeDuplicate is a value that repeats an earlier one.
	ErrorTypeDuplicate = field.ErrorTypeDuplicate
)

// FieldError is one problem with one field, package field's Error. It
// prints as Kubernetes' field.Error does:
// "<field>: <type>: <value>: <detail>", without the value for Required
// and Forbidden.
type FieldError = field.Error

// ErrorList is the result of a failed validation, package field's
// ErrorList: the field errors in the order found, with repeated messages
// dropped. It prints like Kubernetes' aggregate error: one message alone,
// several as "[a, b]"; errors.As finds a *FieldError in it.
type ErrorList = field.ErrorList
