package manifest

import (
	"math/rand/v2"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload"
)

// nameRand is the random source of generated names (seed and stream, so
// that the reader and the expander draw independently).
func nameRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// readerNameStream is the PCG stream of the Reader's generated names.
const readerNameStream = 0x67656e6e616d6573

// isStoredMeta reports whether an object's metadata has been through an
// API server (see workload.IsStoredMeta).
func isStoredMeta(m *api.ObjectMeta) bool { return workload.IsStoredMeta(m) }

// SetSeed seeds the names the Reader gives new objects that have only
// metadata.generateName, so that the same input and seed give the same
// names. The default seed is 0. ReadFiles and Load use Options.Seed.
func (r *Reader) SetSeed(seed uint64) {
	r.nameRNG = nameRand(seed, readerNameStream)
}

// generateName names a new object from its metadata.generateName, as the
// API server does on create, unique among the objects of its kind and
// namespace read so far.
func (r *Reader) generateName(ki *kindInfo, kind string, meta *api.ObjectMeta) string {
	if r.nameRNG == nil {
		r.SetSeed(0)
	}
	return workload.GenerateName(r.nameRNG, meta.GenerateName, func(n string) bool {
		_, dup := r.seen[objectKey{ki.group, kind, meta.Namespace, n}]
		return dup
	})
}

// keepsRaw reports the kinds whose JSON the Reader keeps (Set.raw):
// their pod templates are hashed and compared as the Deployment,
// DaemonSet and StatefulSet controllers do, over every field Kubernetes
// knows.
func keepsRaw(kind string) bool {
	return kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet" || kind == "StatefulSet"
}
