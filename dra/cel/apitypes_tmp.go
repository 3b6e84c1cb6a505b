package cel

import "github.com/schedkit/schedkit/quantity"

// Temporary stand-ins for api's DRA types until branch dracore lands.

type qualifiedName string

type deviceAttribute struct {
	IntValue      *int64
	BoolValue     *bool
	StringValue   *string
	VersionValue  *string
	IntValues     []int64
	BoolValues    []bool
	StringValues  []string
	VersionValues []string
}

type deviceCapacity struct {
	Value quantity.Quantity
}
