package podhash

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/randfill"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/schedkit/schedkit/workload"
)

// oddQuantities are quantities whose upstream Go state varies: cached
// string or not, int64Amount scales, binary and decimal-exponent
// formats, rounding up to nano, values near the int64 path's limits.
var oddQuantities = []string{
	"0", "1", "100m", "0.5", "1.5", "1500m", "1k", "1000", "1e3", "1E3", "2e-3", "1Ki", "7Ki", "8Ki", "1.5Gi",
	"1536Mi", "1Mi", "128974848", "129e6", "129M", "123Mi", "0.1n", "1n", "999999999999999999", "100Ti",
	"8Ei", "7Ei", "-1", "-100m", "+5", "05", "1.000", "0.001", "12345678901234567", "4G", "4000M", "3.14159",
	"1m", "10u", "1u", "50Pi", "1P", "1E", "2.5e2", "7e18",
}

// filler fills upstream templates from a seed: every field of
// PodTemplateSpec (fields schedkit does not model included), with odd
// quantities, integer and string IntOrStrings, and no timestamps or
// managed fields (the printer declines those, tested apart).
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 2).MaxDepth(12).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*q = *resource.NewMilliQuantity(c.Int63n(1<<40)-(1<<39), []resource.Format{resource.DecimalSI, resource.BinarySI, resource.DecimalExponent}[c.Intn(3)])
				return
			}
			*q = resource.MustParse(oddQuantities[c.Intn(len(oddQuantities))])
		},
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Time{} },
		func(t **metav1.Time, c randfill.Continue) { *t = nil },
		func(m *[]metav1.ManagedFieldsEntry, c randfill.Continue) { *m = nil },
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31() - 1<<30)
			} else {
				*v = intstr.FromString(c.String(8))
			}
		},
	)
}

// stored is the template as kube-controller-manager's informer has it:
// through the API server's protobuf storage and watch.
func stored(t *testing.T, tpl *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	b, err := tpl.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var out corev1.PodTemplateSpec
	if err := out.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	return &out
}

// ours is schedkit's hash of the template's JSON form (what kubectl get
// -o json shows of the stored object).
func ours(t *testing.T, tpl *corev1.PodTemplateSpec, cc *int32) (string, error) {
	b, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	return workload.PodTemplateHash(b, cc)
}

// upstreamDump is what the controller's hash is over, for failure
// messages.
func upstreamDump(tpl *corev1.PodTemplateSpec) string {
	return dumpForHash(*tpl)
}

// TestPodTemplateHash: on random templates (every upstream field,
// odd quantities, collisionCount nil, 0, 5 or random), schedkit's
// pod-template-hash of the stored JSON is the Deployment controller's
// ComputeHash of the template its informer decodes.
func TestPodTemplateHash(t *testing.T) {
	jsonDiffers, dumped := 0, 0
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		var tpl corev1.PodTemplateSpec
		filler(rapid.Int64().Draw(rt, "seed")).Fill(&tpl)
		var cc *int32
		switch rapid.IntRange(0, 3).Draw(rt, "collisionCount") {
		case 1:
			cc = new(int32)
		case 2:
			five := int32(5)
			cc = &five
		case 3:
			x := rapid.Int32().Draw(rt, "count")
			cc = &x
		}
		// The JSON as written (empty lists and maps kept where the JSON
		// form keeps them), the hash as the controller computes it on the
		// template through storage.
		s := stored(t, &tpl)
		want := controller.ComputeHash(s, cc)
		got, err := ours(t, &tpl, cc)
		if err != nil {
			rt.Fatalf("podhash: %v", err)
		}
		dumped += len(upstreamDump(s))
		if got != want {
			b, _ := json.Marshal(&tpl)
			_ = os.WriteFile(os.TempDir()+"/podhash_fail.json", b, 0o644)
			_ = os.WriteFile(os.TempDir()+"/podhash_fail.dump", []byte(upstreamDump(s)), 0o644)
			rt.Fatalf("hash %s, upstream %s (template and upstream's dump in %s/podhash_fail.*)", got, want, os.TempDir())
		}
		// The same JSON decoded by encoding/json instead of protobuf.
		b, _ := json.Marshal(&tpl)
		var j corev1.PodTemplateSpec
		if err := json.Unmarshal(b, &j); err != nil {
			rt.Fatal(err)
		}
		if controller.ComputeHash(&j, cc) != want {
			jsonDiffers++
		}
	})
	t.Logf("%d templates (dumps of %d bytes on average); upstream's hash of the JSON-decoded template differs from the protobuf-decoded one in %d",
		n, dumped/max(1, n), jsonDiffers)
}

// TestPodTemplateHashDeclines: what the printer cannot rebuild is an
// error naming the field, never a wrong hash.
func TestPodTemplateHashDeclines(t *testing.T) {
	cases := []struct {
		name string
		tpl  corev1.PodTemplateSpec
		want string
	}{
		{"timestamp", corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.Unix(1700000000, 0)}},
			"metadata.creationTimestamp: a timestamp in the template"},
		{"deletion timestamp", corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &metav1.Time{Time: metav1.Unix(1700000000, 0).Time}}},
			"metadata.deletionTimestamp: a timestamp in the template"},
		{"managed fields", corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{}}`)}}}},
			"metadata.managedFields[0].fieldsV1: v1.FieldsV1 in the template cannot be rebuilt"},
	}
	for _, c := range cases {
		s := stored(t, &c.tpl)
		_, err := ours(t, s, nil)
		if err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: got %v, want %s…", c.name, err, c.want)
		}
	}
}

// TestPodTemplateHashPinned pins a few hashes, so that the main module's
// tests (which cannot import upstream) can hold the same values.
func TestPodTemplateHashPinned(t *testing.T) {
	tpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("128Mi")}}}}},
	}
	for _, cc := range []*int32{nil, ptr(0), ptr(1), ptr(5)} {
		s := stored(t, &tpl)
		got, err := ours(t, s, cc)
		want := controller.ComputeHash(s, cc)
		if err != nil || got != want {
			t.Errorf("collisionCount %v: got %s, %v; upstream %s", fmtPtr(cc), got, err, want)
		}
		t.Logf("collisionCount %s: %s", fmtPtr(cc), want)
	}
}

func ptr(i int32) *int32 { return &i }

func fmtPtr(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

// TestPodTemplateHashAbsentDivisor: a downward API item's
// resourceFieldRef without a divisor holds the zero Quantity, which the
// stored form (protobuf) turns into ParseQuantity("0"); env and volume
// items alike (found by TestGoBuiltTemplateHash).
func TestPodTemplateHashAbsentDivisor(t *testing.T) {
	for _, raw := range []string{
		`{"spec":{"volumes":[{"name":"d","downwardAPI":{"items":[{"path":"cpu","resourceFieldRef":{"resource":"limits.cpu"}}]}}],"containers":[{"name":"c","image":"nginx:1.27"}]}}`,
		`{"spec":{"containers":[{"name":"c","image":"nginx:1.27","env":[{"name":"CPU","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":null}}}]}]}}`,
	} {
		var tpl corev1.PodTemplateSpec
		if err := json.Unmarshal([]byte(raw), &tpl); err != nil {
			t.Fatal(err)
		}
		s := stored(t, &tpl)
		got, err := workload.PodTemplateHash([]byte(raw), nil)
		want := controller.ComputeHash(s, nil)
		if err != nil || got != want {
			t.Errorf("%s: got %s, %v; upstream %s", raw, got, err, want)
		}
		t.Logf("%s: %s", raw, want)
	}
}
