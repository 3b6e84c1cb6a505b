//go:build !deepcopygen

package api

import (
	"math"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/quantity"
)

// The generated DeepCopy of a random value of each type equals the
// reference copy and the original, nil and empty kept apart, with every
// slice exactly as long as its backing array; and changing every value
// reachable from the copy leaves the original as it was.
func TestDeepCopyMatchesReference(t *testing.T) {
	for _, typ := range deepCopyRoots() {
		t.Run(typ.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				orig := reflect.New(typ)
				randomValue(t, orig.Elem(), 0)
				ref := reflect.New(typ)
				deepCopyValue(ref.Elem(), orig.Elem())
				got := orig.MethodByName("DeepCopy").Call(nil)[0]
				if !reflect.DeepEqual(got.Interface(), ref.Interface()) {
					t.Fatalf("DeepCopy differs from the reference copy:\n got %+v\nwant %+v", got, ref)
				}
				if !reflect.DeepEqual(got.Interface(), orig.Interface()) {
					t.Fatalf("DeepCopy differs from the original:\n got %+v\nwant %+v", got, orig)
				}
				if path, ok := tightSlices(got.Elem(), typ.Name()); !ok {
					t.Fatalf("%s: capacity differs from length", path)
				}
				mutate(got.Elem())
				if !reflect.DeepEqual(orig.Interface(), ref.Interface()) {
					t.Fatalf("changing the copy changed the original:\n got %+v\nwant %+v", orig, ref)
				}
			})
		})
	}
	if (*Workload)(nil).DeepCopy() != nil || (*DeviceTaintRule)(nil).DeepCopy() != nil {
		t.Error("DeepCopy of nil is not nil")
	}
}

// randomMaxDepth bounds the nesting of pointers, slices and maps in a
// random value; deeper ones are nil.
const randomMaxDepth = 8

// opaqueValues are the values random structs with unexported fields are
// drawn from. Their pointers (a quantity's decimal, a time's location)
// are immutable and shared by copies.
func opaqueValues(t reflect.Type) []any {
	switch t {
	case reflect.TypeFor[quantity.Quantity]():
		return []any{quantity.Quantity{}, quantity.MustParse("1"), quantity.MustParse("1500m"),
			quantity.MustParse("2Gi"), quantity.MustParse("123456789012345678901234567890")}
	case reflect.TypeFor[time.Time]():
		return []any{time.Time{}, time.Unix(100, 0).UTC(), time.Unix(1_700_000_000, 5).In(time.FixedZone("x", 3600))}
	}
	return nil
}

// randomValue sets v (settable, zero) to a random value: nil or non-nil
// pointers, nil or 0..3 long slices (some with spare capacity) and maps,
// random scalars.
func randomValue(t *rapid.T, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if depth < randomMaxDepth && rapid.Bool().Draw(t, "set") {
			v.Set(reflect.New(v.Type().Elem()))
			randomValue(t, v.Elem(), depth+1)
		}
	case reflect.Slice:
		n := -1
		if depth < randomMaxDepth {
			n = rapid.IntRange(-1, 3).Draw(t, "len")
		}
		if n >= 0 {
			spare := rapid.IntRange(0, 1).Draw(t, "spare")
			v.Set(reflect.MakeSlice(v.Type(), n, n+spare))
			for i := range n {
				randomValue(t, v.Index(i), depth+1)
			}
		}
	case reflect.Map:
		n := -1
		if depth < randomMaxDepth {
			n = rapid.IntRange(-1, 3).Draw(t, "len")
		}
		if n >= 0 {
			v.Set(reflect.MakeMap(v.Type()))
			for range n {
				k := reflect.New(v.Type().Key()).Elem()
				randomValue(t, k, depth+1)
				e := reflect.New(v.Type().Elem()).Elem()
				randomValue(t, e, depth+1)
				v.SetMapIndex(k, e)
			}
		}
	case reflect.Struct:
		if opaqueStruct(v.Type()) {
			vals := opaqueValues(v.Type())
			if vals == nil {
				t.Fatalf("no random values for %v: add some to opaqueValues", v.Type())
			}
			v.Set(reflect.ValueOf(rapid.SampledFrom(vals).Draw(t, "opaque")))
			return
		}
		for i := range v.NumField() {
			randomValue(t, v.Field(i), depth)
		}
	case reflect.String:
		v.SetString(rapid.StringN(0, 4, -1).Draw(t, "string"))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, "bool"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi := int64(1)<<(v.Type().Bits()-1) - 1
		v.SetInt(rapid.Int64Range(-hi-1, hi).Draw(t, "int"))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64Max(math.MaxUint64>>(64-v.Type().Bits())).Draw(t, "uint"))
	default:
		t.Fatalf("no random values for %v", v.Type())
	}
}

// tightSlices tells whether every slice reachable from v has capacity
// equal to its length, as the reference copy makes them; else the path
// to one that has not.
func tightSlices(v reflect.Value, path string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return tightSlices(v.Elem(), path)
		}
	case reflect.Slice:
		if v.Cap() != v.Len() {
			return path, false
		}
		for i := range v.Len() {
			if p, ok := tightSlices(v.Index(i), path+"[]"); !ok {
				return p, false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if p, ok := tightSlices(it.Value(), path+"[k]"); !ok {
				return p, false
			}
		}
	case reflect.Struct:
		if !opaqueStruct(v.Type()) {
			for i := range v.NumField() {
				if p, ok := tightSlices(v.Field(i), path+"."+v.Type().Field(i).Name); !ok {
					return p, false
				}
			}
		}
	}
	return path, true
}

// mutate changes every scalar reachable from v (settable) and adds a key
// to every map, so that any memory a copy shares with its original shows.
func mutate(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			mutate(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutate(e)
			v.SetMapIndex(k, e)
		}
		if k := v.Type().Key(); k.Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("mutated key").Convert(k), reflect.Zero(v.Type().Elem()))
		}
	case reflect.Struct:
		if !opaqueStruct(v.Type()) {
			for i := range v.NumField() {
				mutate(v.Field(i))
			}
		}
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	}
}
