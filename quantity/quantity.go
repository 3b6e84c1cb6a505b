// TEMPORARY STUB — the quantity helper replaces this file entirely.
package quantity

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Format is the canonical form a Quantity prints in.
type Format string

const (
	DecimalExponent Format = "DecimalExponent"
	BinarySI        Format = "BinarySI"
	DecimalSI       Format = "DecimalSI"
)

// Scale is a power of ten.
type Scale int32

const (
	Nano  Scale = -9
	Micro Scale = -6
	Milli Scale = -3
	Kilo  Scale = 3
	Mega  Scale = 6
	Giga  Scale = 9
	Tera  Scale = 12
	Peta  Scale = 15
	Exa   Scale = 18
)

var ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")

type Quantity struct {
	r      *big.Rat
	Format Format
}

var suffixes = map[string]*big.Rat{
	"": big.NewRat(1, 1), "n": big.NewRat(1, 1e9), "u": big.NewRat(1, 1e6), "m": big.NewRat(1, 1e3),
	"k": big.NewRat(1e3, 1), "M": big.NewRat(1e6, 1), "G": big.NewRat(1e9, 1), "T": big.NewRat(1e12, 1),
	"P": big.NewRat(1e15, 1), "E": big.NewRat(1e18, 1),
	"Ki": big.NewRat(1<<10, 1), "Mi": big.NewRat(1<<20, 1), "Gi": big.NewRat(1<<30, 1), "Ti": big.NewRat(1<<40, 1),
	"Pi": big.NewRat(1<<50, 1), "Ei": big.NewRat(1<<60, 1),
}

func ParseQuantity(s string) (Quantity, error) {
	i := len(s)
	for i > 0 && !(s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '.') {
		i--
	}
	num, suf := s[:i], s[i:]
	m, ok := suffixes[suf]
	if !ok || num == "" {
		return Quantity{}, fmt.Errorf("quantity %q: %w", s, ErrFormatWrong)
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return Quantity{}, fmt.Errorf("quantity %q: %w", s, ErrFormatWrong)
	}
	f := DecimalSI
	if strings.HasSuffix(suf, "i") {
		f = BinarySI
	}
	return Quantity{r: r.Mul(r, m), Format: f}, nil
}

func MustParse(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

func NewQuantity(v int64, f Format) Quantity { return Quantity{r: big.NewRat(v, 1), Format: f} }
func NewMilliQuantity(v int64, f Format) Quantity {
	return Quantity{r: big.NewRat(v, 1000), Format: f}
}

func (q Quantity) rat() *big.Rat {
	if q.r == nil {
		return new(big.Rat)
	}
	return q.r
}

func ceil(r *big.Rat) int64 {
	n, d := r.Num(), r.Denom()
	z, m := new(big.Int).DivMod(n, d, new(big.Int))
	if m.Sign() != 0 {
		z.Add(z, big.NewInt(1))
	}
	return z.Int64()
}

func (q Quantity) Value() int64      { return ceil(q.rat()) }
func (q Quantity) MilliValue() int64 { return ceil(new(big.Rat).Mul(q.rat(), big.NewRat(1000, 1))) }
func (q Quantity) IsZero() bool      { return q.rat().Sign() == 0 }
func (q Quantity) Sign() int         { return q.rat().Sign() }
func (q Quantity) Cmp(y Quantity) int { return q.rat().Cmp(y.rat()) }
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }
func (q *Quantity) Add(y Quantity)   { q.r = new(big.Rat).Add(q.rat(), y.rat()) }
func (q *Quantity) Sub(y Quantity)   { q.r = new(big.Rat).Sub(q.rat(), y.rat()) }
func (q *Quantity) Neg()             { q.r = new(big.Rat).Neg(q.rat()) }
func (q Quantity) String() string {
	r := q.rat()
	if r.IsInt() {
		return r.Num().String()
	}
	return fmt.Sprintf("%dm", q.MilliValue())
}

func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.String()) }
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		*q = Quantity{}
		return nil
	}
	p, err := ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*q = p
	return nil
}
