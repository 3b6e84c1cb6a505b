package workload

import (
	"math/rand/v2"

	"github.com/schedkit/schedkit/api"
)

// nameAlphabet is the alphabet of the API server's generated name
// suffixes (apimachinery's rand.String): no vowels, no 0, 1 or 3.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedNameBase is how much of metadata.generateName the API
// server keeps (apiserver's names.MaxGeneratedNameLength: 63 bytes, less
// the 5 random characters).
const maxGeneratedNameBase = 58

// generatedNameSuffixLen is the length of the random part of a generated
// name.
const generatedNameSuffixLen = 5

// nameSuffix draws the random part of a generated name from the API
// server's alphabet.
func nameSuffix(rng *rand.Rand) string {
	b := make([]byte, generatedNameSuffixLen)
	for i := range b {
		b[i] = nameAlphabet[rng.IntN(len(nameAlphabet))]
	}
	return string(b)
}

// GenerateName is the API server's SimpleNameGenerator. It cuts base to
// 58 bytes and appends 5 random characters drawn from rng, drawing again
// while taken reports the name as used. The controllers name their pods
// with it, and package manifest names new objects that have only
// metadata.generateName with it, so that both draw names the same way.
func GenerateName(rng *rand.Rand, base string, taken func(string) bool) string {
	if len(base) > maxGeneratedNameBase {
		base = base[:maxGeneratedNameBase]
	}
	for {
		if n := base + nameSuffix(rng); !taken(n) {
			return n
		}
	}
}

// IsStoredMeta reports whether an object's metadata has been through an
// API server: it has a uid, a resourceVersion or a creationTimestamp. The
// controllers hash a stored object's template as read and default a new
// one's first, as the API server would on create.
func IsStoredMeta(m *api.ObjectMeta) bool {
	return m.UID != "" || m.ResourceVersion != "" || !m.CreationTimestamp.IsZero()
}
