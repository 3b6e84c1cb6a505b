package podhash

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/randfill"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/schedkit/schedkit/workload"
)

// apiServerCreate is what the API server stores of a new Deployment with
// this template's JSON: decoded, defaulted (apps/v1 defaulting), converted
// to the internal version, its disabled fields dropped, converted back,
// through protobuf.
func apiServerCreate(t testing.TB, tplJSON []byte) *corev1.PodTemplateSpec {
	var d appsv1.Deployment
	if err := json.Unmarshal([]byte(`{"spec":{"template":`+string(tplJSON)+`}}`), &d); err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(&d)
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(&d, &internal, nil); err != nil {
		t.Fatal(err)
	}
	// The Deployment strategy's PrepareForCreate: fields of features
	// disabled by default are dropped.
	podutil.DropDisabledTemplateFields(&internal.Spec.Template, nil)
	var out appsv1.Deployment
	if err := legacyscheme.Scheme.Convert(&internal, &out, nil); err != nil {
		t.Fatal(err)
	}
	return stored(t.(*testing.T), &out.Spec.Template)
}

// images are references whose pull policy default differs: tagged,
// :latest, untagged, digests of each algorithm, references that do not
// parse (uppercase, a 64-hex identifier, bad digests, empty).
var images = []string{
	"nginx", "nginx:latest", "nginx:1.27", "library/nginx", "docker.io/nginx:latest", "index.docker.io/x/y",
	"registry.k8s.io/pause:3.10", "localhost/app", "localhost:5000/a/b:latest", "Example.com/app", "[::1]:5000/app:v1",
	"app@sha256:" + hex64, "app:v2@sha256:" + hex64, "app@sha512:" + hex64 + hex64, "app@sha384:" + hex64[:48] + hex64[:48],
	"app@md5:" + hex64, "app:latest@sha384:" + hex64[:48] + hex64[:48], "app:latest@sha256:" + hex64[:63], "app:latest@sha256:" + hex64, "app:latest@SHA256:" + hex64, "app:latest@sha256:" + strings.ToUpper(hex64), "app@sha256:" + hex64[:63], "UPPER/app", "Upper:tag", hex64, "", "a/b/c/d:latest", "app:-bad", "a__b", "a---b:x",
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// handWritten fills templates as people write them: half the strings and
// numbers left empty (defaults apply), images from the list above,
// volumes without a source.
func handWritten(seed int64) *randfill.Filler {
	return filler(seed).Funcs(
		func(s *string, c randfill.Continue) {
			if c.Bool() {
				*s = c.String(6)
			} else {
				*s = ""
			}
		},
		func(i *int32, c randfill.Continue) {
			if c.Bool() {
				*i = c.Int31n(100)
			} else {
				*i = 0
			}
		},
		func(ct *corev1.Container, c randfill.Continue) {
			c.FillNoCustom(ct)
			ct.Image = images[c.Intn(len(images))]
		},
		func(ct *corev1.EphemeralContainer, c randfill.Continue) {
			c.FillNoCustom(ct)
			ct.Image = images[c.Intn(len(images))]
		},
		func(v *corev1.Volume, c randfill.Continue) {
			c.FillNoCustom(v)
			switch c.Intn(3) {
			case 0:
				v.VolumeSource = corev1.VolumeSource{}
			case 1:
				v.VolumeSource = corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: images[c.Intn(len(images))]}}
			}
		},
	)
}

// TestPodTemplateHashDefaulted: for hand-written templates (random, every
// upstream field), schedkit's defaulting then hash is the controller's
// hash of what the API server stores.
func TestPodTemplateHashDefaulted(t *testing.T) {
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		var tpl corev1.PodTemplateSpec
		handWritten(rapid.Int64().Draw(rt, "seed")).Fill(&tpl)
		raw, err := json.Marshal(&tpl)
		if err != nil {
			rt.Fatal(err)
		}
		want := controller.ComputeHash(apiServerCreate(t, raw), nil)
		def, err := workload.DefaultPodTemplate(raw)
		if err != nil {
			rt.Fatal(err)
		}
		got, err := workload.PodTemplateHash(def, nil)
		if err != nil {
			rt.Fatalf("podhash: %v", err)
		}
		if got != want {
			s := apiServerCreate(t, raw)
			b, _ := json.Marshal(s)
			_ = os.WriteFile(os.TempDir()+"/podhash_def_want.json", b, 0o644)
			_ = os.WriteFile(os.TempDir()+"/podhash_def_got.json", def, 0o644)
			rt.Fatalf("hash %s, upstream %s (stored and ours in %s/podhash_def_*.json)", got, want, os.TempDir())
		}
	})
}
