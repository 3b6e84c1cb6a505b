package convert

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// badObject is a runtime.Object whose JSON encoding fails.
type badObject struct{ runtime.Object }

func (badObject) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot encode") }

// TestErrorNamesObjectAndField: a failure names the kind, namespace, name
// and field path.
func TestErrorNamesObjectAndField(t *testing.T) {
	cr := &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1"},
		Data:       runtime.RawExtension{Object: badObject{}},
	}
	_, err := ControllerRevisionToAPI(cr)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not an *Error", err)
	}
	if ce.Kind != "ControllerRevision" || ce.Namespace != "shop" || ce.Name != "web-1" || ce.Path != "data" {
		t.Errorf("error fields %+v", ce)
	}
	if want := "convert ControllerRevision shop/web-1: data: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want prefix %q", err, want)
	}
}

// TestPathOfNestedQuantity pins the path format of an error deep in a pod.
func TestPathOfNestedQuantity(t *testing.T) {
	err := objectError("Pod", "shop", "web", inField("spec", inField("containers", atIndex(0, inField("resources", inField("requests", atKey("cpu", &valueError{"12parsecs", errors.New("bad")})))))))
	if want := `convert Pod shop/web: spec.containers[0].resources.requests[cpu]: "12parsecs": bad`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

// TestDispatch: ToAPI and FromAPI pick the kind by type and refuse others.
func TestDispatch(t *testing.T) {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("1500m")}
	got, err := ToAPI(n)
	if err != nil {
		t.Fatal(err)
	}
	an, ok := got.(*api.Node)
	if !ok || an.Name != "n1" || an.Status.Allocatable.Cpu().Cmp(resource.MustParse("1.5")) != 0 {
		t.Fatalf("ToAPI(node) = %#v", got)
	}
	back, err := FromAPI(an)
	if err != nil {
		t.Fatal(err)
	}
	if kn := back.(*corev1.Node); kn.Status.Allocatable.Cpu().String() != "1500m" {
		t.Errorf("back: cpu %s", kn.Status.Allocatable.Cpu())
	}
	if _, err := ToAPI(&corev1.ConfigMap{}); err == nil {
		t.Error("ToAPI(ConfigMap) did not fail")
	}
	if _, err := FromAPI(api.Node{}); err == nil {
		t.Error("FromAPI(api.Node value) did not fail")
	}
}
